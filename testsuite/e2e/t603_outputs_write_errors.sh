#!/usr/bin/env bash
# Issue 12 item 4: a failed write is an error.  Every command of ours run
# with standard output on /dev/full says "cannot write standard output"
# and exits 1; plain gprof mode behaves as /usr/bin/gprof does.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
out_sidecars

# full NAME PROG ARGS...: exit 1, the message names standard output
full() {
	local name=$1
	shift
	"$@" >/dev/full 2>err.txt; rc=$?
	check "$name >/dev/full: exit 1" [ $rc = 1 ]
	check "$name >/dev/full: names standard output" has_err err.txt "cannot write standard output"
}

full "gprof --callpath" "$EGPROF" app gmon.out --callpath
full "gprof -b --callpath" "$EGPROF" -b -p app gmon.out --callpath
full "gprof --folded -" "$EGPROF" -b app gmon.out --folded -
full "gprof --dot -" "$EGPROF" -b app gmon.out --dot -
full "gprof --gml" "$EGPROF" -b app gmon.out --gml x.gml
check "... and no GML written" [ ! -e x.gml ]
full "gprof --diff" "$EGPROF" --diff app gmon.out gmon.2
full "gprof --diff --extended --callpath" "$EGPROF" --diff --extended --callpath app gmon.out gmon.2
full "gprof --rank-stats" "$EGPROF" --rank-stats app gmon.out gmon.2
full "cpdump" "$CPDUMP" gmon.out.callpath
full "cpdump -f" "$CPDUMP" -f gmon.out.callpath

# plain gprof: upstream's behaviour, whatever it is
"$SYSGPROF" app gmon.out >/dev/full 2>sys.err; sys=$?
"$EGPROF" app gmon.out >/dev/full 2>ours.err; ours=$?
check "plain gprof >/dev/full: the exit status of /usr/bin/gprof ($sys)" [ $ours = $sys ]
check "plain gprof >/dev/full: the same messages" \
	bash -c 'sed "s|^[^:]*: ||" sys.err >a; sed "s|^[^:]*: ||" ours.err >b; cmp -s a b'
done_testing
