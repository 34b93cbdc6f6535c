#!/usr/bin/env bash
# Calling contexts on a corpus of real-world shapes (C++ static
# initialisers, templates, exceptions and virtual calls; qsort, bsearch,
# pthread_once and atexit callbacks; function pointers; direct, mutual and
# linear recursion; OpenMP with 2 threads; 5 shared libraries calling back
# into the program), each checked against uftrace: the calls per (caller,
# callee) pair summed from our folded stacks, and the root frames, equal
# what `uftrace record --no-libcall` shows for the same binary.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
command -v uftrace > /dev/null || { echo "1..0 # SKIP uftrace not installed"; exit 0; }
CORPUS="$CP_EX/corpus"
cd "$WORKDIR" || exit 1

# check NAME PROG [ARGS...]: our pairs (LD_PRELOAD run) against uftrace's.
check() {
	local name=$1
	shift
	rm -f gmon.out gmon.out.callpath
	LD_PRELOAD="$CP_SO" "$@" > /dev/null || { cp_check "$name: runs" false; return; }
	# C1/C2 (D1/D2) constructors (destructors) share an address: one name
	cp_folded "$1" gmon.out.callpath | cp_folded_pairs |
		sed 's/C1E/C2E/g; s/D1E/D2E/g' | sort > "ours.$name"
	cp_uftrace_pairs "$@" > "uftrace.$name.raw" || { cp_check "$name: uftrace runs" false; return; }
	sed 's/C1E/C2E/g; s/D1E/D2E/g' "uftrace.$name.raw" | sort > "uftrace.$name"
	cp_same "$name: calls per (caller, callee) equal uftrace's" "uftrace.$name" "ours.$name"
	cp_same "$name: root frames equal uftrace's" \
		<(awk '$1 == "-" { print $2 }' "uftrace.$name") \
		<(awk '$1 == "-" { print $2 }' "ours.$name")
}

for opt in -O0 -O2; do
	g++ -pg $opt -o cxx$opt "$CORPUS/cxx.cc" || exit 1
	check "cxx$opt" ./cxx$opt
	gcc -pg $opt -o callbacks$opt "$CORPUS/callbacks.c" -lpthread || exit 1
	check "callbacks$opt" ./callbacks$opt
done
# -mfentry: __fentry__ runs before the prologue, slots alone tell frames apart
g++ -pg -mfentry -O2 -o cxx-fentry "$CORPUS/cxx.cc" || exit 1
check cxx-fentry ./cxx-fentry
gcc -pg -mfentry -O2 -o callbacks-fentry "$CORPUS/callbacks.c" -lpthread || exit 1
check callbacks-fentry ./callbacks-fentry
gcc -pg -O2 -fno-optimize-sibling-calls -fno-inline -o recursion "$CORPUS/recursion.c" || exit 1
check recursion ./recursion 15 60
gcc -pg -O1 -fopenmp -o omp "$CORPUS/omp.c" || exit 1
check omp ./omp

for i in 1 2 3 4 5; do
	gcc -O2 -fPIC -shared -DLIBNO=$i -o lib$i.so "$CORPUS/shlib.c" || exit 1
done
gcc -pg -O0 -o shmain "$CORPUS/shmain.c" -L. -l1 -l2 -l3 -l4 -l5 -Wl,-rpath,"$WORKDIR" || exit 1
check shlibs ./shmain
cp_done
