#!/usr/bin/env bash
# Callbacks from a caller that keeps data in %rbp (testsuite/fixtures/callpath/
# rbpdata.c): walk() is not instrumented and calls cb() with %rbp above
# every frame, once after a 24-deep recursion has returned (24 stale
# entries on the shadow stack) and then from every level of that recursion
# (up to 24 live ones).  mcount's fast path steps over stale entries to
# find the caller's (a bounded number: CP_FRAME_STEPS); here it finds none
# and record.c places each call under the innermost live instrumented frame.
# Every path's count is exact, folded and full, and gmon.out's calls are
# plain -pg's.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
for opt in O1 O2; do
	cp_cc rbp-$opt rbpdata.c -$opt || exit 1
	rm -f gmon.out*
	./rbp-$opt 10 100 > plain.out || exit 1
	"$SYSGPROF" -b -p ./rbp-$opt gmon.out | awk 'NF == 7 { print $4, $7 }' | sort > plain.calls
	rm -f gmon.out*
	LD_PRELOAD="$CP_SO" ./rbp-$opt 10 100 > rt.out
	cp_check "$opt: the program's output is unchanged" cmp -s plain.out rt.out
	"$SYSGPROF" -b -p ./rbp-$opt gmon.out | awk 'NF == 7 { print $4, $7 }' | sort > rt.calls
	cp_check "$opt: gmon.out's calls are plain -pg's" cmp -s plain.calls rt.calls
	"$EGPROF" -b --folded-calls folded ./rbp-$opt gmon.out > /dev/null
	# folded: a call from any level of the recursion is under its first frame
	printf '%s\n' "main 1" "main;cb 1000" "main;deep 20" "main;deep;cb 24000" \
		"main;deep;deep 460" > expected
	cp_check "$opt: every path's calls exact, recursion folded" \
		diff -u expected <(sort folded)
	rm -f gmon.out*
	CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ./rbp-$opt 10 100 > /dev/null
	"$EGPROF" -b --folded-calls folded ./rbp-$opt gmon.out > /dev/null
	for k in $(seq 24); do
		echo "main$(printf ';deep%.0s' $(seq "$k")) 20"
		echo "main$(printf ';deep%.0s' $(seq "$k"));cb 1000"
	done > expected
	echo "main 1" >> expected
	echo "main;cb 1000" >> expected
	cp_check "$opt: unfolded, every level's deep() 20 times, its cb() 1000 times" \
		diff -u <(sort expected) <(sort folded)
done
cp_done
