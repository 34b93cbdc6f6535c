#!/usr/bin/env bash
# Hardware presets (issue 27): where the machine has a PMU, instructions
# and cycles per calling context: a loop of 3 x 10^8 iterations in heavy()
# against 10^6 in light() must carry nearly all instructions.  The same
# code path as the software events (t700) but for the event's name and
# default period; virtual machines usually have no PMU, and there the test
# says that it skipped and why.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
if ! grep -qa "libpapi\.so\." "$CP_SO"; then
	echo "ok 1 # SKIP this build has no PAPI (configure found no libpapi-dev)"
	echo "1..1"
	exit 0
fi
if ! command -v papi_command_line > /dev/null; then
	echo "ok 1 # SKIP papi_command_line (Debian's papi-tools) is not installed to tell whether this machine has a PMU"
	echo "1..1"
	exit 0
fi
if ! papi_command_line PAPI_TOT_INS 2>&1 | grep -q "Successfully added: PAPI_TOT_INS"; then
	why=$(papi_command_line PAPI_TOT_INS 2>&1 | grep -A1 "Failed adding" | tail -n 1 | sed 's/^ *because: *//')
	echo "ok 1 # SKIP no hardware counters here (PAPI_TOT_INS: ${why:-not available}; a virtual machine without a PMU?)"
	echo "1..1"
	exit 0
fi
cat > loops.c <<'C'
#include <stdio.h>
volatile long sink;
__attribute__((noinline)) void heavy(void) { for (long i = 0; i < 300000000; i++) sink += i; }
__attribute__((noinline)) void light(void) { for (long i = 0; i < 1000000; i++) sink += i; }
int main(void) { heavy(); light(); printf("%ld\n", sink); return 0; }
C
gcc -pg -O1 -o loops loops.c || exit 1
CALLPATH_EVENTS=PAPI_TOT_INS,PAPI_TOT_CYC LD_PRELOAD="$CP_SO" ./loops > out 2> err
cp_check "no message on stderr" test ! -s err
"$EGPROF" -b -p --metric PAPI_TOT_INS --folded f ./loops gmon.out > /dev/null
h=$(awk '$1 == "main;heavy" { print $2 }' f)
l=$(awk '$1 == "main;light" { print $2 }' f)
# heavy runs 300 times light's iterations: at a period of 10^7 light may
# have no overflow at all, heavy some 10^9 instructions
cp_check "PAPI_TOT_INS: heavy() carries at least 10^8 ($h)" test "${h:-0}" -ge 100000000
cp_check "... and light() under 5% of it (${l:-0})" test "${l:-0}" -le $((h / 20))
"$EGPROF" -b -p --metric PAPI_TOT_CYC --folded c ./loops gmon.out > /dev/null
cp_check "PAPI_TOT_CYC counted beside it" grep -q "^main;heavy [0-9]" c
cp_done
