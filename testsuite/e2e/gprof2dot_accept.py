#!/usr/bin/env python3
"""Would gprof2dot's `-f prof` reader take this gprof text?  (issue 24 item 9)

  gprof2dot_accept.py FILE    exit 0 and "ok: N functions, N calls, N lines
                              skipped" when it would; exit 1 naming the check
                              that would stop it (an AssertionError in
                              gprof2dot, or its "unexpected end of file")

gprof2dot (github.com/jrfonseca/gprof2dot, GprofParser and Profile) is not
packaged in Debian and PyPI is out of reach, so this is its acceptance written
anew from reading its source, for the tests: which call-graph lines it
recognises (unsigned numbers only: a line it does not recognise it skips with
a warning), how it builds the profile from the entries it read, and the
assertions its profile checks then make:

  - a callee line naming a function whose own entry it did not read makes a
    function without a time (its parser sets the time on the wrong object),
    and `ratio` asserts that every function has one;
  - a cycle's time is integrated from each function called into it from
    outside, along the calls inside it (shortest paths), and it asserts that
    what it reaches is the whole cycle's time (within 0.1%) and the largest
    of its partial sums;
  - ratios are clamped to [0, 1] (a warning), never asserted.

The flat profile is not read (gprof2dot reads the call graph only), up to
the form feed that ends the call graph.
"""
import heapq
import re
import sys

UINT = r"\d+"
UFLOAT = r"\d+\.\d+"
# the column header that starts the call graph
HEADER = re.compile(r"^\s+called/total\s+parents\s*$|"
                    r"^index\s+%time\s+self\s+descendents\s+called\+self\s+name\s+index\s*$|"
                    r"^\s+called/total\s+children\s*$|"
                    r"^index\s+%\s+(time\s+)?self\s+children\s+called\s+name\s*$")
# lines read and thrown away: <spontaneous>, and names ending in "(N)" (a
# function the call graph does not print)
IGNORED = re.compile(r"^\s+<spontaneous>\s*$|^.*\((\d+)\)$")
CYCLE_TAG = r"(?:\s+<cycle\s(?P<cycle>\d+)>)?"
PRIMARY = re.compile(r"^\[(?P<index>\d+)\]?\s+(?P<pct>" + UFLOAT + r")\s+(?P<self>" + UFLOAT +
                     r")\s+(?P<children>" + UFLOAT + r")\s+(?:(?P<called>" + UINT +
                     r")(?:\+(?P<called_self>" + UINT + r"))?)?\s+(?P<name>\S.*?)" + CYCLE_TAG +
                     r"\s\[(\d+)\]$")
RELATIVE = re.compile(r"^\s+(?P<self>" + UFLOAT + r")?\s+(?P<children>" + UFLOAT + r")?\s+"
                      r"(?P<called>" + UINT + r")(?:/(?P<called_total>" + UINT + r"))?\s+"
                      r"(?P<name>\S.*?)" + CYCLE_TAG + r"\s\[(?P<index>\d+)\]$")
CYCLE_HEAD = re.compile(r"^\[(?P<index>\d+)\]?\s+(?P<pct>" + UFLOAT + r")\s+(?P<self>" + UFLOAT +
                        r")\s+(?P<children>" + UFLOAT + r")\s+(?:(?P<called>" + UINT +
                        r")(?:\+(?P<called_self>" + UINT + r"))?)?\s+<cycle\s(?P<cycle>\d+)"
                        r"\sas\sa\swhole>\s\[(\d+)\]$")
SEPARATOR = re.compile(r"^--+$")


class Refused(Exception):
    pass


def number(text):
    if text is None:
        return None
    return float(text) if "." in text else int(text)


class Entry:
    def __init__(self, m):
        g = m.groupdict()
        self.index = int(g["index"])
        self.name = g.get("name")
        self.self = number(g.get("self"))
        self.called = number(g.get("called"))
        self.called_self = number(g.get("called_self"))
        self.cycle = number(g.get("cycle"))
        self.children = []


class Child:
    def __init__(self, m):
        g = m.groupdict()
        self.index = int(g["index"])
        self.called = int(g["called"])


class Function:
    def __init__(self, fid, name):
        self.id, self.name = fid, name
        self.time = None          # None: gprof2dot's parser never set it
        self.calls = {}           # callee id -> [count, ratio]
        self.cycle = None
        self.total = None


def parse(lines):
    """The entries gprof2dot's parser keeps, and how many lines it skipped."""
    entries, skipped = {}, 0
    it = iter(lines)
    for line in it:
        if HEADER.match(line):
            break
    else:
        raise Refused("unexpected end of file (no call-graph header)")
    line = next(it, None)
    while line is not None and HEADER.match(line):
        line = next(it, None)
    entry = []
    while True:
        if line is None:
            raise Refused("unexpected end of file (no form feed after the call graph)")
        if line == "\f":
            break
        if line.strip():
            if SEPARATOR.match(line):
                skipped += read_entry(entry, entries)
                entry = []
            else:
                entry.append(line)
        line = next(it, None)
    return entries, skipped


def read_entry(lines, entries):
    """One entry: parents, the primary line, children.  An entry whose first
    line starts with "[" is a cycle's (its members are not used).  Returns
    the lines skipped."""
    skipped = 0
    if not lines:
        return 0
    if lines[0].startswith("["):
        if not CYCLE_HEAD.match(lines[0]):
            skipped += 1
        return skipped + sum(1 for l in lines[1:] if not RELATIVE.match(l) and
                             not re.match(r"^\s+(" + UFLOAT + r")?\s+(" + UFLOAT + r")?\s+" +
                                          UINT + r"(\+" + UINT + r")?\s+\S.*?\s\[\d+\]$", l))
    i = 0
    while i < len(lines) and not lines[i].startswith("["):
        if not RELATIVE.match(lines[i]) and not IGNORED.match(lines[i]):
            skipped += 1
        i += 1
    if i == len(lines):
        return skipped
    m = PRIMARY.match(lines[i])
    if not m:
        return skipped + 1 + sum(1 for l in lines[i + 1:])   # the entry is lost
    e = Entry(m)
    for l in lines[i + 1:]:
        c = RELATIVE.match(l)
        if c:
            e.children.append(Child(c))
        elif not IGNORED.match(l):
            skipped += 1
    entries[e.index] = e
    return skipped


def build(entries):
    functions, cycles = {}, {}
    for e in entries.values():
        f = Function(e.index, e.name)
        f.time = e.self
        for c in e.children:
            if c.index not in entries:
                # gprof2dot adds the callee, but sets the time of the
                # caller: the callee has none
                functions.setdefault(c.index, Function(c.index, "?"))
            f.calls[c.index] = [c.called, None]
        functions[e.index] = f
        if e.cycle is not None:
            cycles.setdefault(e.cycle, []).append(f)
    for members in cycles.values():
        for f in members:
            f.cycle = id(members)
    # calls to functions it has no entry for are dropped (validate)
    for f in functions.values():
        for callee in [k for k in f.calls if k not in functions]:
            del f.calls[callee]
    return functions, {id(m): m for m in cycles.values()}


def clamp(num, den):
    if den == 0:
        return 1.0
    return min(1.0, max(0.0, float(num) / float(den)))


def call_ratios(functions):
    ftotal = {k: 0.0 for k in functions}
    ctotal = {}
    for f in functions.values():
        for k, c in f.calls.items():
            if k != f.id:
                callee = functions[k]
                ftotal[k] += c[0]
                if callee.cycle is not None and callee.cycle != f.cycle:
                    ctotal[callee.cycle] = ctotal.get(callee.cycle, 0.0) + c[0]
    for f in functions.values():
        for k, c in f.calls.items():
            if k != f.id:
                callee = functions[k]
                if callee.cycle is not None and callee.cycle != f.cycle:
                    c[1] = clamp(c[0], ctotal.get(callee.cycle, 0.0))
                else:
                    c[1] = clamp(c[0], ftotal[k])


def integrate(functions, cycles):
    for f in functions.values():
        if f.time is None:
            raise Refused("AssertionError: function %r (index %d) has no time: a callee line "
                          "names it but its entry was not read" % (f.name, f.id))
    done_cycles = {}

    def call_total(f, k):
        return f.calls[k][1] * function_total(functions[k])

    visiting = set()

    def function_total(f):
        if f.cycle is not None:
            return cycle_total(f.cycle)
        if f.total is None:
            # gprof2dot recurses along the calls: a recursion it was not
            # told is a cycle never ends
            if f.id in visiting:
                raise RecursionError
            visiting.add(f.id)
            t = f.time
            for k in f.calls:
                if k != f.id:
                    t += call_total(f, k)
            f.total = t
            visiting.discard(f.id)
        return f.total

    def cycle_total(cid):
        if cid in done_cycles:
            if done_cycles[cid] is None:
                raise RecursionError
            return done_cycles[cid]
        members = cycles[cid]
        total = 0.0
        done_cycles[cid] = None
        for m in members:
            sub = m.time
            for k in m.calls:
                if functions[k].cycle != cid:
                    sub += call_total(m, k)
            total += sub
        done_cycles[cid] = total
        entries_into = {}
        for f in functions.values():
            if f.cycle != cid:
                for k, c in f.calls.items():
                    if functions[k].cycle == cid:
                        entries_into[k] = entries_into.get(k, 0.0) + c[1]
        for k, ratio in entries_into.items():
            rank = ranks(functions, cid, k)
            inflow = {}
            order = sorted(rank, key=lambda x: rank[x])
            for fid in order:
                for callee, c in functions[fid].calls.items():
                    if callee != fid and functions[callee].cycle == cid and \
                       rank.get(callee, -1) > rank[fid]:
                        inflow[callee] = inflow.get(callee, 0.0) + c[1]
            partials = {}

            def partial_of(fid, seen=()):
                if fid in partials:
                    return partials[fid]
                f = functions[fid]
                p = ratio * f.time
                for callee, c in f.calls.items():
                    if callee == fid:
                        continue
                    if functions[callee].cycle != cid:
                        p += ratio * call_total(f, callee)
                    elif rank.get(callee, -1) > rank[fid]:
                        p += clamp(c[1], inflow[callee]) * partial_of(callee)
                partials[fid] = p
                return p

            part = partial_of(k)
            top = max(partials.values())
            if not abs(part - top) <= 1e-7 * top:
                raise Refused("AssertionError: cycle through %r: its partial sum %.6g is not "
                              "the largest, %.6g" % (functions[k].name, part, top))
            if not abs(ratio * total - part) <= 0.001 * ratio * total:
                raise Refused("AssertionError: cycle through %r reaches %.6g of its %.6g "
                              "(calls inside it missing)" % (functions[k].name, part,
                                                             ratio * total))
        return total

    sys.setrecursionlimit(max(10000, 4 * len(functions) + 100))
    for f in functions.values():
        function_total(f)


def ranks(functions, cid, start):
    """Dijkstra's shortest call counts from `start` inside cycle `cid`."""
    rank = {start: 0}
    heap = [(0, start)]
    while heap:
        r, fid = heapq.heappop(heap)
        if r > rank[fid]:
            continue
        for callee in functions[fid].calls:
            if callee != fid and functions[callee].cycle == cid and \
               (callee not in rank or rank[callee] > r + 1):
                rank[callee] = r + 1
                heapq.heappush(heap, (r + 1, callee))
    return rank


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    # as gprof2dot opens a file: UTF-16 with its byte-order mark (Windows
    # PowerShell's), else UTF-8; universal newlines
    text = data.decode("utf-16le") if data[:2] == b"\xff\xfe" else \
        data.decode("utf-8", errors="replace")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    try:
        entries, skipped = parse(lines)
        functions, cycles = build(entries)
        call_ratios(functions)
        integrate(functions, cycles)
    except Refused as e:
        print("refused: %s" % e)
        return 1
    except RecursionError:
        print("refused: RecursionError: a recursion gprof2dot does not know as a cycle")
        return 1
    ncalls = sum(len(f.calls) for f in functions.values())
    print("ok: %d functions, %d calls, %d lines skipped" % (len(functions), ncalls, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
