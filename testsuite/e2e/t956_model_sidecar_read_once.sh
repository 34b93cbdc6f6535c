#!/usr/bin/env bash
# Each call-path sidecar is read once: the model reads it (its paths, its
# rank, when it was written; the sum of the sidecars themselves where a
# view reads metrics its paths do not hold, --callpath --metric LIST) and
# checks there that it belongs to the
# binary (its build-id), so the loader's check that each gmon file belongs
# to the binary leaves the sidecars to it.  A sidecar of another build is
# still refused, naming both files.  strace counts the opens.
. "$SRCDIR/testsuite/e2e/lib.sh"
command -v strace > /dev/null || { echo "1..0 # SKIP no strace"; exit 0; }
CP="$BUILDDIR/callpath"
cd "$WORKDIR" || exit 1
cat > work.c <<'C'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void work(long n) { for (long i = 0; i < n; i++) sink += (double)i * 1e-9; }
int main(int argc, char **argv) { work(argc > 1 ? atol(argv[1]) : 3000000); return 0; }
C
gcc -pg -O1 -g -Wl,--build-id -o work work.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" ||
	{ echo "Bail out! build"; exit 1; }
sed 's/volatile double sink;/volatile double sink; const char *tag = "other";/' work.c > other.c
gcc -pg -O1 -g -Wl,--build-id -o other other.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" ||
	{ echo "Bail out! build other"; exit 1; }
for d in a b s1 s2 o; do mkdir -p $d; done
(cd a && ../work) && (cd b && ../work 6000000) && (cd o && ../other) ||
	{ echo "Bail out! run"; exit 1; }
cp a/gmon.out s1/gmon.out && cp a/gmon.out.callpath s1/gmon.out.callpath
cp b/gmon.out s2/gmon.out && cp b/gmon.out.callpath s2/gmon.out.callpath

# opens NAME... : how many times the command's processes opened each
# sidecar, as "file:count" words
opens() {
	strace -f -qq -e trace=openat -o trace.txt "$@" > out.txt 2> err.txt
	echo "rc=$?"
	grep -o '"[^"]*\.callpath"' trace.txt | sort | uniq -c | awk '{ printf "%s:%s\n", $2, $1 }'
}
once() { # what, then the command
	local what=$1 got
	shift
	got=$(opens "$@")
	if ! echo "$got" | grep -q '^rc=0$' || echo "$got" | grep -v '^rc=' | grep -qv ':1$' ||
	   [ "$(echo "$got" | grep -c ':1$')" -lt 1 ]; then
		not_ok "$what: each sidecar read once"; echo "$got" | diag; diag < err.txt
	else
		ok "$what: each sidecar read once"
	fi
}
once "--diff" "$EGPROF" --diff ./work a/gmon.out ./work b/gmon.out
once "--diff --format json" "$EGPROF" --diff --format json ./work a/gmon.out ./work b/gmon.out
once "--html of one run" "$EGPROF" ./work a/gmon.out --html one.html
once "--dot of one run" "$EGPROF" ./work a/gmon.out --dot one.dot
once "--interval" "$EGPROF" --interval ./work s1/gmon.out s2/gmon.out
# --callpath --metric LIST: its columns come from the sidecars as the run
# read them (an event, where this build counts them: PAPI)
if grep -qa "libpapi\.so\." "$CP/libcallpath.so"; then
	mkdir -p ev && (cd ev && CALLPATH_EVENTS=perf::PAGE-FAULTS ../work) ||
		{ echo "Bail out! run with an event"; exit 1; }
	once "--callpath --metric LIST" "$EGPROF" ./work ev/gmon.out --callpath \
		--metric time,perf::PAGE-FAULTS
	grep -q "^Call-path metrics: time,perf::PAGE-FAULTS" out.txt &&
		ok "... and its columns are printed" || { not_ok "... and its columns are printed"; diag < err.txt; }
fi

# the identity is still checked: the other build's sidecar is refused
"$EGPROF" --diff ./work a/gmon.out ./work o/gmon.out > foreign.txt 2> foreign.err
rc=$?
if [ $rc -ne 0 ] && [ ! -s foreign.txt ] &&
   grep -q "o/gmon.out: does not belong to './work': its sidecar records another build-id" foreign.err
then
	ok "a sidecar of another build is refused, naming the gmon file and the binary"
else
	not_ok "a sidecar of another build is refused, naming the gmon file and the binary"
	diag < foreign.err
fi
"$EGPROF" ./work o/gmon.out --dot foreign.dot > /dev/null 2> foreign1.err
rc=$?
if [ $rc -ne 0 ] && grep -q "its sidecar records another build-id" foreign1.err; then
	ok "... and in a graph of one run"
else
	not_ok "... and in a graph of one run"; diag < foreign1.err
fi
e2e_done
