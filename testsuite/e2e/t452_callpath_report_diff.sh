#!/usr/bin/env bash
# --diff with sidecars on both sides: paths matched by function names
# (two different binaries), the change table with --extended, and the
# two-column folded file (difffolded.pl's format).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
EG=$EGPROF
d="$WORKDIR"

# The second program sends 5 of b's 9 calls through d instead of 2.
sed 's/b(i < 2)/b(i < 5)/' "$CP_EX/acceptance.c" >"$d/acc2.c"
mkdir -p "$d/one" "$d/two"
gcc -pg -O1 -o "$d/one/prog" "$CP_EX/acceptance.c" &&
gcc -pg -O0 -o "$d/two/prog" "$d/acc2.c" &&
(cd "$d/one" && LD_PRELOAD="$CP_SO" ./prog) &&
(cd "$d/two" && LD_PRELOAD="$CP_SO" ./prog) ||
	{ echo "Bail out! cannot build or run the programs"; exit 1; }

(cd "$d" && "$EG" --diff --extended --folded-calls diff.folded -b \
	one/prog one/gmon.out two/prog two/gmon.out >out.txt 2>err.txt)
cp_check "exit status 0, nothing on stderr" test $? -eq 0 -a ! -s "$d/err.txt"
cat >"$d/expected.folded" <<'END'
main 1 1
main;a 3 3
main;a;c 3 3
main;b 9 9
main;b;c 7 4
main;b;d 2 5
main;b;d;c 2 5
main;op 7 7
main;r 4 4
main;r;leaf 1 1
END
cp_same "two-column folded file" "$d/expected.folded" "$d/diff.folded"
sed -n '/Call-path differences/,$p' "$d/out.txt" | sed 1,7d >"$d/table"
# change = A - B: baseline minus second, as every table of --diff; a
# change of 3 calls in 11 is within a count's noise ("~", issue 24)
cat >"$d/expected.table" <<'END'

c: 0 calls
    A calls     B calls      change    path
          7           4          +3 ~  main;b;c
          2           5          -3 ~  main;b;d;c

d: -3 calls
    A calls     B calls      change    path
          2           5          -3 ~  main;b;d
END
cp_same "change table, grouped by called function" "$d/expected.table" "$d/table"
cp_check "table header states the sign, as the flat table's" grep -q "change = A - B, baseline minus second as in every" "$d/out.txt"
cp_check "table header counts the paths" grep -q "3 of 10 paths changed; calls 39 -> 42." "$d/out.txt"

# Without --extended or --callpath the diff output has no path table.
(cd "$d" && "$EG" --diff -b one/prog one/gmon.out two/prog two/gmon.out >plain.txt 2>&1)
cp_check "plain --diff: no path table" test "$(grep -c 'Call-path differences' "$d/plain.txt")" = 0
# One side without sidecars: the folded file is not written, with a warning.
rm "$d/two/gmon.out.callpath"
(cd "$d" && "$EG" --diff --folded-calls none.folded -b one/prog one/gmon.out two/prog two/gmon.out \
	>/dev/null 2>warn.txt)
cp_check "one side without sidecar: exit 0" test $? -eq 0
cp_check "one side without sidecar: warning, no file" \
	test ! -e "$d/none.folded" -a -n "$(grep "not writing 'none.folded'" "$d/warn.txt")"
(cd "$d" && "$EG" --diff --callpath -b one/prog one/gmon.out two/prog two/gmon.out \
	>/dev/null 2>err2.txt)
cp_check "--callpath asks for sidecars: error naming the missing one" \
	test $? -eq 1 -a -n "$(grep "two/gmon.out.callpath: " "$d/err2.txt")"
cp_done
