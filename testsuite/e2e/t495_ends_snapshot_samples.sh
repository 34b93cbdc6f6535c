#!/usr/bin/env bash
# Snapshots and killed runs carry every sample the exit's sidecar carries
# (found at integration: issues 22 and 26 met).  Their sidecars, streamed
# from the trees, left out the sampler's leaves (the samples in libraries
# and in the instrumentation) and described the time as glibc's 100 Hz
# ticks while the samples were each thread's CPU time at CALLPATH_HZ:
# "988 samples (9.88 seconds at 100 Hz)" for a second of work.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > s.c <<'C'
#include <math.h>
#include <stdio.h>
volatile double sink;
__attribute__((noinline)) void uselib(int n) { for (int i = 0; i < n; i++) sink += exp(i * 1e-9) + sin(i * 1e-7); }
__attribute__((noinline)) void arith(long n) { for (long i = 0; i < n; i++) sink += i * 0.5; }
int main(void)
{
	for (int k = 0; k < 12; k++) {
		uselib(2000000);
		arith(30000000);
	}
	puts("ok");
	return 0;
}
C
gcc -pg -O1 -o s s.c -lm || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
# report FILE: the --callpath report of s's gmon file FILE
report() { "$EGPROF" -b --callpath ./s "$1" 2> /dev/null; }
mkdir -p snap && (cd snap && CALLPATH_SNAPSHOT=0.3 LD_PRELOAD="$CP_SO" ../s > /dev/null)
snap=$(ls snap/gmon.out.snap* | grep -v callpath | sort -t p -k 3 -n | tail -1)
report "$snap" > snap.txt
cp_check "a snapshot ($snap) is in the CPU time at 1000 Hz" grep -q 'seconds at 1000 Hz' snap.txt
cp_check "... with the samples in libm under uselib" \
	grep -Eq 'main -> uselib \(main\+0x[0-9a-f]+\) -> [_a-z0-9]+ \[libm\.so\.6\]' snap.txt
read -r samples secs < <(sed -n 's/^Time: \([0-9]*\) samples .*(\([0-9.]*\) seconds at 1000 Hz.*/\1 \2/p' snap.txt)
cp_check "... its seconds are its samples at 1 ms ($samples, $secs s)" \
	awk -v n="$samples" -v s="$secs" 'BEGIN { exit !(n > 0 && s - n / 1000 < 0.006 && n / 1000 - s < 0.006) }'
mkdir -p kill && (cd kill && timeout -s TERM 1 env LD_PRELOAD="$CP_SO" ../s > /dev/null)
report kill/gmon.out > kill.txt
cp_check "a run killed by SIGTERM: the CPU time at 1000 Hz" grep -q 'seconds at 1000 Hz' kill.txt
cp_check "... with the samples in libm" grep -q '\[libm\.so\.6\]' kill.txt
cp_done
