#!/usr/bin/env bash
# Issue 21 item 7: a fresh profile is never refused because the sidecar
# counts more calls than gmon.out, which it does for reasons that have
# nothing to do with staleness: a signal handler calling instrumented code
# (glibc drops the calls that interrupt its own counter), -pg shared
# libraries linked or dlopen'ed (glibc counts the program's text only),
# moncontrol(0) (glibc stops counting), GCC's .part clones of -O2 code
# (gprof has no symbol for them), threads (glibc loses arcs).  Each is
# read by --callpath and by --diff --callpath with one file per side and
# with two, without an error or a warning; the counts agree with gmon.out
# where they must (the sidecar never counts fewer).  An old sidecar
# (version 3, no identity) of the same runs gets no warning either.
# (Before, moncontrol(0) alone was refused: "counted: 21 calls in the
# sidecar, 11 in the gmon file", and --diff --callpath of lua built -O2
# with itself.)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
S="$CP_EX/stress"
gcc -pg -O1 -o sighammer "$S/sighammer.c" &&
gcc -pg -O1 -o moncontrol "$S/moncontrol.c" -Wno-implicit-function-declaration &&
gcc -pg -O1 -fPIC -shared -DDL_LIB -o dllib.so "$S/dl.c" &&
gcc -pg -O1 -o dl "$S/dl.c" -ldl &&
gcc -pg -O1 -fPIC -shared -DDL_LIB -o libdll.so "$S/dl.c" &&
gcc -pg -O1 -o linked "$CP_EX/stress/dllinked.c" -L. -ldll -Wl,-rpath,"$WORKDIR" &&
gcc -pg -O2 -o clones "$S/clones.c" &&
cp_cc threads threads.c -O1 || exit 1
cp_check "clones: GCC made a .part clone" bash -c "nm clones | grep -q '\\.part\\.'"

# NAME PROG ARGS...: two runs, each read alone and diffed one and two a side
fresh() {
	local name=$1 prog=$2 rc
	shift 2
	mkdir -p "$name" && cd "$name" || return
	for run in 1 2; do
		LD_PRELOAD="$CP_SO" "../$prog" "$@" > /dev/null 2>&1
		mv gmon.out "g$run" && mv gmon.out.callpath "g$run.callpath"
	done
	"$EGPROF" -b --callpath "../$prog" g1 > report 2> err
	rc=$?
	cp_check "$name: --callpath reads it (exit $rc), no message" test $rc = 0 -a ! -s err
	"$EGPROF" -b --diff --callpath "../$prog" g1 "../$prog" g1 > diff1 2> err1
	rc=$?
	cp_check "$name: --diff --callpath, one file a side (exit $rc), no message" \
		test $rc = 0 -a ! -s err1
	mkdir -p a b && cp g1 g1.callpath g2 g2.callpath a/ && cp g2 g2.callpath b/
	"$EGPROF" -b --diff --callpath "../$prog" a b > diff2 2> err2
	rc=$?
	cp_check "$name: --diff --callpath, two files a side and one (exit $rc), no message" \
		test $rc = 0 -a ! -s err2
	cp_check "$name: the sidecar never counts fewer calls than gmon.out" \
		cp_counts_consistent "../$prog" g1 g1.callpath
	cp_v3_of g1.callpath old.callpath && cp g1 old && mv old.callpath old.callpath.tmp &&
		mv old.callpath.tmp old.callpath
	"$EGPROF" -b --callpath "../$prog" old > /dev/null 2> errold
	rc=$?
	cp_check "$name: as a version-3 sidecar too (exit $rc), no warning" \
		test $rc = 0 -a ! -s errold
	cd ..
}
fresh "signal handler at 1 kHz" sighammer
fresh "moncontrol(0)" moncontrol
fresh "-pg library, dlopen'ed" dl ./dllib.so
fresh "-pg library, linked" linked
fresh "GCC .part clones, -O2" clones 5000
fresh "threads" threads 4
cp_counts ./moncontrol "moncontrol(0)/g1" "moncontrol(0)/g1.callpath" > mon.counts
cp_check "moncontrol: glibc counted fewer calls, the sidecar all" grep -qx 'counted 21 11' mon.counts
cp_done
