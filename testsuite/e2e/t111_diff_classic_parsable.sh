#!/usr/bin/env bash
# The classic --diff output is gprof's text layout (issue 13 item 7): a
# strict gprof-text reader (gprof_text.py, which follows gprof's flat-profile
# columns and call-graph lines and knows the binaries' function names) reads
# it without error, negative numbers included, with and without -b, -z and
# --noise 0; its numbers are the extended table's.  The same reader reads
# /usr/bin/gprof's own output (it is a gprof reader, not a reader of ours).
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
P=$SRCDIR/testsuite/e2e/gprof_text.py
F=$WORKDIR/ev
sh "$SRCDIR/testsuite/fixtures/evidence/evidence.sh" "$F" > build.log 2>&1 &&
	dl_fig1 >> build.log 2>&1 ||
	{ echo "not ok 1 - build the fixtures"; cat build.log; echo "1..1"; exit 1; }
nm "$F/prog" "$F/prog-inlined" "$WORKDIR/fig1/demo" | awk 'NF == 3 {print $3}' | sort -u > names

"$SYSGPROF" "$F/prog" "$F/a.gmon" > sys.txt
check "the reader reads /usr/bin/gprof's output" python3 "$P" sys.txt names
n=0
for opts in "" "-b" "-z" "--noise 0" "-b -q" "-b -p --sort name"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$EGPROF" $opts --diff "$F/prog" "$F/a.gmon" "$F/prog-inlined" "$F/b.gmon" > d$n.txt
	check "classic diff ($opts) is gprof text" python3 "$P" d$n.txt names
done
check "negative numbers are read: compute_forces -2.95" \
	bash -c "python3 '$P' d1.txt names | grep -qx 'flat compute_forces -2.95 0'"
check "negative calls are read: flush_batch -8910" \
	bash -c "python3 '$P' d1.txt names | grep -qx 'flat flush_batch -0.02 -8910'"
check "the call graph is read with signed numbers" \
	bash -c "python3 '$P' d1.txt names | grep -Eqx 'cg \[[0-9]+\] compute_forces -2.95 3.00'"
"$EGPROF" -b -p --extended --diff "$F/prog" "$F/a.gmon" "$F/prog-inlined" "$F/b.gmon" |
	squeeze | grep -E '^-?[0-9]' | awk '{print "flat", $9, $4, $7}' | sort > ext.rows
python3 "$P" d2.txt names | grep '^flat' | sort > classic.rows
check "every classic row's self and calls equal the extended table's" cmp -s ext.rows classic.rows

"$EGPROF" --diff "$WORKDIR/fig1/demo" "$WORKDIR/fig1/fig1-a.gmon" "$WORKDIR/fig1/fig1-b.gmon" > fig1.txt
check "Figure 1's classic diff is gprof text" python3 "$P" fig1.txt names

# The reader is strict: a marker after a name, or a shifted column, fails.
sed 's/  busy$/  busy  ~/' d2.txt > marked.txt
check "the reader refuses a marker after a name" bash -c "! python3 '$P' marked.txt names 2>/dev/null"
sed 's/^ -5.70 /-5.70  /' d2.txt > shifted.txt
check "the reader refuses a shifted column" bash -c "! python3 '$P' shifted.txt names 2>/dev/null"
dl_done
