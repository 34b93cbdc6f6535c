#!/usr/bin/env bash
# The flat diff from the call-path sidecars: with gmon.out.callpath beside
# both gmon files, the diff's one source is the sidecars' per-thread
# samples (CALLPATH_HZ=1000, time in libraries included): the table, its
# evidence and its header counts are the same numbers, and time in libm is
# a row of the table, of kind library, with its callers in its evidence.
#
# The program: use_libm spends about 0.45 s in libm's sin (and some time
# of its own), arith about 0.25 s in plain arithmetic; build b calls
# use_libm three times as often (twice was 3.1 to 3.4 sd on this loaded
# machine against a cut of 2.7: flaky).  Noise bound: at 1000 Hz above the
# kernel's 250 Hz tick each timer signal stands for about 4 periods, so
# 0.45 s is about 110 independent samples and 1.35 s 340: the sampling sd
# of the difference is about 0.085 s; with the rule's run-to-run jitter
# (8-11% of each side: up to 0.15 s) the sd is about 0.17 s at most, and
# at the default --noise 2 (cut about 2.7 sd for these 4-5 tests) the
# threshold is at most 0.45 s: the change of 0.9 s is 5 sd or more.
# libm's row is checked by its ratio, not by its seconds (which follow the
# machine's speed: 0.29 s of a 0.45 s expected in a sanitizer run under
# load): three times the calls give 1.8 to 5 times the time, 3.6 sampling
# sd below and 6 above the ratio of about 110 and 340 independent samples,
# a chance under 2e-4.  The A/A pair (two runs of a) is judged at --noise
# 4: a false alarm (any row beyond the cut) has a chance of 6.3e-5 (at 3 it
# was 0.27%, above what a test may fail by chance).
# gmon.out's histogram sees none of the libm time (0.01 s a sample):
# without the sidecars there is no libm row at all.  Before one source the
# table said gmon's seconds and the evidence the sidecars', and the header
# counted the significant rows of the table alone.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
src="$SRCDIR/testsuite/fixtures/libm/libwork.c"
gcc -pg -O2 -o a "$src" -lm && gcc -pg -O2 -DLIBM_ROUNDS=450 -o b "$src" -lm || exit 1
for r in a:ra b:rb a:ra2; do
	mkdir -p "${r#*:}" && (cd "${r#*:}" && CALLPATH_HZ=1000 LD_PRELOAD="$CP_SO" "../${r%%:*}" > out.txt) || exit 1
done

"$EGPROF" --diff a ra/gmon.out b rb/gmon.out > ab.txt 2> ab.err; rc=$?
check "A/B: exit 0, nothing on stderr" bash -c "[ $rc = 0 ] && [ ! -s ab.err ]"
check "the header names the one source, the sidecars' samples, once" \
	grep -q "^Source: time: call-path samples of each thread, 1000 Hz" ab.txt
check "the flat table counts samples at the sidecars' rate" \
	grep -q "^Each sample counts as 0.001 seconds\.$" ab.txt
lib=$(sed -n '/^Flat profile:/,/^ %  /p' ab.txt | grep '\[libm\.so\.6\]')
check "libm's row in the flat table, more time in the second run, no calls counted: $lib" \
	bash -c "echo '$lib' | grep -Eq '^ *-[0-9.]+ +[0-9.]+ +-[0-9]+\.[0-9]+ {29}[^ ]*sin[^ ]* \[libm\.so\.6\]$'"
"$EGPROF" --diff --format json a ra/gmon.out b rb/gmon.out > ab.json 2> abj.err
check "libm's row in JSON: of kind library, its time about tripled, no calls" \
	python3 -c "import json, sys
r = [f for f in json.load(open(sys.argv[1]))['functions'] if 'libm.so.6' in f['name']]
assert r and all(f['kind'] == 'library' and f['calls_base'] is None for f in r), r
b, s = sum(f['self_base'] for f in r), sum(f['self_second'] for f in r)
assert b > 0.1 and 1.8 * b <= s <= 5 * b, (b, s)" ab.json
check "libm's evidence line: from the call-path samples, beyond noise, under use_libm" \
	grep -Eq '^  [^ ]*sin[^ ]* \[libm\.so\.6\]: time -[0-9]+\.[0-9]+ s from call-path samples at 1000 Hz, beyond noise 0\.[0-9]+ s; under use_libm[^ ]*( \(\+ [^)]*\))? [0-9.]+ -> [0-9.]+ s$' ab.txt
check "use_libm changed beyond noise, its time from the call-path samples" \
	grep -Eq '^  use_libm[^:]*: time -[0-9]+\.[0-9]+ s from call-path samples at 1000 Hz, (beyond|within) noise [0-9.]+ s; calls x3 \(sidecar: 150 -> 450\)$' ab.txt
check "arith: no evidence line (the same work in both)" bash -c "! grep -q '^  arith:' ab.txt"
# one view, one source: the table's seconds, its evidence and its header
# counts are the same numbers
check "the table's seconds are the evidence's; the header counts the evidence's rows" \
	python3 - ab.txt <<'PY'
import re, sys
t = open(sys.argv[1]).read()
n = int(re.search(r"the (\d+) significant changes first", t).group(1))
flat = t[t.index("Flat profile:"):t.index("\n %  ")]
rows = {}
for line in flat.splitlines():
    m = re.match(r"^ *(-?[0-9.]+) +([0-9.]+) +(-?[0-9.]+).{29}(.+)$", line)
    if m:
        rows[m.group(4)] = float(m.group(3))
ev = t[t.index("Evidence for the significant rows"):]
lines = [l for l in ev.splitlines() if l.startswith("  ") and ": time " in l]
assert len(lines) == n, (n, lines)
for l in lines:
    name, rest = l[2:].split(": time ", 1)
    sec = float(rest.split(" s ")[0])
    assert abs(rows[name] - sec) < 0.0051, (name, rows[name], sec)
PY

# JSON and CSV: the library row is a row of kind "library", its verdict the text's
"$EGPROF" --diff --format json a ra/gmon.out b rb/gmon.out > ab.json 2>&1
check "JSON: validates against the schema" python3 "$SRCDIR/scripts/json_schema.py" validate ab.json
check "JSON: time from the sidecars, libm's row significant, its calls null, use_libm's seconds the table's" \
	python3 - ab.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["significance"]["time_from"] == "sidecars" and d["base"]["hz"] == 1000
assert d["base"]["source"] == "sidecars" and d["source"].startswith("time: call-path samples")
lib = [f for f in d["functions"] if f["kind"] == "library" and "[libm.so.6]" in f["name"]]
assert lib and lib[0]["verdict"] == "significant" and lib[0]["self_diff"] < -0.4, lib
assert lib[0]["calls_base"] is None and lib[0]["calls_diff"] is None, lib
f = [f for f in d["functions"] if f["name"].startswith("use_libm")][0]
assert f["verdict"] == "significant" and f["self_diff"] < 0, f
assert f["calls_base"] == 150 and f["calls_second"] == 450, f
PY
"$EGPROF" --diff --format csv a ra/gmon.out b rb/gmon.out > ab.csv 2>&1
check "CSV: the library row, kind library" grep -Eq '^functions,[^,]*sin[^,]* \[libm\.so\.6\],[^,]*,,library,' ab.csv

# without sidecars, gmon.out's histogram: no library rows, no call-path source
mkdir -p hidden && mv ra/gmon.out.callpath hidden/ra && mv rb/gmon.out.callpath hidden/rb
"$EGPROF" --diff a ra/gmon.out b rb/gmon.out > plain.txt 2>&1
mv hidden/ra ra/gmon.out.callpath && mv hidden/rb rb/gmon.out.callpath
check "without sidecars: gmon.out's histogram, no library rows, no call-path source" \
	bash -c "grep -q '^Each sample counts as 0.01 seconds\.$' plain.txt && ! grep -Eq 'Source:|call-path samples|libm\.so' plain.txt"
mv ra/gmon.out.callpath hidden/ra
"$EGPROF" --diff --format json a ra/gmon.out b rb/gmon.out > one.json 2>&1
mv hidden/ra ra/gmon.out.callpath
check "a sidecar on one side only: the histogram's time, no library row" \
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d['significance']['time_from'] == 'histogram' and not [f for f in d['functions'] if f['kind'] == 'library']" one.json

"$EGPROF" --noise 4 --diff --extended a ra/gmon.out a ra2/gmon.out > aa.txt 2> aa.err; rc=$?
check "A/A: exit 0, nothing on stderr" bash -c "[ $rc = 0 ] && [ ! -s aa.err ]"
check "A/A: the sidecars' time, libm's row within noise" \
	bash -c "sed -n '/^Differential flat profile/,/^impact/p' aa.txt | grep -Eq 'sin[^ ]* \[libm\.so\.6\]  [~=]$'"
check "A/A: no row beyond noise" grep -q "^  none: every difference is within noise\.$" aa.txt
dl_done
