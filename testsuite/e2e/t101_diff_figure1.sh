#!/usr/bin/env bash
# --diff on the paper's Figure 1: the crafted gmon files give gprof's flat
# profiles of the paper exactly; the diff tables must be the paper's.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
dl_fig1 || { echo "not ok 1 - build the Figure 1 fixture"; exit 1; }
F=$WORKDIR/fig1
A=$F/fig1-a.gmon B=$F/fig1-b.gmon

"$SYSGPROF" -b -p "$F/demo" "$A" > sys-a.txt
"$SYSGPROF" -b -p "$F/demo" "$B" > sys-b.txt
check "fixture: first flat profile is Figure 1's first table" \
	contains sys-a.txt "50.37 5.51 5.51 31 0.18 0.18 f_d"
check "fixture: ... and its total s/call column" \
	contains sys-a.txt "29.16 8.70 3.19 1 3.19 8.52 f_c"
check "fixture: second flat profile is Figure 1's second table" \
	contains sys-b.txt "21.88 7.03 1.91 1 1.91 3.76 f_c"

"$EGPROF" -b -p --extended --diff "$F/demo" "$A" "$B" > ext.txt 2> ext.err
check "extended diff exits 0" test $? -eq 0
squeeze ext.txt | grep -E '^-?[0-9]' > ext.rows
cat > ext.want <<'ROWS'
47.60 5.51 2.04 3.47 31 22 9 XX f_d
-26.47 1.15 3.08 -1.93 - - 0 XX main
17.56 3.19 1.91 1.28 1 1 0 XX f_c
-8.37 1.09 1.70 -0.61 1 1 0 XX f_b
ROWS
check "extended rows are Figure 1's, in its order" cmp -s ext.rows ext.want

"$EGPROF" -b -p --diff "$F/demo" "$A" "$B" > classic.txt
squeeze classic.txt | grep -E '^-?[0-9]' | cut -d' ' -f1-4 > classic.rows
cat > classic.want <<'ROWS'
47.60 3.47 3.47 9
-26.47 5.40 -1.93 main
17.56 6.68 1.28 0
-8.37 7.29 -0.61 0
ROWS
check "classic flat rows: impact, cumulative |diff|, self, calls" cmp -s classic.rows classic.want
check "classic flat keeps gprof's header" grep -q '^ time   seconds   seconds    calls' classic.txt

"$EGPROF" -b -q --diff "$F/demo" "$A" "$B" > cg.txt
check "call graph: f_c -> f_d changed by 10 calls" \
	grep -Eq '^ +[0-9.-]+ +[0-9.-]+ +10/9 +f_c \[' cg.txt
# f_b's own line has negative numbers: its callers and callees name it
# (4), as gprof names a function it does not print (doc/diff.md, parsers
# of unsigned numbers)
check "call graph: f_b -> f_d changed by -1" \
	grep -Eq '^ +[0-9.-]+ +[0-9.-]+ +-1/9 +f_b [[(]' cg.txt
check "-q prints no flat profile" bash -c "! grep -q 'Flat profile' cg.txt"
check "-p prints no call graph" bash -c "! grep -q 'Call graph' classic.txt"

"$EGPROF" --diff "$F/demo" "$A" "$F/demo" "$B" > four.txt
"$EGPROF" --diff "$F/demo" "$A" "$B" > three.txt
check "APP1 GMON1 APP2 GMON2 with one binary equals APP GMON1 GMON2" \
	bash -c "diff <(grep -v '^  ' four.txt) <(grep -v '^  ' three.txt) >/dev/null"
check "without -b the sign convention is printed" \
	grep -q 'A positive difference is time (or calls) the second run no longer' three.txt
check "with -b it is not" bash -c "! grep -q 'positive difference' classic.txt"
check "no Figure 1 difference is within sampling noise" bash -c "! grep -q ' ~\$' ext.txt"

"$EGPROF" -C --diff "$F/demo" "$A" "$B" > /dev/null 2> opt.err
rc=$?
check "-C is refused with a reason" \
	bash -c "[ $rc -ne 0 ] && grep -q \"option '-C' cannot be used with --diff (basic-block counts are not compared)\" opt.err"
"$EGPROF" --diff "$F/demo" "$A" > /dev/null 2> ops.err
rc=$?
check "two operands are refused" bash -c "[ $rc -ne 0 ] && grep -q 'APP1 GMON1 APP2 GMON2' ops.err"

# Swapping the sides negates every difference.
"$EGPROF" -b -p --extended --diff "$F/demo" "$B" "$A" | squeeze | grep -E '^-?[0-9]' > swap.rows
check "swapping the sides negates the differences" \
	grep -qxF -- "-47.60 2.04 5.51 -3.47 22 31 -9 XX f_d" swap.rows
dl_done
