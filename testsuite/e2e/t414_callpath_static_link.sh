#!/usr/bin/env bash
# Static links: `gcc -static -pg ... -lcallpath` keeps gmon.out's call graph
# (glibc's counter is still called: libcallpath.a names glibc's _mcount) and
# records the call paths; linked dynamically, libcallpath.a still works.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cp_acceptance_expected > expected
if ! echo 'int main(void){return 0;}' | gcc -static -x c -o /dev/null - 2>/dev/null; then
	echo "1..0 # SKIP no static C library"
	exit 0
fi
gcc -static -pg -O1 -o plain "$CP_EX/acceptance.c" || exit 1
gcc -static -pg -O1 -o prog "$CP_EX/acceptance.c" -L"$CP_LIB" -lcallpath || exit 1
cp_check "the program is static" bash -c "! readelf -d prog 2>/dev/null | grep -q NEEDED"
mkdir -p p s && (cd p && ../plain) && (cd s && ../prog) || exit 1
cp_graph_counts "$SYSGPROF" plain p/gmon.out > graph.plain
cp_graph_counts "$SYSGPROF" prog s/gmon.out > graph.static
cp_check "gmon.out has its call graph" grep -q "called" graph.static
cp_same "gmon.out: call counts equal the run without libcallpath" graph.plain graph.static
cp_folded prog s/gmon.out.callpath > folded.static
cp_same "the call paths are recorded" expected folded.static
cp_check "no failure recorded" test "$(cp_header s/gmon.out.callpath failure)" = none

# libcallpath.a in a dynamic link
gcc -pg -O1 -o dyn "$CP_EX/acceptance.c" "$CP_A" || exit 1
mkdir -p d && (cd d && ../dyn) || exit 1
cp_folded dyn d/gmon.out.callpath > folded.dyn
cp_same "libcallpath.a linked dynamically: the same paths" expected folded.dyn

# -mfentry, static: glibc's __fentry__ counts (gmon.out complete)
gcc -static -pg -mfentry -O1 -o fplain "$CP_EX/acceptance.c" || exit 1
gcc -static -pg -mfentry -O1 -o fprog "$CP_EX/acceptance.c" -L"$CP_LIB" -lcallpath || exit 1
mkdir -p fp fs && (cd fp && ../fplain) && (cd fs && ../fprog) || exit 1
cp_graph_counts "$SYSGPROF" fplain fp/gmon.out > fgraph.plain
cp_graph_counts "$SYSGPROF" fprog fs/gmon.out > fgraph.static
cp_same "-mfentry, static: gmon.out call counts kept" fgraph.plain fgraph.static
cp_done
