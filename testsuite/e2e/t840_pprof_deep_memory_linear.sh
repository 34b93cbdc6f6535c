#!/usr/bin/env bash
# --pprof's memory linear in its input at any depth: a recursion 20,000
# deep recorded with CALLPATH_RECURSION=full took 1.77 GB of RSS for
# --pprof (--diff --pprof 2.1 GB; 100,000 deep: 22.5 GB, killed) where
# --html of the same file takes about 20 MB.  Each frame is a sample whose
# location list is its whole path (pprof's format), so the profile's
# encoding is quadratic in the depth; what is built and kept is not: stacks
# share their callers and the lists are walked out as the file is written.
# The bound is a ratio to --html on the same file (measured: 0.6 for
# --pprof, 0.7 for --diff --pprof), not a number of bytes, so it holds on
# any machine; --pprof runs under a 1 GB address-space limit so that a
# regression fails at once instead of taking the machine's memory.
# pprof itself reads a deep profile back with every call on its path.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/graph_lib.sh"	# py
. "$SRCDIR/testsuite/e2e/views_lib.sh"	# pprof_find
cd "$WORKDIR" || exit 1
cp_cc recurse recurse.c -O2 -fno-optimize-sibling-calls || exit 1
mkdir -p deep small
(cd deep && CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ../recurse down 20000 > /dev/null)
(cd small && CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ../recurse down 3000 > /dev/null)
cp_check "the deep sidecar holds 20,002 nodes of calls" \
	test "$(cp_call_nodes deep/gmon.out.callpath)" -eq 20002

# rss OUT ARGS...: peak RSS in KB of gprof ARGS, under a 1 GB address space
rss() {
	(ulimit -v 1048576 && /usr/bin/time -f %M -o rss.txt timeout 120 "$EGPROF" "$@" \
		> /dev/null 2> err.txt) || { sed "s/^/# /" err.txt >&2; echo 999999999; return; }
	tail -n 1 rss.txt
}
cd deep || exit 1
if [ -x /usr/bin/time ] && ! nm "$EGPROF" 2> /dev/null | grep -q __asan_init; then
	h=$(rss -b --html h.html ../recurse gmon.out)
	p=$(rss -b --pprof p.pb.gz ../recurse gmon.out)
	cp_check "--pprof: peak RSS $p KB, within 2 x --html's $h KB" test "$p" -le $((2 * h))
	h=$(rss --diff --html dh.html ../recurse gmon.out gmon.out)
	p=$(rss --diff --pprof dp.pb.gz ../recurse gmon.out gmon.out)
	cp_check "--diff --pprof: peak RSS $p KB, within 2 x --diff --html's $h KB" \
		test "$p" -le $((2 * h))
else
	timeout 120 "$EGPROF" -b --pprof p.pb.gz ../recurse gmon.out > /dev/null 2>&1
	cp_check "--pprof of the deep file is written (no RSS measured under ASan)" test -s p.pb.gz
fi
# the encoding is every frame's path: sum of 1..20,002 location ids, and
# field tags and values: about 200 MB, gzipped to under 1 MB
raw=$(gzip -dc p.pb.gz | wc -c)
cp_check "the deep profile encodes every path whole ($raw bytes, over 200,000,000)" \
	test "$raw" -gt 200000000
cd ..

if pprof_find; then
	(cd small && "$EGPROF" -b --pprof s.pb.gz ../recurse gmon.out > /dev/null 2>&1)
	check_small() {
		(cd small && py "$PPROF") <<'PY'
import os, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
pprof = sys.argv[1]
raw = pc.raw(pprof, "s.pb.gz")
C = raw.index("calls")
# one sample per frame: main, and down 3,001 times, 1 call each, the
# deepest path main and 3,001 frames of down.  A frame the sampler alone
# found is a sample of its own with no calls, not one of them: the
# runtime's start-up, before main's first call, as [instrumentation] at
# the root (a loaded CI run; 1 of 3 runs at CALLPATH_HZ=10000 beside a
# busy loop on the same CPU).
called = [s for s in raw.samples if s[0][C]]
assert len(called) == 3002, len(called)
assert all(v[C] == 1 for v, _, _ in called)
for v, locs, _ in raw.samples:
    if not v[C]:
        name = raw.locations[locs[0]][0]
        assert name not in ("down", "main"), ("a call-less frame of", name)
deepest = max(called, key=lambda s: len(s[1]))[1]
names = [raw.locations[l][0] for l in deepest]
assert names == ["down"] * 3001 + ["main"], (len(names), names[:3], names[-3:])
top = pc.top(pprof, "s.pb.gz", "-sample_index=calls")
assert top["down"].flat == 3001 and top["down"].cum == 3001, top["down"]
assert top["main"].flat == 1 and top["main"].cum == 3002, top["main"]
print("ok")
PY
	}
	cp_check "pprof reads a 3,002-deep profile: every frame a sample of its whole path" \
		check_small
else
	CP_N=$((CP_N + 1))
	echo "ok $CP_N # SKIP pprof not available"
fi
cp_done
