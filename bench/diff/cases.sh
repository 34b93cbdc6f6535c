#!/usr/bin/env bash
# Case studies of --diff: does the changed function come first?
#
#   bench/diff/cases.sh [REPS] [DIR]        (default 5 repetitions, a temp dir)
#
# Builds bench/diff/cases/*.c with -pg, runs eight kinds of realistic change
# (baseline and changed run, REPS times each) and prints, per case, how often
# the changed function is the first row of `gprof --diff` not marked as noise
# and how often it is in the top 3 rows.  EGPROF names the gprof to measure
# (default: the build's gprof-ext/gprof); EGPROF_ARGS adds options to it.
# CASES="small path" runs only those cases.
# REDIFF=1 with the DIR of an earlier run only runs gprof --diff again on
# the gmon files there (to compare versions of gprof on the same runs).
# The machine's load is part of the experiment: run it as it is used.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
reps=${1:-5}
work=${2:-$(mktemp -d /tmp/egprof-cases.XXXXXX)}
EGPROF=${EGPROF:-$top/gprof-ext/gprof}
read -r -a extra <<< "${EGPROF_ARGS:-}"
CP=$top/callpath
mkdir -p "$work" && cd "$work" || exit 1

cc=(gcc -pg -O2 -g)
[ -n "${REDIFF:-}" ] || "${cc[@]}" -o cases "$here/cases/cases.c" &&
"${cc[@]}" -DNO_INLINE -o cases-noinline "$here/cases/cases.c" &&
"${cc[@]}" -DREPLACED -o cases-replaced "$here/cases/cases.c" || exit 1
have_mpi=0
[ -n "${REDIFF:-}" ] && [ -e imbalance ] && have_mpi=1
if [ -z "${REDIFF:-}" ] && command -v mpicc >/dev/null && [ -e "$CP/libcallpath.so" ] &&
   mpicc -pg -O2 -g -o imbalance "$here/cases/imbalance.c" \
	-L"$CP" -lcallpath -Wl,-rpath,"$CP" 2>/dev/null; then
	have_mpi=1
fi
MPIRUN=(mpirun --oversubscribe -np 4)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none

# run DIR BINARY ARGS...: one run, its gmon.out in DIR
run() {
	local dir=$1 bin=$2
	shift 2
	mkdir -p "$dir" && (cd "$dir" && "$work/$bin" "$@") >/dev/null
}

# position NAME OUTPUT: "first-significant-name position-of-NAME hit top3":
# the significant rows are the ones the evidence list after the table names
# (with --extended, the rows without "~" and with a non-zero difference)
position() {
	python3 - "$1" "$2" <<'PY'
import re, sys
want = set(sys.argv[1].split("|"))
rows, significant, in_ev = [], set(), False
for line in open(sys.argv[2]):
    f = line.split()
    if line.startswith("Evidence for the significant rows"):
        in_ev = True
    elif in_ev and line.startswith("  ") and ": " in line:
        significant.add(line.strip().split(": ")[0].split(" [")[0])
    elif len(f) >= 9 and re.match(r"^-?[0-9]+\.[0-9]+$", f[0]) and f[7] in ("XX", "X.", ".X"):
        name = " ".join(f[8:-1] if f[-1] in ("~", "=") else f[8:])
        rows.append(name.split(" [")[0])
if not in_ev:  # a gprof without the evidence list: rows without "~" and not 0.00
    significant = set()
    for line in open(sys.argv[2]):
        f = line.split()
        if len(f) >= 9 and re.match(r"^-?[0-9]+\.[0-9]+$", f[0]) and f[7] in ("XX", "X.", ".X") \
                and f[-1] not in ("~", "=") and (f[3] not in ("0.00", "-0.00") or f[6] != "0"):
            significant.add(" ".join(f[8:]).split(" [")[0])
first = next((n for n in rows if n in significant), "-")
pos = next((i + 1 for i, n in enumerate(rows) if n in want), 0)
print(first, pos, 1 if first in want else 0, 1 if 0 < pos <= 3 else 0)
PY
}

# one CASE EXPECTED BIN_A BIN_B SIDE_A_COMMAND SIDE_B_COMMAND
declare -A hit top3 total firsts
one() {
	local c=$1 want=$2 ba=$3 bb=$4 r=$5
	local d=c-$c/$r
	local ga=$d/a/gmon.out gb=$d/b/gmon.out
	case ${REDIFF:+rediff}$c in
	rediffsmall|rediffimbalance) ga=$d/a gb=$d/b ;;
	rediff*) ;;
	small) # repeated runs: seven per side
		for i in 1 2 3 4 5 6 7; do
			GMON_OUT_PREFIX=$work/$d/a/gmon run "$d/a" "$ba" small 0
			GMON_OUT_PREFIX=$work/$d/b/gmon run "$d/b" "$bb" small 1
		done
		ga=$d/a gb=$d/b ;;
	imbalance)
		mkdir -p "$d/a" "$d/b"
		GMON_OUT_PREFIX=$work/$d/a/gmon "${MPIRUN[@]}" -x GMON_OUT_PREFIX ./imbalance 0 \
			>/dev/null 2>&1
		GMON_OUT_PREFIX=$work/$d/b/gmon "${MPIRUN[@]}" -x GMON_OUT_PREFIX ./imbalance 1 \
			>/dev/null 2>&1
		ga=$d/a gb=$d/b ;;
	*)
		run "$d/a" "$ba" "$c" 0
		run "$d/b" "$bb" "$c" 1 ;;
	esac
	"$EGPROF" -b -p --extended "${extra[@]}" --diff "$ba" "$ga" "$bb" "$gb" > "$d/diff.txt" 2>&1
	read -r first pos h t < <(position "$want" "$d/diff.txt")
	hit[$c]=$((${hit[$c]:-0} + h))
	top3[$c]=$((${top3[$c]:-0} + t))
	total[$c]=$((${total[$c]:-0} + 1))
	firsts[$c]="${firsts[$c]:-}$first@$pos "
}

cases=(cache:sum_matrix:cases:cases
       inline:lj_pair\|compute_forces:cases-noinline:cases
       batch:flush_batch:cases:cases
       replaced:sort_insertion\|sort_shell:cases:cases-replaced
       path:lookup:cases:cases
       small:small_kernel:cases:cases
       busywait:wait_ready:cases:cases)
[ $have_mpi = 1 ] && cases+=(imbalance:relax_rows:imbalance:imbalance)
if [ -n "${CASES:-}" ]; then
	keep=()
	for spec in "${cases[@]}"; do
		case " $CASES " in *" ${spec%%:*} "*) keep+=("$spec") ;; esac
	done
	cases=("${keep[@]}")
fi
for r in $(seq 1 "$reps"); do
	for spec in "${cases[@]}"; do
		IFS=: read -r c want ba bb <<< "$spec"
		one "$c" "$want" "$ba" "$bb" "$r"
	done
done

printf '%-10s %-28s %5s %15s %9s  %s\n' case "changed function" runs "first unmarked" "in top 3" \
	"first unmarked row@position of the changed one, per run"
sh=0 st=0 sn=0
for spec in "${cases[@]}"; do
	IFS=: read -r c want ba bb <<< "$spec"
	printf '%-10s %-28s %5d %15d %9d  %s\n' "$c" "$want" "${total[$c]}" "${hit[$c]}" \
		"${top3[$c]}" "${firsts[$c]}"
	sh=$((sh + hit[$c])) st=$((st + top3[$c])) sn=$((sn + total[$c]))
done
printf 'all: %d runs, changed function first unmarked in %d (%d%%), in the top 3 in %d (%d%%)\n' \
	"$sn" "$sh" $((100 * sh / sn)) "$st" $((100 * st / sn))
[ $have_mpi = 1 ] || echo "(no MPI: the imbalance case was skipped)"
echo "outputs in $work"
