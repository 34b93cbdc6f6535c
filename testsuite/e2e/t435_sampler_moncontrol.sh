#!/usr/bin/env bash
# moncontrol(0) with the sampler's CPU-time timers running (found at
# integration: issues 22 and 23 met).  glibc's profil(NULL) puts back the
# SIGPROF action it found when profiling started, the default: the next
# signal of a CALLPATH_HZ timer killed the program ("Profiling timer
# expired", status 155), with the runtime's arcs and with glibc's
# (CALLPATH_ARCS=glibc).  The sampler's handler goes back in front after
# each moncontrol; a SIGPROF of the program's own while profiling is off
# still gets the default action, as without the runtime.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > mc.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/gmon.h>
volatile double s;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
int main(int argc, char **argv)
{
	moncontrol(0);
	spin(60000000);
	if (argc > 1 && !strcmp(argv[1], "kill"))
		raise(SIGPROF);
	moncontrol(1);
	spin(30000000);
	puts("done");
	return 0;
}
C
gcc -pg -O1 -o mc mc.c || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
./mc > plain.out; plain=$?
./mc kill > plain-kill.out 2> /dev/null; plain_kill=$?
for arcs in runtime glibc; do
	rm -f gmon.out gmon.out.callpath
	CALLPATH_ARCS=$arcs LD_PRELOAD="$CP_SO" ./mc > rt.out 2> rt.err
	rc=$?
	cp_check "CALLPATH_ARCS=$arcs: moncontrol(0) with the timers running: status $rc, as without ($plain)" \
		test "$rc" = "$plain"
	cp_check "CALLPATH_ARCS=$arcs: the same output" cmp -s plain.out rt.out
	cp_check "CALLPATH_ARCS=$arcs: the call paths read back (both calls: the paths count while arcs are off)" \
		bash -c "'$EGPROF' -b --callpath ./mc gmon.out | grep -q '^spin: 2 calls, 2 paths'"
	CALLPATH_ARCS=$arcs LD_PRELOAD="$CP_SO" ./mc kill > rt-kill.out 2> /dev/null
	rc=$?
	cp_check "CALLPATH_ARCS=$arcs: the program's own SIGPROF while off: status $rc, as without ($plain_kill)" \
		test "$rc" = "$plain_kill"
done

# A static link: moncontrol is glibc's own there, not interposed, so the
# sampler's timers stay off (glibc's ticks are the time samples) and
# CALLPATH_HZ says in one line that it is not available.
if echo 'int main(void){return 0;}' | gcc -static -x c -o /dev/null - 2> /dev/null; then
	gcc -static -pg -O1 -o mcs mc.c "$CP_A" -lpthread 2> /dev/null
	./mcs > s.out 2> s.err
	rc=$?
	cp_check "static link: moncontrol(0) leaves the program alone (status $rc)" test "$rc" = 0
	cp_check "static link: the same output" cmp -s plain.out s.out
	CALLPATH_HZ=500 ./mcs > s2.out 2> s2.err
	rc=$?
	cp_check "static link, CALLPATH_HZ=500: status $rc, one line saying it is not available" \
		bash -c "[ $rc = 0 ] && [ \$(wc -l < s2.err) = 1 ] && grep -q 'not available in a static link' s2.err"
else
	cp_check "# SKIP no static libc" true
fi
cp_done
