#!/usr/bin/env bash
# The rank-aware comparison on exact numbers (issue 11 item 3): four ranks
# per side (sidecars record each file's MPI rank), every histogram written
# by mkgmon.py, so the expected text is exact.  relax_rows takes 0.85 s on
# every rank of the baseline; in the second job rank 2 takes 1.64 s: the
# spread across ranks is the change, never its noise, and the evidence names
# rank 2 alone.  exchange is 0.40 s everywhere: equal, not significant.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
CP_SO="$BUILDDIR/callpath/libcallpath.so"
MKGMON="$SRCDIR/testsuite/fixtures/fig1/mkgmon.py"
cd "$WORKDIR" || exit 1
cat > relax.c <<'C'
static volatile double sink;
__attribute__((noinline)) void relax_rows(void) { for (int i = 0; i < 1000; i++) sink += i; }
__attribute__((noinline)) void exchange(void) { for (int i = 0; i < 1000; i++) sink -= i; }
int main(void) { relax_rows(); exchange(); return 0; }
C
gcc -pg -O1 -o relax relax.c || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
# side RANK2_TICKS: one run per rank 0..3 under libcallpath (its sidecar
# records the rank), then each gmon file rewritten with exact samples.
# CALLPATH_HZ=10: a 100 ms tick, which the run's 1 ms never reaches (at the
# default 1 ms a slow machine's run took a sample now and then), so that
# the sidecars hold no sample and the rewritten histograms are the time.
side() {
	local dir=$1 r t f
	mkdir -p "$dir"
	for r in 0 1 2 3; do
		rm -rf one && mkdir one
		OMPI_COMM_WORLD_RANK=$r CALLPATH_HZ=10 GMON_OUT_PREFIX="$WORKDIR/one/gmon" LD_PRELOAD="$CP_SO" ./relax
		f=$(ls one/gmon.* | grep -v '\.callpath$')
		[ -e "$f.callpath" ] || return 1
		t=85
		[ $r = 2 ] && t=$2
		python3 "$MKGMON" relax "$f" relax_rows=$t exchange=40 \
			'main>relax_rows=1' 'main>exchange=1' || return 1
		# the rewritten gmon file still goes with the run's sidecar
		python3 "$SRCDIR/testsuite/fixtures/reidentify.py" "$f.callpath" "$f" || return 1
		mv one/gmon.* "$dir/"
	done
}
side a 85 && side b 164 || { echo "not ok 1 - runs and gmon files"; echo "1..1"; exit 1; }
check "four gmon files and four sidecars per side" \
	test "$(ls a | wc -l)" -eq 8 -a "$(ls b | wc -l)" -eq 8

"$EGPROF" -b -p --extended --diff relax a relax b > ext.txt 2> ext.err
check "diff exits 0" test $? -eq 0
first=$(squeeze ext.txt | grep -E '^-?[0-9]' | head -1)
check "relax_rows: 4 x 0.85 s -> 3 x 0.85 + 1.64 s, the first row, not marked" \
	test "$first" = '-100.00 3.40 4.19 -0.79 4 4 0 XX relax_rows'
check "its row has no noise marker" grep -Eq ' relax_rows$' ext.txt
# the sum of four ranks hides the change in their noise; rank 2's own test
# finds it (issue 24 item 3: each rank at its own speed)
check "the evidence names rank 2 alone, and the slowest rank's difference" \
	grep -Eq '^  relax_rows: time -0.79 s, (within|beyond) noise [0-9.]+ s; rank 2 -0.79 s, other ranks within noise; slowest rank -0.79 s$' ext.txt
check "exchange is equal" contains ext.txt '0.00 1.60 1.60 0.00 4 4 0 XX exchange'
check "exchange is not among the significant rows" bash -c "! grep -q '^  exchange:' ext.txt"
dl_done
