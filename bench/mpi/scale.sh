#!/usr/bin/env bash
# Rank statistics at scale: gprof --rank-stats (one process, streaming)
# against mpirun -np P egprof-rankstats (tree reduction), on 1,024 / 4,096
# / 16,384 rank files of a 2,000-function -pg program (bench/mpi/genprog.py),
# generated from one real run by testsuite/mpi/gen_ranks.py.
#
#   bench/mpi/scale.sh [--builddir DIR] [--sizes "1024 4096 16384"] [--rounds N]
#                      [--variants "single np1 np2 np4"]
#
# Runs are paired and interleaved (each round runs every variant once, in
# rotated order) so the shared machine's noise hits all alike.  Prints per
# size and variant: median wall seconds, max RSS of one process (MB), and
# the ratio to the single-process run of the same round (median).  Checks
# that every report is byte-identical to the single-process one.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$srcdir
sizes="1024 4096 16384"
rounds=3
variants=(single np1 np2 np4)
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--variants) read -r -a variants <<<"$2"; shift 2 ;;
	*) sed -n '2,17p' "$0"; exit 2 ;;
	esac
done
EGPROF=$builddir/gprof-ext/gprof
RS=$builddir/mpi/egprof-rankstats
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
export OMPI_MCA_btl_vader_single_copy_mechanism=none
W=$(mktemp -d /tmp/bench-mpiscale.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W"
python3 "$here/genprog.py" 2000 >prog.c
gcc -pg -O1 -o prog prog.c
./prog 1
max=0
for n in $sizes; do [ "$n" -gt "$max" ] && max=$n; done
python3 "$srcdir/testsuite/mpi/gen_ranks.py" gmon.out all "$max"
echo "# $(nm prog | grep -c ' T ') functions, $(stat -c %s gmon.out) bytes per rank file, $(nproc) CPUs, $rounds rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%7s  %-28s %8s %8s %8s\n' files variant "wall s" "RSS MB" "x single"
for n in $sizes; do
	mkdir -p "r$n"
	for i in $(seq 0 $((n - 1))); do ln -sf "../all/gmon.$i" "r$n/gmon.$i"; done
	: >"times.$n"
	nv=${#variants[@]}
	for r in $(seq "$rounds"); do
		for k in $(seq 0 $((nv - 1))); do
			v=${variants[$(( (k + r) % nv ))]}
			case $v in
			single) cmd=("$EGPROF" --rank-stats prog "r$n") ;;
			np*) cmd=(mpirun $root --oversubscribe -np "${v#np}" "$RS" prog "r$n") ;;
			esac
			/usr/bin/time -f "%e %M" -o t.out "${cmd[@]}" >"out.$v" 2>/dev/null
			echo "$r $v $(cat t.out)" >>"times.$n"
		done
	done
	for v in "${variants[@]}"; do
		if [ "$v" != single ] && [ -f out.single ] && ! cmp -s out.single "out.$v"; then
			echo "# $n files, $v: report DIFFERS from gprof --rank-stats"
		fi
	done
	rm -f out.*
	echo "# $n files done, load $(cut -d' ' -f1-3 /proc/loadavg)"
	python3 - "$n" "times.$n" "${variants[@]}" <<'PY'
import statistics, sys
n, path, variants = sys.argv[1], sys.argv[2], sys.argv[3:]
t, m = {}, {}
for line in open(path):
    r, v, wall, rss = line.split()
    t[r, v], m[r, v] = float(wall), int(rss)
rounds = sorted({r for r, _ in t})
for v in variants:
    walls = [t[r, v] for r in rounds if (r, v) in t]
    ratios = [t[r, v] / t[r, "single"] for r in rounds if (r, v) in t and (r, "single") in t]
    name = "gprof --rank-stats" if v == "single" else f"mpirun -{v} egprof-rankstats"
    print(f"{n:>7}  {name:<28} {statistics.median(walls):8.2f} "
          f"{max(m[r, v] for r in rounds if (r, v) in t) / 1024:8.1f} "
          f"{statistics.median(ratios) if ratios else float('nan'):8.2f}")
PY
done
