#!/usr/bin/env bash
# gmon.out's arcs kept by libcallpath itself (issue 23): glibc's counter is
# not called, the runtime's trees (plus its flat and off tables) are the
# arc source.  t480's corpus (recursion, qsort callbacks, a call site
# whose callees' order changes half way, a -pg shared library, C++ static
# initialisers, moncontrol, _mcleanup and a second monstartup, fork,
# -mfentry) run plain and with libcallpath.so preloaded: header,
# histogram header and every arc record in order identical, gprof -b -q
# (bins zeroed) and the calls of gprof -b -p identical.  The refused runs
# (CALLPATH_ARCS=glibc: glibc's counter and functions, the fallback) must
# give glibc's own file as well.
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
PRE="$CP_SO"
REFUSE=CALLPATH_ARCS=glibc
GM_FENTRY=runtime
. "$SRCDIR/testsuite/gmon/corpus.sh"
for src in recur.O0 fptr.O0 qsortcb.O0 monctl.O0 restart.O0 ctors.O2; do
	gm_compare $src-refused ${src%.*}.${src#*.} $src.p $src.f
done
# the sidecar is written beside the runtime's gmon.out and pairs with it
cp_check "recur.O0: the sidecar beside the runtime's gmon.out" test -s recur.O0.r/gmon.out.callpath
cp_check "recur.O0: gprof --callpath reads the pair" \
	"$EGPROF" --callpath -b recur.O0 recur.O0.r/gmon.out
cp_done
