#!/usr/bin/env bash
# bench/pprof/deep.sh [-b BUILDDIR] [-n RUNS] [DEPTH...]: peak memory
# (maxrss) and time of --pprof against --html on the sidecar of one linear
# recursion DEPTH deep recorded with CALLPATH_RECURSION=full (a path as
# deep as the tree: the worst case of a format whose samples list their
# whole path), and the same for --diff of the file with itself.  Depths
# default to 5,000 10,000 20,000 100,000.  Runs of the two outputs are
# interleaved, RUNS (default 3) each; prints medians and the ratio of
# --pprof's memory to --html's.  Figures, not assertions.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../..
runs=3
while [ $# -gt 0 ]; do
	case $1 in
	-b) build=$(cd "$2" && pwd); shift 2 ;;
	-n) runs=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- 5000 10000 20000 100000
gprof=$build/gprof-ext/gprof
so=$build/callpath/libcallpath.so
[ -x "$gprof" ] && [ -f "$so" ] || { echo "build first: no $gprof or $so" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
gcc -pg -O2 -fno-optimize-sibling-calls -o recurse "$here/../../testsuite/fixtures/callpath/recurse.c"

# measure OUT ARGS...: "KB seconds" of one run of gprof ARGS (output to OUT)
measure() {
	local out=$1
	shift
	/usr/bin/time -f '%M %e' -o time.txt "$gprof" "$@" > /dev/null 2>&1 ||
		{ echo "failed: gprof $*" >&2; tail -n 1 time.txt >&2; exit 1; }
	tail -n 1 time.txt
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%8s %-6s %10s %10s %8s %8s %6s %10s\n' depth mode pprof_MB html_MB pprof_s html_s ratio pprof_file
for d in "$@"; do
	ulimit -s unlimited 2> /dev/null || true
	rm -f gmon.out gmon.out.callpath
	CALLPATH_RECURSION=full LD_PRELOAD="$so" ./recurse down "$d" > /dev/null
	for mode in single diff; do
		: > p.txt
		: > h.txt
		for ((i = 0; i < runs; i++)); do
			if [ $mode = single ]; then
				measure p.pb.gz -b --pprof p.pb.gz ./recurse gmon.out >> p.txt
				measure h.html -b --html h.html ./recurse gmon.out >> h.txt
			else
				measure p.pb.gz --diff --pprof p.pb.gz ./recurse gmon.out gmon.out >> p.txt
				measure h.html --diff --html h.html ./recurse gmon.out gmon.out >> h.txt
			fi
		done
		pk=$(cut -d' ' -f1 p.txt | median)
		hk=$(cut -d' ' -f1 h.txt | median)
		ps=$(cut -d' ' -f2 p.txt | median)
		hs=$(cut -d' ' -f2 h.txt | median)
		awk -v d="$d" -v m=$mode -v pk="$pk" -v hk="$hk" -v ps="$ps" -v hs="$hs" \
			-v f="$(stat -c %s p.pb.gz)" 'BEGIN {
			printf "%8d %-6s %10.1f %10.1f %8.2f %8.2f %6.2f %9.1fM\n", d, m,
				pk / 1024, hk / 1024, ps, hs, pk / hk, f / 1048576 }'
	done
done
