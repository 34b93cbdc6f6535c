#!/usr/bin/env bash
# --rank-stats names the calling context that carries a function's
# imbalance (issue 14 item 5).  Four "ranks" of a -pg program linked with
# libcallpath (the rank from PMI_RANK, as under an MPI launcher; no
# mpirun needed): relax() is called 30 times from main>init on every rank
# and 40 times from main>sweep>smooth, 320 times on rank 2.  The summary
# must list relax with its slowest rank 2 and, first, the path
# main>sweep>smooth>relax with 320 calls on rank 2 against 40 on the
# fastest rank; the MPI driver prints the same.  (Rank 2 runs about 0.9 s,
# the others 0.2 s: its excess over the mean is some 55 samples where the
# noise rule asks for 19.  With 160 calls of half the work it was 27
# samples against 10, an excess of 12.8 where the rule asks for 10.4, and
# Poisson noise alone put it under the rule once in CI.)
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
CP="$BUILDDIR/callpath"

cat >prog.c <<'C'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void relax(void) { for (int i = 0; i < 800000; i++) sink += i * 0.5; }
__attribute__((noinline)) void smooth(int n) { for (int i = 0; i < n; i++) relax(); }
__attribute__((noinline)) void sweep(int n) { smooth(n); }
__attribute__((noinline)) void init(void) { for (int i = 0; i < 30; i++) relax(); }
int main(int argc, char **argv) { init(); sweep(atoi(argv[1]) == 2 ? 320 : 40); return 0; }
C
if gcc -pg -O1 -o prog prog.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" >build.log 2>&1; then
	mkdir run
	for r in 0 1 2 3; do PMI_RANK=$r GMON_OUT_PREFIX=$PWD/run/gmon ./prog $r; done
fi
if [ "$(ls run 2>/dev/null | grep -c callpath)" = 4 ]; then
	ok "four ranks ran, each with a sidecar"
else
	not_ok "four ranks ran, each with a sidecar"
	diag <build.log
	e2e_done
fi

"$EGPROF" --rank-stats prog run >stats.out 2>stats.err
summary=$(sed -n '/most imbalanced/,/functions that ran/p' stats.out)
first_via=$(echo "$summary" | grep -m1 '^      via ')
fast=$(echo "$summary" | grep -m1 '^    relax ' | sed 's/.*min .* s on rank \([0-9]*\)$/\1/')
if echo "$summary" | grep -q '^    relax .*max .* s on rank 2,' &&
   [ "$first_via" = "      via main>sweep>smooth>relax: 320 calls on rank 2, 40 on rank $fast" ] &&
   echo "$summary" | grep -q "via main>init>relax: 30 calls on rank 2, 30 on rank $fast"; then
	ok "relax is imbalanced on rank 2, carried by main>sweep>smooth>relax (320 vs 40 calls)"
else
	not_ok "relax's imbalance traced to main>sweep>smooth>relax"
	echo "$summary" | diag
	diag <stats.err
fi

if e2e_mpi_setup && [ -x "$BUILDDIR/mpi/egprof-rankstats" ]; then
	"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-rankstats" prog run >mpi.out 2>mpi.err
	if cmp -s stats.out mpi.out; then
		ok "mpirun -np 2 egprof-rankstats prints the same paths"
	else
		not_ok "mpirun -np 2 egprof-rankstats prints the same paths"
		diff stats.out mpi.out | diag
	fi
fi
e2e_done
