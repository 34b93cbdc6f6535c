#!/usr/bin/env bash
# Per-thread views of a 2-thread program (testsuite/fixtures/callpath/
# two_threads.c: work_a on thread worker-a, work_b on worker-b, each a fixed
# amount of arithmetic, the main thread waiting).  The sidecar keeps both
# threads and the main thread apart (cpdump -H: their names and tids); in
# the HTML report's call-path columns every frame's per-thread calls and
# samples sum exactly to the frame's (integers, no tolerance); in headless
# Chromium, choosing worker-a in the thread selector leaves work_b out of
# the table, the icicle, the bottom-up view and the callers and callees,
# the table's seconds are worker-a's samples / hz exactly, the fragment
# says thread=N, and opening the page with that fragment shows the same.
# No timing: which thread ran which function is fixed by the program; the
# only statistical part is that each worker, with about 0.2 s of CPU time
# at 1000 Hz, takes at least one sample (Poisson, mean > 100: the chance of
# none is below e^-100).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
gcc -pg -O1 -g -o two "$SRCDIR/testsuite/fixtures/callpath/two_threads.c" -lpthread >build.log 2>&1 &&
	LD_PRELOAD="$CALLPATH_SO" ./two >/dev/null || { cat build.log; echo "Bail out! cannot build and run two_threads.c"; exit 1; }
"$BUILDDIR/tools/cpdump/cpdump" -H gmon.out.callpath >head.txt
check "the sidecar keeps worker-a, worker-b and the main thread apart" \
	sh -c 'grep -q "^thread-views 3 limit 64$" head.txt &&
	       grep -q "^thread 0 tid [1-9][0-9]* main threads 1 .* name two$" head.txt &&
	       grep -q "^thread [12] tid [1-9][0-9]* kept threads 1 .* name worker-a$" head.txt &&
	       grep -q "^thread [12] tid [1-9][0-9]* kept threads 1 .* name worker-b$" head.txt'
"$EGPROF" -b two gmon.out --html r.html >/dev/null 2>err.txt
check "--html exits 0" [ $? = 0 ]
chromium_find || { ok "# SKIP chromium not installed"; done_testing; }
VIEWS='(function(){
  var inv = egprof.inverted(), g = egprof.callGraph();
  var names = function (root) { var s = {}; (function w(n){ s[n.name] = 1; n.kids.forEach(w); })(root); return Object.keys(s); };
  return {
    table: egprof.table.rows.map(r => [r.name, r.self_sec, r.calls]),
    shown: Array.from(document.querySelectorAll("#functions tbody tr td.name")).map(c => c.textContent),
    down: [egprof.flame.root.inclSelf[0], names(egprof.flame.root)],
    up: inv.root.kids.map(k => [k.name, k.inclSelf[0]]),
    graph: Array.from(g.fns.keys()),
    hz: inv.hz[0],
    state: egprof.state(),
    hash: location.hash,
    select: document.getElementById("thread-select").value
  }; })()'
browser "file://$PWD/r.html#view=functions" \
	--eval 'inv=(function(){ egprof.navigate({view: "inverted"}); egprof.navigate({view: "functions"}); return 1; })()' \
	--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' \
	--eval "all=$VIEWS" \
	--eval 'pick=(function(){ var s = document.getElementById("thread-select"), o = Array.from(s.options).filter(o => /^worker-a /.test(o.textContent))[0]; s.value = o.value; s.dispatchEvent(new Event("change")); return o.value; })()' \
	--eval "a=$VIEWS" >b.json
check "the page opens without errors" py b.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
print("ok")
PY
check "every frame's per-thread calls and samples sum exactly to its own" py b.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["evals"]["data"]["callpath"]
tv, n = c["thread_values"], len(c["parent"])
calls, samples = [0] * n, [0] * n
for f, t, k, s in zip(tv["frame"], tv["thread"], tv["calls"], tv["samples"]):
    assert 0 <= t < len(c["threads"]), t
    calls[f] += k
    samples[f] += s
for i in range(n):
    assert calls[i] == c["calls"][i] + c["recursive_calls"][i], (i, calls[i], c["calls"][i])
    assert samples[i] == c["self_samples"][i], (i, samples[i], c["self_samples"][i])
for t in c["threads"]:
    own = [s for tt, s in zip(tv["thread"], tv["samples"]) if tt == t["index"]]
    assert t["samples"] == sum(own), t
print("ok")
PY
check "worker-a chosen: work_a in every view, work_b in none; the table's seconds are its samples / hz" py b.json <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["evals"]
c, A, ALL = ev["data"]["callpath"], ev["a"], ev["all"]
t = [x for x in c["threads"] if x["name"] == "worker-a"][0]
assert ev["pick"] == str(t["index"]) and A["select"] == ev["pick"] and A["state"]["thread"] == t["index"], (ev["pick"], A)
assert "thread=%d" % t["index"] in A["hash"], A["hash"]
# the whole process first: both workers
assert {"work_a", "work_b"} <= set(ALL["graph"]) and {"work_a", "work_b"} <= set(ALL["down"][1]), ALL
name = lambda f: c["names"][c["function"][f]]
tv = c["thread_values"]
mine = {}
for f, tt, s in zip(tv["frame"], tv["thread"], tv["samples"]):
    if tt == t["index"]:
        mine[name(f)] = mine.get(name(f), 0) + s
assert t["samples"] > 0 and mine.get("spin", 0) > 0, (t, mine)
for view in (A["graph"], A["down"][1], A["shown"], [r[0] for r in A["table"]]):
    assert "work_a" in view and "work_b" not in view and "thread_b" not in view, view
hz = A["hz"]
for r in A["table"]:
    assert abs(r[1] - mine.get(r[0], 0) / hz) < 1e-12, (r, mine, hz)
assert abs(sum(r[1] for r in A["table"]) - t["samples"] / hz) < 1e-9, (A["table"], t)
assert A["down"][0] == t["samples"] and sum(u[1] for u in A["up"]) == t["samples"], (A["down"], A["up"], t)
assert dict((r[0], r[2]) for r in A["table"])["work_a"] == 1, A["table"]
print("ok")
PY
IDX=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evals"]["pick"])' b.json)
browser "file://$PWD/r.html#view=inverted&thread=$IDX" --eval "d=$VIEWS" >d.json
check "the deep link view=inverted&thread=$IDX opens worker-a's call paths" py d.json "$IDX" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
D = b["evals"]["d"]
assert D["state"]["thread"] == int(sys.argv[2]) and D["select"] == sys.argv[2], D
assert "work_a" in D["down"][1] and "work_b" not in D["down"][1], D["down"]
assert "work_b" not in [r[0] for r in D["table"]], D["table"]
print("ok")
PY
done_testing
