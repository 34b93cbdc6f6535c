#!/usr/bin/env bash
# Issue 21 item 5: the runtime reserves the address space it uses, not its
# bounds (it reserved about 52 MiB per thread), and never makes a thread
# that does not allocate grow a malloc arena (64 MiB of address space):
# 32 threads that call instrumented code while the main thread allocates
# 1000 MB fit under `ulimit -v 1600000` with the runtime as without it.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
gcc -pg -O1 -o ulimitv "$CP_EX/stress/ulimitv.c" -lpthread || exit 1
(ulimit -v 1600000 && ./ulimitv) > plain.out 2>&1
cp_check "without the runtime: malloc succeeds" grep -q ": ok$" plain.out
rm -f gmon.out
(ulimit -v 1600000 && LD_PRELOAD="$CP_SO" ./ulimitv) > pre.out 2>&1
rc=$?
cp_check "with the runtime: exit $rc and the same output" \
	bash -c "test $rc = 0 && cmp -s plain.out pre.out"
cp_check "the profile has the 32 threads' calls" \
	test "$(cp_folded ./ulimitv gmon.out.callpath | awk '$1 == "worker;work" { print $2 }')" = 32
cp_done
