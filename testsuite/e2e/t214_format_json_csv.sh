#!/usr/bin/env bash
# --format json|csv (issue 13 item 9) for --diff, --rank-stats and
# --callpath: parsed by python3's json and csv modules, numbers checked
# against /usr/bin/gprof and against egprof's own text output.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

sh "$FIG1/fig1.sh" . >build.log 2>&1 || { echo "Bail out! fig1.sh failed"; exit 1; }
"$SYSGPROF" -b -p demo fig1-a.gmon >a-flat.txt
"$SYSGPROF" -b -p demo fig1-b.gmon >b-flat.txt

# --- --diff -----------------------------------------------------------------
"$EGPROF" --diff --format json demo fig1-a.gmon fig1-b.gmon >d.json 2>d.err; rc=$?
check "--diff --format json exits 0, nothing on stderr" [ $rc = 0 ] && [ ! -s d.err ]
"$EGPROF" --diff -b --extended demo fig1-a.gmon fig1-b.gmon >d.txt
check "diff JSON: schema, both sides, per function numbers equal gprof's flat profiles" \
	py d.json a-flat.txt b-flat.txt d.txt <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "egprof-diff" and d["version"] == 3
assert d["base"]["gmon_files"] == ["fig1-a.gmon"] and d["second"]["binary"] == "demo"
def flat(path):
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 4 and re.match(r"^[\d.]+$", f[0]) and re.match(r"^[\d.]+$", f[2]):
            out[f[-1]] = (float(f[2]), int(f[3]) if len(f) >= 6 else 0)
    return out
a, b = flat(sys.argv[2]), flat(sys.argv[3])
fn = {x["name"]: x for x in d["functions"]}
assert sorted(fn) == sorted(set(a) | set(b)), (sorted(fn), sorted(a))
text = open(sys.argv[4]).read().splitlines()
for name, x in fn.items():
    assert abs(x["self_base"] - a[name][0]) < 0.006, name
    assert abs(x["self_second"] - b[name][0]) < 0.006, name
    assert x["calls_base"] == a[name][1] and x["calls_second"] == b[name][1], name
    assert abs(x["self_diff"] - (x["self_base"] - x["self_second"])) < 1e-9
    assert x["calls_diff"] == x["calls_base"] - x["calls_second"]
    if x["self_base"]:
        assert abs(x["self_ratio"] - x["self_second"] / x["self_base"]) < 1e-9
    # the text's line for the function shows the same difference
    line = [l for l in text if l.rstrip().endswith(" " + name)]
    assert line and "%.2f" % abs(x["self_diff"]) in line[0], (name, line)
assert abs(sum(abs(x["self_diff"]) for x in fn.values()) - d["abs_diff_sum_sec"]) < 1e-9
arcs = {(x["caller"], x["callee"]): x for x in d["arcs"]}
assert arcs[("f_c", "f_d")]["calls_base"] == 30 and arcs[("f_c", "f_d")]["calls_second"] == 20
assert fn["main"]["calls_ratio"] is None      # never called: no ratio
assert fn["f_d"]["within_noise"] is False and fn["f_d"]["noise_sec"] > 0
# one verdict per row, as the text's (issue 24 item 2)
for x in fn.values():
    assert x["significant"] == (x["verdict"] == "significant")
    assert x["within_noise"] == (x["verdict"] == "within noise")
print("ok")
PY
"$EGPROF" --diff --format csv demo fig1-a.gmon fig1-b.gmon >d.csv 2>/dev/null
check "diff CSV: one header, records of both tables, same numbers as the JSON" py d.csv d.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
j = json.load(open(sys.argv[2]))
fns = [r for r in rows if r["record"] == "functions"]
arcs = [r for r in rows if r["record"] == "arcs"]
assert len(fns) == len(j["functions"]) and len(arcs) == len(j["arcs"])
for r, x in zip(fns, j["functions"]):
    assert r["name"] == x["name"]
    assert abs(float(r["self_diff"]) - x["self_diff"]) < 1e-9
    assert int(r["calls_base"]) == x["calls_base"]
    assert r["caller"] == ""
for r, x in zip(arcs, j["arcs"]):
    assert (r["caller"], r["callee"]) == (x["caller"], x["callee"]) and r["name"] == ""
print("ok")
PY
"$EGPROF" --diff --format json demo fig1-a.gmon fig1-b.gmon --dot g.dot >d2.json 2>/dev/null
check "--format json still writes the graph files" bash -c '[ -s g.dot ] && cmp -s d.json d2.json'

# --- --rank-stats -----------------------------------------------------------
"$EGPROF" --rank-stats --format json demo fig1-a.gmon fig1-b.gmon >r.json 2>r.err; rc=$?
check "--rank-stats --format json exits 0" [ $rc = 0 ]
"$EGPROF" --rank-stats demo fig1-a.gmon fig1-b.gmon >r.txt
check "rank-stats JSON: the numbers of the text report" py r.json r.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "egprof-rank-stats" and d["version"] == 1 and d["rank_count"] == 2
fn = {x["name"]: x for x in d["functions"]}
seen = 0
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 12 and f[-1] in fn and "/" in f[-2]:
        x = fn[f[-1]]
        assert abs(x["cost_sec"] - float(f[0])) < 0.006, f
        assert abs(x["self_total"] - float(f[2])) < 0.006
        assert abs(x["self_min"] - float(f[3])) < 0.006 and abs(x["self_max"] - float(f[5])) < 0.006
        assert x["self_min_rank"] == f[6] and x["self_max_rank"] == f[7]
        assert x["calls_min"] == int(f[8]) and x["calls_max"] == int(f[9])
        assert f[10] == "%d/2" % x["ran_on"]
        seen += 1
assert seen == len(fn) >= 3, (seen, sorted(fn))
ranks = {x["rank"]: x for x in d["ranks"]}
assert ranks["#0"]["gmon_file"] == "fig1-a.gmon" and abs(ranks["#0"]["self_sec"] - 10.94) < 1e-6
print("ok")
PY
"$EGPROF" --rank-stats --format csv demo fig1-a.gmon fig1-b.gmon >r.csv 2>/dev/null
check "rank-stats CSV parses" py r.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert {r["record"] for r in rows} == {"functions", "ranks"}
assert any(r["name"] == "f_d" and r["self_max"] == "5.51" for r in rows)
print("ok")
PY

# --- --callpath -------------------------------------------------------------
gcc -pg -O0 -o cp "$SRCDIR/testsuite/fixtures/callpath/acceptance.c" &&
	LD_PRELOAD="$BUILDDIR/callpath/libcallpath.so" ./cp >/dev/null ||
	{ echo "Bail out! cannot run the call-path example"; exit 1; }
"$EGPROF" --callpath --format json cp gmon.out >c.json 2>c.err; rc=$?
check "--callpath --format json exits 0" [ $rc = 0 ]
"$EGPROF" -b --callpath --all-paths cp gmon.out >c.txt
check "callpath JSON: stdout is only JSON; the tree of the text report" py c.json c.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "egprof-callpath" and d["version"] == 1
# a folded-recursion frame is printed on its parent's line ("1+3")
frames = [f for f in d["frames"] if not f["folded"]]
# The tree's header: "calls  function (call site)", or, when the run
# took samples (a tick in the runtime's start-up, on a loaded machine),
# with "incl s" and "self s" columns between; the tree ends at a blank line.
txt = open(sys.argv[2]).read().splitlines()
import re
h = [i for i, l in enumerate(txt) if re.match(r"^ *calls( +incl s +self s)? +function \(call site\)$", l)]
assert len(h) == 1, h
ncol = 3 if "incl s" in txt[h[0]] else 1
at = txt[h[0]].index("function")
lines = []
for l in txt[h[0] + 1:]:
    if not l.strip():
        break
    lines.append(l)
assert len(lines) == len(frames), (len(lines), len(frames))
# the text tree lists each frame: count, [times,] indent 2 per level, name, (site)
def row(l):
    w = l.split()
    name = w[ncol]
    return (int(w[0].split("+")[0]), l.index(name, at) - at, name.lstrip("*"))
tree = sorted(row(l) for l in lines)
js = sorted((f["calls"], 2 * (f["depth"] - 1), f["function"]) for f in frames)
assert tree == js, (tree, js)
byid = {f["id"]: f for f in frames}
for f in frames:
    if f["parent"] is not None:
        assert f["path"] == byid[f["parent"]]["path"] + ";" + f["function"]
assert d["total_calls"] == sum(f["calls"] + f["recursive_calls"] for f in d["frames"])
print("ok")
PY

# --- errors -------------------------------------------------------------------
check "every JSON document validates against its schema (doc/schema)" \
	python3 "$SRCDIR/scripts/json_schema.py" validate d.json d2.json r.json c.json
"$EGPROF" --format json demo fig1-a.gmon >e.out 2>e.err; rc=$?
check "--format json alone is refused" [ $rc = 1 ]
check "--format json alone: says what it needs, prints nothing" \
	bash -c 'grep -q "needs --diff, --rank-stats or --callpath" e.err && [ ! -s e.out ]'
"$EGPROF" --diff --format xml demo fig1-a.gmon fig1-b.gmon >e.out 2>e.err; rc=$?
check "--format xml is refused" bash -c "[ $rc = 1 ] && grep -q \"takes text, json, csv or markdown, not 'xml'\" e.err"
"$EGPROF" --diff --extended --format json demo fig1-a.gmon fig1-b.gmon >e.out 2>e.err; rc=$?
check "--format json with --extended is refused" bash -c "[ $rc = 1 ] && [ ! -s e.out ] && grep -q 'cannot be combined' e.err"
done_testing
