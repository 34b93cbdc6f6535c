#!/usr/bin/env bash
# --diff with sidecars shows folded recursion as gprof shows recursive
# calls (issue 9 item 4): `fib` on one row, "1+N" calls, in the change
# table, and one line with each side's total in the two-column folded
# file; never a "main;fib;fib" row.  Pure binary recursion (-O2
# -fno-optimize-sibling-calls), fib(20) against fib(22): 21,891 and 57,313
# calls (2 F(n+1) - 1), of which one from main.
# No sampling: every assertion is an exact call count (a time table, when
# samples land, comes before the part compared).
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
EG=$EGPROF
d="$WORKDIR"

mkdir -p "$d/one" "$d/two"
gcc -pg -O2 -fno-optimize-sibling-calls -o "$d/recurse" "$CP_EX/recurse.c" &&
(cd "$d/one" && LD_PRELOAD="$CP_SO" ../recurse fib 20 >/dev/null) &&
(cd "$d/two" && LD_PRELOAD="$CP_SO" ../recurse fib 22 >/dev/null) ||
	{ echo "Bail out! cannot build or run the program"; exit 1; }

(cd "$d" && "$EG" --diff --extended --folded-calls diff.folded -b \
	recurse one/gmon.out recurse two/gmon.out >out.txt 2>err.txt)
cp_check "exit status 0, nothing on stderr" test $? -eq 0 -a ! -s "$d/err.txt"
cat >"$d/expected.folded" <<'END'
main 1 1
main;fib 21891 57313
END
cp_same "two-column folded file: one line for fib, each side's total" \
	"$d/expected.folded" "$d/diff.folded"
sed -n '/Call-path differences/,$p' "$d/out.txt" | sed 1,7d >"$d/table"
cat >"$d/expected.table" <<'END'

fib: -35422 calls
    A calls     B calls      change    path
    1+21890     1+57312      -35422    main;fib
END
cp_same "change table: fib on one row, calls as gprof's 1+N" "$d/expected.table" "$d/table"
cp_check "no path row per recursion level" test "$(grep -c 'fib;fib' "$d/out.txt" "$d/diff.folded" | awk -F: '{ s += $2 } END { print s }')" = 0
# the same counts as GNU gprof's call graph: 1+21890 calls of fib
(cd "$d/one" && gprof -b -q ../recurse gmon.out >gprof.txt 2>/dev/null)
cp_check "gprof counts fib's calls 1+21890 too" grep -q "1+21890" "$d/one/gprof.txt"
cp_done
