#!/usr/bin/env bash
# Snapshots' and killed runs' sidecars record the process's CPU time
# (the optional section 7), as the exit's sidecar does, so that
# `gprof --callpath` says what share of it the samples cover for them too:
# only the exit's writer filled it, and the coverage line was missing from
# every snapshot's and killed run's report.
# False-failure bound: the checks are the section's presence and the
# report's line; the share itself is only checked to lie in (0, 100]
# (samples are counted from each thread's own CPU time, so a loaded
# machine moves neither side; a 0.3 s busy run has some 300 samples).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
unset CALLPATH_HZ CALLPATH_CLOCK CALLPATH_EVENTS
cp_cc ends ends.c -O1 || exit 1
cd "$WORKDIR" || exit 1

# has_cpu SIDECAR: its header has process-cpu-ns with a non-zero user time
has_cpu() { "$CP_DUMP" -H "$1" | awk '$1 == "process-cpu-ns" && $2 > 0 { ok = 1 } END { exit !ok }'; }
# cover REPORT: the coverage line's share, within (0, 100]
cover() {
	awk '/^The samples cover [0-9]+% of the process.s CPU time .getrusage.\.$/ {
		n = $4; sub(/%/, "", n); n += 0; if (n > 0 && n <= 100) ok = 1 }
		END { exit !ok }' "$1"
}

mkdir -p snap && cd snap || exit 1
CALLPATH_SNAPSHOT=0.2 LD_PRELOAD="$CP_SO" ../ends phases 0.5 1 2> stderr
cd "$WORKDIR" || exit 1
cp_check "a snapshot was written" test -e snap/gmon.out.snap1.callpath
cp_check "the snapshot's sidecar records the process's CPU time" has_cpu snap/gmon.out.snap1.callpath
"$EGPROF" -b --callpath ./ends snap/gmon.out.snap1 > snap/report 2>&1
grep "samples cover" snap/report | sed 's/^/# snapshot: /'
cp_check "--callpath of the snapshot says what share the samples cover" cover snap/report
cp_check "the exit's sidecar still does" has_cpu snap/gmon.out.callpath

mkdir -p killed && cd killed || exit 1
rm -f started
LD_PRELOAD="$CP_SO" ../ends loop 2> stderr &
pid=$!
for _ in $(seq 200); do [ -e started ] && break; sleep 0.05; done
sleep 0.3
kill -TERM $pid
wait $pid
cd "$WORKDIR" || exit 1
cp_check "the killed run wrote its sidecar" test -e killed/gmon.out.callpath
cp_check "the killed run's sidecar records the process's CPU time" has_cpu killed/gmon.out.callpath
"$EGPROF" -b --callpath ./ends killed/gmon.out > killed/report 2>&1
grep "samples cover" killed/report | sed 's/^/# killed: /'
cp_check "--callpath of the killed run says what share the samples cover" cover killed/report
cp_done
