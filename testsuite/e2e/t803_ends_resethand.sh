#!/usr/bin/env bash
# A SIGTERM handler installed with SA_RESETHAND (plain, SA_SIGINFO, with
# SA_NODEFER), the process killed twice: the kernel puts the default
# action back as it delivers the first, so the second ends the process
# (status 143).  With the runtime: the same output (the handler's line,
# and what sigaction() reports before and after the first SIGTERM,
# flags and mask included), the same status, and the second SIGTERM
# leaves the profile as the default action does: gmon.out and its sidecar,
# paired (they were missing, without a word).  The reset is the runtime's
# to do, so also: a handler of the program's that raises SIGTERM again
# from inside (the usual clean-up pattern) ends the process with the
# profile written.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
gcc -pg -O1 -o resethand "$CP_EX/stress/resethand.c" || exit 1

for mode in plain siginfo nodefer; do
	mkdir -p "p.$mode" "r.$mode"
	(cd "p.$mode" && ../resethand $mode > out 2> err; echo $? > rc) 2> /dev/null
	(cd "r.$mode" && LD_PRELOAD="$CP_SO" ../resethand $mode > out 2> err; echo $? > rc) 2> /dev/null
	cp_check "$mode: status 143 as without the runtime ($(cat p.$mode/rc), $(cat r.$mode/rc))" \
		test "$(cat p.$mode/rc)" = 143 -a "$(cat r.$mode/rc)" = 143
	cp_same "$mode: the same output (the handler ran once; sigaction's view)" \
		"p.$mode/out" "r.$mode/out"
	cp_check "$mode: nothing on stderr" test ! -s "r.$mode/err"
	calls=$(cp_calls_of "$SYSGPROF" ./resethand "r.$mode/gmon.out" work 2> /dev/null)
	cp_check "$mode: gmon.out written by the second SIGTERM (work: ${calls:-no} calls)" \
		test "${calls:-0}" = 2
	"$EGPROF" -b --callpath ./resethand "r.$mode/gmon.out" > "r.$mode/report" 2> "r.$mode/err2"
	cp_check "$mode: the pair is read (main > work)" \
		grep -qE '^ +[0-9]+ .* work \(main\+0x' "r.$mode/report"
done

# the handler re-raises: default action, profile written
cat > reraise.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void work(void)
{
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
}
static void on_term(int sig)
{
	(void)!write(1, "cleaning up\n", 12);
	raise(sig);	/* pending until the handler returns: the default */
}
int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	work();
	kill(getpid(), SIGTERM);
	printf("not reached\n");
	return 0;
}
EOF
gcc -pg -O1 -o reraise reraise.c || exit 1
mkdir -p p.reraise r.reraise
(cd p.reraise && ../reraise > out 2> err; echo $? > rc) 2> /dev/null
(cd r.reraise && LD_PRELOAD="$CP_SO" ../reraise > out 2> err; echo $? > rc) 2> /dev/null
cp_check "re-raised from the handler: status 143, same output" \
	bash -c "test $(cat r.reraise/rc) = 143 -a $(cat p.reraise/rc) = 143 && cmp -s p.reraise/out r.reraise/out"
"$EGPROF" -b --callpath ./reraise r.reraise/gmon.out > r.reraise/report 2> r.reraise/err2
cp_check "re-raised from the handler: the pair is read" \
	grep -qE '^ +[0-9]+ .* work \(main\+0x' r.reraise/report
cp_done
