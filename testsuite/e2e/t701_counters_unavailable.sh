#!/usr/bin/env bash
# An event the machine cannot count, or a name PAPI does not know, or a
# build without PAPI (libcallpath.a always: a static link would need PAPI's
# own static libraries): one line on stderr naming the event and why, the
# program's output and exit status unchanged, and the time profile and
# call paths complete (issue 27, item 3).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > work.c <<'C'
#include <stdio.h>
#include <stdlib.h>
volatile long sink;
__attribute__((noinline)) void work(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void other(void) { work(1000); }
int main(int argc, char **argv)
{
	for (int i = 0; i < 3; i++)
		work(atol(argv[1]));
	other();
	printf("%ld\n", sink);
	return 5;
}
C
gcc -pg -O1 -o work work.c || exit 1
gcc -pg -O1 -static -o work-static work.c "$CP_A" -lpthread 2>/dev/null || exit 1
mkdir -p plain && (cd plain && LD_PRELOAD="$CP_SO" ../work 30000000 > out 2> err; echo $? > rc)
"$EGPROF" -b -p --folded-calls plain/calls ./work plain/gmon.out > /dev/null

# check_run DIR WHAT EXPECTED-LINE: one line, same output and status, full paths
check_run() {
	local dir=$1 what=$2 line=$3 n
	n=$(wc -l < "$dir/err")
	cp_check "$what: one line on stderr ($n)" test "$n" -eq 1
	cp_check "$what: it says which event and why" grep -qF "$line" "$dir/err"
	cp_check "$what: output and status unchanged" \
		bash -c "cmp -s plain/out '$dir/out' && cmp -s plain/rc '$dir/rc'"
	cp_check "$what: the sidecar was written, with its time samples" \
		bash -c "'$CP_DUMP' -H '$dir/gmon.out.callpath' | grep -q '^sampling 0x1'"
}
if grep -qa "libpapi\.so\." "$CP_SO"; then
	mkdir -p nope && (cd nope && CALLPATH_EVENTS=perf::NO-SUCH-EVENT LD_PRELOAD="$CP_SO" \
		../work 30000000 > out 2> err; echo $? > rc)
	check_run nope "an unknown event" \
		"callpath: cannot count 'perf::NO-SUCH-EVENT': no such event here"
	"$EGPROF" -b -p --folded-calls nope/calls ./work nope/gmon.out > /dev/null
	cp_check "an unknown event: the same call paths as without it" cmp -s plain/calls nope/calls
	# a second event that exists is still counted
	mkdir -p mixed && (cd mixed && CALLPATH_EVENTS=perf::NO-SUCH-EVENT,perf::PAGE-FAULTS \
		LD_PRELOAD="$CP_SO" ../work 30000000 > out 2> err; echo $? > rc)
	cp_check "with a good event beside it, that one is counted" \
		bash -c "'$CP_DUMP' -H mixed/gmon.out.callpath | grep -q '^metric perf::PAGE-FAULTS '"
	mkdir -p period && (cd period && CALLPATH_EVENTS=perf::PAGE-FAULTS@0 \
		LD_PRELOAD="$CP_SO" ../work 1000 > out 2> err; echo $? > rc)
	cp_check "a bad period: one line naming the entry" \
		bash -c "[ \$(wc -l < period/err) = 1 ] && grep -qF \"ignoring 'perf::PAGE-FAULTS@0' in CALLPATH_EVENTS\" period/err"
else
	echo "ok $((CP_N + 1)) # SKIP this build has no PAPI: unknown events are not looked up"
	CP_N=$((CP_N + 1))
fi
# libcallpath.a: the stub module
mkdir -p static && (cd static && CALLPATH_EVENTS=perf::PAGE-FAULTS ../work-static 30000000 \
	> out 2> err; echo $? > rc)
check_run static "libcallpath.a (no counters)" \
	"callpath: ignoring CALLPATH_EVENTS='perf::PAGE-FAULTS': the static libcallpath.a counts no events"
cp_done
