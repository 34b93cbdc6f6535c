#!/usr/bin/env bash
# mpirun -np 2 where rank 1 calls MPI_Abort after a second of work: each
# rank leaves its gmon file and sidecar (rank 1 through the runtime's
# MPI_Abort, rank 0 through its SIGTERM handler when mpirun ends it), read
# by /usr/bin/gprof, paired by gprof --callpath, and --rank-stats takes
# them; mpirun's status is as without the runtime.  Snapshots are named
# per rank (GMON_OUT_PREFIX) and --rank-stats takes a set of them.
# (issue 26)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
if ! command -v mpirun > /dev/null || ! command -v mpicc > /dev/null; then
	echo "ok 1 - # SKIP mpirun or mpicc missing (OpenMPI)"
	echo "1..1"
	exit 0
fi
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
cd "$WORKDIR" || exit 1
mpicc -pg -O1 -o abort "$SRCDIR/testsuite/mpi/abort_rank.c" || exit 1

mkdir -p plain rt snaps
(cd plain && timeout 60 "${MPIRUN[@]}" -np 2 -x GMON_OUT_PREFIX=gmon ../abort \
	> out 2>&1; echo $? > status)
(cd rt && timeout 60 "${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$CP_SO" -x GMON_OUT_PREFIX=gmon \
	../abort > out 2>&1; echo $? > status)
cp_check "mpirun's status as without the runtime ($(cat plain/status))" \
	test "$(cat plain/status)" = "$(cat rt/status)"
cp_check "without the runtime no rank leaves a gmon file" \
	test -z "$(ls plain | grep '^gmon\.')"
for r in 0 1; do
	g=
	for s in rt/gmon.*.callpath; do
		[ "$(cp_header "$s" rank)" = $r ] && g=${s%.callpath}
	done
	cp_check "rank $r left its gmon file and sidecar (${g:-none})" test -n "$g"
	[ -n "$g" ] || continue
	calls=$(cp_calls_of /usr/bin/gprof ./abort "$g" leaf)
	cp_check "rank $r: /usr/bin/gprof reads it (leaf: $calls calls)" test "${calls:-0}" -gt 0
	"$EGPROF" -b --callpath ./abort "$g" > rt/report$r 2>&1
	cp_check "rank $r: gprof --callpath reads the pair" \
		grep -qE 'leaf \(work\+0x' rt/report$r
done
"$EGPROF" --rank-stats ./abort rt/gmon.[0-9]* > rt/ranks 2>&1
cp_check "--rank-stats takes both ranks' files" grep -q "^2 ranks" rt/ranks

# snapshots per rank, and --rank-stats over the first snapshot of each
(cd snaps && timeout 60 "${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$CP_SO" -x GMON_OUT_PREFIX=gmon \
	-x CALLPATH_SNAPSHOT=0.4 ../abort > out 2>&1)
n=$(ls snaps | grep -cE '^gmon\.[0-9]+\.snap1$')
cp_check "each rank's first snapshot is named by its pid ($n files)" test "$n" = 2
"$EGPROF" --rank-stats ./abort snaps/gmon.*.snap1 > snaps/ranks 2>&1
cp_check "--rank-stats takes the set of first snapshots" grep -q "^2 ranks" snaps/ranks
cp_done
