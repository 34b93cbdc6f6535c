#!/usr/bin/env bash
# Issue 12 item 13: every writer survives any symbol name.  A -pg program
# whose functions are renamed (objcopy) to names with ';', a newline, a
# trailing backslash, quotes and XML metacharacters, control bytes and bad
# UTF-8, and spaces before digits; every export is read back by its reader:
# dot (and the tooltips it renders), xmllint and networkx (GraphML),
# networkx (GML), and a strict parser of flamegraph.pl's folded format.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
gcc -pg -O1 -no-pie -c -o names.o "$OUT_FIX/names.c" &&
	objcopy --redefine-sym 'f_semi=semi;colon' --redefine-sym "f_nl=new
line" --redefine-sym 'f_back=back\' --redefine-sym 'f_quote=dq"x<&>' \
		--redefine-sym "f_ctl=ctl$(printf '\001\377')x" --redefine-sym 'f_sp=sp ace 12' names.o &&
	gcc -pg -no-pie -o names names.o && LD_PRELOAD="$CP_SO" ./names ||
	{ echo "Bail out! cannot build and run names.c"; exit 1; }
cp gmon.out gmon.2 && cp gmon.out.callpath gmon.2.callpath

"$EGPROF" -b names gmon.out --dot n.dot --gml n.gml --graphml n.graphml --folded-calls n.folded \
	>out.txt 2>err.txt; rc=$?
check "exports: exit 0, nothing on stderr" [ $rc = 0 -a ! -s err.txt ]

# What a reader must see: the printable form (utils/printable.h)
cat >expected.py <<'PY'
NAMES = sorted(["main", "semi;colon", "new\\x0aline", "back\\", 'dq"x<&>',
                "ctl\\x01\\xffx", "sp ace 12"])
# The program's functions: a sample that falls in mcount (a loaded machine
# makes that likely) adds the instrumentation as a node of its own.
def functions(names):
    return sorted(n for n in names if n != "[instrumentation]")
PY

check "dot parses the DOT without a word" \
	bash -c 'dot -Tsvg n.dot >n.svg 2>dot.err && [ ! -s dot.err ]'
check "the tooltips dot renders are the names" py n.svg <<'PY'
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, ".")
from expected import NAMES, functions
t = ET.parse(sys.argv[1])
XL = "{http://www.w3.org/1999/xlink}title"
got = functions({a.get(XL) for a in t.iter("{http://www.w3.org/2000/svg}a")
                 if a.get(XL) is not None})
assert got == NAMES, got
print("ok")
PY
check "xmllint: the GraphML is well-formed" xmllint --noout n.graphml
check "networkx reads the GraphML names" py n.graphml <<'PY'
import sys, networkx as nx
sys.path.insert(0, ".")
from expected import NAMES, functions
g = nx.read_graphml(sys.argv[1])
got = functions(d["name"] for _, d in g.nodes(data=True))
assert got == NAMES, got
print("ok")
PY
check "networkx reads the GML names" py n.gml <<'PY'
import sys, networkx as nx
sys.path.insert(0, ".")
from expected import NAMES, functions
g = nx.read_gml(sys.argv[1], label="id")
got = functions(d["name"] for _, d in g.nodes(data=True))
assert got == NAMES, got
print("ok")
PY

# flamegraph.pl's rules: one stack per line, frames split at ';', the
# count after the last run of blanks; a diff line has two counts
cat >folded.py <<'PY'
import re, sys
ncounts = int(sys.argv[2])
sys.path.insert(0, ".")
pat = re.compile(r"^(.*?)" + r"\s+(\d+)" * ncounts + r"$")
rows = {}
with open(sys.argv[1], "rb") as f:
    for line in f.read().split(b"\n")[:-1]:
        m = pat.match(line.decode("utf-8", "surrogateescape"))
        assert m, line
        frames = m.group(1).split(";")
        assert all(frames), line
        rows[tuple(frames)] = m.groups()[1:]
deepest = max(rows, key=len)
want = ["main", "sp ace 12", "ctl\\x01\\xffx", 'dq"x<&>', "back\\",
        "new\\x0aline", "semi:colon"]
assert list(deepest) == want, deepest
assert len(rows) == 7, rows
assert all(c == ("2",) * ncounts for k, c in rows.items() if k != ("main",)), rows
print("ok")
PY
check "the folded stacks parse: 7 stacks, the deepest has the 7 frames" py n.folded 1 <folded.py

"$EGPROF" --diff names gmon.out gmon.2 --folded-calls d.folded --gml d.gml --graphml d.graphml --dot d.dot \
	>dout.txt 2>derr.txt; rc=$?
check "diff exports: exit 0, nothing on stderr" [ $rc = 0 -a ! -s derr.txt ]
check "the two-column folded diff parses" py d.folded 2 <folded.py
check "differential DOT, GraphML and GML parse" \
	bash -c 'dot -Tsvg d.dot >/dev/null 2>d.err && [ ! -s d.err ] && xmllint --noout d.graphml &&
		python3 -c "import networkx as nx; nx.read_gml(\"d.gml\", label=\"id\")"'
done_testing
