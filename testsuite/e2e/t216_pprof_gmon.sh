#!/usr/bin/env bash
# --pprof from gmon.out alone (issue 25 item 1), read back by pprof itself:
# -top's seconds and shares equal gprof's flat profile, -sample_index=calls
# its call counts, -traces' two-frame stacks the call graph's arcs (as the
# diff model reads them), -raw the binary's build id and each function's
# file and line; a file that cannot be written is an error naming it.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
pprof_find || skip_all "pprof not available (apt-get install golang-go golang-github-google-pprof-dev)"
echo "# pprof: $PPROF"

mkdir -p g && gcc -pg -O1 -g -o g/views "$VIEWS_SRC" -lpthread && (cd g && ./views >/dev/null) ||
	{ echo "Bail out! cannot build and run views.c"; exit 1; }
cd g || exit 1
"$EGPROF" -b -p views gmon.out --pprof p.pb.gz >flat.txt 2>err.txt
check "--pprof exits 0 and prints gprof's flat profile" \
	bash -c "[ -s flat.txt ] && [ ! -s err.txt ] && grep -q kernel_a flat.txt"
check "the file is gzip (as pprof writes its own)" gzip -t p.pb.gz
"$EGPROF" --diff --format json views gmon.out gmon.out >arcs.json 2>/dev/null

py "$PPROF" <<'PY'
import json, sys
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
pprof = sys.argv[1]
flat = pc.gprof_flat(open("flat.txt").read())
exact = {f["name"]: f["self_base"] for f in json.load(open("arcs.json"))["functions"]}
top = pc.top(pprof, "p.pb.gz", "-unit=s")
timed = {n: r for n, r in flat.items() if r[1] > 0}
got = {n: r for n, r in top.items() if r.flat != 0}
assert set(got) == set(timed), (sorted(got), sorted(timed))
# pprof's shares are of the sum of the functions' seconds; gprof's "% time"
# of its histogram's samples, which differ from that sum where gprof credits
# a bin that straddles two functions twice or to neither (hist.c rounds the
# overlap to whole scaled addresses): a tenth of a percent or so.  gprof's
# total, from its largest row: self seconds (exact, from the diff model)
# over its share.
total = sum(exact.values())
big = max(timed, key=lambda n: timed[n][0])
gprof_total = 100 * exact[big] / timed[big][0]
slack = abs(1 - total / gprof_total)
for n, (pct, self_s, calls) in timed.items():
    # both print 2 decimals of the same seconds
    assert abs(got[n].flat - self_s) <= 0.0051, (n, got[n], self_s)
    assert abs(got[n].flat_pct - 100 * exact[n] / total) <= 0.0051, (n, got[n], exact[n], total)
    assert abs(got[n].flat_pct - pct) <= 0.0101 + pct * (slack + 0.0002), (n, got[n], pct, slack)
print("# shares: gprof's total and the functions' sum differ by %.3f%%" % (100 * slack))
# calls: gprof's "called" (the flat profile's column) plus its recursive
# calls ("1+21890" in the call graph), every call into the function
calls = pc.top(pprof, "p.pb.gz", "-sample_index=calls")
rec = {f["name"]: f["self_calls_base"] for f in json.load(open("arcs.json"))["functions"]}
for n, (pct, self_s, c) in flat.items():
    if c:
        assert calls[n].flat == c + rec[n], (n, calls[n], c, rec[n])
# every arc of the call graph is a two-frame trace (callee, caller)
arcs = {(a["callee"], a["caller"]): a["calls_base"] for a in json.load(open("arcs.json"))["arcs"]}
tr = {}
for v, frames, labels in pc.traces(pprof, "p.pb.gz", "-sample_index=calls"):
    if len(frames) == 2:
        tr[tuple(frames)] = tr.get(tuple(frames), 0) + v
assert tr == {k: v for k, v in arcs.items() if v}, (tr, arcs)
print("ok")
PY
check "pprof -top: seconds and shares of gprof's flat profile; calls; -traces: the arcs" [ $? = 0 ]

bid=$(readelf -n views | sed -n 's/.*Build ID: *//p')
# the line debug info gives for each function's first address (addr2line)
line_of() { addr2line -e views "0x$(nm views | awk -v f="$1" '$3 == f { print $1 }')" | sed 's/.*://'; }
main_line=$(line_of main)
ka_line=$(line_of kernel_a)
py "$PPROF" "$bid" "$main_line" "$ka_line" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
pprof, bid, main_line, ka_line = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
raw = pc.raw(pprof, "p.pb.gz")
assert raw.types == ["samples", "calls", "cpu"], raw.types
assert len(raw.mappings) == 1 and bid in raw.mappings[0] and "views" in raw.mappings[0], raw.mappings
locs = {l[0]: l for l in raw.locations.values()}
assert locs["main"][1].endswith("views.c") and locs["main"][2] == main_line, locs["main"]
assert locs["kernel_a"][2] == ka_line, locs["kernel_a"]
assert any("gmon.out" in c for c in raw.comments), raw.comments
print("ok")
PY
check "pprof -raw: the build id, each function's file and line, the source in a comment" [ $? = 0 ]

# --focus reaches pprof: only solve's callers and callees
"$EGPROF" -b views gmon.out --pprof f.pb.gz --focus kernel_b >/dev/null 2>&1
py "$PPROF" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
names = set(l[0] for l in pc.raw(sys.argv[1], "f.pb.gz").locations.values())
assert names == {"main", "solve", "kernel_b", "helper"}, names
print("ok")
PY
check "--focus kernel_b: pprof holds its callers and callees only" [ $? = 0 ]

# errors: an unwritable file is named; a failing run leaves the old file
"$EGPROF" -b views gmon.out --pprof nodir/x.pb.gz >/dev/null 2>e.txt; rc=$?
check "--pprof into a missing folder: exit 1, the file named" \
	bash -c "[ $rc = 1 ] && grep -q 'nodir/x.pb.gz' e.txt"
echo old >keep.pb.gz
"$EGPROF" -b views gmon.out --pprof keep.pb.gz --focus no_such_fn >/dev/null 2>e.txt; rc=$?
check "--pprof with an unknown --focus: exit 1, the old file kept" \
	bash -c "[ $rc = 1 ] && [ \"\$(cat keep.pb.gz)\" = old ] && grep -q no_such_fn e.txt"
"$EGPROF" -b views gmon.out --pprof views >/dev/null 2>e.txt; rc=$?
check "--pprof naming the program is refused" \
	bash -c "[ $rc = 1 ] && grep -q 'an input of this command' e.txt && cmp -s views ../g/views"
done_testing
