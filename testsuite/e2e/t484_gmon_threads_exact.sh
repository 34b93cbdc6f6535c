#!/usr/bin/env bash
# Two threads each calling tick() 2,000,000 times: gmon.out says 4,000,000
# when the arcs are the runtime's (here the fixture's, counted under a
# lock), where glibc's counter drops the calls that find it busy (printed
# for the record, not checked: it varies from run to run).  And counts past
# 2^32 (ARCREC_SCALE multiplies what the fixture gives the writer): glibc
# would write them modulo 2^32; the writer's several records add up to the
# exact count in /usr/bin/gprof.
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
gm_build_preload lib || { echo "not ok 1 - the fixture builds"; echo "1..1"; exit 1; }
PRE="$WORKDIR/lib/libarcrec.so"
gcc -pg -O0 -o ticks "$GM_SRC/ticks.c" -lpthread || exit 1
mkdir -p p r s
(cd p && ../ticks > /dev/null) && (cd r && LD_PRELOAD=$PRE ../ticks > /dev/null) ||
	exit 1
echo "# plain glibc counted $(cp_calls_of "$SYSGPROF" ticks p/gmon.out tick) calls of tick"
cp_check "taken over: 4000000 calls of tick" \
	test "$(cp_calls_of "$SYSGPROF" ticks r/gmon.out tick)" = 4000000
(cd s && ARCREC_SCALE=1000000 LD_PRELOAD=$PRE ../ticks > /dev/null) || exit 1
cp_check "4e12 calls (past 2^32): gprof reads 4000000000000" \
	test "$(cp_calls_of "$SYSGPROF" ticks s/gmon.out tick)" = 4000000000000
cp_check "written as 932 records of one arc (931 of 0xffffffff and the rest)" \
	test "$($GM_CMP --dump s/gmon.out | grep -c '^arc ')" = 932
cp_done
