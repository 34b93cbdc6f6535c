#!/usr/bin/env python3
"""model_check.py - every view of one analysis says the same numbers.

    model_check.py diff DIR [PPROF]      DIR holds one diff's views:
        d.txt (the text), d.json, d.csv, d.gml, d.graphml, d.html, d.pb.gz
    model_check.py single DIR [PPROF]    one profile's: s.gml, s.graphml,
        s.html, s.pb.gz, s.cp.json (--callpath --format json)

Each value that two views show is compared to the precision the coarser
of them prints (the text's 2 decimals of seconds, pprof's printed value,
GML's 6 decimals): a failure says which value of which views disagree.
The views are read as their users read them (the text as printed, JSON
and CSV by Python's own modules, GML by networkx, GraphML as XML, the HTML
page's data element, pprof through the pprof binary).  Prints "ok" last.
"""
import csv
import html.parser
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pprof_check as pc  # noqa: E402

FAILS = []
# how many values each pair of views compared ("text/JSON": 12, ...): the
# caller checks that every view it asked for was compared at all
COMPARED = {}


def same(what, a, b, tol):
    pair = what.split(" ", 1)[0]
    COMPARED[pair] = COMPARED.get(pair, 0) + 1
    if a is None or b is None:
        if a is not b:
            FAILS.append("%s: %r vs %r" % (what, a, b))
        return
    if abs(a - b) > tol:
        FAILS.append("%s: %r vs %r (tolerance %g)" % (what, a, b, tol))


def html_data(path):
    class P(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.inside, self.text = False, []

        def handle_starttag(self, tag, attrs):
            self.inside = tag == "script" and ("id", "egprof-data") in attrs

        def handle_endtag(self, tag):
            self.inside = False

        def handle_data(self, data):
            if self.inside:
                self.text.append(data)
    p = P()
    p.feed(open(path, encoding="utf-8").read())
    return json.loads("".join(p.text))


def gml_graph(path):
    import networkx as nx
    g = nx.read_gml(path, label="id")
    nodes = {n: d for n, d in g.nodes(data=True)}
    edges = [(nodes[a]["name"], nodes[b]["name"], d) for a, b, d in g.edges(data=True)
             if d.get("kind") == "call"]
    return {d["name"]: d for d in nodes.values() if d.get("kind") not in ("legend",)}, edges


def graphml_nodes(path):
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    root = ET.parse(path).getroot()
    keys = {k.get("id"): k.get("attr.name") for k in root.findall("g:key", ns)}
    out = {}
    for n in root.iter("{http://graphml.graphdrawing.org/xmlns}node"):
        d = {keys[x.get("key")]: x.text for x in n.findall("g:data", ns) if x.get("key") in keys}
        if "name" in d:
            out[d["name"]] = d
    return out


def text_flat(path):
    """The diff's flat table: {name: (self diff, calls diff or None)} and the
    header's count of significant rows and the evidence lines."""
    t = open(path).read()
    m = re.search(r"the (\d+) significant changes first", t)
    nsig = int(m.group(1)) if m else None
    start = t.index("Flat profile:")
    flat = t[start:t.index("\n\n %  ", start) if "\n\n %  " in t[start:] else t.index("Evidence", start)]
    rows = {}
    for line in flat.splitlines():
        m = re.match(r"^ *(-?[0-9.]+) +(-?[0-9.]+) +(-?[0-9.]+)(.{29})(.+)$", line)
        if not m:
            continue
        calls = m.group(4).split()
        rows[m.group(5)] = (float(m.group(3)), int(calls[0]) if calls else None)
    ev = []
    if "Evidence for the significant rows" in t:
        e = t[t.index("Evidence for the significant rows"):]
        e = e[:e.index("\n\n", e.index("\n\n") + 2)]
        for line in e.splitlines():
            # "  NAME: time +0.05 s, ...": a row whose time did not change
            # (two histograms of equal ticks) starts at its calls clause
            # and has no time clause: its time difference is 0
            m = re.match(r"^  (.+?): (.*)$", line)
            if m and not line.startswith("  Within noise") and not line.startswith("  none:"):
                t = re.match(r"^\S+ ([-+][0-9.]+) \S+", m.group(2))
                ev.append((m.group(1), float(t.group(1)) if t else 0.0))
    return rows, nsig, ev


def text_source(path):
    """The header's "Source: ..." sentence, its lines joined; None if none."""
    out = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if out is None and line.startswith("Source: "):
                out = line[len("Source: "):]
            elif out is not None and not out.endswith("."):
                out += " " + line
            if out is not None and out.endswith("."):
                return out[:-1]
    return out


def check_diff(d, pprof):
    j = json.load(open(os.path.join(d, "d.json")))
    unit = j.get("unit", "seconds")
    dec = 2 if unit == "seconds" else 0
    tol = 0.5 * 10 ** -dec + 1e-9
    fn = {f["name"]: f for f in j["functions"] if f["kind"] != "cycle"}
    # the text: the table, the header's count, the evidence
    rows, nsig, ev = text_flat(os.path.join(d, "d.txt"))
    for name, (sd, calls) in rows.items():
        f = fn.get(name)
        if not f:
            FAILS.append("text row %r not in the JSON" % name)
            continue
        same("text/JSON self diff of %s" % name, sd, f["self_diff"], tol)
        if calls is None:
            if f.get("calls_diff") not in (None, 0):
                FAILS.append("text shows no calls for %s, JSON %r" % (name, f["calls_diff"]))
        else:
            same("text/JSON calls diff of %s" % name, calls, f.get("calls_diff"), 0)
    shown_sig = [n for n in rows if fn.get(n, {}).get("significant")]
    if nsig is not None and nsig != len(shown_sig):
        FAILS.append("header counts %d significant rows, the table has %d" % (nsig, len(shown_sig)))
    if nsig is not None and nsig != len(ev):
        FAILS.append("header counts %d significant rows, the evidence %d" % (nsig, len(ev)))
    for name, t in ev:
        if name in fn:
            same("evidence/JSON time of %s" % name, t, fn[name]["self_diff"], tol)
        else:
            FAILS.append("evidence row %r not in the table's JSON" % name)
    # the source and the coverage of its samples, said once: the text's
    # header (wrapped) is the JSON's
    src = text_source(os.path.join(d, "d.txt"))
    COMPARED["text/JSON"] = COMPARED.get("text/JSON", 0) + 1
    # (gmon.out's histogram is what gprof's own header says: "Each sample
    # counts as ...", the text names no other source)
    if src is None and (j.get("source") or "").startswith("time: gmon.out's histogram"):
        pass
    elif src != j.get("source"):
        FAILS.append("text/JSON source: %r vs %r" % (src, j.get("source")))
    # CSV: the same records
    with open(os.path.join(d, "d.csv")) as f:
        for r in csv.DictReader(f):
            if r["record"] != "functions" or r["name"] not in fn:
                continue
            x = fn[r["name"]]
            for k in ("self_base", "self_second", "total_base", "total_second"):
                same("CSV/JSON %s of %s" % (k, r["name"]), float(r[k]), x[k], 1e-9)
            for k in ("calls_base", "calls_second"):
                v = None if r[k] == "" else int(r[k])
                if v != x.get(k):
                    FAILS.append("CSV/JSON %s of %s: %r vs %r" % (k, r["name"], v, x[k]))
    # the graphs: nodes and edges are the JSON's, an edge never more than
    # its callee's total
    nodes, edges = gml_graph(os.path.join(d, "d.gml"))
    u = "sec" if unit == "seconds" else unit
    for name, n in nodes.items():
        if name not in fn:
            continue
        x = fn[name]
        same("GML/JSON self_base of %s" % name, n["self_base"], x["self_base"], 1e-6)
        same("GML/JSON self_second of %s" % name, n["self_second"], x["self_second"], 1e-6)
        same("GML/JSON total_base of %s" % name, n["total_base"], x["total_base"], 1e-6)
        same("GML/JSON total_second of %s" % name, n["total_second"], x["total_second"], 1e-6)
        if bool(n["significant"]) != x["significant"]:
            FAILS.append("GML/JSON verdict of %s" % name)
        if (x.get("calls_base") is None) != ("calls_base" not in n):
            FAILS.append("GML/JSON calls of %s: %r vs %r" % (name, n.get("calls_base"),
                                                           x.get("calls_base")))
    arcs = {(a["caller"], a["callee"]): a for a in j["arcs"]}
    for a, b, e in edges:
        tb, ts = e["time_base" if u == "sec" else u + "_base"], e["time_second" if u == "sec" else u + "_second"]
        if (a, b) in arcs:
            same("GML/JSON time of %s -> %s" % (a, b), tb, arcs[(a, b)]["time_base"], 1e-6)
            same("GML/JSON time' of %s -> %s" % (a, b), ts, arcs[(a, b)]["time_second"], 1e-6)
        if b in nodes:
            if tb > nodes[b]["total_base"] + 1e-6 or ts > nodes[b]["total_second"] + 1e-6:
                FAILS.append("edge %s -> %s carries more than its callee's total" % (a, b))
    gx = graphml_nodes(os.path.join(d, "d.graphml"))
    for name, n in gx.items():
        if name in fn and "self_base" in n:
            same("GraphML/JSON self_base of %s" % name, float(n["self_base"]), fn[name]["self_base"],
                 max(1e-6, 1e-5 * abs(fn[name]["self_base"])))
    # the HTML page's data is the JSON document
    h = html_data(os.path.join(d, "d.html"))
    hf = {f["name"]: f for f in h["diff"]["functions"] if f["kind"] != "cycle"}
    for name, x in fn.items():
        y = hf.get(name)
        if y is None:
            continue
        COMPARED["HTML/JSON"] = COMPARED.get("HTML/JSON", 0) + 1
        for k in ("self_base", "self_second", "self_diff", "total_base", "total_second",
                  "calls_base", "calls_second", "significant"):
            if y.get(k) != x.get(k):
                FAILS.append("HTML/JSON %s of %s: %r vs %r" % (k, name, y[k], x[k]))
    if h["diff"].get("source") != j.get("source"):
        FAILS.append("HTML/JSON source: %r vs %r" % (h["diff"].get("source"), j.get("source")))
    for s, key in ((0, "callpath_base"), (1, "callpath_second")):
        c = h.get(key)
        if c and j["base"].get("source", "sidecars") == "sidecars":
            same("HTML paths' rate / the table's (side %d)" % s, c.get("hz"),
                 j["base" if s == 0 else "second"]["hz"], 1e-9)
    # pprof: each function's own time, second minus baseline (its diff form)
    pb = os.path.join(d, "d.pb.gz")
    if pprof and os.path.exists(pb) and unit == "seconds":
        top = pc.top(pprof, pb, "-sample_index=cpu")
        for name, r in top.items():
            if name in fn and fn[name]["kind"] != "cycle":
                same("pprof/JSON self of %s" % name, r.flat, -fn[name]["self_diff"],
                     0.006 + 0.01 * abs(fn[name]["self_diff"]))


def check_single(d, pprof):
    h = html_data(os.path.join(d, "s.html"))
    p = h["profile"]
    fn = {f["name"]: f for f in p["functions"] if f["kind"] != "cycle"}
    nodes, edges = gml_graph(os.path.join(d, "s.gml"))
    unit = p.get("unit", "seconds")
    u = "sec" if unit == "seconds" else unit
    for name, n in nodes.items():
        if name not in fn:
            continue
        same("GML/HTML self of %s" % name, n["self_" + u], fn[name]["self_sec"], 1e-6)
        same("GML/HTML total of %s" % name, n["total_" + u], fn[name]["total_sec"], 1e-6)
        if (fn[name].get("calls") is None) != ("calls" not in n):
            FAILS.append("GML/HTML calls of %s" % name)
    for a, b, e in edges:
        t = e["time_sec" if u == "sec" else u]
        if b in nodes and t > nodes[b]["total_" + u] + 1e-6:
            FAILS.append("edge %s -> %s carries more than its callee's total" % (a, b))
    c = h.get("callpath")
    if c:
        same("HTML paths' rate / the table's", c.get("hz"), p["hz"], 1e-9)
        selfs = {}
        for i, f in enumerate(c["function"]):
            selfs[c["names"][f]] = selfs.get(c["names"][f], 0) + c["self_samples"][i]
        for name, s in selfs.items():
            if name in fn and s:
                same("paths/table self of %s" % name, s / c["hz"], fn[name]["self_sec"], 1e-9)
    cp = os.path.join(d, "s.cp.json")
    if os.path.exists(cp):
        j = json.load(open(cp))
        tot = sum(f["self_samples"] for f in j["frames"])
        same("--callpath JSON / HTML total samples", tot, sum(c["self_samples"]), 0)
    pb = os.path.join(d, "s.pb.gz")
    if pprof and os.path.exists(pb) and unit == "seconds":
        top = pc.top(pprof, pb, "-sample_index=cpu")
        for name, r in top.items():
            if name in fn:
                same("pprof/HTML self of %s" % name, r.flat, fn[name]["self_sec"],
                     0.006 + 0.01 * fn[name]["self_sec"])


def main():
    kind, d = sys.argv[1], sys.argv[2]
    pprof = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    (check_diff if kind == "diff" else check_single)(d, pprof)
    for f in FAILS[:20]:
        print(f)
    print("compared: " + " ".join("%s=%d" % kv for kv in sorted(COMPARED.items())))
    print("ok" if not FAILS else "%d disagreements" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
