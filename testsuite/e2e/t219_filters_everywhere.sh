#!/usr/bin/env bash
# --focus, --root, --depth and the new --exclude apply alike to graphs,
# folded stacks, pprof, HTML and JSON (issue 25 item 4).  The expected
# functions and paths are computed here from the unfiltered outputs by the
# rules of doc/graphs.md (one part of a big program), independently of
# filter/; then every output of each filtered command must hold exactly
# them: the GML graph and the HTML's flat table the functions, the --callpath
# JSON, the folded stacks, the pprof stacks and the HTML's call paths the
# paths (with their calls and samples).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
pprof_find || skip_all "pprof not available (apt-get install golang-go golang-github-google-pprof-dev)"
views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
cd v/base || exit 1
"$EGPROF" --callpath --format json views gmon.out >all.json 2>/dev/null &&
"$EGPROF" --diff --format json views gmon.out gmon.out >arcs.json 2>/dev/null ||
	{ echo "Bail out! the unfiltered outputs"; exit 1; }
export PPROF

k=0
for opts in "--exclude kernel_a" "--exclude helper --exclude fib" "--focus kernel_b" \
	    "--focus helper --depth 1" "--root solve" "--root solve --depth 1" "--depth 1" \
	    "--focus solve --exclude old_norm"; do
	k=$((k + 1))
	# shellcheck disable=SC2086
	"$EGPROF" -b views gmon.out $opts --node-thres 0 --edge-thres 0 --gml $k.gml \
		--folded $k.folded --pprof $k.pb.gz --html $k.html >/dev/null 2>$k.err &&
	"$EGPROF" --callpath --format json views gmon.out $opts >$k.json 2>>$k.err
	check "$opts: every output written" [ $? = 0 ]
	gml_names $k.gml >$k.names
	py "$k" $opts <<'PY'
import json, os, re, sys, collections
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
n, args = sys.argv[1], sys.argv[2:]
focus = root = None
depth, exclude = None, []
while args:
    o, v = args.pop(0), args.pop(0)
    if o == "--focus": focus = v
    elif o == "--root": root = v
    elif o == "--depth": depth = int(v)
    else: exclude.append(v)
start = focus or root

# --- functions: the call graph's rules --------------------------------------
calls = collections.defaultdict(set)
called = set()
fns = set()
for a in json.load(open("arcs.json"))["arcs"]:
    if a["calls_base"] and a["caller"] != a["callee"]:
        calls[a["caller"]].add(a["callee"]); called.add(a["callee"])
for f in json.load(open("arcs.json"))["functions"]:
    if f["kind"] == "function": fns.add(f["name"])
up = collections.defaultdict(set)
for a, bs in calls.items():
    for b in bs: up[b].add(a)
def reach(adj, starts, allowed, limit=None):
    seen, frontier, d = set(starts), list(starts), 0
    while frontier and (limit is None or d < limit):
        frontier = [v for u in frontier for v in adj[u] if v not in seen and v in allowed]
        seen.update(frontier); d += 1
    return seen
roots = [f for f in fns if f not in called]
before = reach(calls, roots, fns)
allowed = fns - set(exclude)
allowed -= before - reach(calls, [r for r in roots if r in allowed], allowed)
if start or depth is not None:
    s = [start] if start else [r for r in roots if r in allowed]
    keep = reach(calls, s, allowed, depth)
    if focus: keep |= reach(up, s, allowed, depth)
else:
    keep = allowed
graph = set(open(n + ".names").read().split())
assert graph == keep, ("graph", sorted(graph), sorted(keep))

# --- paths: the calling-context tree's rules --------------------------------
frames = json.load(open("all.json"))["frames"]
byid = {f["id"]: f for f in frames}
def chain(f):  # frames from the top to f
    c = []
    while f is not None:
        c.append(f); f = byid[f["parent"]] if f["parent"] is not None else None
    return c[::-1]
want = collections.Counter()
for f in frames:
    c = chain(f)
    real = [x for x in c if not x["folded"]]
    if any(x["function"] in exclude for x in real):
        continue
    names = [x["function"] for x in real]
    if start:
        at = [i for i, x in enumerate(names) if x == start]
        if not at:
            # a caller on the way to a start frame below: no values
            continue
        first = at[0]
        below = len(names) - 1 - first
    else:
        first, below = 0, len(names) - 1
    if depth is not None and below > depth:
        # folded into its ancestor at the depth: its time is that frame's
        cut = names[:first + depth + 1]
        top = first if root else (max(0, first - depth) if focus and depth is not None else 0)
        want[(";".join(cut[top:]), "samples")] += f["self_samples"]
        continue
    top = first if root else (max(0, first - depth) if focus and depth is not None else 0)
    path = ";".join(names[top:] + ([f["function"]] if f["folded"] else []))
    if f["folded"]:
        want[(path, "calls")] += f["recursive_calls"]
    else:
        want[(path, "calls")] += f["calls"]
        want[(path, "samples")] += f["self_samples"]
want = {k: v for k, v in want.items() if v}

def paths_of_json(doc):
    got = collections.Counter()
    fr = doc["frames"]; ids = {f["id"]: f for f in fr}
    for f in fr:
        p = ids[f["parent"]]["path"] + ";" + f["function"] if f["folded"] else f["path"]
        got[(p, "calls")] += f["recursive_calls"] if f["folded"] else f["calls"]
        if not f["folded"]: got[(p, "samples")] += f["self_samples"]
    return {k: v for k, v in got.items() if v}
got = paths_of_json(json.load(open(n + ".json")))
assert got == want, ("json", sorted(set(got.items()) ^ set(want.items())))

folded = {}
for line in open(n + ".folded"):
    p, v = line.rsplit(" ", 1); folded[(p, "samples")] = int(v)
assert folded == {k: v for k, v in want.items() if k[1] == "samples"}, \
    ("folded", sorted(set(folded.items()) ^ set(want.items())))

raw = pc.raw(os.environ["PPROF"], n + ".pb.gz")
pp = collections.Counter()
for vals, locs, labels in raw.samples:
    p = ";".join(raw.locations[l][0] for l in reversed(locs))
    pp[(p, "samples")] += vals[raw.index("samples")]
    pp[(p, "calls")] += vals[raw.index("calls")]
pp = {k: v for k, v in pp.items() if v}
assert pp == want, ("pprof", sorted(set(pp.items()) ^ set(want.items())))

page = open(n + ".html").read()
data = json.loads(re.search(r'id="egprof-data">(.*?)</script>', page, re.S).group(1))
html_fns = set(f["name"] for f in data["profile"]["functions"] if f["kind"] == "function")
assert html_fns == graph, ("html table", sorted(html_fns), sorted(graph))
c = data.get("callpath")
hp = collections.Counter()
if c:
    names = c["names"]
    paths = []
    for i, par in enumerate(c["parent"]):
        nm = names[c["function"][i]]
        paths.append((paths[par] + ";" if par >= 0 else "") + nm)
        key = paths[i]
        if c["folded"][i]:
            hp[(key, "calls")] += c["recursive_calls"][i]
        else:
            hp[(key, "calls")] += c["calls"][i]
            hp[(key, "samples")] += c["self_samples"][i]
hp = {k: v for k, v in hp.items() if v}
assert hp == want, ("html", sorted(set(hp.items()) ^ set(want.items())))
print("ok")
PY
	check "$opts: the graph, the HTML table, JSON, folded stacks, pprof and the HTML's paths agree" [ $? = 0 ]
done

# --exclude is an option of its own, with errors as --focus's
"$EGPROF" -b views gmon.out --exclude no_such_fn --folded x.folded >/dev/null 2>e.txt; rc=$?
check "--exclude of an unknown function: exit 1, named" \
	bash -c "[ $rc = 1 ] && grep -q \"exclude 'no_such_fn'\" e.txt && [ ! -e x.folded ]"
"$EGPROF" -b views gmon.out --exclude solve --focus kernel_a --gml x.gml >/dev/null 2>e.txt; rc=$?
check "--focus on an excluded function: exit 1, says so" \
	bash -c "[ $rc = 1 ] && grep -q 'left out by --exclude' e.txt"
"$EGPROF" --rank-stats views gmon.out gmon.out --focus solve >/dev/null 2>e.txt; rc=$?
check "--rank-stats refuses the filters, saying why" \
	bash -c "[ $rc = 1 ] && grep -q 'without a call graph' e.txt"
done_testing
