#!/usr/bin/env bash
# --pprof from call paths (issue 25 item 1): every frame of the sidecar's
# calling-context tree is a sample whose stack is its path, read back by
# pprof itself (-raw: the stacks and values; -top: the shares; -traces), with
# and without threads, and equal to --callpath --format json's records;
# the sample types are the model's metrics (cpu, samples, calls).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
pprof_find || skip_all "pprof not available (apt-get install golang-go golang-github-google-pprof-dev)"

views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
mkdir -p t && cp v/base/views t/ && (cd t && LD_PRELOAD="$CALLPATH_SO" ./views 10 threads >/dev/null)

# check DIR: the pprof file of DIR's run against its call paths
check_run() {
	local d=$1 what=$2
	(cd "$d" && "$EGPROF" -b views gmon.out --pprof c.pb.gz >/dev/null 2>err.txt &&
	 "$EGPROF" --callpath --format json views gmon.out >paths.json 2>>err.txt &&
	 "$EGPROF" -b -p --callpath views gmon.out >report.txt 2>>err.txt)
	check "$what: --pprof and --callpath --format json exit 0" \
		bash -c "[ ! -s '$d/err.txt' ]"
	(cd "$d" && py "$PPROF") <<'PY'
import json, sys, collections
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
pprof = sys.argv[1]
raw = pc.raw(pprof, "c.pb.gz")
assert raw.types == ["samples", "calls", "cpu"], raw.types
S, C = raw.index("samples"), raw.index("calls")
got = collections.Counter()
for vals, locs, labels in raw.samples:
    path = ";".join(raw.locations[l][0] for l in reversed(locs))
    got[(path, "samples")] += vals[S]
    got[(path, "calls")] += vals[C]
want = collections.Counter()
frames = json.load(open("paths.json"))["frames"]
byid = {f["id"]: f for f in frames}
for f in frames:
    if f["folded"]:
        # recursive calls of the parent's function: its path and the function again
        want[(byid[f["parent"]]["path"] + ";" + f["function"], "calls")] += f["recursive_calls"]
    else:
        want[(f["path"], "samples")] += f["self_samples"]
        want[(f["path"], "calls")] += f["calls"]
got = {k: v for k, v in got.items() if v}
want = {k: v for k, v in want.items() if v}
assert got == want, (sorted(set(got.items()) ^ set(want.items())))[:10]
# -top: each function's share of the samples, as the records give it
top = pc.top(pprof, "c.pb.gz", "-sample_index=samples")
per_fn = collections.Counter()
for f in frames:
    per_fn[f["function"]] += f["self_samples"]
total = sum(per_fn.values())
assert total > 0
for n, s in per_fn.items():
    if s:
        assert top[n].flat == s and abs(top[n].flat_pct - 100.0 * s / total) <= 0.0051, (n, top[n], s)
# and the cpu type's shares are the same
cpu = pc.top(pprof, "c.pb.gz")
for n, s in per_fn.items():
    if s:
        assert abs(cpu[n].flat_pct - 100.0 * s / total) <= 0.0051, (n, cpu[n], s)
tr = pc.traces(pprof, "c.pb.gz", "-sample_index=calls")
assert any(frames_[:3] == ["kernel_a", "solve", "main"] for _, frames_, _ in tr), tr[:5]
print("ok")
PY
	check "$what: pprof -raw's stacks and values are the call-path records, -top's shares theirs" [ $? = 0 ]
	# the text report's self seconds per function, against pprof -top's
	(cd "$d" && py "$PPROF") <<'PY'
import re, sys, collections
sys.path.insert(0, __import__("os").environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
cpu = pc.top(sys.argv[1], "c.pb.gz", "-unit=s")
seen = 0
for line in open("report.txt"):
    m = re.match(r"^(\S+): (\d+) calls, \d+ paths?, ([0-9.]+) self seconds$", line.strip())
    if m and float(m.group(3)) > 0:
        assert abs(cpu[m.group(1)].flat - float(m.group(3))) <= 0.0051, (line, cpu[m.group(1)])
        seen += 1
assert seen >= 3, seen
print("ok")
PY
	check "$what: pprof -top's seconds are the --callpath report's" [ $? = 0 ]
}
check_run v/base "one thread"
check_run t "three threads"
check "threads: the workers' paths are in the profile" \
	bash -c "'$PPROF' -traces -sample_index=calls t/c.pb.gz 2>/dev/null | grep -A1 -x '.* kernel_a' | grep -q worker"

# --callpath=FILE names the sidecar for --pprof too
cp v/base/gmon.out.callpath v/base/other.callpath
(cd v/base && "$EGPROF" -b views gmon.out --callpath=other.callpath --pprof o.pb.gz >/dev/null 2>&1)
check "--callpath=FILE: the same profile from that file" \
	bash -c "'$PPROF' -raw v/base/o.pb.gz | sed -n '/^Samples/,/^Locations/p' >o.txt &&
		 '$PPROF' -raw v/base/c.pb.gz | sed -n '/^Samples/,/^Locations/p' >c.txt && cmp -s o.txt c.txt"
done_testing
