#!/usr/bin/env bash
# Frames left without returning (longjmp, C++ exceptions) and signal
# handlers that run instrumented code: no crash, and the paths recorded
# after them are right.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc unwind unwind.c -O1 || exit 1
cp_cc exc exception.cc -O1 || exit 1
cd "$WORKDIR" || exit 1

# full recursion: the 30 frames of deep() are 30 nodes
CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ./unwind > out
cp_check "unwind: runs to the end under the runtime" grep -q '^handled ' out
cp_folded ./unwind gmon.out.callpath > folded
cp_check "after longjmp to main: main;after 6 (5 + 1 after the signals)" \
	grep -qx 'main;after 6' folded
cp_check "after longjmp to main: main;after;leaf 6" grep -qx 'main;after;leaf 6' folded
cp_check "30 frames deep, 5 times" \
	grep -qx "main$(printf ';deep%.0s' $(seq 31)) 5" folded
cp_check "after longjmp to mid: main;mid;after;leaf 3" \
	grep -qx 'main;mid;after;leaf 3' folded
cp_check "no path goes on from a frame longjmp left" \
	bash -c "! grep -qE 'deep;(after|mid|raiser|storm|leaf)' folded"
cp_check "handler under the function that raised it" \
	grep -qx 'main;raiser;handler;hwork 4' folded
cp_check "the loop the timer interrupted is counted exactly" \
	test "$(grep -E '^main;storm;tiny ' folded | awk '{ print $2 % 1000 }')" = 0
handled=$(awk '{ print $2 }' out)
recorded=$(awk '$1 ~ /;handler$/ { s += $2 } END { print s + 0 }' folded)
dropped=$(cp_header gmon.out.callpath dropped-reentry)
cp_check "every handler run is recorded or counted as dropped ($recorded + $dropped/2 = $handled)" \
	test $((recorded + dropped / 2)) -eq "$handled"
echo "# signals: $handled handled, $recorded recorded, $((dropped / 2)) landed inside the runtime"

LD_PRELOAD="$CP_SO" ./exc
cp_folded ./exc gmon.out.callpath | c++filt | sort > folded.exc
cat > expected.exc <<'END'
main 1
main;after() 6
main;after();leaf() 6
main;t1() 6
main;t1();t2() 6
main;t1();t2();t3() 6
END
cp_same "C++ exceptions: paths right after each catch" expected.exc folded.exc

# -O2 turns some calls into tail calls: the runtime sees the frames that are
# really there; it must not crash and must count every call.
cp_cc unwind2 unwind.c -O2 || exit 1
LD_PRELOAD="$CP_SO" ./unwind2 > out2
cp_check "unwind -O2: runs to the end" grep -q '^handled ' out2
cp_done
