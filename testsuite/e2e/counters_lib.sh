# counters_lib.sh - the page-touching program of the counter tests (t704,
# t705): source it after testsuite/fixtures/callpath/testlib.sh, in $WORKDIR.
#
#   counters_need_papi            skip the whole script in a build without PAPI
#   counters_pages_runs N...      build pages.c and run it with
#                                 CALLPATH_EVENTS=perf::PAGE-FAULTS in rN/,
#                                 touch_big touching N pages, touch_small 2000

counters_need_papi() {
	if ! grep -qa "libpapi\.so\." "$CP_SO"; then
		echo "ok 1 # SKIP this build has no PAPI (configure found no libpapi-dev)"
		echo "1..1"
		exit 0
	fi
}

counters_pages_runs() {
	cat > pages.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "touch_pages.h"
__attribute__((noinline)) long touch_big(long n) { return touch(n); }
__attribute__((noinline)) long touch_small(long n) { return touch(n); }
int main(int argc, char **argv)
{
	printf("%ld\n", touch_big(atol(argv[1])) + touch_small(2000));
	return 0;
}
C
	gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o pages pages.c || exit 1
	for n in "$@"; do
		mkdir -p "r$n" && (cd "r$n" && CALLPATH_EVENTS=perf::PAGE-FAULTS LD_PRELOAD="$CP_SO" \
			../pages "$n" > out 2> err)
	done
}
