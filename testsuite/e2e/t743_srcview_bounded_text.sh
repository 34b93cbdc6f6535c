#!/usr/bin/env bash
# The HTML report embeds a bounded part of the sources: a function with
# two loops in the middle of a 20,005-line file (10,000 comment lines
# before it and after it) brings into the page only its own lines and the
# few around them (the text of none of the comments but the nearest), and
# the page shows that text with the lines' times.  The cap on the page's
# total and long spans are tested in test_html_source.
# Exact: no check depends on how the samples fall, only that there are
# some in work() (about 0.2 s of loops).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
{
	for i in $(seq 1 10000); do echo "/* padding before $i */"; done
	cat <<'C'
__attribute__((noinline)) static double work(long n)
{
	double a = 0, b = 0;
	long i;

	for (i = 0; i < n; i++) a += (double)i * 1.0000001; /* FIRST_LOOP */
	for (i = 0; i < n; i++) b += (double)i * 0.9999999; /* SECOND_LOOP */
	return a + b;
}
C
	for i in $(seq 1 10000); do echo "/* padding after $i */"; done
	cat <<'C'
#include <stdio.h>
int main(void) { printf("%g\n", work(100000000L)); return 0; }
C
} >big.c
gcc -pg -O1 -g -o big big.c && LD_PRELOAD="$CALLPATH_SO" ./big >/dev/null ||
	{ echo "Bail out! cannot build and run big.c"; exit 1; }
head=$(grep -n 'static double work' big.c | cut -d: -f1)
end=$((head + 8))
"$EGPROF" -b --callpath ./big gmon.out --html r.html >/dev/null 2>err.txt
check "--html exits 0, no message" bash -c "[ -s r.html ] && [ ! -s err.txt ]"
n=$(grep -o 'padding \(before\|after\) [0-9]*' r.html | wc -l)
echo "# padding lines in the page: $n, $(wc -c <r.html) bytes"
check "the page holds a few of the comments around work, not the file ($n lines)" \
	bash -c "[ $n -ge 1 ] && [ $n -le 12 ]"
check "not the file's first or last comment" \
	bash -c "! grep -qE 'padding before 1 |padding after 10000 ' r.html"
browser "file://$PWD/r.html#view=source&fn=work" \
	--eval 'src=egprof.data.sources.files.map(f => [f.file, f.readable, f.cut, f.ranges.map(r => [r.first, r.text.length])])' \
	--eval 'rows=Array.from(document.querySelectorAll("#src-listing tr[data-line]")).map(r => [+r.dataset.line, +(r.dataset.samples || 0), r.querySelector("td.code").textContent])' >b.json
py b.json "$head" "$end" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
head, end = int(sys.argv[2]), int(sys.argv[3])
assert b["ready"] and not b["errors"], b
ev = b["evals"]
big = [f for f in ev["src"] if f[0].endswith("/big.c")]
assert len(big) == 1 and big[0][1] is True and big[0][2] is False, ev["src"]
ranges = big[0][3]
lines = [l for first, n in ranges for l in range(first, first + n)]
# the sampled span (within work's body) and 5 lines around it
assert len(lines) <= 20 and min(lines) >= head - 5 and max(lines) <= end + 5, ranges
rows = {l: (n, t) for l, n, t in ev["rows"]}
assert "FIRST_LOOP" in rows[head + 5][1] and "SECOND_LOOP" in rows[head + 6][1], rows
assert sum(n for n, _ in rows.values()) > 0, rows
print("ok")
PY
check "the page's text of big.c is work's neighbourhood, shown with its times" [ $? = 0 ]
done_testing
