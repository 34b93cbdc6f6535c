#!/usr/bin/env bash
# Summing and rank statistics over many rank files: egprof against
# /usr/bin/gprof -s on the same files.
#
#   bench/mpi/run.sh [--builddir DIR] [--ranks N] [--keep]
#
# The "ranks" are N runs of testsuite/corpus/cmix, built with -pg and linked
# statically (as the paper linked MPI, so that libc's symbols are profiled
# too: about 2,000 symbols to read), rank i running 1 + i%4 rounds so the
# profiles differ.  Each run writes $W/ranks/gmon.<pid> via GMON_OUT_PREFIX.
# Prints one line per measurement: seconds (best of 3), what was timed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$srcdir
ranks=1024
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--ranks) ranks=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	*) sed -n '2,12p' "$0"; exit 2 ;;
	esac
done
EGPROF=$builddir/gprof-ext/gprof
SUM=$builddir/mpi/egprof-sum
W=$(mktemp -d /tmp/bench-mpi.XXXXXX)
[ $keep = 1 ] || trap 'rm -rf "$W"' EXIT
cd "$W"
gcc -pg -O1 -static -o prog "$srcdir"/testsuite/corpus/cmix/*.c
mkdir ranks
seq 0 $((ranks - 1)) | xargs -P "$(nproc)" -I{} sh -c \
	'GMON_OUT_PREFIX=ranks/gmon ./prog $((1 + {} % 4)) >/dev/null'
files=$(ls ranks | sed 's|^|ranks/|')
echo "# $ranks rank files, $(du -sh ranks | cut -f1), $(nm prog | wc -l) symbols, $(nproc) CPUs"

best() { # WHAT CMD...: best wall time of 3 runs
	local what=$1 t b=
	shift
	for _ in $(seq "${REPEAT:-3}"); do
		s0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t=$(echo "$(date +%s.%N) - $s0" | bc | sed "s/^\./0./")
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a<b)}'; then b=$t; fi
	done
	printf '%8s s  %s\n' "$b" "$what"
}
# shellcheck disable=SC2086 # file lists are word-split on purpose
{
best "/usr/bin/gprof -s prog FILES (upstream 2.40, Debian)" /usr/bin/gprof -s prog $files
best "egprof -s prog FILES (upstream's code, our front end)" "$EGPROF" -s prog $files
best "egprof --rank-stats prog DIR (jobs = CPUs)" "$EGPROF" --rank-stats prog ranks
best "egprof --rank-stats --jobs 1 prog DIR" "$EGPROF" --rank-stats --jobs 1 prog ranks
if [ -x "$SUM" ] && command -v mpirun >/dev/null; then
	root=
	[ "$(id -u)" = 0 ] && root=--allow-run-as-root
	for np in 1 2 4; do
		best "mpirun -np $np egprof-sum DIR" mpirun $root --oversubscribe -np $np "$SUM" -o mpi.sum ranks
	done
fi
}
/usr/bin/gprof -s prog $files && mv gmon.sum ref.sum
/usr/bin/gprof -b prog ref.sum >ref.txt
if [ -f mpi.sum ]; then
	/usr/bin/gprof -b prog mpi.sum >mpi.txt
	# Tied parents in a call-graph entry are listed in arc order, which
	# differs (gprof -s writes arcs per function); compare the lines.
	if cmp -s <(sort ref.txt) <(sort mpi.txt); then
		echo "# egprof-sum's sum reads as gprof -s's: same flat profile and call-graph lines"
	else
		echo "# egprof-sum's sum DIFFERS from gprof -s's"
	fi
fi
