#!/usr/bin/env bash
# --diff on bad input: a clear error naming the file, a non-zero exit and no
# crash (an exit status >= 128 or a sanitizer report would be a crash).
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
dl_fig1 || { echo "not ok 1 - build the Figure 1 fixture"; exit 1; }
F=$WORKDIR/fig1
A=$F/fig1-a.gmon

# refuses NAME WORD ARGS...: exit 1..127, stderr names WORD, no sanitizer report
refuses() {
	local name=$1 word=$2 rc
	shift 2
	"$EGPROF" "$@" > out.txt 2> err.txt
	rc=$?
	check "$name: fails cleanly" bash -c "[ $rc -gt 0 ] && [ $rc -lt 128 ] && ! grep -q Sanitizer err.txt"
	check "$name: the message names '$word'" grep -qF -- "$word" err.txt
	check "$name: nothing on stdout" test ! -s out.txt
}

refuses "missing gmon file" "nosuch.gmon" --diff "$F/demo" "$A" nosuch.gmon
refuses "missing binary" "nosuch-app" --diff nosuch-app "$A" "$F/demo" "$A"

head -c 30 "$A" > trunc.gmon
refuses "truncated gmon file" "trunc.gmon" --diff "$F/demo" "$A" trunc.gmon

for i in $(seq 100); do echo "this is not a gmon file at all, just text"; done > garbage.gmon
refuses "garbage gmon file" "garbage.gmon" --diff "$F/demo" garbage.gmon "$A"

mkdir empty
refuses "empty directory" "empty" --diff "$F/demo" "$A" empty

# A file our pre-check lets through and upstream refuses (a record tag it
# does not know), on either side of a diff of one binary: one loader reads
# both (one file in a worker, the other itself).  The file is named, and
# the loader's end is not taken for running out of memory (it was: the
# loader, still relaying the other side when the front end stopped
# reading, ended with status 2).
# The program has 1,000 functions: a profile larger than a pipe's buffer,
# so the other side is still being sent when the bad file is reported.
{
	for i in $(seq 1000); do echo "int f$i(int x) { return x * $i + (x & 7); }"; done
	echo "int main(void) { volatile int s = 0; for (int r = 0; r < 20; r++) {"
	for i in $(seq 1000); do echo "s += f$i(s);"; done
	echo "} return s & 1; }"
} > many.c
cc -pg -O0 -o many many.c && ./many ||
	{ echo "not ok - build and run a program of 1,000 functions"; exit 1; }
cp gmon.out badtag.gmon && printf '\011' >> badtag.gmon
for order in first second; do
	if [ $order = first ]; then set -- badtag.gmon gmon.out; else set -- gmon.out badtag.gmon; fi
	refuses "a file upstream refuses, $order" "badtag.gmon" --diff many "$@"
	check "... upstream's message says why" grep -q "found bad tag 9" err.txt
	check "... ours names the file" grep -q "badtag.gmon: cannot read the profile of" err.txt
	check "... not as running out of memory" bash -c "! grep -q 'out of memory' err.txt"
done

# A gmon file of another program: its addresses are nowhere in demo.
cc -O1 -no-pie -o other "$SRCDIR/testsuite/fixtures/fig1/demo.c"
python3 "$SRCDIR/testsuite/fixtures/fig1/mkgmon.py" other other.gmon f_d=50 'f_c>f_d=3'
refuses "gmon file of another binary" "other.gmon" --diff "$F/demo" "$A" "$F/demo" other.gmon
check "... and says it does not belong" grep -q "does not belong to" err.txt

refuses "not a binary" "fig1-a.gmon" --diff "$A" "$A" "$A"

# Rank files: the bad one is named, whichever position it has, and the
# reader's end is not mistaken for a crash (no "killed by signal").
refuses "rank files, truncated first" "trunc.gmon" --rank-stats "$F/demo" trunc.gmon "$A"
check "... names no signal" bash -c "! grep -q signal err.txt"
refuses "rank files, truncated last" "trunc.gmon" --rank-stats "$F/demo" "$A" trunc.gmon
check "... names no signal" bash -c "! grep -q signal err.txt"
dl_done
