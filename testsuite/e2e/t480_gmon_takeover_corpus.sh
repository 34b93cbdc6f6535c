#!/usr/bin/env bash
# gmon.out written by the runtime's modules (runtime/gmon_*.c) from arcs
# that are not glibc's, compared with plain -pg runs of a corpus: direct,
# mutual and nested recursion, qsort/bsearch callbacks, one call site
# calling 16 callees in an order that changes half way, a -pg shared
# library calling back, C++ static initialisers and virtual calls,
# moncontrol, the program's own _mcleanup and second monstartup, fork.
# The histogram is glibc's own profil() counting into the modules' buffer
# with the modules' geometry; the arcs come from the test fixture
# (testsuite/gmon/arcrec.c), each stamped with its last call.
#
# Equal: the header, the histogram header (low/high pc, size, rate,
# dimension) and every arc record in order, byte for byte; gprof -b -q
# (bins zeroed: the times are timer luck) and the calls of gprof -b -p.
# Runs are made with ASLR off (setarch -R) because arcs into a shared
# library carry its address; that library loads elsewhere when another is
# preloaded, so -pg library arcs are compared with the fixture preloaded and
# refusing the take-over (ARCREC_TAKEOVER=0: glibc's own functions write,
# with the same libraries mapped).
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
gm_build_preload lib || { echo "not ok 1 - the fixture builds"; echo "1..1"; exit 1; }
PRE="$WORKDIR/lib/libarcrec.so"
REFUSE=ARCREC_TAKEOVER=0
GM_FENTRY=none
. "$SRCDIR/testsuite/gmon/corpus.sh"
cp_done
