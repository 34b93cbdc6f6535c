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
	rm -f trace.*
	strace -ff -qq -e trace=openat -o trace "$@" > out.txt 2> err.txt
	echo "rc=$?"
	cat trace.* | grep -o '"[^"]*\.callpath"' | sort | uniq -c | awk '{ printf "%s:%s\n", $2, $1 }'
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

# --rank-stats: each rank's sidecar read whole once, by the pass over the
# files that takes its functions and where its time went; identifying the
# ranks reads the sidecars' heads (process and identity sections) only.
# strace sums the bytes each sidecar gave the command's processes: at most
# its size and a head (under 1 KB here: a file header, 16 bytes a section
# header, the process and identity sections), where two whole reads give
# twice its size.  The program has 300 calling contexts, so that a sidecar
# is several times a head.
cat > many.c <<'C'
volatile double sink;
#define F(n) __attribute__((noinline)) void f##n(long k) { for (long i = 0; i < k; i++) sink += (double)i; }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
F10(1) F10(2) F10(3) F10(4) F10(5) F10(6) F10(7) F10(8) F10(9) F10(10)
#define C(n) f##n(20000);
#define C10(n) C(n##0) C(n##1) C(n##2) C(n##3) C(n##4) C(n##5) C(n##6) C(n##7) C(n##8) C(n##9)
__attribute__((noinline)) void a(void) { C10(1) C10(2) C10(3) C10(4) C10(5) C10(6) C10(7) C10(8) C10(9) C10(10) }
__attribute__((noinline)) void b(void) { C10(1) C10(2) C10(3) C10(4) C10(5) C10(6) C10(7) C10(8) C10(9) C10(10) }
__attribute__((noinline)) void c(void) { C10(1) C10(2) C10(3) C10(4) C10(5) C10(6) C10(7) C10(8) C10(9) C10(10) }
int main(void) { for (int r = 0; r < 20; r++) { a(); b(); c(); } return 0; }
C
gcc -pg -O1 -g -Wl,--build-id -o many many.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" ||
	{ echo "Bail out! build many"; exit 1; }
mkdir -p ranks mixed
(cd ranks && GMON_OUT_PREFIX=gmon ../many && GMON_OUT_PREFIX=gmon ../many) ||
	{ echo "Bail out! run many"; exit 1; }
# bytes NAME... : the bytes each sidecar gave the command's reads, as
# "size:bytes" words.  One trace file per process (-ff): with one file for
# all, strace splits a call that another process interrupts into an
# "<unfinished ...>" line and a "<... resumed>" line, and the pattern would
# miss the bytes of a read in a worker that raced another.
bytes() {
	rm -f trace.*
	strace -ff -qq -y -e trace=read,pread64 -o trace "$@" > out.txt 2> err.txt
	echo "rc=$?"
	python3 - trace.* <<'PY'
import os, re, sys
got = {}
for line in (l for f in sys.argv[1:] for l in open(f, errors="replace")):
    m = re.search(r'(?:read|pread64)\(\d+<([^>]*\.callpath)>.*\) = (\d+)$', line)
    if m:
        got[m.group(1)] = got.get(m.group(1), 0) + int(m.group(2))
for path, n in sorted(got.items()):
    print("%d:%d" % (os.path.getsize(path), n))
PY
}
whole_once() { # what, then the command
	local what=$1 got
	shift
	got=$(bytes "$@")
	if echo "$got" | grep -q '^rc=0$' &&
	   [ "$(echo "$got" | grep -vc '^rc=')" -eq 2 ] &&
	   echo "$got" | grep -v '^rc=' | awk -F: '$1 < 8192 || $2 < $1 || $2 > $1 + 1024 { bad = 1 } END { exit bad }'
	then
		ok "$what: each sidecar read whole once"
	else
		not_ok "$what: each sidecar read whole once"; echo "$got" | diag; diag < err.txt
	fi
}
whole_once "--rank-stats" "$EGPROF" --rank-stats ./many ranks
cp out.txt rs.txt
grep -q "sampled s" rs.txt && ok "... and its table says where each rank's time went" ||
	{ not_ok "... and its table says where each rank's time went"; diag < rs.txt; }
# one file without a sidecar: gmon.out's functions for every rank, and the
# rank that has a sidecar still says where its time went (read for that)
f=$(ls ranks/gmon.* | grep -v callpath | head -1)
g=$(ls ranks/gmon.* | grep -v callpath | tail -1)
cp "$f" "$f.callpath" mixed/ && cp "$g" mixed/
"$EGPROF" --rank-stats ./many mixed > mixed.txt 2> mixed.err
rc=$?
# each rank's row: its file, and whether it has a "sampled s" number
rows=$(awk '/^Per rank:/ { t = 1 } t && / mixed\/gmon\./ { print $NF ":" ($9 ~ /^[0-9.]+$/ ? "n" : $9) }' mixed.txt |
	sort | tr '\n' ' ')
want=$(printf '%s\n' "mixed/${f##*/}:n" "mixed/${g##*/}:-" | sort | tr '\n' ' ')
if [ $rc -eq 0 ] && [ "$rows" = "$want" ]; then
	ok "a rank with a sidecar among ranks without: where its time went, for it alone"
else
	not_ok "a rank with a sidecar among ranks without: where its time went, for it alone"
	echo "rows: $rows; want: $want" | diag; diag < mixed.txt; diag < mixed.err
fi
# a rank's sidecar damaged inside its contexts (its head intact, so the
# ranks are identified): the pass finds it, says so, and reads every rank
# from its gmon file, as when a sidecar is missing
mkdir -p damaged && cp ranks/* damaged/
python3 - "$(ls damaged/*.callpath | head -1)" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(b) - 2000, len(b) - 1000):
    b[i] = 0xff
open(sys.argv[1], "wb").write(b)
PY
"$EGPROF" --rank-stats ./many damaged > damaged.txt 2> damaged.err
rc=$?
if [ $rc -eq 0 ] && grep -q "warning: damaged/gmon\.[0-9]*\.callpath: .*; every rank's functions from its gmon file" damaged.err &&
   ! grep -q "call-path samples" damaged.txt && grep -q "call-path samples" rs.txt &&
   grep -q "^Per rank:" damaged.txt; then
	ok "a damaged sidecar: said, and every rank read from its gmon file"
else
	not_ok "a damaged sidecar: said, and every rank read from its gmon file"
	diag < damaged.err; diag < damaged.txt
fi

# egprof-rankstats: the same table, the numbers meeting at process 0
if [ -x "$BUILDDIR/mpi/egprof-rankstats" ] && command -v mpirun > /dev/null; then
	e2e_mpi_setup
	"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-rankstats" ./many ranks > mpi.txt 2> mpi.err
	if [ $? -eq 0 ] && cmp -s rs.txt mpi.txt; then
		ok "egprof-rankstats prints the same table"
	else
		not_ok "egprof-rankstats prints the same table"
		diff rs.txt mpi.txt | diag; diag < mpi.err
	fi
	"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-rankstats" ./many damaged > mpid.txt 2> mpid.err
	if [ $? -eq 0 ] && cmp -s damaged.txt mpid.txt &&
	   grep -q "every rank's functions from its gmon file" mpid.err; then
		ok "... and the same with a damaged sidecar"
	else
		not_ok "... and the same with a damaged sidecar"
		diff damaged.txt mpid.txt | diag; diag < mpid.err
	fi
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
