#!/usr/bin/env bash
# gprof -l on -O2 code: a callee whose first line is inlined code of
# another function is still named by its own symbol, and every call site is
# file:line (never name+0x0).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc inlined inlined.c -O2 -g -fno-optimize-sibling-calls || exit 1
cd "$WORKDIR" || exit 1
# at CALLPATH_HZ=10 the short run takes no time sample: the tree has no
# time columns (a loaded machine gave it one at 1 ms now and then)
CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" ./inlined > /dev/null
"$EGPROF" -b -l --callpath ./inlined gmon.out > report 2> err
cp_check "gprof -l --callpath: exit 0, nothing on stderr" test $? -eq 0 -a ! -s err
sed -n '/Calling-context tree/,$p' report > tree
main_line=$(grep -n 'updateLinkCells(cells, 10 + k);' "$CP_EX/inlined.c" | head -1 | cut -d: -f1)
cp_check "the callee is named updateLinkCells, not the inlined emptyHaloCells" \
	bash -c "grep -q 'updateLinkCells' tree && ! grep -q emptyHaloCells tree"
cp_check "its call site in main is inlined.c:$main_line" \
	grep -qE "^ +3 +\\*?updateLinkCells \\(inlined.c:$main_line\\)" tree
cp_check "no call site printed as name+offset with -l" \
	bash -c "! sed -n '/Call-path profile/,\$p' report | grep -q '+0x'"
"$EGPROF" -b --folded-calls f.folded ./inlined gmon.out > /dev/null
cp_check "folded stacks name it too" grep -q '^main;step;updateLinkCells 1$' f.folded
cp_done
