#!/usr/bin/env bash
# --diff --pprof: one profile in pprof's own form of a
# difference (the baseline's samples negated and labelled pprof::base), so
# `pprof -top FILE` shows second minus baseline: each function's seconds
# are the diff's self difference (with pprof's sign), its share of the
# baseline's total as pprof -diff_base computes it; pprof -diff_base on
# each side written alone gives the same table; from call paths, each
# function's samples are the two sides' records subtracted.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
pprof_find || skip_all "pprof not available (apt-get install golang-go golang-github-google-pprof-dev)"

views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
# the same runs without their sidecars: gmon.out alone
mkdir -p g/base g/changed
for s in base changed; do cp "v/$s/views" "v/$s/gmon.out" "g/$s/"; done

"$EGPROF" -b --diff g/base/views g/base/gmon.out g/changed/views g/changed/gmon.out \
	--pprof d.pb.gz >/dev/null 2>err.txt
check "--diff --pprof exits 0" [ $? = 0 ]
"$EGPROF" --diff --format json g/base/views g/base/gmon.out g/changed/views g/changed/gmon.out \
	>d.json 2>/dev/null
"$EGPROF" -b g/base/views g/base/gmon.out --pprof a.pb.gz >/dev/null 2>&1
"$EGPROF" -b g/changed/views g/changed/gmon.out --pprof b.pb.gz >/dev/null 2>&1

# What is decidable whatever the sampling: every function's row of pprof's
# table is the diff's self difference, pprof's sign (a function whose
# difference is 0 may have no row: both read 0); a one-sided function
# has its side's sign.  Only kernel_b's difference must be nonzero (four
# times the work: some 9 samples against 27 or more at 100 Hz; equal counts
# have a chance of 6e-4), and with it the check has something to compare.
py "$PPROF" <<'PY'
import json, sys
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
pprof = sys.argv[1]
d = json.load(open("d.json"))
base_total = d["base"]["total_sec"]
top = pc.top(pprof, "d.pb.gz", "-unit=s")
fns = [f for f in d["functions"] if f["kind"] == "function"]
names = {f["name"] for f in fns} | set(top)
want = {f["name"]: -f["self_diff"] for f in fns}
for n in names:
    flat = top[n].flat if n in top else 0.0
    # pprof: second - baseline, the opposite sign of egprof's base - second
    assert abs(flat - want.get(n, 0.0)) <= 0.0051, (n, top.get(n), want.get(n))
    if n in top and want.get(n):
        # -diff_base's percentages are of the baseline's total (report.go)
        assert abs(abs(top[n].flat_pct) - 100 * abs(want[n]) / base_total) <= 0.011, (n, top[n])
assert want.get("kernel_b", 0) > 0, want
# one side only: old_norm's time is all gone, new_norm's all added (each
# may have no sample in a run under heavy load: then both read 0)
assert want.get("old_norm", 0) <= 0 and want.get("new_norm", 0) >= 0, want
# -diff_base of the two sides written alone: the same table
alone = pc.top(pprof, "b.pb.gz", "-unit=s", "-diff_base=a.pb.gz")
for n in set(alone) | set(top):
    a, t = alone.get(n), top.get(n)
    assert (a.flat if a else 0) == (t.flat if t else 0), (n, a, t)
    assert not (a and t) or a.flat_pct == t.flat_pct, (n, a, t)
# calls: exact counts, not sampled
calls = pc.top(pprof, "d.pb.gz", "-sample_index=calls")
for f in fns:
    got = calls[f["name"]].flat if f["name"] in calls else 0
    assert got == -f["calls_diff"], (f["name"], calls.get(f["name"]), f["calls_diff"])
raw = pc.raw(pprof, "d.pb.gz")
base = [s for s in raw.samples if s[2].get("pprof::base") == "true"]
assert base and all(v <= 0 for s in base for v in s[0]), base[:3]
assert all(v >= 0 for s in raw.samples if not s[2] for v in s[0])
print("ok")
PY
check "gmon.out alone: pprof -top is the diff's self differences (pprof's sign), -diff_base the same" [ $? = 0 ]

# from call paths: each function's samples, second minus baseline
"$EGPROF" -b --diff v/base/views v/base/gmon.out v/changed/views v/changed/gmon.out \
	--pprof p.pb.gz >/dev/null 2>err.txt
check "--diff --pprof with sidecars exits 0" [ $? = 0 ]
(cd v/base && "$EGPROF" --callpath --format json views gmon.out >../../pa.json 2>/dev/null)
(cd v/changed && "$EGPROF" --callpath --format json views gmon.out >../../pb.json 2>/dev/null)
py "$PPROF" <<'PY'
import json, sys, collections
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
pprof = sys.argv[1]
want = collections.Counter()
for doc, sign in (("pa.json", -1), ("pb.json", 1)):
    for f in json.load(open(doc))["frames"]:
        want[f["function"]] += sign * f["self_samples"]
top = pc.top(pprof, "p.pb.gz", "-sample_index=samples")
got = {n: r.flat for n, r in top.items() if r.flat}
want = {n: v for n, v in want.items() if v}
assert got == want, (got, want)
raw = pc.raw(pprof, "p.pb.gz")
assert any("from call paths" in c for c in raw.comments), raw.comments
# kernel_b is four times as slow: more time in the second run (some 90
# samples against 270 or more at 1000 Hz: a false failure below 1e-12)
assert "kernel_b" in top and top["kernel_b"].flat > 0, top.get("kernel_b")
print("ok")
PY
check "call paths: pprof -top's samples are the sides' records, second minus baseline" [ $? = 0 ]

# the filters reach the diff's profile
"$EGPROF" -b --diff v/base/views v/base/gmon.out v/changed/views v/changed/gmon.out \
	--pprof r.pb.gz --root solve >/dev/null 2>&1
check "--root solve: the diff's stacks start at solve" \
	bash -c "'$PPROF' -traces -sample_index=calls r.pb.gz 2>/dev/null | grep -q solve &&
		 ! '$PPROF' -traces -sample_index=calls r.pb.gz 2>/dev/null | grep -qw main"
done_testing
