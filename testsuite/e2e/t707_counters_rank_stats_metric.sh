#!/usr/bin/env bash
# --rank-stats --metric EV (issue 27, item 5): each rank's function values
# come from its sidecar's event EV, not the gmon histogram; the same
# statistics (min, max, imbalance, cost, the summary) in events.  Four
# "ranks" (OMPI_COMM_WORLD_RANK as mpirun sets it, each its own gmon file):
# rank r's fault() touches (r + 1) x 1,000 pages, one page fault each.
# egprof-rankstats (the MPI driver of the same engine) prints the same
# report byte for byte when mpirun is here.
#
# Noise bounds: t700's, faults counted every 10: within 10% (the 1,000 of
# rank 0 is the tightest: a handful of page-table faults besides).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
if ! grep -qa "libpapi\.so\." "$CP_SO"; then
	echo "ok 1 # SKIP this build has no PAPI (configure found no libpapi-dev)"
	echo "1..1"
	exit 0
fi
cat > f.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
__attribute__((noinline)) long fault(long pages)
{
	char *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long s = 0;

	if (p == MAP_FAILED)
		exit(2);
	for (long i = 0; i < pages; i++)
		s += p[i * 4096] = 1;
	munmap(p, pages * 4096);
	return s;
}
int main(void)
{
	printf("%ld\n", fault((atol(getenv("OMPI_COMM_WORLD_RANK")) + 1) * 1000));
	return 0;
}
C
gcc -pg -O1 -o f f.c || exit 1
mkdir -p runs
for r in 0 1 2 3; do
	OMPI_COMM_WORLD_RANK=$r GMON_OUT_PREFIX="$WORKDIR/runs/gmon" \
		CALLPATH_EVENTS=perf::PAGE-FAULTS LD_PRELOAD="$CP_SO" ./f > /dev/null
done
"$EGPROF" --rank-stats --metric perf::PAGE-FAULTS ./f runs > rs.txt 2> rs.err; rc=$?
cp_check "--rank-stats --metric: exit 0, nothing on stderr" bash -c "[ $rc = 0 ] && [ ! -s rs.err ]"
cp_check "the title says the values are the event's" \
	grep -q "^Rank statistics: .*; perf::PAGE-FAULTS events per function from the sidecars (--metric), not seconds" rs.txt
cp_check "the columns are events" grep -Eq "^ +events +events +events +events +events" rs.txt
read -r cost imbal total min mean max minr maxr _ <<< "$(awk '$NF == "fault"' rs.txt)"
within() { awk -v v="$1" -v e="$2" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(v != "" && d <= e / 10) }'; }
cp_check "fault: min $min on rank $minr (1000 on rank 0)" \
	bash -c "$(declare -f within); within '$min' 1000 && [ '$minr' = 0 ]"
cp_check "fault: max $max on rank $maxr (4000 on rank 3)" \
	bash -c "$(declare -f within); within '$max' 4000 && [ '$maxr' = 3 ]"
cp_check "fault: imbalance $imbal (1.6), total $total (10000)" \
	bash -c "$(declare -f within); within '$imbal' 1.6 && within '$total' 10000"
cp_check "the summary's units are events" \
	grep -Eq "^    fault +wait [0-9.]+ events  imbal" rs.txt
"$EGPROF" --rank-stats ./f runs > t.txt 2>&1
cp_check "without --metric: seconds, as before" \
	bash -c "grep -q 'self seconds in all' t.txt && ! grep -q 'events' t.txt"
"$EGPROF" --rank-stats --metric perf::NOPE ./f runs > /dev/null 2> nope.err; rc=$?
cp_check "a metric the sidecars lack: exit 1, naming what they have" \
	bash -c "[ $rc = 1 ] && grep -q \"no metric 'perf::NOPE' (it has time, perf::PAGE-FAULTS)\" nope.err"
if command -v mpirun > /dev/null && [ -x "$BUILDDIR/mpi/egprof-rankstats" ]; then
	MPIRUN=(mpirun --oversubscribe)
	[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
	OMPI_MCA_btl_vader_single_copy_mechanism=none "${MPIRUN[@]}" -np 2 \
		"$BUILDDIR/mpi/egprof-rankstats" --metric perf::PAGE-FAULTS ./f runs > mpi.txt 2> mpi.err
	cp_check "egprof-rankstats --metric under mpirun -np 2: the same report" cmp -s rs.txt mpi.txt
else
	cp_check "egprof-rankstats --metric # SKIP mpirun or egprof-rankstats not here" true
fi
cp_done
