#!/usr/bin/env bash
# gprof --rank-stats, one process, two builds against each other: paired
# runs, interleaved (each round runs both, in alternating order, so the
# shared machine's load hits both alike), over N rank files of a
# 2,000-function -pg program (bench/mpi/genprog.py, rank files from one
# run by testsuite/mpi/gen_ranks.py).
#
#   bench/mpi/paired.sh --base BINARY [--new BINARY] [--files N] [--rounds R]
#
# Prints per round: wall seconds, CPU seconds (user + system of the front
# end and every loader and worker), max RSS of one process, and the
# new/base wall ratio; then the medians and the load average.  Says whether
# the two reports are byte-identical.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
base= new=$srcdir/gprof-ext/gprof files=1024 rounds=5
while [ $# -gt 0 ]; do
	case $1 in
	--base) base=$2; shift 2 ;;
	--new) new=$2; shift 2 ;;
	--files) files=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
[ -n "$base" ] || { sed -n '2,14p' "$0"; exit 2; }
W=$(mktemp -d /tmp/bench-paired.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W"
python3 "$here/genprog.py" 2000 >prog.c
gcc -pg -O1 -o prog prog.c
./prog 1
python3 "$srcdir/testsuite/mpi/gen_ranks.py" gmon.out ranks "$files"
echo "# $files rank files, $(nm prog | grep -c ' T ') functions, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# base: $base"
echo "# new:  $new"
printf '%5s  %-4s %8s %8s %8s\n' round run "wall s" "CPU s" "RSS MB"
: >times
for r in $(seq "$rounds"); do
	order="base new"
	[ $((r % 2)) = 0 ] && order="new base"
	for v in $order; do
		bin=$base
		[ "$v" = new ] && bin=$new
		/usr/bin/time -f "%e %U %S %M" -o t.out "$bin" --rank-stats prog ranks >"out.$v" 2>"err.$v"
		read -r wall user sys rss <t.out
		cpu=$(echo "$user + $sys" | bc)
		echo "$r $v $wall $cpu $rss" >>times
		printf '%5s  %-4s %8.2f %8.2f %8.1f\n' "$r" "$v" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)"
	done
done
if cmp -s out.base out.new; then
	echo "# reports byte-identical"
else
	echo "# reports DIFFER (another version of the report, or a bug)"
fi
[ -s err.new ] && echo "# new build wrote $(wc -l <err.new) lines on stderr"
[ -s err.base ] && echo "# base build wrote $(wc -l <err.base) lines on stderr"
python3 - times <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    r, v, wall, cpu, rss = line.split()
    t[r, v] = (float(wall), float(cpu), int(rss))
rounds = sorted({r for r, _ in t}, key=int)
for v in ("base", "new"):
    print(f"median {v:<4} wall {statistics.median(t[r, v][0] for r in rounds):6.2f} s  "
          f"CPU {statistics.median(t[r, v][1] for r in rounds):6.2f} s  "
          f"max RSS {max(t[r, v][2] for r in rounds) / 1024:6.1f} MB")
w = [t[r, "new"][0] / t[r, "base"][0] for r in rounds]
c = [t[r, "new"][1] / t[r, "base"][1] for r in rounds]
print(f"new/base, paired: wall {statistics.median(w):.2f} (min {min(w):.2f}, max {max(w):.2f}), "
      f"CPU {statistics.median(c):.2f}")
PY
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
