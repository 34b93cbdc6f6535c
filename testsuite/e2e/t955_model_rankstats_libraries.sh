#!/usr/bin/env bash
# --rank-stats of an MPI job with call-path sidecars reads each rank's
# functions from its sidecar (one source, said in the title): the MPI
# library's time is in the function table beside the program's, with its
# kind and no counted calls, so the wait that *is* the imbalance shows:
# rank 2 computes three times as long, the other ranks wait for it in the
# MPI library.  (gmon.out's histogram has the program's code only: its
# statistics saw compute and nothing of the wait.)
#
# Noise bound: compute takes about 0.13 s on ranks 0, 1, 3 and 0.40 s on
# rank 2 (130 and 400 samples at 1 kHz): the slowest rank is 3 times the
# others, far beyond sampling noise and a loaded machine's 50% swing; the
# other ranks' share of library time is what they did besides computing,
# rank 2's at most what it did before it (its wait is the others' compute,
# which ended before its own).
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/lib.sh"
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then
	echo "ok 1 - # SKIP mpirun or mpicc not installed (apt-get install openmpi-bin libopenmpi-dev)"
	echo "1..1"
	exit 0
fi
CP="$BUILDDIR/callpath"
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # containers without CMA
cd "$WORKDIR" || exit 1
mpicc -pg -O1 -g -o imb "$SRCDIR/testsuite/mpi/imbalance.c" -L"$CP" -lcallpath \
	-Wl,-rpath,"$CP" > build.log 2>&1 || { not_ok "build"; diag < build.log; e2e_done; }
mkdir -p r && GMON_OUT_PREFIX="$WORKDIR/r/gmon" "${MPIRUN[@]}" -np 4 -x GMON_OUT_PREFIX ./imb 10 \
	> run.log 2>&1 || { not_ok "mpirun -np 4"; diag < run.log; e2e_done; }
"$EGPROF" --rank-stats ./imb r > s.txt 2> s.err
"$EGPROF" --rank-stats --format json ./imb r > s.json 2>> s.err
if [ ! -s s.err ] && grep -q "time: call-path samples of each thread, 1000 Hz" s.txt; then
	ok "the title says the one source: the sidecars' samples"
else
	not_ok "the title says the one source: the sidecars' samples"; diag < s.err
fi
if python3 - s.json s.txt <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
fn = {f["name"]: f for f in d["functions"]}
c = fn["compute"]
assert c["self_max_rank"] == "2" and c["imbalance"] > 1.5, c
libs = [f for f in d["functions"] if f["kind"] == "library"]
assert libs and all(f["calls_max"] is None for f in libs), libs[:3]
assert sum(f["self_total"] for f in libs) > 0.02, [(f["name"], f["self_total"]) for f in libs]
# every rank's sampled seconds are its functions' (one source)
t = open(sys.argv[2]).read()
m = re.search(r"([0-9.]+) self seconds in all", t)
ranks = {r["rank"]: r for r in d["ranks"]}
assert abs(float(m.group(1)) - sum(r["self_sec"] for r in d["ranks"])) < 0.011, (m.group(1), d["ranks"])
PY
then
	ok "compute's slowest rank is 2; the MPI library's rows, kind library, no calls, their time in the total"
else
	not_ok "compute's slowest rank is 2; the MPI library's rows, kind library, no calls, their time in the total"
fi
row() { awk -v r="$1" '/^Per rank:/ { on = 1; next } on && $1 == r && NF >= 12 { print $10; exit }' s.txt; }
l0=$(row 0) l2=$(row 2)
if awk -v a="$l0" -v b="$l2" 'BEGIN { exit !(a > b) }'; then
	ok "the waiting ranks spend more of their time in libraries ($l0% on rank 0, $l2% on rank 2)"
else
	not_ok "the waiting ranks spend more of their time in libraries ($l0% on rank 0, $l2% on rank 2)"
fi
if python3 "$SRCDIR/scripts/json_schema.py" validate s.json; then
	ok "the JSON validates against its schema"
else
	not_ok "the JSON validates against its schema"
fi
e2e_done
