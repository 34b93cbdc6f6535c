#!/usr/bin/env bash
# The snapshot writer is a thread of the runtime's: no handler of the
# program's ever runs on it.  A program with a SIGPROF handler of its own
# (installed while snapshots are written every 0.01 s) sends itself storms
# of SIGPROF while its own thread blocks SIGPROF, so that the kernel can
# give them only to a thread that does not block it: the handler runs on
# the main thread only, as without the runtime (it ran hundreds of times
# on the writer, which then counted as a thread of the program's, or hung
# for ever: the handler's call waited for the registry the writer held).
# The run ends (a hang fails the timeout), with its snapshots and pair.
# The same with the off-CPU sampler's thread (CALLPATH_CLOCK=wall).
# And the writer's own CPU time must not cut a sleeping program's sleeps
# short: it takes the profiling timer's ticks it causes while SIGPROF is
# the runtime's (blocked there, they went to the sleeping thread, whose
# nanosleep returned EINTR 25 to 32 times in 100).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
gcc -pg -O1 -o ownprof "$CP_EX/stress/ownprof.c" || exit 1

mkdir -p plain rt
(cd plain && timeout 60 ../ownprof > out 2> err; echo $? > rc)
(cd rt && CALLPATH_SNAPSHOT=0.01 CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" \
	timeout 60 ../ownprof > out 2> err; echo $? > rc)
cp_check "own SIGPROF handler: the run ends, status 0 ($(cat rt/rc))" test "$(cat rt/rc)" = 0
cp_check "own SIGPROF handler: ran on the main thread only, as without the runtime" \
	bash -c "grep -q 'other than main: 0 times' rt/out && cmp -s plain/out rt/out"
sed 's/^/# /' rt/out
cp_check "own SIGPROF handler: nothing on stderr" test ! -s rt/err
n=$(ls rt | grep -cE '^gmon\.out\.snap[0-9]+$')
cp_check "own SIGPROF handler: snapshots written ($n)" test "$n" -ge 2
"$EGPROF" -b --callpath ./ownprof rt/gmon.out > rt/report 2> rt/report.err
cp_check "own SIGPROF handler: the run's pair is read" \
	bash -c "test -s rt/report && ! test -s rt/report.err"
cp_check "own SIGPROF handler: no thread of the runtime's among the program's" \
	test "$(cp_header rt/gmon.out.callpath threads)" = 1

# The off-CPU sampler (CALLPATH_CLOCK=wall) is a thread of the runtime's
# too: the same program, the same answer (its handler ran there hundreds
# of times, and it counted as the program's second thread).
mkdir -p wall && (cd wall && CALLPATH_CLOCK=wall LD_PRELOAD="$CP_SO" timeout 60 ../ownprof \
	> out 2> err; echo $? > rc)
cp_check "own SIGPROF handler, CALLPATH_CLOCK=wall: ran on the main thread only" \
	bash -c "test $(cat wall/rc) = 0 && cmp -s plain/out wall/out"
cp_check "own SIGPROF handler, CALLPATH_CLOCK=wall: the sampler is no thread of the program's" \
	test "$(cp_header wall/gmon.out.callpath threads)" = 1

# A sleeping program while snapshots are written (a tree to write: 2^17
# contexts): its sleeps keep their length.  Noise bound: a tick the writer
# caused can still fall due while the sleeping thread is on the CPU for the
# few microseconds between two sleeps (as the program's own ticks can
# without the runtime); 5 of 100 is far above that, and far below what the
# writer's blocked SIGPROF gives (25 to 32 at 2^16 contexts, more here).
cat > sleepy.c <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <time.h>
volatile unsigned long sink;
#include "contexts.h"
int main(void)
{
	int cut = 0;

	for (unsigned x = 0; x < (1u << 16); x++)
		p(16, x);
	for (int i = 0; i < 100; i++) {
		struct timespec ts = { 0, 20000000 };

		if (nanosleep(&ts, NULL) != 0 && errno == EINTR)
			cut++;
	}
	printf("sleeps cut short: %d\n", cut);
	return 0;
}
EOF
gcc -pg -O1 -I"$CP_EX" -o sleepy sleepy.c || exit 1
mkdir -p sleep && (cd sleep && CALLPATH_SNAPSHOT=0.05 CALLPATH_RECURSION=full \
	LD_PRELOAD="$CP_SO" ../sleepy > out 2> err)
n=$(ls sleep | grep -cE '^gmon\.out\.snap[0-9]+$')
cp_check "sleeping program: snapshots written meanwhile ($n)" test "$n" -ge 10
cut=$(awk '{ print $NF }' sleep/out)
cp_check "sleeping program: nanosleep not cut short by the writer's ticks ($cut of 100)" \
	test "${cut:-100}" -le 5
cp_done
