#!/bin/bash
# Parity on a big generated program (issue 15): 20,000 functions, PIE and
# not, with and without -g (see t007 and scale_lib.sh).  The reference
# takes ~3 s per run here without -g (~9 s in line mode) on an idle
# machine, so the stripped programs get a subset of option sets that still
# prints every section (flat profile, call graph, index, ordering, several
# gmon files, one -s); the programs with -g, where the reference is fast,
# get more, with line mode and annotation.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"
# shellcheck source=scale_lib.sh
. "$SRCDIR/testsuite/e2e/scale_lib.sh"

export E2E_TIMEOUT=120

e2e_build_scale s20k 20000
e2e_check_builds s20k

e2e_case s20k-nopie "gprof prog gmon.out"
e2e_case s20k-nopie "gprof -b -T prog gmon.out gmon.2 gmon.3"
e2e_case s20k-nopie "gprof -s prog gmon.out gmon.2"
e2e_case s20k-pie "gprof -b -i -p -qf1000 prog gmon.out"
e2e_case s20k-pie "gprof -a -z -b --function-ordering prog gmon.out"
for v in s20k-pie-g s20k-nopie-g; do
	for o in "" -b "-p -b" "-q -b" -i "-a -z -b" --function-ordering \
		"-l -b" "-x -A" -C "-b -qf1000 -Pf2"; do
		e2e_case "$v" "gprof ${o:+$o }prog gmon.out"
	done
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 gmon.3"
done

e2e_run_cases
e2e_done
