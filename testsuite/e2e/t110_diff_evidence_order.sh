#!/usr/bin/env bash
# Evidence order of --diff (issue 11 items 1, 2, 4, 5; issue 13 item 10;
# issue 24 item 1) on crafted gmon files
# (testsuite/fixtures/evidence/evidence.sh): the rows with significant
# changes come first, in one order by the size of their evidence in seconds
# (a call count multiplied by 16 at equal time counts as the 0.49 s it
# implies, after the -0.60 s change), then the rows within noise (a +0.40 s
# row within noise comes after them); a function inlined away is connected
# to its caller, one run per side gets the caveat; --sort gives the plain
# orders, --ratio a column.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
F=$WORKDIR/ev
sh "$SRCDIR/testsuite/fixtures/evidence/evidence.sh" "$F" > build.log 2>&1 ||
	{ echo "not ok 1 - build the evidence fixture"; cat build.log; echo "1..1"; exit 1; }
diffcmd() { "$EGPROF" "$@" --diff "$F/prog" "$F/a.gmon" "$F/prog-inlined" "$F/b.gmon"; }
rows() { squeeze "$1" | grep -E '^-?[0-9]+\.[0-9]+ ' | awk '{print $NF}' | tr '\n' ' '; }

diffcmd -b -p > classic.txt
# one order: the significant rows by their evidence in seconds, then the
# rows within noise
check "classic: significant rows first, by evidence in seconds, then noise" \
	test "$(rows classic.txt)" = "lj_pair compute_forces changed flush_batch busy other "
diffcmd -b -p --extended > ext.txt
check "extended: the same order" \
	test "$(squeeze ext.txt | grep -E '^-?[0-9]' | awk '{print $9}' | tr '\n' ' ')" = \
	"lj_pair compute_forces changed flush_batch busy other "
check "extended: +0.40 s of 20 s is marked as noise" grep -Eq ' busy  ~$' ext.txt
check "extended: the -0.60 s change is not" grep -Eq ' changed$' ext.txt
check "extended: calls x16 at equal time is not noise" grep -Eq ' flush_batch$' ext.txt
check "evidence: calls x16, baseline -> second" \
	grep -Eq '^  flush_batch: time -0.02 s, within noise 0\.[0-9]+ s; calls x16 \(594 -> 9504\)$' classic.txt
check "evidence: inlined function connected to its caller" \
	grep -q "^  lj_pair: .*only in the baseline: probably inlined into compute_forces, whose self+children changed by +0.05 s$" classic.txt
check "evidence: the caller points back" \
	grep -q "^  compute_forces: .*probably took in lj_pair (only in the baseline); self+children changed by +0.05 s$" classic.txt
check "evidence: rows within noise are counted, not listed" \
	grep -q '^  Within noise: the 2 other rows.$' classic.txt

diffcmd -p > head.txt
check "header: one run per side gets the caveat" grep -Eq '^One run per side: each function.s noise is its sampling noise and a$' head.txt
check "header: the correction for the number of tests" \
	grep -Eq '^[0-9]+ tests could show a change: corrected for their number' head.txt
check "header: states the order" grep -q '^Rows are in evidence order: the 4 significant changes first' head.txt
check "header: states the sign convention" grep -q '^Differential profile: baseline minus second run.$' head.txt

diffcmd -b -p --sort abs > abs.txt
check "--sort abs: |self diff| only" \
	test "$(rows abs.txt)" = "lj_pair compute_forces changed busy other flush_batch "
diffcmd -b -p --sort name > name.txt
check "--sort name" test "$(rows name.txt)" = "busy changed compute_forces flush_batch lj_pair other "
diffcmd -b -p --sort calls > calls.txt
check "--sort calls: |calls diff| first" test "$(rows calls.txt | cut -d' ' -f1-2)" = "lj_pair flush_batch"
diffcmd -b -p --sort ratio > ratio.txt
check "--sort ratio: one-sided first, then x3 and x3.95" \
	test "$(rows ratio.txt | cut -d' ' -f1-3)" = "lj_pair compute_forces changed"
diffcmd -b -p --sort size > bad.txt 2> bad.err
rc=$?
check "--sort with an unknown key is refused" \
	bash -c "[ $rc -ne 0 ] && grep -q \"option '--sort' needs impact, abs, ratio, calls or name, not 'size'\" bad.err"

diffcmd -b -p --ratio > pct.txt
check "--ratio: the second run's self time in percent of the baseline's" \
	contains pct.txt '-8.55 6.55 -0.60 0 -600.00 -600.00 300.0% changed'
check "--ratio: header names the column" grep -q '2nd/base name' pct.txt
diffcmd -b -p --extended --ratio > pctx.txt
check "--ratio --extended: a function gone from the second run has 0%" \
	contains pctx.txt '42.74 3.00 --- 3.00 50000 - 50000 X. 0.0% lj_pair'

# Rounding (issue 11 item 9): at 1000 Hz the second run's seconds have three
# digits; every extended row's diff is +self - -self as printed.
python3 "$SRCDIR/testsuite/fixtures/fig1/mkgmon.py" "$F/prog-inlined" b1000.gmon --hz 1000 \
	busy=20404 changed=905 other=955 flush_batch=515 compute_forces=3945 \
	'main>busy=1' 'main>changed=1' 'main>other=1' 'main>flush_batch=9504' 'main>compute_forces=1'
"$EGPROF" -b -p --extended --diff "$F/prog" "$F/a.gmon" "$F/prog-inlined" b1000.gmon > round.txt
check "rounding: every diff is the difference of the printed sides" python3 - round.txt <<'PY'
import re, sys
bad = n = 0
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 9 and re.match(r"^-?[0-9]+\.[0-9]+$", f[0]):
        x = 0 if f[1] == "---" else float(f[1])
        y = 0 if f[2] == "---" else float(f[2])
        n += 1
        if "%.2f" % (x - y) != f[3] and "%.2f" % (x - y) != "-" + f[3]:
            print(line.rstrip()); bad += 1
sys.exit(1 if bad or n < 6 else 0)
PY
dl_done
