#!/bin/bash
# Parity where BFD's function lookup has to choose between symbols (issue
# 15: ours answers it from an index built once, upstream scanned the symbol
# table): aliases at one address, a static function with a global alias, an
# entry point nested inside another function with a smaller size, a label
# with no size (testsuite/corpus/ties).  Line mode (-l, -s) asks about every
# text address, so it sees every choice and the lookup cache's effect.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

if [ "$(uname -m)" != x86_64 ]; then
	echo "ok 1 - # SKIP the corpus program has x86-64 assembly"
	echo "1..1"
	exit 0
fi
vs=(ties-O0-nopie ties-O0g-pie ties-O2-pie ties-O2g-nopie)
e2e_build ties-O0-nopie ties cc "-O0 -fno-pie" "-no-pie" &
e2e_build ties-O0g-pie ties cc "-O0 -g -fpie" "-pie" &
e2e_build ties-O2-pie ties cc "-O2 -fpie" "-pie" &
e2e_build ties-O2g-nopie ties cc "-O2 -g -fno-pie" "-no-pie" &
wait
e2e_check_builds "${vs[@]}"

for v in "${vs[@]}"; do
	for o in "" -b "-l -b" "-l -z -b" "-b -z" "-c -b" -i -T "-A -x" -C \
		"-b -pinner -qinner" "-b -Pwork_alias -Qlocal_fn" "--no-static -b"; do
		e2e_case "$v" "gprof ${o:+$o }prog gmon.out"
	done
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 gmon.3"
	e2e_case "$v" "gprof -l -b prog gmon.out gmon.2"
done

e2e_run_cases
e2e_done
