#!/usr/bin/env bash
# Where the model's one source is the call-path samples, each view says
# with it, once, what share of each process's CPU time (getrusage, which
# the runtime records) the samples cover: the text diff's "Source:"
# sentence, the JSON document's and the HTML page's source, and the HTML
# report of one run.  The same words in every view (one string, built once
# by the analysis).  Without sidecars the source is gmon.out's histogram
# and no share is claimed.
#
# Exact, no noise: a single-threaded run's samples are counted from its
# thread's CPU time, so they cover it to within a period (the runtime's
# own bound: at least 95% in far harder cases of a thousand short
# threads); only the statements and their agreement are checked, and the
# share is compared with 90%, the line below which the views warn.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
cd "$WORKDIR" || exit 1
gcc -pg -O2 -o a "$SRCDIR/testsuite/fixtures/libm/libwork.c" -lm > build.log 2>&1 ||
	{ cat build.log; echo "Bail out! build"; exit 1; }
for r in r1 r2; do
	mkdir -p $r && (cd $r && CALLPATH_HZ=1000 LD_PRELOAD="$CALLPATH_SO" ../a > out.txt) ||
		{ echo "Bail out! run $r"; exit 1; }
done

"$EGPROF" --diff a r1/gmon.out a r2/gmon.out --html d.html > d.txt 2> err.txt
rc=$?
"$EGPROF" --diff --format json a r1/gmon.out a r2/gmon.out > d.json 2>> err.txt
"$EGPROF" a r1/gmon.out --html s.html > /dev/null 2>> err.txt
# (the graph's line on what its thresholds pruned depends on the run's
# samples: a function near 0.5% of the time; it is no warning)
check "the views are written (exit $rc), nothing else on stderr" \
	bash -c "[ $rc = 0 ] && ! grep -v ': graph: pruned ' err.txt"
python3 - > checks.txt 2>&1 <<'PY'
import html.parser, json, re

def source_of_text(path):
    out = None
    for line in open(path):
        line = line.rstrip("\n")
        if out is None and line.startswith("Source: "):
            out = line[8:]
        elif out is not None and not out.endswith("."):
            out += " " + line
        if out is not None and out.endswith("."):
            return out[:-1]
    return out

def page_data(path):
    class P(html.parser.HTMLParser):
        data, on = "", False
        def handle_starttag(self, tag, attrs):
            self.on = dict(attrs).get("id") == "egprof-data"
        def handle_data(self, d):
            if self.on:
                self.data += d
        def handle_endtag(self, tag):
            self.on = False
    p = P()
    p.feed(open(path).read())
    return json.loads(p.data)

def check(name, ok, why=""):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else "  (" + repr(why)[:300] + ")"))

text = source_of_text("d.txt")
both = re.compile(r"^time: call-path samples of each thread, .*; the samples cover ([0-9]+)% "
                  r"\(baseline\) and ([0-9]+)% \(second\) of the processes' CPU time \(getrusage\)$")
m = both.match(text or "")
check("the text diff's Source sentence says both runs' shares", m, text)
check("... each at least 90% (one thread: its CPU time, to within a period)",
      m and min(int(m.group(1)), int(m.group(2))) >= 90, text)
txt = open("d.txt").read()
check("... once in the text, no warning", txt.count("CPU time (getrusage)") == 1 and
      not re.search(r"^warning: less than", txt, re.M), txt[:600])
j = json.load(open("d.json"))
check("JSON's source is the text's", j.get("source") == text, (j.get("source"), text))
h = page_data("d.html")
check("the diff page's source is the text's", h["diff"].get("source") == text, h["diff"].get("source"))
s = page_data("s.html")["profile"].get("source") or ""
one = re.search(r"; the samples cover ([0-9]+)% of the process's CPU time \(getrusage\)$", s)
check("one run's page says its share with its source", one and int(one.group(1)) >= 90, s)
PY
grep -q '^PASS\|^FAIL' checks.txt || { sed 's/^/# /' checks.txt; not_ok "the checks ran"; }
while read -r verdict what; do
	case $verdict in
	PASS) ok "$what" ;;
	FAIL) not_ok "$what" ;;
	*) echo "# $verdict $what" ;;
	esac
done < checks.txt
mkdir -p g1 g2 && cp r1/gmon.out g1/ && cp r2/gmon.out g2/
"$EGPROF" --diff --format json a g1/gmon.out a g2/gmon.out > g.json 2> gerr.txt
check "without sidecars: gmon.out's histogram, no share claimed" \
	python3 -c "import json, sys; s = json.load(open(sys.argv[1]))['source']; assert s.startswith(\"time: gmon.out's histogram\") and 'cover' not in s, s" g.json
done_testing
