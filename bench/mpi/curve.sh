#!/usr/bin/env bash
# gprof --rank-stats time per rank file from 1,000 to 100,000 files: is it
# linear?  (issue 28 item 8: it was quadratic, each worker's fork copying
# the page tables of a loader that held every file's name and plan.)
#
#   bench/mpi/curve.sh [--gprof BINARY] [--base BINARY] [--sizes "1000 ... 100000"]
#                      [--rounds R] [--functions F] [--keep DIR]
#
# One -pg program of F functions (default 50: 6.5 KB rank files, 0.8 GB
# for 100,000; bench/mpi/genprog.py), run once; its gmon file is turned
# into the largest size's rank files (testsuite/mpi/gen_ranks.py), and
# each smaller size is a folder of hard links to the first N.  Each round
# runs every size (and with --base, the base build at every size, paired
# with the new one), sizes in alternating order.  Prints per run the wall
# and CPU seconds (user + system of the front end, the loader and its
# workers), the front end's max RSS and the milliseconds per file; then,
# per size, the median ms per file and its ratio to the smallest size's
# (the acceptance: within 1.5x from 1,000 to 100,000 files), and the
# largest RSS.  --keep DIR keeps (and reuses) the generated files.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
new=$srcdir/gprof-ext/gprof base= sizes="1000 3000 10000 30000 100000" rounds=1
functions=50 keep=
while [ $# -gt 0 ]; do
	case $1 in
	--gprof) new=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--functions) functions=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	*) sed -n '2,20p' "$0"; exit 2 ;;
	esac
done
if [ -n "$keep" ]; then
	mkdir -p "$keep"
	W=$(cd "$keep" && pwd)
else
	W=$(mktemp -d /tmp/bench-curve.XXXXXX)
	trap 'rm -rf "$W"' EXIT
fi
cd "$W"
max=0
for n in $sizes; do [ "$n" -gt "$max" ] && max=$n; done
if [ ! -x prog ] || [ "$(ls ranks.$max 2>/dev/null | wc -l)" != "$max" ]; then
	python3 "$here/genprog.py" "$functions" > prog.c
	gcc -pg -O1 -o prog prog.c
	./prog 1
	rm -rf ranks.*
	python3 "$srcdir/testsuite/mpi/gen_ranks.py" gmon.out "ranks.$max" "$max"
fi
for n in $sizes; do
	[ "$n" = "$max" ] || [ -d "ranks.$n" ] && continue
	mkdir "ranks.$n"
	for i in $(seq 0 $((n - 1))); do echo "gmon.$i"; done |
		(cd "ranks.$max" && xargs ln -t "../ranks.$n")
done
echo "# rank files of a $(nm prog | grep -c ' T ')-function program ($(du -k ranks.$max/gmon.0 | cut -f1) KB each), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# new:  $new"
[ -n "$base" ] && echo "# base: $base"
printf '%5s %-4s %7s %8s %8s %8s %9s\n' round run files "wall s" "CPU s" "RSS MB" "ms/file"
: > times
variants=new
[ -n "$base" ] && variants="new base"
k=0
for r in $(seq "$rounds"); do
	order=$sizes
	[ $((r % 2)) = 0 ] && order=$(echo "$sizes" | tr ' ' '\n' | sort -rn | tr '\n' ' ')
	for n in $order; do
		k=$((k + 1))
		vs=$variants
		[ $((k % 2)) = 0 ] && [ -n "$base" ] && vs="base new"
		for v in $vs; do
			bin=$new
			[ "$v" = base ] && bin=$base
			/usr/bin/time -f "%e %U %S %M" -o t.out "$bin" --rank-stats prog "ranks.$n" \
				> "out.$v.$n" 2> "err.$v.$n"
			read -r wall user sys rss < t.out
			cpu=$(echo "$user + $sys" | bc)
			echo "$r $v $n $wall $cpu $rss" >> times
			printf '%5s %-4s %7s %8.2f %8.2f %8.1f %9.3f\n' "$r" "$v" "$n" "$wall" "$cpu" \
				"$(echo "$rss / 1024" | bc -l)" "$(echo "1000 * $wall / $n" | bc -l)"
		done
		if [ -n "$base" ] && ! cmp -s "out.new.$n" "out.base.$n"; then
			echo "# $n files: the reports DIFFER"
		fi
	done
done
python3 - times <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    r, v, n, wall, cpu, rss = line.split()
    t.setdefault((v, int(n)), []).append((float(wall), float(cpu), int(rss)))
for v in sorted({v for v, _ in t}, key=lambda v: v != "new"):
    ns = sorted(n for w, n in t if w == v)
    first = statistics.median(1000 * w / ns[0] for w, c, m in t[v, ns[0]])
    print(f"# {v}: median ms per file (wall), ratio to {ns[0]} files, CPU ms per file, max RSS")
    for n in ns:
        ms = statistics.median(1000 * w / n for w, c, m in t[v, n])
        cpu = statistics.median(1000 * c / n for w, c, m in t[v, n])
        rss = max(m for w, c, m in t[v, n]) / 1024
        print(f"{v:<4} {n:>7} files  {ms:7.3f} ms/file  x{ms / first:5.2f}  "
              f"CPU {cpu:6.3f} ms/file  RSS {rss:6.1f} MB")
PY
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
