#!/usr/bin/env bash
# Issue 21 item 1: a shadow-stack entry whose frame lies on another stack
# (a finished coroutine whose stack was unmapped, a handler's frame on an
# alternate signal stack since unmapped) is never read.  Before, five
# variants died of SIGSEGV in the slow path, the __fentry__ fast path or
# the SIGPROF handler: two ucontext coroutines in the main thread
# (-mfentry), a coroutine in a worker thread (-pg and -mfentry) and one
# spinning through profiling ticks without a call (both), handlers on a
# sigaltstack in threads and in the main thread.  And a worker thread whose
# own code is not instrumented (a task runtime's), so that its first
# instrumented call is made on a coroutine's stack, which must not be taken
# for the thread's own (it crashed once the runtime learnt a thread's stack
# from its first call).  Each runs as it does without the runtime (same
# output, exit 0), and its profile reads back.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
S="$CP_EX/stress"
gcc -pg -O0 -o coro "$S/coro.c" -lpthread &&
gcc -pg -mfentry -O0 -o coro-fentry "$S/coro.c" -lpthread &&
gcc -pg -O0 -o alt "$S/altstack.c" -lpthread &&
gcc -pg -mfentry -O0 -o alt-fentry "$S/altstack.c" -lpthread || exit 1

# PROG ARGS...: as without the runtime, and gprof reads the profile
same_run() {
	local name="$*" d="r.$*" rc
	d=${d// /.}
	rm -rf "$d" && mkdir "$d" && cd "$d" || return
	"../$1" "${@:2}" > plain.out 2>&1
	echo $? > plain.rc
	rm -f gmon.out
	LD_PRELOAD="$CP_SO" "../$1" "${@:2}" > pre.out 2>&1
	rc=$?
	cp_check "$name: exit $rc, as without the runtime ($(cat plain.rc))" \
		test "$rc" = "$(cat plain.rc)" -a "$rc" = 0
	cp_check "$name: the same output" cmp -s plain.out pre.out
	"$EGPROF" -b --callpath "../$1" gmon.out > report 2> report.err
	cp_check "$name: gprof --callpath reads the profile" \
		test $? -eq 0 -a ! -s report.err -a -s report
	cd ..
}
for p in coro coro-fentry; do
	for mode in main thread cold spin keep; do
		n=20
		[ "$mode" = spin ] && n=5
		same_run "$p" "$mode" "$n"
	done
done
same_run alt 10
same_run alt-fentry 10
# the calls inside the coroutines are all counted; with __fentry__ (which
# judges by return-address slots) under run_a; with mcount, which takes the
# caller from the saved frame pointer, a coroutine's first frame may land
# under a dead entry whose frame address the uninstrumented code that made
# the context reused (doc/callpath.md, "Coroutines and alternate stacks")
cp_folded ./coro r.coro.main.20/gmon.out.callpath > coro.folded 2>/dev/null
cp_check "coro: every leaf call counted (20 x 50 x 2 in run_a, 20 x 50 in run_b, 20 x 2 in main's)" \
	bash -c "awk '\$1 ~ /;leaf\$/ { s += \$2 } END { exit s != 3040 }' coro.folded"
cp_folded ./coro-fentry r.coro-fentry.main.20/gmon.out.callpath > coro-fentry.folded 2>/dev/null
cp_check "coro-fentry: coroutine calls under run_a: run_a;mid;leaf (20 x 50 x 2)" \
	bash -c "awk '\$1 ~ /run_a;mid;leaf\$/ { s += \$2 } END { exit s != 2000 }' coro-fentry.folded"
cp_done
