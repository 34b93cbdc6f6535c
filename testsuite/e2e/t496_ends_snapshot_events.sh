#!/usr/bin/env bash
# Event counts (CALLPATH_EVENTS, issue 27) in the profiles of killed runs
# and in snapshots (issue 26), as in the exit's sidecar: the streamed
# sidecars had no event metric at all ("no metric 'perf::PAGE-FAULTS'"),
# so a run killed by SIGTERM lost its counts (found at integration).
#
# The program counts the page faults of touch_big (6,000 new pages, in
# main, a live thread when the file is written) and touch_small (2,000,
# in a thread that ended: the counters module keeps those by path), then
# waits.  Noise bound, t700's: one fault per page, counted every 10
# faults, off by less than 10 at each end plus a handful the kernel takes
# twice: within 10% of 6,000 and 2,000.  The snapshot and the exit (or the
# kill) that follow it see the same state (nothing faults under touch_*
# after the snapshot): their counts on those paths must be equal exactly.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
cat > ev.c <<'C'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "touch_pages.h"
#include "snapshot_wait.h"
__attribute__((noinline)) long touch_big(long n) { return touch(n); }
__attribute__((noinline)) long touch_small(long n) { return touch(n); }
static void *small_thread(void *arg) { (void)arg; return (void *)touch_small(2000); }
int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 2 || pthread_create(&t, NULL, small_thread, NULL) || pthread_join(t, NULL))
		return 2;
	printf("%ld\n", touch_big(6000));
	fflush(stdout);
	if (strcmp(argv[1], "wait"))
		snapshot();
	if (!strcmp(argv[1], "snap-exit"))
		return 0;
	for (;;)
		pause();
}
C
gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o ev ev.c -lpthread || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
run() { # DIR MODE: ev in DIR with events and signal snapshots
	mkdir -p "$1" && (cd "$1" && CALLPATH_EVENTS=perf::PAGE-FAULTS CALLPATH_SNAPSHOT_SIGNAL=USR1 \
		LD_PRELOAD="$CP_SO" exec ../ev "$2" > out 2> err)
}
faults() { # GMON PATH: the events of a folded path, "" when none
	"$EGPROF" -b --metric perf::PAGE-FAULTS --folded "$1.folded" ./ev "$1" > /dev/null 2> "$1.err"
	awk -v p="$2" '$1 == p { print $2 }' "$1.folded"
}
within() { # VALUE EXPECTED: within 10%
	[ -n "$1" ] && awk -v v="$1" -v e="$2" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e / 10) }'
}
BIG="main;touch_big;touch" SMALL="small_thread;touch_small;touch"

# killed by SIGTERM from outside once the work is done
run kill wait &
pid=$!
for i in $(seq 1 1000); do [ -s kill/out ] && break; sleep 0.01; done
sleep 0.1
kill -TERM "$(pgrep -P $pid -x ev || echo $pid)" 2> /dev/null
wait $pid
cp_check "killed by SIGTERM: the status is SIGTERM's" test "$?" = 143
k_big=$(faults kill/gmon.out "$BIG") k_small=$(faults kill/gmon.out "$SMALL")
cp_check "... its sidecar carries touch_big's faults ($k_big, 6000 within 10%)" within "$k_big" 6000
cp_check "... and touch_small's, of a thread that ended ($k_small, 2000 within 10%)" within "$k_small" 2000
"$CP_DUMP" -H kill/gmon.out.callpath > kill/head
cp_check "... the event is described as at exit (unit, period 10, estimated)" \
	grep -q '^metric perf::PAGE-FAULTS events kind 3 flags 0x1 period 10 ' kill/head

# a snapshot, then the exit's sidecar of the same state
run exit snap-exit
s_big=$(faults exit/gmon.out.snap1 "$BIG") s_small=$(faults exit/gmon.out.snap1 "$SMALL")
e_big=$(faults exit/gmon.out "$BIG") e_small=$(faults exit/gmon.out "$SMALL")
cp_check "a snapshot carries the faults ($s_big, $s_small)" \
	bash -c "$(declare -f within); within '$s_big' 6000 && within '$s_small' 2000"
cp_check "... the exit's the same on those paths ($e_big, $e_small)" \
	test "$s_big $s_small" = "$e_big $e_small"
cp_check "... with the exit's --callpath report of them" bash -c \
	"'$EGPROF' -b --callpath --metric perf::PAGE-FAULTS ./ev exit/gmon.out.snap1 | grep 'touch_big (main+' > s.line &&
	 '$EGPROF' -b --callpath --metric perf::PAGE-FAULTS ./ev exit/gmon.out | grep 'touch_big (main+' > e.line &&
	 cmp -s s.line e.line"

# a snapshot, then SIGTERM: both streamed, the same counts
run snapkill snap-kill &
pid=$!
for i in $(seq 1 1000); do [ -s snapkill/gmon.out.snap1.callpath ] && break; sleep 0.01; done
sleep 0.1
kill -TERM "$(pgrep -P $pid -x ev || echo $pid)" 2> /dev/null
wait $pid
s_big=$(faults snapkill/gmon.out.snap1 "$BIG") k_big=$(faults snapkill/gmon.out "$BIG")
s_small=$(faults snapkill/gmon.out.snap1 "$SMALL") k_small=$(faults snapkill/gmon.out "$SMALL")
cp_check "a snapshot and the kill after it: the same counts ($s_big $s_small, $k_big $k_small)" \
	bash -c "[ -n '$s_big' ] && [ '$s_big $s_small' = '$k_big $k_small' ]"
cp_done
