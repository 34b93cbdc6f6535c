#!/usr/bin/env bash
# The noise model for each case (issue 24 item 3), on exact samples
# (mkgmon.py) of ranks.c: five functions; with MPI ranks from
# libcallpath's sidecars (one job per side, OMPI_COMM_WORLD_RANK).
#  1. One run per side, an A/A pair where three functions happen to run
#     0.7x their baseline time and busy does not: busy's raw -0.03 s was
#     "-0.33 s at the runs' common speed, beyond noise"; the speed of a few
#     functions is uncertain, and that uncertainty is part of the noise.
#  2. Two ranks, relax 2x slower on rank 1 only: rank 1 changed, rank 0
#     not (with two ranks "the speed across ranks" was their mean, which
#     split the change between both).
#  3. Two ranks, relax 1.5x slower on both: one change of the function on
#     every rank alike, not "rank 0, other ranks within noise".
#  4. Two ranks, tiny 1 -> 3 samples on rank 1: no change of that rank.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
CP_SO="$BUILDDIR/callpath/libcallpath.so"
MKGMON=$SRCDIR/testsuite/fixtures/fig1/mkgmon.py
cd "$WORKDIR" || exit 1
cat > ranks.c <<'C'
static volatile double sink;
#define F(n) __attribute__((noinline)) void n(void) { for (int i = 0; i < 1000; i++) sink += i; }
F(relax) F(busy) F(halo) F(pack) F(tiny)
int main(void) { relax(); busy(); halo(); pack(); tiny(); return 0; }
C
gcc -pg -O1 -o ranks ranks.c || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
calls="main>relax=1 main>busy=1 main>halo=1 main>pack=1 main>tiny=1"

# 1. one run per side
python3 "$MKGMON" ranks a.gmon relax=1000 busy=100 halo=1000 pack=1000 tiny=10 $calls &&
python3 "$MKGMON" ranks b.gmon relax=700 busy=103 halo=710 pack=690 tiny=10 $calls ||
	{ echo "not ok - gmon files"; exit 1; }
"$EGPROF" -p --extended --diff ranks a.gmon b.gmon > one.txt 2>&1
check "busy's -0.03 s is within noise" grep -Eq ' busy  ~$' one.txt
check "no row is significant" grep -q '^Rows are in evidence order: the 0 significant changes first' one.txt

# side DIR TICKS0 TICKS1: a job of two ranks, rank r's samples TICKSr
# ("relax=.. busy=..."), each rank's gmon file with its sidecar
# (CALLPATH_HZ=10: a tick the run never reaches, so that the sidecars hold
# no sample and the rewritten histograms are the time)
side() {
	local dir=$1 t0=$2 t1=$3 r f t
	mkdir -p "$dir"
	for r in 0 1; do
		rm -rf one && mkdir one
		OMPI_COMM_WORLD_RANK=$r CALLPATH_HZ=10 GMON_OUT_PREFIX="$WORKDIR/one/gmon" LD_PRELOAD="$CP_SO" ./ranks
		f=$(ls one/gmon.* | grep -v '\.callpath$')
		[ -e "$f.callpath" ] || return 1
		t=$t0
		[ $r = 1 ] && t=$t1
		# shellcheck disable=SC2086
		python3 "$MKGMON" ranks "$f" $t $calls || return 1
		# the sidecar names the gmon file as the test made it
		python3 "$SRCDIR/testsuite/fixtures/reidentify.py" "$f.callpath" "$f" || return 1
		mv one/gmon.* "$dir/"
	done
}
base="relax=1000 busy=800 halo=900 pack=1100 tiny=1"
side r0 "$base" "$base" &&
side r1 "$base" "relax=2000 busy=800 halo=900 pack=1100 tiny=1" &&
side r2 "relax=1500 busy=800 halo=900 pack=1100 tiny=1" "relax=1500 busy=800 halo=900 pack=1100 tiny=1" &&
side r3 "$base" "relax=1000 busy=800 halo=900 pack=1100 tiny=3" ||
	{ echo "not ok - rank files"; exit 1; }
"$EGPROF" -b -p --diff ranks r0 ranks r1 > rank1.txt 2>&1
check "2 ranks: relax changed on rank 1 alone" \
	grep -Eq '^  relax: .*rank 1 -10\.00 s, other ranks within noise; slowest rank -10\.00 s$' rank1.txt
"$EGPROF" -b -p --diff ranks r0 ranks r2 > rank2.txt 2>&1
check "2 ranks: the same change on both is the function's, on every rank alike" \
	grep -Eq '^  relax: .*every rank alike, -5\.00 s each on average; slowest rank -5\.00 s$' rank2.txt
"$EGPROF" -b -p --diff ranks r0 ranks r3 > rank3.txt 2>&1
check "2 ranks: a blip of 2 samples on one rank is no change" bash -c "! grep -q '^  tiny:' rank3.txt"
"$EGPROF" -p --diff ranks r0 ranks r1 > head.txt 2>&1
check "the header says how the noise is measured for one job per side" \
	grep -q '^One job per side: each rank is compared with itself' head.txt
dl_done
