#!/usr/bin/env bash
# bench/callpath/paths.sh - the size of `--callpath`'s report on a profile of
# two million calling contexts, by default and with --all-paths.
#
#   bench/callpath/paths.sh [--builddir DIR] [--depth D]
#
# Prints figures only (never a pass/fail).  The program (written here) has
# two mutually recursive functions, ping and pong, each calling the other
# from one of two call sites chosen by the bits of x: run with
# CALLPATH_RECURSION=full, every depth is a context of its own, 2^(D+1) - 2
# of them (D = 20: 2,097,150).  For the default report and --all-paths:
# bytes of text, wall and CPU seconds (/usr/bin/time; the machine may be
# shared: the bytes are the figure that matters), and the lines saying
# what the default report left out.
set -u
here=$(cd "$(dirname "$0")" && pwd)
builddir=$(pwd)
depth=20
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--depth D]" >&2; exit 2 ;;
	esac
done
: "$here"
gprof="$builddir/gprof-ext/gprof"
so="$builddir/callpath/libcallpath.so"
for f in "$gprof" "$so"; do
	[ -e "$f" ] || { echo "no $f: run make first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/egprof-bench-paths.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LC_ALL=C

cat > mutual.c <<'C'
#include <stdlib.h>

volatile int sink;
void pong(int d, unsigned x);

__attribute__((noinline)) void ping(int d, unsigned x)
{
	if (!d)
		return;
	if (x & 1) {
		pong(d - 1, x >> 1);
		sink++;
	} else {
		sink--;
		pong(d - 1, x >> 1);
		sink += 2;
	}
}

__attribute__((noinline)) void pong(int d, unsigned x)
{
	if (!d)
		return;
	if (x & 1) {
		ping(d - 1, x >> 1);
		sink += 3;
	} else {
		sink -= 3;
		ping(d - 1, x >> 1);
		sink++;
	}
}

int main(int argc, char **argv)
{
	int d = argc > 1 ? atoi(argv[1]) : 20;

	for (unsigned x = 0; x < (1u << d); x++)
		ping(d, x);
	return 0;
}
C
gcc -pg -O1 -o mutual mutual.c || exit 1
CALLPATH_RECURSION=full CALLPATH_MAX_NODES=$((1 << (depth + 2))) LD_PRELOAD="$so" \
	./mutual "$depth" || exit 1
printf 'sidecar: %d bytes\n' "$(stat -c %s gmon.out.callpath)"
for mode in default all-paths; do
	args="-b -p -q --callpath mutual gmon.out"
	[ $mode = all-paths ] && args="$args --all-paths"
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S' -o time.out "$gprof" $args > report.$mode 2> err.$mode
	read -r wall u s < time.out
	printf '%-10s %12d bytes %9d lines  wall %6.2f s  cpu %6.2f s\n' $mode \
		"$(stat -c %s report.$mode)" "$(wc -l < report.$mode)" "$wall" \
		"$(echo "$u + $s" | bc)"
done
grep -m1 'From ' report.default
echo "the default report's lines on what it left out:"
grep -- '--all-paths shows them' report.default
