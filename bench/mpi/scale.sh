#!/usr/bin/env bash
# Rank statistics at scale: gprof --rank-stats (one process, streaming)
# against mpirun -np P egprof-rankstats (tree reduction), on 1,024 / 4,096
# / 16,384 rank files of a 2,000-function -pg program (bench/mpi/genprog.py),
# generated from one real run by testsuite/mpi/gen_ranks.py.
#
#   bench/mpi/scale.sh [--builddir DIR] [--sizes "1024 4096 16384"] [--rounds N]
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
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) sed -n '2,16p' "$0"; exit 2 ;;
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
echo "# $(nm prog | grep -c ' T ') functions, $(stat -c %s gmon.out) bytes per rank file, $(nproc) CPUs, $rounds rounds"
printf '%7s  %-28s %8s %8s %8s\n' files variant "wall s" "RSS MB" "x single"
for n in $sizes; do
	mkdir -p "r$n"
	for i in $(seq 0 $((n - 1))); do ln -sf "../all/gmon.$i" "r$n/gmon.$i"; done
	variants=(single np1 np2 np4)
	: >"times.$n"
	for r in $(seq "$rounds"); do
		for k in 0 1 2 3; do
			v=${variants[$(( (k + r) % 4 ))]}
			case $v in
			single) cmd=("$EGPROF" --rank-stats prog "r$n") ;;
			np*) cmd=(mpirun $root --oversubscribe -np "${v#np}" "$RS" prog "r$n") ;;
			esac
			/usr/bin/time -f "%e %M" -o t.out "${cmd[@]}" >"out.$v" 2>/dev/null
			echo "$r $v $(cat t.out)" >>"times.$n"
			if [ "$v" != single ] && [ -f out.single ] && ! cmp -s out.single "out.$v"; then
				echo "# $n files, $v: report DIFFERS from gprof --rank-stats"
			fi
		done
	done
	for v in "${variants[@]}"; do
		awk -v v="$v" -v n="$n" '
			{ t[$1, $2] = $3; m[$1, $2] = $4; rounds[$1] = 1 }
			END {
				k = 0
				for (r in rounds) { w[++k] = t[r, v]; x[k] = t[r, v] / t[r, "single"]; mm = m[r, v] > mm ? m[r, v] : mm }
				asort(w); asort(x)
				printf "%7d  %-28s %8.2f %8.1f %8.2f\n", n, v == "single" ? "gprof --rank-stats" : "mpirun -" v " egprof-rankstats",
					w[int((k + 1) / 2)], mm / 1024, x[int((k + 1) / 2)]
			}' "times.$n"
	done
done
