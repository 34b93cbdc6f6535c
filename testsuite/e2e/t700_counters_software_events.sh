#!/usr/bin/env bash
# Event counts per calling context (issue 27) with the software events
# every Linux machine counts: CALLPATH_EVENTS=perf::PAGE-FAULTS credits
# each fault to the context live when it happened, perf::CONTEXT-SWITCHES
# each switch; both at once, each right; --diff --metric puts the path
# whose faults doubled first.  The program's output and status are those
# of a run without events.
#
# Noise bounds: touch() writes one byte to each new page of an anonymous
# mapping, one fault per page (touch_big 6,000, touch_small 2,000).  At the
# default period of 10 a function's faults are its overflows times 10: off
# by less than 10 at each end, plus faults of the mapping's own page tables
# and a fault the overflow signal interrupted and the kernel took again
# (counted twice), a handful; 10% is far outside that and far inside an
# attribution to the wrong function (touch_small holds a quarter).
# yielder() sleeps 1 µs 1,000 times: each sleep blocks, one switch each;
# preemption under load adds a few; 10% again.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
if ! grep -qa "libpapi\.so\." "$CP_SO"; then
	echo "ok 1 # SKIP this build has no PAPI (configure found no libpapi-dev)"
	echo "1..1"
	exit 0
fi
cat > pages.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include "touch_pages.h"
__attribute__((noinline)) long touch_big(long n) { return touch(n); }
__attribute__((noinline)) long touch_small(long n) { return touch(n); }
__attribute__((noinline)) void yielder(int n)
{
	struct timespec ts = { 0, 1000 };

	for (int i = 0; i < n; i++)
		nanosleep(&ts, NULL);
}
int main(int argc, char **argv)
{
	long s = touch_big(atol(argv[1])) + touch_small(2000);

	yielder(atoi(argv[2]));
	printf("%ld\n", s);
	return 3;
}
C
gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o pages pages.c || exit 1
./pages 6000 1000 > plain.out; plain_rc=$?

# run EVENTS DIR ARGS...: the program with libcallpath and CALLPATH_EVENTS
run() {
	local ev=$1 dir=$2
	shift 2
	mkdir -p "$dir" && (cd "$dir" && CALLPATH_EVENTS=$ev LD_PRELOAD="$CP_SO" ../pages "$@" \
		> out 2> err; echo $? > rc)
}
# folded DIR METRIC PATH: the events --folded gives that path
folded() {
	"$EGPROF" -b -p --metric "$2" --folded "$1/f" ./pages "$1/gmon.out" > /dev/null 2>&1
	awk -v p="$3" '$1 == p { print $2 }' "$1/f"
}
within() { # VALUE EXPECTED PERCENT
	[ -n "$1" ] && awk -v v="$1" -v e="$2" -v p="$3" \
		'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e * p / 100) }'
}

run perf::PAGE-FAULTS pf 6000 1000
big=$(folded pf perf::PAGE-FAULTS "main;touch_big;touch")
small=$(folded pf perf::PAGE-FAULTS "main;touch_small;touch")
cp_check "page faults under touch_big: $big, within 10% of 6000" within "$big" 6000 10
cp_check "page faults under touch_small: $small, within 10% of 2000" within "$small" 2000 10
cp_check "the program's output and status are unchanged" \
	bash -c "cmp -s plain.out pf/out && [ \$(cat pf/rc) = $plain_rc ]"
cp_check "nothing said on stderr" test ! -s pf/err
cp_check "the sidecar describes the metric (events, period 10, estimated)" \
	bash -c "'$CP_DUMP' -H pf/gmon.out.callpath | grep -q '^metric perf::PAGE-FAULTS events kind 3 flags 0x1 period 10 '"

run perf::CONTEXT-SWITCHES cs 6000 1000
y=$(folded cs perf::CONTEXT-SWITCHES "main;yielder")
cp_check "context switches in yielder: $y, within 10% of 1000" within "$y" 1000 10

run perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES both 6000 1000
big=$(folded both perf::PAGE-FAULTS "main;touch_big;touch")
y=$(folded both perf::CONTEXT-SWITCHES "main;yielder")
cp_check "two events at once: faults under touch_big $big (6000)" within "$big" 6000 10
cp_check "two events at once: switches in yielder $y (1000)" within "$y" 1000 10
t=$("$EGPROF" -b -p --folded-calls /dev/stdout ./pages both/gmon.out | grep -c ';')
cp_check "... and the call paths are all there ($t paths)" test "$t" -ge 3

# --diff --metric: touch_big's faults doubled, touch_small's did not
run perf::PAGE-FAULTS twice 12000 10
"$EGPROF" --diff --metric perf::PAGE-FAULTS --callpath ./pages twice/gmon.out pf/gmon.out \
	> diff.txt 2> diff.err
first=$(sed -n '/Call-path differences of perf::PAGE-FAULTS/,$p' diff.txt |
	awk '/^ *A events/ { getline; print $NF; exit }')
cp_check "--diff --metric perf::PAGE-FAULTS: the first path is touch_big's ($first)" \
	test "$first" = "main;touch_big;touch"
cp_check "... a change beyond the noise (no '~')" \
	bash -c "sed -n '/A events/{n;p}' diff.txt | grep -qv '~'"
"$EGPROF" --diff --metric perf::NOPE --callpath ./pages twice/gmon.out pf/gmon.out \
	> /dev/null 2> nope.err; rc=$?
cp_check "--metric naming a metric the sidecars lack: exit 1, saying what they have" \
	bash -c "[ $rc = 1 ] && grep -q \"no metric 'perf::NOPE' (it has time, perf::PAGE-FAULTS)\" nope.err"
cp_done
