#!/usr/bin/env bash
# Off-CPU time (CALLPATH_CLOCK=wall, issue 22) in the profiles of killed
# runs and in snapshots (issue 26), as in the exit's sidecar: the streamed
# sidecars had no off-CPU metric, so a snapshot or a run killed by SIGTERM
# showed a sleeper as taking no time at all.
#
# sleeper sleeps 0.3 s in ten nanosleeps (the program measures it,
# CLOCK_MONOTONIC).  Bounds: the sleeper's samples at 1000 Hz are at least
# half its 0.3 s of sleep and at most its measured wall time plus 5% and 3
# Poisson standard deviations (t433 measures the off-CPU sampler's
# accuracy; on a loaded machine the sampler thread waits for a CPU too and
# credits less: 254 samples for 0.55 s seen here at a load of 6; without
# the metric the files have none).  A snapshot and the exit after it see
# the same sleeps: within 2 samples (the sampler may credit the run-queue
# wait of the last wake-up to the sleep after the snapshot).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > sl.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "snapshot_wait.h"
__attribute__((noinline)) void sleeper(void)
{
	struct timespec ts = { 0, 30000000 };

	for (int i = 0; i < 10; i++)
		nanosleep(&ts, NULL);
}
int main(int argc, char **argv)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	sleeper();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("sleeper_wall %.6f\n", (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "wait"))
		for (;;)
			pause();
	snapshot();
	return 0;
}
C
gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o sl sl.c || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
run() { # DIR [wait]
	mkdir -p "$1" && (cd "$1" && CALLPATH_CLOCK=wall CALLPATH_SNAPSHOT_SIGNAL=USR1 \
		LD_PRELOAD="$CP_SO" exec ../sl ${2:-} > out 2> err)
}
sleep_samples() { # SAMPLES WALL_SECONDS: at least 150, at most the wall time (5% + 3 sd)
	awk -v s="$1" -v w="$2" 'BEGIN { exit !(s >= 150 && s <= w * 1050 + 3 * sqrt(s)) }'
}
sleeper() { # GMON: the sleeper's samples (time, off-CPU included)
	"$EGPROF" -b --folded "$1.folded" ./sl "$1" > /dev/null 2> "$1.err"
	cp_incl_samples "$1.folded" sleeper
}

run exit
want=$(awk '$1 == "sleeper_wall" { print $2 }' exit/out)
s=$(sleeper exit/gmon.out.snap1) e=$(sleeper exit/gmon.out)
cp_check "a snapshot has the off-CPU metric" \
	grep -q '^metric off-cpu samples kind 2 flags 0x0 period 1000000 ' \
	<("$CP_DUMP" -H exit/gmon.out.snap1.callpath)
cp_check "... the sleeper's $s samples at 1000 Hz for ${want}s" sleep_samples "$s" "$want"
cp_check "... the exit's after it the same within 2 ($e)" \
	awk -v a="$s" -v b="$e" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 2) }'

run kill wait &
pid=$!
for i in $(seq 1 1000); do [ -s kill/out ] && break; sleep 0.01; done
sleep 0.1
kill -TERM "$(pgrep -P $pid -x sl || echo $pid)" 2> /dev/null
wait $pid 2> /dev/null
cp_check "killed by SIGTERM: the status is SIGTERM's" test "$?" = 143
want=$(awk '$1 == "sleeper_wall" { print $2 }' kill/out)
k=$(sleeper kill/gmon.out)
cp_check "... its sidecar has the sleeper's off-CPU time: $k samples for ${want}s" \
	sleep_samples "$k" "$want"
cp_done
