"""flamegraph_check.py - read egprof's --flamegraph SVG and compare it with
the folded stacks of the same command (the tests t070..t079).

    import flamegraph_check as fc
    frames = fc.frames("f.svg")             # parsed with ElementTree
    fc.check_widths(frames, fc.folded("f.txt"))

A frame: {"stack": "main;b", "name": "b", "v": samples wide, "x": left edge
in samples, "d": depth, "merged": bool, "c": '+', '-', '0' (a diff),
"sa", "sb" (a diff's self samples), "fill": "rgb(...)", "rx", "rw": the
rectangle's x and width in px}.
"""
import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
PLOT_PX = 1180.0  # the image's 1200 px less 10 px each side


def frames(path):
    root = ET.parse(path).getroot()
    assert root.tag == NS + "svg", root.tag
    out = []
    for g in root.iter(NS + "g"):
        if "f" not in (g.get("class") or "").split():
            continue
        rect = g.find(NS + "rect")
        name = g.find(NS + "title").text.split("\n")[0]
        f = {
            "name": name, "v": int(g.get("data-v")), "x": int(g.get("data-x")),
            "d": int(g.get("data-d")), "merged": g.get("data-m") is not None,
            "c": g.get("data-c"), "fill": rect.get("fill"),
            "rx": float(rect.get("x")), "rw": float(rect.get("width")),
            "sa": int(g.get("data-sa", "0")), "sb": int(g.get("data-sb", "0")),
            "a": int(g.get("data-a", "0")),
        }
        p = g.get("data-p")
        if p is None:
            f["stack"] = ""
        else:
            parent = out[int(p)]
            f["parent"] = int(p)
            f["stack"] = (parent["stack"] + ";" if parent["stack"] else "") + name
        out.append(f)
    return out, root


def folded(path, column=0):
    """{stack: count} of a folded file; column 1: a diff's second run."""
    out = {}
    for line in open(path, encoding="utf-8"):
        parts = line.rstrip("\n").rsplit(" ", 2)
        if len(parts) == 3 and re.fullmatch(r"\d+", parts[1]):
            stack, counts = parts[0], [int(parts[1]), int(parts[2])]
        else:
            stack, c = line.rstrip("\n").rsplit(" ", 1)
            counts = [int(c)]
        out[stack] = out.get(stack, 0) + counts[column]
    return out


def inclusive(stacks):
    """Each prefix's inclusive count: what flamegraph.pl draws as width."""
    incl = {"": 0}
    for s, c in stacks.items():
        incl[""] += c
        parts = s.split(";")
        for i in range(1, len(parts) + 1):
            k = ";".join(parts[:i])
            incl[k] = incl.get(k, 0) + c
    return incl


def min_px(root):
    """The minimum width the image says it used (0.1 px unless raised)."""
    note = "".join(e.text or "" for e in root.iter(NS + "text") if e.get("id") == "note")
    m = re.search(r"narrower than ([0-9.]+) px", note)
    return float(m.group(1)) if m else 0.1


def check_widths(fr, stacks, least_px=0.1):
    """Every frame as wide as the folded counts of its stack and those below
    it, exactly; every stack of the file drawn or inside a merged frame; the
    rectangles' widths in px in proportion.  Returns (frames, merged)."""
    incl = inclusive(stacks)
    total = incl[""]
    assert fr[0]["stack"] == "" and fr[0]["v"] == total, (fr[0], total)
    drawn = {}
    for f in fr:
        if f["merged"]:
            continue
        assert f["stack"] in incl, ("a frame of no folded stack", f["stack"])
        assert f["v"] == incl[f["stack"]], (f["stack"], f["v"], incl[f["stack"]])
        assert f["stack"] not in drawn, ("two frames of one stack", f["stack"])
        drawn[f["stack"]] = f
        assert abs(f["rw"] - f["v"] * PLOT_PX / total) < 0.002, (f, total)
    merged = 0
    for i, f in enumerate(fr):
        if not f["merged"]:
            continue
        merged += 1
        parent = fr[f["parent"]]
        kids = [k for k in incl if k.startswith(parent["stack"] + ";" if parent["stack"] else "")
                and k != parent["stack"] and ";" not in k[len(parent["stack"]) + (1 if parent["stack"] else 0):]]
        rest = sum(incl[k] for k in kids if k not in drawn)
        assert f["v"] == rest, ("a merged frame is not its narrow siblings' sum", f, rest)
    # every stack with samples is drawn, or lies below a frame not drawn
    # one by one (merged, or in a group too narrow to draw)
    for s in incl:
        if not s or not incl[s] or s in drawn:
            continue
        parent = s.rsplit(";", 1)[0] if ";" in s else ""
        # the note's minimum is rounded to 0.01 px
        assert parent not in drawn or incl[s] * PLOT_PX / total < least_px + 0.005, \
            ("a wide stack not drawn", s, incl[s], least_px)
    return len(fr), merged
