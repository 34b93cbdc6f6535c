#!/usr/bin/env bash
# --metric EV in the outputs other than the report (issue 27, item 4):
# --pprof names the event as period type (PAPI's event, `events`, the
# period), not cpu nanoseconds; the diff's two-column --folded holds
# events (overflows times the period), not overflows, with and without a
# filter; and without --metric it still holds time samples.  The graphs
# (GML, GraphML, DOT) of a profile and of a diff are drawn in the event,
# their numbers --folded's; a metric or sidecar missing is an error.
#
# Noise bounds: t700's.  touch() writes one byte to each page of a new
# mapping, one fault each: 6,000 (or 12,000) under touch_big, 2,000 under
# touch_small, counted every 10 faults: within 10%.  Overflows instead of
# events would be a tenth of that, far outside.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
counters_pages_runs 6000 12000
within() { # VALUE EXPECTED PERCENT
	[ -n "$1" ] && awk -v v="$1" -v e="$2" -v p="$3" \
		'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e * p / 100) }'
}
"$EGPROF" --diff --metric perf::PAGE-FAULTS --folded d.folded ./pages r12000/gmon.out \
	r6000/gmon.out > /dev/null 2> d.err
read -r a b <<< "$(awk '$1 == "main;touch_big;touch" { print $2, $3 }' d.folded)"
cp_check "--diff --metric --folded: touch_big's faults in events, A $a (12000)" within "$a" 12000 10
cp_check "... B $b (6000)" within "$b" 6000 10
read -r a b <<< "$(awk '$1 == "main;touch_small;touch" { print $2, $3 }' d.folded)"
cp_check "... touch_small's, $a and $b (2000 each)" \
	bash -c "within() { awk -v v=\"\$1\" -v e=\"\$2\" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e / 10) }'; }; within '$a' 2000 && within '$b' 2000"
"$EGPROF" --diff --metric perf::PAGE-FAULTS --focus touch_big --folded f.folded ./pages \
	r12000/gmon.out r6000/gmon.out > /dev/null 2> f.err
read -r a b <<< "$(awk '$1 == "main;touch_big;touch" { print $2, $3 }' f.folded)"
cp_check "... with --focus too: $a, $b" bash -c "[ '$a' -ge 10800 ] && [ '$b' -le 6600 ] && [ '$b' -ge 5400 ]"
cp_check "... and only the focused paths" bash -c "! grep -q touch_small f.folded"
"$EGPROF" --diff --folded t.folded ./pages r12000/gmon.out r6000/gmon.out > /dev/null 2>&1
# (the time samples are 1 kHz CPU time: a loaded machine's second of page
# faults is 1000 of them; touch_big's 12000 events would be past 9000;
# counts are the last two fields: a library leaf's name has a space)
cp_check "without --metric the file holds time samples (no path near 12000)" \
	bash -c "! awk '\$(NF - 1) > 9000 || \$NF > 9000' t.folded | grep -q ."

# The graphs carry the metric too (issue 27, item 2): each function's self
# and inclusive events and each call's, equal to what --folded says of the
# same paths (both sum the same overflows times the period), in
# attributes named by the unit, the graph naming the metric.  touch_big:
# 12,000 pages, within 10% as above (gprof's seconds would be below 1).
cat > graph_check.py <<'PY'
import sys, networkx as nx
kind, gml, graphml, folded = sys.argv[1:5]
g = nx.read_gml(gml, label="id")
x = nx.read_graphml(graphml)
diff = kind == "diff"
side = [{}, {}]                       # stack -> events, per side
for line in open(folded):
    f = line.rsplit(" ", 2 if diff else 1)
    for s in range(2 if diff else 1):
        side[s][f[0]] = side[s].get(f[0], 0) + int(f[1 + s])
def incl(s, fn):     # the paths through fn (no recursion here)
    return sum(v for k, v in side[s].items() if fn in k.split(";"))
def self_(s, fn):
    return sum(v for k, v in side[s].items() if k.split(";")[-1] == fn)
def along(s, a, b):  # the paths through the call a -> b
    return sum(v for k, v in side[s].items() if ";".join([a, b]) in k)
assert g.graph["metric"] == "perf::PAGE-FAULTS" and g.graph["unit"] == "events", g.graph
assert x.graph["metric"] == "perf::PAGE-FAULTS" and x.graph["unit"] == "events", x.graph
assert "perf::PAGE-FAULTS in events" in g.graph["label"], g.graph["label"]
byname = {d["name"]: (n, d) for n, d in g.nodes(data=True) if d["kind"] == "function"}
xby = {d["name"]: d for n, d in x.nodes(data=True) if d.get("kind") == "function"}
assert "touch_big" in byname and "main" in byname, sorted(byname)
for fn, (n, d) in byname.items():
    assert not any(k.endswith("_sec") for k in d), d
    if not diff:
        want = (self_(0, fn), incl(0, fn))
        got = (d["self_events"], d["total_events"])
        xgot = (xby[fn]["self_events"], xby[fn]["total_events"])
    else:
        want = (self_(0, fn), self_(1, fn), incl(0, fn), incl(1, fn))
        got = (d["self_base"], d["self_second"], d["total_base"], d["total_second"])
        xgot = (xby[fn]["self_base"], xby[fn]["self_second"], xby[fn]["total_base"],
                xby[fn]["total_second"])
        assert d["total_diff"] == got[2] - got[3], d
    assert tuple(round(v) for v in got) == want, (fn, got, want)
    assert tuple(round(v) for v in xgot) == want, (fn, xgot, want)
names = {n: d["name"] for n, d in g.nodes(data=True)}
calls = [(names[a], names[b], d) for a, b, d in g.edges(data=True) if d["kind"] == "call"]
assert calls
for a, b, d in calls:
    if not diff:
        assert round(d["events"]) == along(0, a, b), (a, b, d)
    else:
        assert (round(d["events_base"]), round(d["events_second"])) == \
            (along(0, a, b), along(1, a, b)), (a, b, d)
big = byname["touch_big"][1]
t = big["total_events"] if not diff else big["total_base"]
assert abs(t - 12000) <= 1200, t
if diff:
    assert abs(big["total_second"] - 6000) <= 600, big
    # the diff's verdicts (one source): touch's own faults changed, on
    # the call from touch_big, which is drawn as changed
    assert byname["touch"][1]["significant"] == 1, byname["touch"][1]
    sig = {(a, b): d["significant"] for a, b, d in calls}
    assert sig[("touch_big", "touch")] == 1 and sig[("main", "touch_big")] == 1, sig
print("ok")
PY
"$EGPROF" -b --metric perf::PAGE-FAULTS --gml s.gml --graphml s.graphml --dot s.dot \
	--folded s.folded ./pages r12000/gmon.out > /dev/null 2> s.err
cp_check "--metric --gml/--graphml: nodes' self and inclusive events and the calls' are --folded's; touch_big ~12000" \
	bash -c "python3 graph_check.py single s.gml s.graphml s.folded > s.py 2>&1 && [ \"\$(tail -n 1 s.py)\" = ok ] || { tail -n 4 s.py | sed 's/^/# /' >&2; false; }"
cp_check "... GraphML is well-formed (xmllint), with keys named by the unit" \
	bash -c "xmllint --noout s.graphml && grep -q 'attr.name=\"total_events\"' s.graphml && ! grep -q '_sec\"' s.graphml"
cp_check "... DOT lays out (dot -Tsvg) and its labels are events" \
	bash -c "dot -Tsvg s.dot > s.svg && grep -Eq 'total 1[0-9]{4} events' s.dot && ! grep -q ' s (' s.dot"
"$EGPROF" -b --diff --metric perf::PAGE-FAULTS --gml d.gml --graphml d.graphml --dot d.dot \
	--folded d2.folded --node-thres 0 --edge-thres 0 ./pages r12000/gmon.out ./pages \
	r6000/gmon.out > /dev/null 2> d2.err
cp_check "--diff --metric: both runs' events, baseline minus second, touch_big's calls' change significant" \
	bash -c "python3 graph_check.py diff d.gml d.graphml d2.folded > d.py 2>&1 && [ \"\$(tail -n 1 d.py)\" = ok ] || { tail -n 4 d.py | sed 's/^/# /' >&2; false; }"
cp_check "... GraphML well-formed, DOT lays out" \
	bash -c "xmllint --noout d.graphml && dot -Tsvg d.dot > d.svg && grep -q 'events, diff +' d.dot"

# a metric the sidecars lack, or no sidecar: an error naming the file and
# the metric, and the graph files as they were
echo old > keep.dot
cp keep.dot keep.gml
"$EGPROF" -b --metric perf::NOPE --dot keep.dot --gml keep.gml ./pages r12000/gmon.out \
	> /dev/null 2> nope.err
rc=$?
cp_check "--metric the sidecar lacks: exit 1, names the sidecar and the metric, no graph written" \
	bash -c "[ $rc = 1 ] && grep -q \"r12000/gmon.out.callpath: no metric 'perf::NOPE'\" nope.err && [ \"\$(cat keep.dot keep.gml)\" = \"old
old\" ]"
mkdir -p nosc && cp r6000/gmon.out nosc/
"$EGPROF" -b --diff --metric perf::PAGE-FAULTS --graphml keep.dot ./pages r12000/gmon.out \
	./pages nosc/gmon.out > /dev/null 2> nosc.err
rc=$?
cp_check "--diff --metric, a side without sidecars: exit 1, names the missing sidecar, no graph" \
	bash -c "[ $rc = 1 ] && grep -q 'nosc/gmon.out.callpath: .*--metric perf::PAGE-FAULTS' nosc.err && [ \"\$(cat keep.dot)\" = old ]"

# without --metric the graphs stay gprof's call graph in seconds, their
# measured edges time
"$EGPROF" -b --diff --dot t.dot ./pages r12000/gmon.out ./pages r6000/gmon.out > /dev/null 2>&1
cp_check "without --metric the graphs are seconds, not events" \
	bash -c "grep -q ' s, diff' t.dot && ! grep -q events t.dot"

if command -v go > /dev/null && go tool pprof -h > /dev/null 2>&1; then
	"$EGPROF" -b -p --metric perf::PAGE-FAULTS --pprof p.pb.gz ./pages r6000/gmon.out > /dev/null
	go tool pprof -raw p.pb.gz > raw.txt 2>&1
	cp_check "--pprof --metric: pprof reads the period type as the event" \
		grep -qx "PeriodType: perf::PAGE-FAULTS events" raw.txt
	cp_check "... and the period as the event's (10)" grep -qx "Period: 10" raw.txt
	cp_check "... and the sample type" grep -q "perf::PAGE-FAULTS/events" raw.txt
	"$EGPROF" -b -p --pprof q.pb.gz ./pages r6000/gmon.out > /dev/null
	go tool pprof -raw q.pb.gz > rawq.txt 2>&1
	cp_check "without --metric: cpu nanoseconds" grep -qx "PeriodType: cpu nanoseconds" rawq.txt
else
	cp_check "pprof's reading of --pprof # SKIP go tool pprof is not installed" true
fi
cp_done
