#!/bin/bash
# Parity of annotated source (-A -J -x -t -y -I, GPROF_PATH), execution
# counts (-C -Z -m) and line-by-line profiles (-l, --inline-file-names) on
# the programs built with -g. Files written by -y (*-ann) are compared too.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

vs=(csmall-O0g-pie csmall-rel cmix-O0g-nopie cmix-O2g-nopie cxx-O0g-pie cxx-O2g-pie)
# shellcheck disable=SC2206 # a list of plain words
vs+=($E2E_CLANG_VARIANTS)
# Other ways to carry debug info: DWARF 4, split DWARF (.dwo files, which BFD
# does not read), and (below) compressed or separate debug files.
e2e_build cmix-dwarf4 cmix cc "-O0 -gdwarf-4" "" &
e2e_build cmix-splitdwarf cmix cc "-O0 -g -gsplit-dwarf" "" &
e2e_build_std "${vs[@]}"
e2e_check_builds cmix-dwarf4 cmix-splitdwarf

# Debug info moved out of the program: next to it (found through
# .gnu_debuglink), in .debug/ below it, or missing; and debug sections
# compressed with zlib and zstd (BFD must be built with both).
dbg=(cmix-dwarf4 cmix-splitdwarf)
for t in split dotdebug nodebug zlib zstd; do
	e2e_template_copy cmix-O0g-nopie "cmix-$t"
	dbg+=("cmix-$t")
done
(
	cd "$WORKDIR/p/cmix-split" &&
	objcopy --only-keep-debug prog prog.debug && objcopy --strip-debug prog &&
	objcopy --add-gnu-debuglink=prog.debug prog &&
	cd ../cmix-dotdebug && mkdir .debug &&
	objcopy --only-keep-debug prog .debug/prog.debug && objcopy --strip-debug prog &&
	objcopy --add-gnu-debuglink=.debug/prog.debug prog &&
	cd ../cmix-nodebug &&
	objcopy --only-keep-debug prog prog.debug && objcopy --strip-debug prog &&
	objcopy --add-gnu-debuglink=prog.debug prog && rm prog.debug &&
	cd ../cmix-zlib && objcopy --compress-debug-sections=zlib prog &&
	cd ../cmix-zstd && objcopy --compress-debug-sections=zstd prog
) >"$WORKDIR/objcopy.log" 2>&1 || { not_ok "split and compress debug info with objcopy"; diag <"$WORKDIR/objcopy.log"; e2e_done; }

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

for v in "${dbg[@]}"; do
	for o in -A "-A -x" "-A -y" -C "-l -b" "-l -q -b" "--inline-file-names -l -b" "-b"; do
		e2e_case "$v" "gprof $o prog gmon.out gmon.2"
	done
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
