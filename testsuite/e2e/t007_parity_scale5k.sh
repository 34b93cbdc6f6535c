#!/bin/bash
# Parity on a big generated program (issue 15): 5,000 functions, PIE and
# not, with and without -g (bench/scale/gen.py writes it; see scale_lib.sh).
# Without line information, BFD's function lookup is where upstream spends
# its time, and ours answers it from an index (gprof-ext/upstream.patch):
# every byte must still be /usr/bin/gprof's.  Most of t001's option sets,
# symbol specs, annotation, and -s (whose line mode asks BFD about every
# text address).  t008 does 20,000 functions.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"
# shellcheck source=scale_lib.sh
. "$SRCDIR/testsuite/e2e/scale_lib.sh"

# The reference takes ~0.3 s per run here (~1 s in line mode), idle.
export E2E_TIMEOUT=60

e2e_build_scale s5k 5000
e2e_check_builds s5k

opts=(
	"" -b -a "-a -b" -c "-c -z -b" -D -i -l "-l -b" "-l -q -b"
	-p -q -P -Q "-p -q" "-P -Q" -r -T "-w 60 -b -q" -x -z "-z -a -b"
	-B --function-ordering "--ignore-non-functions --brief"
	"--inline-file-names -l -b" "--no-static --brief" -C -A "-A -x"
	"-b -pf1000" "-b -qf1000 -Pf2" "-b -Qs3_0 -q" "-b -Ps3_0"
)
for v in s5k-pie s5k-pie-g s5k-nopie s5k-nopie-g; do
	for o in "${opts[@]}"; do
		e2e_case "$v" "gprof ${o:+$o }prog gmon.out"
	done
	e2e_case "$v" "gprof -b prog gmon.out gmon.2 gmon.3"
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 gmon.3"
done

e2e_run_cases
e2e_done
