#!/usr/bin/env bash
# Sampling mode (no -pg): a program whose threads ran for hundreds of
# milliseconds but took no timer signal is not "too brief to be sampled".
# CPU-time timers are checked only at the kernel's tick, on the thread
# found running, so threads shorter than a tick run one after another can
# start and end between two ticks every time: on a machine with a busy
# loop per core the scheduler lines them up so in about 1 run of 20 (60
# threads of 2 ms each: no signal in 9 of 100 runs).  Threads that block
# SIGPROF give the same, and do it every time: that is the case here, 20
# threads that each burn 10 million additions with SIGPROF blocked (the
# main thread blocks it first; they inherit its mask).  The runtime says
# how much CPU time no signal reached (the periods it counts from the
# threads' CPU clocks), writes nothing, and the program's output and exit
# status are as without it.  Nothing here is random: no signal can be
# delivered while it is blocked.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
unset CALLPATH_HZ CALLPATH_CLOCK CALLPATH_EVENTS
cd "$WORKDIR" || exit 1
cat > blocked.c <<'C'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
volatile double sink;
__attribute__((noinline)) static void burn(long n) { for (long i = 0; i < n; i++) sink += (double)i; }
static void *worker(void *arg) { (void)arg; burn(10000000); return NULL; }
int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGPROF);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	for (int i = 0; i < 20; i++) {
		pthread_t t;
		pthread_create(&t, NULL, worker, NULL);
		pthread_join(t, NULL);
	}
	printf("20 threads\n");
	return 3;
}
C
gcc -O2 -g -o blocked blocked.c -lpthread || exit 1
mkdir -p plain pre
(cd plain && ../blocked > out 2> err; echo $? > rc)
(cd pre && LD_PRELOAD="$CP_SO" ../blocked > out 2> err; echo $? > rc)
cp_check "the exit status as without the runtime ($(cat plain/rc), $(cat pre/rc))" \
	test "$(cat plain/rc)" = 3 -a "$(cat pre/rc)" = 3
cp_check "the same output" cmp -s plain/out pre/out
cp_check "no profile written" bash -c "! ls pre | grep -q gmon"
msg=$(grep '^callpath:' pre/err)
echo "# $msg"
cp_check "the runtime says no timer signal reached the threads' CPU time, and why" \
	grep -q "no profile written: no timer signal reached the program in [0-9]* ms of its threads' CPU time (threads that block SIGPROF, or that each ran between two of the kernel's ticks" pre/err
cp_check "... not that the run was too brief" bash -c "! grep -q 'too briefly' pre/err"
# 20 threads of 10 million additions through memory (a store, a load and an
# add in a chain: over 1 ns each on any machine; half that as the bound)
ms=$(echo "$msg" | sed -n 's/.* in \([0-9]*\) ms .*/\1/p')
cp_check "... and counts the threads' time (${ms:-?} ms, at least 100)" test "${ms:-0}" -ge 100
cp_check "one line, nothing else" test "$(wc -l < pre/err)" = 1
cp_done
