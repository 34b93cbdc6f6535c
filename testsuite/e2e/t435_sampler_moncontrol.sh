#!/usr/bin/env bash
# moncontrol(0) with the sampler's CPU-time timers running (found at
# integration: issues 22 and 23 met).  glibc's profil(NULL) puts back the
# SIGPROF action it found when profiling started, the default: the next
# signal of a CALLPATH_HZ timer killed the program ("Profiling timer
# expired", status 155), with the runtime's arcs and with glibc's
# (CALLPATH_ARCS=glibc).  The sampler's handler goes back in front after
# each moncontrol; a SIGPROF of the program's own while profiling is off
# still gets the default action, as without the runtime.
. "$SRCDIR/callpath/examples/testlib.sh"
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
cp_done
