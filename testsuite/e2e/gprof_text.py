#!/usr/bin/env python3
"""A strict reader of GNU gprof's text output (flat profile, call graph,
index by function name), with signed numbers allowed, for the tests of the
classic --diff output (issue 13 item 7).

  gprof_text.py FILE [NAMES_FILE]   prints the parsed rows as
                                    "flat NAME SELF CALLS" / "cg [N] NAME SELF CHILDREN"
                                    and exits 1 at the first line that does not
                                    follow gprof's layout.

It follows gprof's printers (flat_profile.c, cg_print.c): the flat table's
numbers stand in gprof's fixed columns (%6.2f %9.2f %8.2f, then
%8lu %8.2f %8.2f or blanks, two spaces, the name) and the table ends at a
blank line; call-graph entries are separated by dashed lines, the primary
line starts with [N], every name ends in its [N] -- or in (N) on a caller,
callee or member line, as gprof names a function its call graph does not
print (the classic diff also names so a function whose entry parsers of
unsigned numbers cannot read) -- and every [N] on such a line is an entry
of the graph.  NAMES_FILE, when given, lists the function names (one a
line) a name must be one of, so text after a name (a marker) is an error;
what the diff adds to a name is allowed: "name (+ .part.0)" (GCC clones
folded into it), "name (file.c)" (statics sharing a name), "base [name]"
(a clone matched by its base name).
"""
import re, sys

NUM = r"-?\d+\.\d\d"
FIXED = re.compile(r"^ *-?\d+\.\d\d$")
# the % time of a diff row that is the whole change, negatively: a decimal
# less, to keep gprof's column width
PCT = re.compile(r"^ *(-?\d+\.\d\d|-100\.0)$")
INT = re.compile(r"^ *-?\d+$")

def field(l, a, b, pat):
    """gprof's fixed column l[a:b], right-aligned, with a blank before it."""
    return (a == 0 or l[a - 1] == " ") and pat.match(l[a:b]) is not None
CG_PRIMARY = re.compile(r"^\[(\d+)\]\s+(-?\d+\.\d)\s+(" + NUM + r")\s+(" + NUM + r")"
                        r"\s+(?:(-?\d+)(?:\+(-?\d+))?)?\s+(\S.*?)(?: <cycle (\d+)>)? \[(\d+)\]$")
REF = r"(?: \[(\d+)\]| \((\d+)\))$"
CG_LINE = re.compile(r"^\s+(" + NUM + r")\s+(" + NUM + r")\s+(-?\d+(?:/-?\d+)?)\s+"
                     r"(\S.*?)(?: <cycle (\d+)>)?" + REF)
CG_CYCLE_CALLS = re.compile(r"^\s+(-?\d+)\s+(\S.*?)(?: <cycle (\d+)>)?" + REF)
CG_MEMBER = re.compile(r"^\s+(" + NUM + r")\s+(" + NUM + r")\s+(?:(-?\d+)(?:\+(-?\d+))?)?\s+"
                       r"(\S.*?)(?: <cycle (\d+)>)?" + REF)
CG_SPONT = re.compile(r"^\s+<spontaneous>$")

CLONE = r"\.(constprop|isra|part|cold|lto_priv|localalias|clone|_omp_fn|_omp_cpyfn)(\.[0-9]+)?(\..*)?$"

def printf_cells(l, widths, lead=False):
    """The cells of "%Wa %Wb %Wc" (lead: " %Wa %Wb %Wc") at the start of l:
    each right-aligned in its width, or longer with no padding; the text
    after them starts at the returned index.  (None, 0) when l is not so."""
    cells, at = [], 0
    for k, w in enumerate(widths):
        if k or lead:
            if l[at:at + 1] != " ":
                return None, 0
            at += 1
        m = re.match(r" *(\S+)", l[at:])
        if not m:
            return None, 0
        pad, tok = len(m.group(0)) - len(m.group(1)), m.group(1)
        if pad != max(0, w - len(tok)):
            return None, 0
        cells.append(tok)
        at += len(m.group(0))
    return cells, at

def fail(n, line, why):
    sys.exit("line %d: %s: %r" % (n, why, line))

def known(name, names):
    """A name of the binaries, with what the diff may add to it."""
    while True:
        if name in names:
            return True
        m = re.match(r"^(.*) \(\+ [^()]*\)$", name) or re.match(r"^(.*) \((?:[^()]*)\)$", name) \
            or re.match(r"^(.*) \[(?:[^][]*)\]$", name)
        if not m:
            return False
        name = m.group(1)

def main():
    lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
    names = None
    if len(sys.argv) > 2:
        names = set(l.strip() for l in open(sys.argv[2]) if l.strip())
        # a GCC clone (foo.part.0, "foo() [clone .part.0]") is its base's
        # name in the diff, even where the base has no symbol of its own
        names |= set(re.sub(CLONE, "", x.split(" [clone ")[0]) for x in names)
    i, n = 0, len(lines)
    flat_rows = cg_primary = 0
    while i < n:
        if lines[i] == "Flat profile:":
            i += 1
            while i < n and not lines[i].startswith("  %"):
                if lines[i] and not lines[i].startswith("Each sample counts as"):
                    fail(i + 1, lines[i], "unexpected line before the flat header")
                i += 1
            if i + 1 >= n or not re.match(r"^ time\s+seconds\s+seconds\s+calls", lines[i + 1]):
                fail(i + 2, lines[i + 1] if i + 1 < n else "", "no flat column header")
            i += 2
            while i < n and lines[i] not in ("", "\f"):
                l = lines[i]
                # printf's columns: "%6.2f %9.2f %8.2f" then " %8d %8.2f %8.2f" or
                # 27 blanks, two spaces, the name; a number longer than its
                # width pushes the rest right, as gprof's own printf does
                cells, at = printf_cells(l, [6, 9, 8])
                if cells is None:
                    fail(i + 1, l, "flat row: % cumulative self not in gprof's columns")
                if not (PCT.match(cells[0]) and FIXED.match(cells[1]) and FIXED.match(cells[2])):
                    fail(i + 1, l, "flat row: % cumulative self not in gprof's columns")
                if l[at:at + 27].strip() == "" and l[at + 27:at + 29] == "  ":
                    calls, at = "-", at + 29
                else:
                    more, at2 = printf_cells(l[at:], [8, 8, 8], lead=True)
                    if more is None or not (INT.match(more[0]) and FIXED.match(more[1]) and
                                            FIXED.match(more[2])) or l[at + at2:at + at2 + 2] != "  ":
                        fail(i + 1, l, "flat row: calls self/call total/call not in gprof's columns")
                    calls, at = more[0].strip(), at + at2 + 2
                if at < 54:
                    fail(i + 1, lines[i], "flat row shorter than gprof's columns")
                name = l[at:]
                if not name or name != name.strip():
                    fail(i + 1, l, "flat row: no name, or spaces around it")
                if names is not None and not known(name, names):
                    fail(i + 1, l, "flat row: %r is not a function" % name)
                print("flat %s %s %s" % (name, cells[2], calls))
                flat_rows += 1
                i += 1
            continue
        if re.match(r"^\s+Call graph", lines[i]):
            i += 1
            while i < n and not lines[i].startswith("index"):
                i += 1
            if i >= n or not re.match(r"^index\s+%\s+time\s+self\s+children\s+called\s+name\s*$", lines[i]):
                fail(i + 1, lines[i] if i < n else "", "no call-graph column header")
            i += 1
            primaries, refs = set(), []
            while i < n and lines[i] != "" and not lines[i].startswith("\f"):
                l = lines[i]
                if l == "-" * 47:
                    i += 1
                    continue
                m = CG_PRIMARY.match(l)
                if m:
                    if names is not None and not known(m.group(7), names) and \
                       not m.group(7).startswith("<cycle"):
                        fail(i + 1, l, "primary line: %r is not a function" % m.group(7))
                    if m.group(1) != m.group(9):
                        fail(i + 1, l, "primary line: two indices")
                    print("cg [%s] %s %s %s" % (m.group(1), m.group(7), m.group(3), m.group(4)))
                    primaries.add(m.group(1))
                    cg_primary += 1
                else:
                    r = CG_LINE.match(l) or CG_CYCLE_CALLS.match(l) or CG_MEMBER.match(l)
                    if r:
                        bracket = r.groups()[-2]
                        if bracket is not None:
                            refs.append((i + 1, l, bracket))
                    elif not CG_SPONT.match(l):
                        fail(i + 1, l, "call-graph line not in gprof's layout")
                i += 1
            for at, l, idx in refs:
                if idx not in primaries:
                    fail(at, l, "[%s] names no entry of the call graph" % idx)
            continue
        i += 1
    if flat_rows == 0 and cg_primary == 0:
        sys.exit("no flat profile rows and no call graph entries")

main()
