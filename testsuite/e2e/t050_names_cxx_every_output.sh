#!/usr/bin/env bash
# One naming rule for every output, on a C++ program with two instantiations
# of a template where GCC clones one (norm2<float>.isra.0) and std::sort's
# helpers of both: upstream gprof drops the clones from its table and gives
# their calls to the function before them in memory (norm2<double>, or
# frame_dummy), so every export showed one norm2 of two.  Each output must
# name both norm2 and both sort_points, the clones as "[clone .isra.0]"
# where it shows clones (the diff folds them into their function), give no
# call to frame_dummy, carry the clone's file and line (HTML, pprof), and,
# with --short-names, shorten names yet keep both instantiations apart.
# The call graph's PNG stays under 3,000 pixels wide (its labels shortened
# and wrapped, the full names in the tooltips).
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
so="$BUILDDIR/callpath/libcallpath.so"

g++ -O2 -g -pg -o points "$SRCDIR/testsuite/fixtures/cxxnames/points.cc" >build.log 2>&1 ||
	{ echo "Bail out! g++ failed"; cat build.log | diag; exit 1; }
LD_PRELOAD="$so" ./points 300000 >run.out 2>&1 || { echo "Bail out! points failed"; exit 1; }
[ -s gmon.out ] && [ -s gmon.out.callpath ] || { echo "Bail out! no profile"; exit 1; }
clone=0
nm points | grep -q '_Z5norm2IfET_RK5PointIS0_E\.isra' && clone=1

# Every output of the profile, then the same with --short-names.
for v in full short; do
	sn=""
	[ $v = short ] && sn=--short-names
	"$EGPROF" -b $sn --callpath points gmon.out >$v.callpath.txt 2>$v.err
	"$EGPROF" -b $sn --callpath --format json points gmon.out >$v.callpath.json 2>>$v.err
	"$EGPROF" -b $sn --callpath --format csv points gmon.out >$v.callpath.csv 2>>$v.err
	"$EGPROF" -b $sn --node-thres 0 --edge-thres 0 --folded $v.folded --pprof $v.pb.gz \
		--html $v.html --dot $v.dot --gml $v.gml --graphml $v.graphml --svg $v.svg \
		points gmon.out >/dev/null 2>>$v.err
	gzip -dc $v.pb.gz >$v.pb 2>>$v.err
	"$EGPROF" -b $sn --diff points gmon.out points gmon.out >$v.diff.txt 2>>$v.err
	"$EGPROF" -b $sn --diff --format json points gmon.out points gmon.out >$v.diff.json 2>>$v.err
done
"$EGPROF" -b --png default.png points gmon.out >/dev/null 2>>full.err

outputs="callpath.txt callpath.json callpath.csv folded pb html dot gml graphml svg diff.txt diff.json"
check_names() { # VARIANT
	python3 - "$1" $outputs <<'PY'
import html, re, sys
v, files = sys.argv[1], sys.argv[2:]
bad = []
for f in files:
    raw = open(v + "." + f, "rb").read().decode("utf-8", "replace")
    if f == "callpath.txt":
        # gprof's own text, printed first, stays GNU gprof's
        raw = raw[raw.index("Call-path profile"):]
    # the formats' escapes: JSON's \u003c, XML and HTML entities, DOT's \n
    t = html.unescape(raw.replace("\\u003c", "<").replace("\\u003e", ">"))
    t = t.replace("\\n", "\n").replace("\\\"", "\"")
    need = ["norm2<float>", "norm2<double>"] if v == "full" else ["norm2<", "norm2<"]
    need += ["sort_points<float>", "sort_points<double>"]
    for n in need:
        if n not in t:
            bad.append("%s: no %s" % (f, n))
    if v == "full" and not f.startswith("diff") and "[clone .isra.0]" not in t:
        bad.append("%s: no [clone .isra.0]" % f)
    if v == "short":
        # shortened: the full name of sort_points<float> is nowhere
        if "sort_points<float>(std::vector<Point<float>, std::allocator<Point<float> > >&)" in t:
            bad.append("%s: sort_points<float>'s full name, not shortened" % f)
    # frame_dummy never carries calls
    for m in re.finditer(r"frame_dummy[^\n]{0,200}", t):
        s = m.group(0)
        if re.search(r'"calls": [1-9]', s):
            bad.append("%s: %s" % (f, s[:120]))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}
if check_names full >full.check 2>&1; then ok "both norm2 and both sort_points named apart in every output"
else not_ok "both norm2 and both sort_points named apart in every output"; diag <full.check; diag <full.err; fi
if check_names short >short.check 2>&1; then ok "--short-names shortens every output and keeps the instantiations apart"
else not_ok "--short-names shortens every output and keeps the instantiations apart"; diag <short.check; diag <short.err; fi

# The clone's own calls: as many in pprof's and the HTML's numbers as the
# call paths counted for it, none moved to another function.
if [ $clone = 1 ]; then
	python3 - <<'PY' >calls.check 2>&1
import json, re, html
cp = json.load(open("full.callpath.json"))
txt = open("full.html").read()
m = re.search(r'<script type="application/json" id="egprof-data">(.*?)</script>', txt, re.S)
data = m.group(1)
ent = re.findall(r'\{"name": "float norm2\\u003cfloat>\(Point\\u003cfloat> const&\) \[clone \.isra\.0\]"[^}]*\}', data)
assert ent, "the HTML has no entry for the clone"
e = json.loads(ent[0])
assert e["calls"] > 1000000, e
assert e["file"] and e["file"].endswith("points.cc") and e["line"] > 0, e
print("clone calls", e["calls"], e["file"], e["line"])
PY
	if [ $? = 0 ]; then ok "the HTML gives the clone its calls, file and line"
	else not_ok "the HTML gives the clone its calls, file and line"; diag <calls.check; fi
	if grep -aq 'points.cc' full.pb && grep -aq 'norm2<float>(Point<float> const&) \[clone .isra.0\]' full.pb
	then ok "pprof names the clone, with its file"
	else not_ok "pprof names the clone, with its file"; fi
else
	ok "# SKIP this compiler made no norm2<float>.isra clone"
	ok "# SKIP this compiler made no norm2<float>.isra clone"
fi

width=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(struct.unpack(">I", d[16:20])[0])' default.png 2>/dev/null)
if [ -n "$width" ] && [ "$width" -lt 3000 ]; then ok "the call graph's PNG is $width px wide (under 3,000)"
else not_ok "the call graph's PNG is under 3,000 px wide (got '$width')"; fi
if grep -q 'tooltip="void sort_points<float>(std::vector<Point<float>, std::allocator<Point<float> > >&)"' full.dot
then ok "the DOT keeps the full name in the tooltip"
else not_ok "the DOT keeps the full name in the tooltip"; grep -m3 tooltip full.dot | diag; fi
e2e_done
