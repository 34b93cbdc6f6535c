#!/usr/bin/env bash
# Issue 21 item 2: calls that arrive before the runtime's constructor, on a
# stack that is not 16-byte aligned at mcount's entry (GCC does not count
# the `call mcount` when it sizes a frame: at -O0 a function with three
# arguments calls it with %rsp = 8 mod 16), start the runtime without the
# C library faulting on an aligned vector move.  Before, all three crashed:
# a library constructor calling back into the program with the runtime
# preloaded, and a .preinit_array function, preloaded or linked with
# -lcallpath.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
S="$CP_EX/stress"
gcc -pg -O0 -o preinit "$S/early3.c" &&
gcc -pg -O0 -o preinit-linked "$S/early3.c" -L"$CP_LIB" -lcallpath -Wl,-rpath,"$CP_LIB" &&
gcc -O0 -fPIC -shared -DEARLY_LIB -o libearly3.so "$S/early3.c" &&
gcc -pg -O0 -DNO_PREINIT -o libctor "$S/early3.c" -Wl,--no-as-needed -L. -learly3 \
	-Wl,-rpath,"$WORKDIR" || exit 1
cp_check "the program's frame is the misaligned one: three() allocates 0x18 bytes" \
	bash -c "objdump -d preinit | grep -A4 '<three>:' | grep -q 'sub *\\\$0x18,%rsp'"

check_run() { # NAME PROG [preload]
	local rc f=$2
	./"$2" > "$f.plain" 2>&1
	rm -f gmon.out gmon.out.callpath
	if [ -n "${3:-}" ]; then
		LD_PRELOAD="$CP_SO" ./"$2" > "$f.out" 2>&1
	else
		./"$2" > "$f.out" 2>&1
	fi
	rc=$?
	cp_check "$1: exit $rc, output as without the runtime" \
		bash -c "test $rc = 0 && cmp -s $f.plain $f.out"
	"$EGPROF" -b --callpath "./$2" gmon.out > "$f.report" 2>&1
	cp_check "$1: gprof --callpath reads the profile" test $? -eq 0
}
check_run "preinit, preloaded" preinit preload
cp_folded ./preinit gmon.out.callpath > preinit.folded
cp_check "the .preinit_array function's call is recorded" \
	grep -qx "preinit;three 1" preinit.folded
check_run "preinit, linked with -lcallpath" preinit-linked
check_run "library constructor, preloaded" libctor preload
cp_folded ./libctor gmon.out.callpath > libctor.folded
cp_check "the constructor's call into the program is recorded, and main's" \
	bash -c "grep -qx 'three 1' libctor.folded && grep -qx 'main;three 1' libctor.folded"
cp_done
