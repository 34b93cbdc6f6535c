#!/usr/bin/env bash
# --pprof's locations carry source lines: `pprof -list work` on the
# profile of twoloops.c (two loops, each on a line of its own) shows the
# function's time on the two loops' lines, none on its first line; the
# lines add up to the function's own time (-top); its calls stay on the
# function; the -DSLOW=4 build puts more time on the slow loop's line
# than on the other; and the diff's profile puts the change on that line.
#
# Noise bound: the one CPU-time assertion compares the two loops of one
# run: the slow one does four times the work, about 0.48 s against 0.12 s
# (480 and 120 samples at 1 kHz); it must show more than twice the other's
# time: a false failure needs the machine to run one loop of one process
# at half the speed of the other, or a sampling deviation of over 9 sigmas.
# Shown to fail on a broken build: with the lines' split left out, all of
# work's time sits on line 19, its first.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
set -u
pprof_find || skip_all "pprof not available (apt-get install golang-go golang-github-google-pprof-dev)"
echo "# pprof: $PPROF"
CP_SO="$BUILDDIR/callpath/libcallpath.so"
SRC="$SRCDIR/testsuite/fixtures/lines/twoloops.c"
fast=$(grep -n 'FAST_LOOP \*/' "$SRC" | cut -d: -f1)
slow=$(grep -n 'SLOW_LOOP \*/' "$SRC" | cut -d: -f1)
head=$(grep -n '^__attribute__((noinline)) static double work' "$SRC" | cut -d: -f1)
cd "$WORKDIR" || exit 1
gcc -pg -O1 -g -o base "$SRC" && gcc -pg -O1 -g -DSLOW=4 -o slower "$SRC" ||
	{ echo "Bail out! cannot build twoloops.c"; exit 1; }
mkdir -p a b
(cd a && LD_PRELOAD="$CP_SO" ../base >/dev/null) && (cd b && LD_PRELOAD="$CP_SO" ../slower >/dev/null) ||
	{ echo "Bail out! cannot run twoloops"; exit 1; }

# ms on line L of `pprof -list` output file F ("." is 0)
at() { awk -v l="$2" '$3 == l":" { v = $1; sub(/ms$/, "", v); if (v == ".") v = 0; print v + 0; f = 1 }
	END { if (!f) print 0 }' "$1"; }

"$EGPROF" -b -p ./slower b/gmon.out --pprof b.pb.gz >/dev/null 2>err.txt
check "--pprof exits 0, no message" bash -c "[ -s b.pb.gz ] && [ ! -s err.txt ]"
"$PPROF" -unit=ms -list '^work$' ./slower b.pb.gz >list.txt 2>&1
"$PPROF" -unit=ms -top b.pb.gz >top.txt 2>&1
cat list.txt | sed 's/^/# /'
ls=$(at list.txt "$slow") lf=$(at list.txt "$fast") lh=$(at list.txt "$head") lh1=$(at list.txt $((head + 1)))
flat=$(awk '$NF == "work" { v = $1; sub(/ms$/, "", v); print v + 0 }' top.txt)
check "-list shows time on the slow loop's line ($ls ms) and the other's ($lf ms)" \
	awk -v a="$ls" -v b="$lf" 'BEGIN { exit !(a > 0 && b > 0) }'
check "none on the function's first lines ($lh, $lh1 ms)" \
	awk -v a="$lh" -v b="$lh1" 'BEGIN { exit !(a == 0 && b == 0) }'
check "the lines add up to work's own time in -top ($ls + $lf of $flat ms)" \
	awk -v a="$ls" -v b="$lf" -v t="$flat" 'BEGIN { d = a + b - t; if (d < 0) d = -d; exit !(t > 0 && d <= 1) }'
check "the slow loop's line has more than twice the other's time" \
	awk -v a="$ls" -v b="$lf" 'BEGIN { exit !(a > 2 * b) }'
"$PPROF" -sample_index=calls -traces b.pb.gz >calls.txt 2>&1
check "work's call stays on the function (calls: 1 on work under main)" \
	bash -c "grep -A3 -E '^ +1 +work\$' calls.txt | grep -q main"

"$EGPROF" --diff -b ./base a/gmon.out ./slower b/gmon.out --pprof d.pb.gz >/dev/null 2>err.txt
check "--diff --pprof exits 0" bash -c "[ -s d.pb.gz ] && [ ! -s err.txt ]"
"$PPROF" -unit=ms -list '^work$' d.pb.gz >dlist.txt 2>&1
ds=$(at dlist.txt "$slow") df=$(at dlist.txt "$fast") dh=$(at dlist.txt "$head")
echo "# diff: slow line $ds ms, fast line $df ms, first line $dh ms"
check "the diff's -list puts the increase on the slow loop's line" \
	awk -v a="$ds" -v b="$df" -v h="$dh" 'BEGIN { d = b < 0 ? -b : b; exit !(a > 2 * d && a > 0 && h == 0) }'
done_testing
