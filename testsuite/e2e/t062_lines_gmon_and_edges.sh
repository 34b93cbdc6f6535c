#!/usr/bin/env bash
# Source lines: the model's one source and the edges of --diff -l / -A.
#  - Without sidecars the lines come from gmon.out's histogram (as gprof
#    -l gives its bins to lines), said once; when one run has a sidecar and
#    the other not, both come from gmon.out (one source for both runs).
#  - -L names the files as the debug information does.
#  - -A FUNCTION annotates that function; one with no samples is said.
#  - A source file that cannot be read: the lines' times alone, said.
#  - `gprof -l` and `gprof -l --pprof` print what /usr/bin/gprof -l
#    prints, byte for byte (the sidecar beside gmon.out changes nothing).
#
# Noise bound: one assertion reads CPU time: the slow loop (four times the
# other's work, about 0.48 s against 0.12 s) is the first row by |change|
# from gmon.out's histogram at 100 Hz: its change, about 0.36 s, against
# the other loop's, whose change has a standard deviation of about
# sqrt(24) / 100 = 0.05 s plus a jitter of tens of percent of 0.12 s: the
# other row would need to move by over 0.3 s, seven of its sigmas.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
set -u
CP_SO="$BUILDDIR/callpath/libcallpath.so"
cd "$WORKDIR" || exit 1
mkdir -p src
cp "$SRCDIR/testsuite/fixtures/lines/twoloops.c" src/
slow=$(grep -n 'SLOW_LOOP \*/' src/twoloops.c | cut -d: -f1)
gcc -pg -O1 -g -o base src/twoloops.c && gcc -pg -O1 -g -DSLOW=4 -o slower src/twoloops.c ||
	{ echo "Bail out! cannot build twoloops.c"; exit 1; }
mkdir -p a b
(cd a && LD_PRELOAD="$CP_SO" ../base >/dev/null) && (cd b && LD_PRELOAD="$CP_SO" ../slower >/dev/null) ||
	{ echo "Bail out! cannot run twoloops"; exit 1; }
mkdir -p ga gb && cp a/gmon.out ga/ && cp b/gmon.out gb/
rows() { sed -n '/^ *A s  *B s  *change  *line/,/^$/p' "$1" | grep -E '^ +[0-9]'; }

"$EGPROF" --diff -l -b -p ./base ga/gmon.out ./slower gb/gmon.out >g.txt 2>err.txt
check "without sidecars: exits 0, no message" bash -c "[ -s g.txt ] && [ ! -s err.txt ]"
check "without sidecars: the source is gmon.out's histogram" \
	grep -q "^Source: lines of gmon.out's histogram bins, 100 Hz" g.txt
first=$(rows g.txt | head -1)
echo "# first row: $first"
check "without sidecars: the slow loop's line first" \
	bash -c "echo '$first' | grep -qE 'twoloops\\.c:$slow +work\$'"
"$EGPROF" --diff -l -b -p ./base a/gmon.out ./slower gb/gmon.out >mixed.txt 2>err.txt
check "one run with a sidecar, one without: both from gmon.out" \
	grep -q "^Source: lines of gmon.out's histogram bins" mixed.txt
"$EGPROF" --diff -l -L -b -p ./base a/gmon.out ./slower b/gmon.out >full.txt 2>err.txt
check "-L: the file as the debug information names it" \
	grep -qE " $WORKDIR/src/twoloops\.c:$slow +work\$" full.txt
"$EGPROF" --diff -Amain ./base a/gmon.out ./slower b/gmon.out >ann_main.txt 2>err.txt
check "-A main: main has no sampled line, said" \
	grep -q "^No sampled line of function 'main' in either run." ann_main.txt
"$EGPROF" --diff -Awork ./base a/gmon.out ./base a/gmon.out >ann_work.txt 2>err.txt
check "-A work of a run against itself: work annotated, no change" \
	bash -c "grep -q '^work (twoloops.c):\$' ann_work.txt && grep -qE '^ +[0-9.]+ +[0-9.]+ +[-+]0\\.00 +$slow  .*SLOW_LOOP' ann_work.txt"
# -l however it is spelled: in a cluster ("-bl") or long ("--line")
"$EGPROF" --diff -bl ./base a/gmon.out ./slower b/gmon.out >bl.txt 2>err.txt
check "-bl: the lines' table, no message" bash -c "[ ! -s err.txt ] && grep -q 'Line-level differences' bl.txt"
"$EGPROF" --diff --line -b ./base a/gmon.out ./slower b/gmon.out >long.txt 2>err.txt
check "--line: the same table" bash -c "[ ! -s err.txt ] && grep -q 'Line-level differences' long.txt"

# JSON and CSV: the table's rows and verdicts (the same order as the text)
"$EGPROF" --diff -l --format json ./base a/gmon.out ./slower b/gmon.out >l.json 2>err.txt
check "--diff -l --format json: the lines' document, the slow line first" \
	python3 -c "import json, sys; d = json.load(open('l.json')); r = d['lines'][0]
sys.exit(not (d['schema'] == 'egprof-lines-diff' and r['line'] == $slow and r['function'] == 'work'
	and r['second_samples'] > r['baseline_samples'] and isinstance(r['significant'], bool)
	and d['warning'].startswith('the runs are of two builds')))"
check "--diff -l --format json validates against its schema" python3 "$SRCDIR/scripts/json_schema.py" validate l.json
"$EGPROF" --diff -l --format csv ./base a/gmon.out ./slower b/gmon.out >l.csv 2>err.txt
check "--diff -l --format csv: one record per line, its header first" \
	bash -c "head -1 l.csv | grep -q '^record,function,file,line,inlined,baseline_samples' &&
		[ \$(grep -c '^lines,' l.csv) = \$(python3 -c \"import json; print(len(json.load(open('l.json'))['lines']))\") ]"
mv src src.gone
"$EGPROF" --diff -A ./base a/gmon.out ./slower b/gmon.out >gone.txt 2>err.txt
check "-A with the source gone: exits 0, says the file cannot be read" \
	bash -c "[ ! -s err.txt ] && grep -q 'src/twoloops.c cannot be read' gone.txt"
check "-A with the source gone: the slow line's times alone" \
	grep -qE "^ +[0-9.]+ +[0-9.]+ +-[0-9.]+ +$slow\$" gone.txt
mv src.gone src

# gprof's own -l: upstream's, whatever lies beside gmon.out
(cd a && "$SYSGPROF" -l ../base gmon.out >sys.txt 2>&1; echo $? >>sys.txt)
(cd a && "$EGPROF" -l ../base gmon.out >ours.txt 2>&1; echo $? >>ours.txt)
check "gprof -l is /usr/bin/gprof -l, byte for byte" cmp a/sys.txt a/ours.txt
(cd a && "$EGPROF" -l ../base gmon.out --pprof l.pb.gz >ourspp.txt 2>&1; echo $? >>ourspp.txt)
check "gprof -l --pprof prints /usr/bin/gprof -l's output" cmp a/sys.txt a/ourspp.txt
check "gprof -l --pprof writes the profile" test -s a/l.pb.gz
done_testing
