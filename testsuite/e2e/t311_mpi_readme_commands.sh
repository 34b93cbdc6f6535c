#!/usr/bin/env bash
# The README's MPI commands, copied verbatim, on a real `mpirun -np 4` run
# of a -pg program linked with libcallpath, so sidecars lie beside the rank
# files and the README's globs (run1/gmon.*) match them (issue 14 item 1:
# before, `gprof -s ./app run1/gmon.*` failed with "incompatible with first
# gmon file").  Each command must appear in README.md as written here.
# Also: with sidecars among the operands, plain gprof and gprof -s equal
# /usr/bin/gprof on the gmon files alone; a sidecar without its gmon file
# among the operands is an error naming both.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"

if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then
	echo "ok 1 - # SKIP mpirun or mpicc not installed (apt-get install openmpi-bin libopenmpi-dev)"
	echo "1..1"
	exit 0
fi
cd "$WORKDIR" || exit 1
CP="$BUILDDIR/callpath"
# The README's lines run as written: root and oversubscription through
# OpenMPI's environment, `gprof` is egprof, mpi/ is the build's.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
gprof() { "$EGPROF" "$@"; }
ln -s "$BUILDDIR/mpi" mpi

# README line -> ok when it is in README.md verbatim and succeeds.
readme() { # DESCRIPTION COMMAND
	local what=$1 cmd=$2
	if ! grep -qF -- "$cmd" "$SRCDIR/README.md"; then
		not_ok "$what: '$cmd' is not in README.md"
		return
	fi
	if eval "$cmd" >out.txt 2>err.txt; then
		ok "$what: $cmd"
	else
		not_ok "$what: $cmd (status $?)"
		diag <err.txt
	fi
}

if mpicc -pg -O1 -g -o app "$SRCDIR/testsuite/mpi/ranks.c" \
	-L"$CP" -lcallpath -Wl,-rpath,"$CP" >build.log 2>&1; then
	ok "the MPI program builds with -pg and -lcallpath"
else
	not_ok "the MPI program builds with -pg and -lcallpath"
	diag <build.log
	e2e_done
fi
mkdir run1 run2
readme "run into run1" 'GMON_OUT_PREFIX=$PWD/run1/gmon mpirun -x GMON_OUT_PREFIX -np 4 ./app'
# the same line into run2, for --diff
GMON_OUT_PREFIX=$PWD/run2/gmon mpirun -x GMON_OUT_PREFIX -np 4 ./app 2 >/dev/null 2>&1
if [ "$(ls run1 | grep -c callpath)" = 4 ] && [ "$(ls run1 | wc -l)" = 8 ]; then
	ok "run1 holds 4 gmon files and their 4 sidecars"
else
	not_ok "run1 holds 4 gmon files and their 4 sidecars"
	ls run1 | diag
fi

readme "rank statistics of a directory" 'gprof --rank-stats ./app run1'
cp out.txt stats-dir.txt
readme "rank statistics of the README glob" 'gprof --rank-stats ./app run1/gmon.*'
if cmp -s stats-dir.txt out.txt && grep -q 'ranks from call-path sidecars' out.txt; then
	ok "the glob's report equals the directory's (ranks from sidecars)"
else
	not_ok "the glob's report equals the directory's"
	diff stats-dir.txt out.txt | diag
fi
readme "heat map" 'gprof --rank-stats --svg imbalance.svg ./app run1'
if xmllint --noout imbalance.svg 2>/dev/null; then
	ok "the README's heat map is an SVG that xmllint parses"
else
	not_ok "the README's heat map is an SVG that xmllint parses"
fi
readme "diff of two runs" 'gprof --diff ./app run1 run2'
readme "sum of the README glob" 'gprof -s ./app run1/gmon.*'
mv gmon.sum ours.sum
mv gmon.sum.callpath ours.sum.callpath 2>/dev/null
gmons=$(ls run1/gmon.* | grep -v callpath)
# shellcheck disable=SC2086
/usr/bin/gprof -s ./app $gmons
# (the 12 spare header bytes are upstream's uninitialised memory: skipped)
if cmp -s <(head -c 8 gmon.sum) <(head -c 8 ours.sum) &&
   cmp -s <(tail -c +21 gmon.sum) <(tail -c +21 ours.sum) && [ -s ours.sum.callpath ]; then
	ok "gprof -s with sidecars among the operands: gmon.sum as /usr/bin/gprof's of the gmon files, and the sidecar sum"
else
	not_ok "gprof -s with sidecars among the operands: gmon.sum as /usr/bin/gprof's"
fi
readme "egprof-sum" 'mpirun -np 4 mpi/egprof-sum -o run1.sum run1'
if [ -x mpi/egprof-rankstats ]; then
	readme "egprof-rankstats" 'mpirun -np 4 mpi/egprof-rankstats ./app run1'
	if cmp -s stats-dir.txt out.txt; then
		ok "mpirun egprof-rankstats prints gprof --rank-stats's report"
	else
		not_ok "mpirun egprof-rankstats prints gprof --rank-stats's report"
		diff stats-dir.txt out.txt | diag
	fi
else
	ok "# SKIP egprof-rankstats is not built here (the sanitizer build leaves it out)"
fi

# Plain gprof with the glob: byte for byte /usr/bin/gprof on the gmon files.
# shellcheck disable=SC2086
/usr/bin/gprof -b ./app $gmons >sys.txt 2>&1
"$EGPROF" -b ./app run1/gmon.* >ours.txt 2>&1
if cmp -s sys.txt ours.txt; then
	ok "plain gprof APP run1/gmon.*: as /usr/bin/gprof on the gmon files alone"
else
	not_ok "plain gprof APP run1/gmon.*: as /usr/bin/gprof on the gmon files alone"
	diff sys.txt ours.txt | diag
fi
# A sidecar whose gmon file is not an operand: refused, naming both.
sc=$(ls run1/*.callpath | head -1)
"$EGPROF" -b ./app "$sc" >lone.out 2>lone.err
rc=$?
if [ $rc != 0 ] && grep -qF "'$sc' is a call-path sidecar, and its gmon file '${sc%.callpath}' is not among the operands" lone.err; then
	ok "a sidecar without its gmon file among the operands: error naming both"
else
	not_ok "a sidecar without its gmon file among the operands (status $rc)"
	diag <lone.err
fi
e2e_done
