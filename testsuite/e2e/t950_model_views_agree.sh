#!/usr/bin/env bash
# One model of a run, one analysis, many views: over a corpus of runs
# (a single profile; a diff; a diff of rank directories; a diff in an
# event, --metric; libraries' time; an OpenMP region), every value that two
# views show agrees to the precision the coarser prints: the text's table,
# its header's count and its evidence, JSON, CSV, the graphs' attributes
# (GML, GraphML), the HTML page's data and rates, pprof's functions
# (testsuite/e2e/model_check.py says what is compared with what).  Every
# graph edge carries at most its callee's total.
#
# Exact: each check compares two views of the same numbers; no result
# depends on the runs' noise (the programs only make the numbers
# non-trivial), so the script holds on any machine at any load.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
pprof_find || PPROF=
CHECK="$SRCDIR/testsuite/e2e/model_check.py"
G=(--node-thres 0 --edge-thres 0)

# views DIR APP1 GMON1 APP2 GMON2 [OPTIONS...]: every view of one diff
views() {
	local d=$1 a=$2 ga=$3 b=$4 gb=$5
	shift 5
	mkdir -p "$d" &&
	"$EGPROF" --diff "$@" "$a" "$ga" "$b" "$gb" --gml "$d/d.gml" --graphml "$d/d.graphml" \
		--html "$d/d.html" --pprof "$d/d.pb.gz" "${G[@]}" > "$d/d.txt" 2> "$d/err" &&
	"$EGPROF" --diff "$@" --format json "$a" "$ga" "$b" "$gb" > "$d/d.json" 2>> "$d/err" &&
	"$EGPROF" --diff "$@" --format csv "$a" "$ga" "$b" "$gb" > "$d/d.csv" 2>> "$d/err"
}
agree() { # NAME KIND DIR [VIEWS...]: VIEWS, pairs of views that must have been compared
	local name=$1 kind=$2 dir=$3 v missing=
	shift 3
	python3 "$CHECK" "$kind" "$dir" "$PPROF" > "$dir/check.out" 2>&1
	for v in "$@"; do
		grep -Eq "^compared: (.* )?$v=[1-9]" "$dir/check.out" || missing="$missing $v"
	done
	check "$name" bash -c "[ \"\$(tail -n 1 '$dir/check.out')\" = ok ] && [ -z '$missing' ] ||
		{ echo '# not compared:$missing'; sed 's/^/# /' '$dir/check.out'; } >&2 && [ \"\$(tail -n 1 '$dir/check.out')\" = ok ] && [ -z '$missing' ]"
}
# the pairs of views each kind of case compares (pprof's where it is found)
# (evidence lines only where a row is significant: the header's count of
# them is compared with the evidence in every case)
DIFF_VIEWS="text/JSON CSV/JSON GML/JSON GraphML/JSON HTML/JSON"
SINGLE_VIEWS="GML/HTML paths/table"
if [ -n "$PPROF" ]; then
	DIFF_VIEWS="$DIFF_VIEWS pprof/JSON"
	SINGLE_VIEWS="$SINGLE_VIEWS pprof/HTML"
fi

# libraries: libm's sin, most of the time, a row of its own
gcc -pg -O2 -o a "$SRCDIR/testsuite/fixtures/libm/libwork.c" -lm &&
	gcc -pg -O2 -DLIBM_ROUNDS=300 -o b "$SRCDIR/testsuite/fixtures/libm/libwork.c" -lm ||
	{ echo "Bail out! build"; exit 1; }
for r in a b; do
	mkdir -p "r$r" && (cd "r$r" && LD_PRELOAD="$CALLPATH_SO" "../$r" > out) ||
		{ echo "Bail out! run $r"; exit 1; }
done
mkdir -p single
"$EGPROF" a ra/gmon.out --gml single/s.gml --graphml single/s.graphml --html single/s.html \
	--pprof single/s.pb.gz "${G[@]}" > /dev/null 2> single/err &&
	"$EGPROF" --callpath --format json a ra/gmon.out > single/s.cp.json 2>> single/err
agree "a single profile with libraries: graphs, HTML (table, paths), pprof, --callpath" single single $SINGLE_VIEWS "--callpath"
views diff a ra/gmon.out b rb/gmon.out
agree "a diff with libraries: text, evidence, JSON, CSV, graphs, HTML, pprof" diff diff $DIFF_VIEWS
mkdir -p ga gb && cp ra/gmon.out ga/ && cp rb/gmon.out gb/
views gmon a ga/gmon.out b gb/gmon.out
agree "the same runs without sidecars (gmon.out's histogram)" diff gmon $DIFF_VIEWS

# rank directories: two ranks a side, each a process of its own (the
# sidecars record the rank), rank 1 doing twice the work in the second
cat > ranks.c <<'C'
#include <stdio.h>
#include <stdlib.h>
static volatile double sink;
__attribute__((noinline)) void relax(long n) { for (long i = 0; i < n; i++) sink += (double)i * 1e-9; }
__attribute__((noinline)) void halo(long n) { for (long i = 0; i < n; i++) sink -= (double)i * 1e-9; }
int main(int argc, char **argv) { relax(atol(argv[1])); halo(20000000); return 0; }
C
gcc -pg -O1 -o ranks ranks.c || { echo "Bail out! build ranks"; exit 1; }
for side in A:40000000:40000000 B:40000000:80000000; do
	IFS=: read -r s r0 r1 <<< "$side"
	mkdir -p "$s"
	OMPI_COMM_WORLD_RANK=0 GMON_OUT_PREFIX="$PWD/$s/gmon" LD_PRELOAD="$CALLPATH_SO" ./ranks "$r0"
	OMPI_COMM_WORLD_RANK=1 GMON_OUT_PREFIX="$PWD/$s/gmon" LD_PRELOAD="$CALLPATH_SO" ./ranks "$r1"
done
views rk ranks A ranks B
agree "a diff of rank directories with sidecars" diff rk $DIFF_VIEWS

# an OpenMP region, found under its function
if gcc -O2 -fopenmp -pg -o oa "$SRCDIR/testsuite/fixtures/omp/region.c" 2> /dev/null &&
	gcc -O2 -fopenmp -pg -DWORK=2 -o ob "$SRCDIR/testsuite/fixtures/omp/region.c"; then
	for r in oa ob; do
		mkdir -p "r$r" && (cd "r$r" && OMP_NUM_THREADS=2 LD_PRELOAD="$CALLPATH_SO" "../$r" 1000000 > out)
	done
	views omp oa roa/gmon.out ob rob/gmon.out
	agree "a diff of an OpenMP region" diff omp $DIFF_VIEWS
fi

# an event (--metric), when this build counts them (PAPI)
if grep -qa "libpapi\.so\." "$CALLPATH_SO"; then
	. "$SRCDIR/testsuite/e2e/counters_lib.sh"
	(CP_SO=$CALLPATH_SO counters_pages_runs 3000 6000 > /dev/null 2>&1)
	views metric ./pages r6000/gmon.out ./pages r3000/gmon.out --metric perf::PAGE-FAULTS
	agree "a diff in an event (--metric perf::PAGE-FAULTS)" diff metric ${DIFF_VIEWS/ pprof\/JSON/}
fi
check "nothing on stderr" bash -c "! cat */err | grep -q ."
done_testing
