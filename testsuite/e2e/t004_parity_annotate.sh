#!/bin/bash
# Parity of annotated source (-A -J -x -t -y -I, GPROF_PATH), execution
# counts (-C -Z -m) and line-by-line profiles (-l, --inline-file-names) on
# the programs built with -g. Files written by -y (*-ann) are compared too.
. "$SRCDIR/testsuite/e2e/lib.sh"

vs=(csmall-O0g-pie csmall-rel cmix-O0g-nopie cmix-O2g-nopie cxx-O0g-pie cxx-O2g-pie)
e2e_build_std "${vs[@]}"

# csmall-rel names its sources relatively ("././csmall.c"): templates where
# they are missing, moved to src/, or where -y cannot create its output.
e2e_template_copy csmall-rel rel-nosrc
rm "$WORKDIR/p/rel-nosrc"/*.[ch]
e2e_template_copy csmall-rel rel-srcdir
mkdir "$WORKDIR/p/rel-srcdir/src"
mv "$WORKDIR/p/rel-srcdir"/*.[ch] "$WORKDIR/p/rel-srcdir/src/"
e2e_template_copy csmall-rel rel-annblock
mkdir "$WORKDIR/p/rel-annblock/csmall.c-ann"

opts=(
	-A "-A -x" "-A -x -t 3" "-A -t 1" "-A -t 0" --annotated-source "-A -b" "-A -z"
	"-A -a" "-A -c" "-A -l" "-A -I /nonexistent" "-A -I ." -J "-A -J" "-A -q"
	"-A -y" "-A -y -x" "-A -x -y -t 2" "--separate-files --annotated-source"
	"--all-lines -A" "--table-length=2 -A -x" "-A --inline-file-names"
	-C "-C -m 3" "-C -m 100" "--min-count=2 -C" --exec-counts "-C -Z" "-C -z"
	"-C -l" "-C -x" "-C -y" "--no-exec-counts -C" "-A -C" "-A -C -p -q"
	"-l --inline-file-names -b" "-l -b -z" "-l -q -b"
)
for v in "${vs[@]}"; do
	for o in "${opts[@]}"; do
		e2e_case "$v" "gprof $o prog gmon.out"
	done
	e2e_case "$v" "gprof -A -x prog gmon.out gmon.2 gmon.3"
	e2e_case "$v" "gprof -C prog gmon.out gmon.2"
	e2e_case "$v" "gprof -l -b prog gmon.2 gmon.out"
done

# Annotation with symbol specs.
for v in csmall-O0g-pie csmall-rel; do
	for s in -Aleaf -Amiddle -Acsmall.c:leaf -Jleaf "-A -Jleaf" -Cleaf -Zleaf "-C -Zmiddle" \
		 -Anosuch "-A -Jcsmall.c" -Acsmall.h:mix; do
		e2e_case "$v" "gprof $s prog gmon.out"
	done
done
for v in cmix-O0g-nopie cmix-O2g-nopie; do
	for s in -Afib -Aspin -Astat_a.c:helper "-A -Jrecur.c" "-A -Jspin -x" -Cspin -Zspin "-Chelper -m 2"; do
		e2e_case "$v" "gprof $s prog gmon.out"
	done
done
for v in cxx-O0g-pie cxx-O2g-pie; do
	for s in -A_ZNK3geo6Circle4areaEv -Ashapes.cc -Aleft.cc:_ZN12_GLOBAL__N_16helperEi \
		 -Cc_linkage_spin "-A -Jshapes.cc" "-A -y -Jmain.cc"; do
		e2e_case "$v" "gprof $s prog gmon.out"
	done
done

# Finding relative source names.
for o in -A "-A -y" "-A -x" -C; do
	e2e_case rel-nosrc "gprof $o prog gmon.out"
	e2e_case rel-srcdir "gprof $o prog gmon.out"
	e2e_case rel-srcdir "gprof $o -I src prog gmon.out"
	e2e_case rel-srcdir "gprof $o -I nonexistent -I src prog gmon.out"
	e2e_case rel-srcdir "gprof $o --directory-path=src prog gmon.out"
	e2e_case rel-srcdir "GPROF_PATH=src gprof $o prog gmon.out"
	e2e_case rel-srcdir "GPROF_PATH=nonexistent gprof $o -I src prog gmon.out"
	e2e_case rel-annblock "gprof $o prog gmon.out"
done
e2e_case rel-srcdir "gprof -A -I src: prog gmon.out"
e2e_case rel-srcdir "gprof -A -I .:src prog gmon.out"
e2e_case rel-srcdir "GPROF_PATH=.:nonexistent:src gprof -A -y prog gmon.out"
e2e_case rel-srcdir "mkdir out && cd out && gprof -A -y -I ../src ../prog ../gmon.out"

e2e_run_cases
e2e_done
