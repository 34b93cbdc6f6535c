#!/usr/bin/env bash
# gmon_geometry_compute (runtime/gmon_start.c) against glibc's own
# __monstartup on 50 ranges (sizes 0 to 50 MB, odd bounds): every field of
# _gmonparam (lowpc, highpc, textsize, kcountsize, fromssize,
# hashfraction, log_hashfraction, tolimit, tossize) and the profil() scale,
# observed through glibc's SIGPROF handler (the bin it counts a chosen pc
# in).  Linked statically, where _gmonparam is visible.  Computing the
# scale in double instead of glibc's float fails 2 of the ranges.
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
if ! echo 'int main(void){return 0;}' | gcc -static -x c -o /dev/null - 2>/dev/null; then
	echo "1..0 # SKIP no static C library"
	exit 0
fi
gcc -static -O1 -Wall -Wextra -Werror -std=gnu11 -I"$SRCDIR" -o geomcheck \
	"$GM_SRC/geomcheck.c" "$SRCDIR/runtime/gmon_start.c" "$SRCDIR/runtime/gmon_out.c" ||
	{ echo "not ok 1 - geomcheck builds"; echo "1..1"; exit 1; }
./geomcheck
