#!/bin/bash
# Parity of the report options that take no symbol names: every standard
# corpus variant (C and C++, -O0/-O2, PIE/non-PIE, with and without -g) times
# every output option of gprof 2.40, with one and with several gmon files;
# also programs built by clang when it is installed.
# Ours must match /usr/bin/gprof byte for byte (see lib.sh for what is
# compared).
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

variants="$E2E_STD_VARIANTS $E2E_CLANG_VARIANTS"
# shellcheck disable=SC2086
e2e_build_std $variants

opts=(
	""
	-b
	-a "-a -b" -ab
	-c "-c -b" "-c -z -b"
	-D "-D -b"
	-i
	-l "-l -b" "-l -p" "-l -q -b" "-l -z -b"
	-L "-L -b"
	-p -q -P -Q "-p -q" "-P -Q" "-P -q" "-p -Q"
	-r
	-T "-T -b" "-T -w 60"
	"-w 40" "-w 120" "-w 1" "-w 0" "-w 40 -b -q" "-w 120 -b -q"
	-x -z "-z -b" "-z -p" "-z -a -b"
	-B
	--brief "--no-static --brief" --flat-profile --graph
	--no-flat-profile --no-graph --file-info "--line --brief"
	"--print-path --brief" --display-unused-functions --static-call-graph
	"--traditional --width=60" "--inline-file-names" "--inline-file-names -l -b"
	--function-ordering "--ignore-non-functions --brief"
	"--demangle -b" "--no-demangle -b" "--demangle=gnu-v3 -b" "--demangle=auto -q"
	"--no-demangle --demangle -p"
	"-b -c -z -a -D"
)

for v in $variants; do
	for o in "${opts[@]}"; do
		e2e_case "$v" "gprof ${o:+$o }prog gmon.out"
	done
	# several gmon files, in both orders, and the same one twice
	for o in "" -b "-b -l" -i -q -z -c -T; do
		e2e_case "$v" "gprof ${o:+$o }prog gmon.out gmon.2 gmon.3"
	done
	e2e_case "$v" "gprof -b prog gmon.3 gmon.2 gmon.out"
	e2e_case "$v" "gprof -b -p prog gmon.out gmon.out"
	e2e_case "$v" "gprof -p prog gmon.2"
	e2e_case "$v" "gprof -r prog gmon.out gmon.2"
done

e2e_run_cases
e2e_done
