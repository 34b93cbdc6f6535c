#!/usr/bin/env bash
# Call-count evidence from the sidecars' exact counts in threaded runs
# (issue 11 item 2).  threadcalls.c: two threads; the baseline runs them one
# after the other with batch() called 2,000,000 times, the second run at the
# same time with batch() called 4,000,000 times at equal total work.
# steady() is called 2,000,000 times in both.  glibc's mcount drops calls
# that arrive while another thread is inside it, so the second run's gmon
# counts fall short (printed below): batch looks like x1.2 and steady like
# /1.7.  With libcallpath sidecars on both sides, the evidence compares the
# exact counts: batch is flagged "calls x2 (sidecar: 2000000 -> 4000000)",
# steady is not flagged.  The gprof columns keep gmon's counts.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc threadcalls threadcalls.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
mkdir -p one two
(cd one && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../threadcalls 1 seq > /dev/null) || exit 1
(cd two && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../threadcalls 2 par > /dev/null) || exit 1
for d in one two; do
	echo "# $d: gmon counts: $("$SYSGPROF" -b -p ./threadcalls $d/gmon.out |
		awk '$NF == "batch" || $NF == "steady" { printf "%s %s ", $NF, $(NF-3) }')"
done
"$EGPROF" --diff -b -p ./threadcalls one/gmon.out ./threadcalls two/gmon.out > diff.txt 2> err.txt
cp_check "diff written" test -s diff.txt
cp_check "batch: calls doubled, flagged with the sidecars' exact counts" \
	grep -Eq '^  batch: .*calls x2 \(sidecar: 2000000 -> 4000000\)' diff.txt
cp_check "steady: same exact calls, not flagged whatever gmon counted" \
	bash -c "! grep -Eq '^  steady:' diff.txt"
# the gprof columns are gmon's, unchanged: the calls difference of batch
# is baseline - second of gprof's own counts
ga=$("$SYSGPROF" -b -p ./threadcalls one/gmon.out | awk '$NF == "batch" { print $(NF-3) }')
gb=$("$SYSGPROF" -b -p ./threadcalls two/gmon.out | awk '$NF == "batch" { print $(NF-3) }')
dc=$(awk '$NF == "batch" && NF == 7 { print $4 }' diff.txt)
cp_check "batch's calls column is gmon's difference ($ga - $gb = $dc)" \
	test "$dc" = "$((ga - gb))"
cp_done
