#!/usr/bin/env bash
# LD_PRELOAD and CALLPATH_SNAPSHOT set for a whole shell script reach every
# process of it, and the program's snapshots gmon.out.snapK are its own,
# each a pair (they were overwritten by the shell's and sleep's, empty):
# the shell and `sleep` are sampled (no -pg) but write nothing before
# their first sample, and under their pids once they started a process.
# In instrumenting mode they are not profiled and get nothing of the
# runtime's (no snapshot thread, no handler, no file).  A fork
# child's snapshots carry its pid (gmon.out.<pid>.snapK), so the parent's
# series stays whole.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > prog.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i * i; }
__attribute__((noinline)) void work(double secs)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (unsigned long i = 0; i < 10000; i++)
			leaf(i);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}
__attribute__((noinline)) void in_child(void) { work(0.1); }
/* prog: work 0.5 s, print the pid; prog fork: a snapshot in the parent
 * and one in a child (CALLPATH_SNAPSHOT_SIGNAL=USR1) */
int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000000 };

	if (argc > 1 && strcmp(argv[1], "fork") == 0) {
		pid_t pid;

		work(0.05);
		raise(SIGUSR1);
		for (int i = 0; i < 5000 && access("gmon.out.snap1.callpath", F_OK); i++)
			nanosleep(&ms, NULL);
		pid = fork();
		if (pid == 0) {
			in_child();
			raise(SIGUSR1);	/* written in the handler: no writer thread here */
			printf("child %d\n", (int)getpid());
			exit(0);
		}
		waitpid(pid, NULL, 0);
		printf("parent %d\n", (int)getpid());
		return 0;
	}
	work(0.5);
	printf("%d\n", (int)getpid());
	return 0;
}
EOF
gcc -pg -O1 -o prog prog.c || exit 1

# a shell script around the program, snapshots every 0.05 s
mkdir -p script && (cd script && CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO" \
	sh -c 'sleep 0.3; ../prog > pid; sleep 0.3' 2> err)
pid=$(cat script/pid)
ls script > script.ls
n=0 bad=
for s in script/gmon.out.snap*.callpath; do
	[ -e "$s" ] || continue
	n=$((n + 1))
	g=${s%.callpath}
	[ "$(cp_header "$s" pid)" = "$pid" ] || bad="$bad ${g##*/}(pid $(cp_header "$s" pid))"
	"$EGPROF" -b --callpath ./prog "$g" > "$g.report" 2> "$g.err" || bad="$bad ${g##*/}(refused)"
done
cp_check "a script's snapshots: the program wrote some ($n)" test "$n" -ge 3
cp_check "a script's snapshots: every one is the program's, a pair${bad:+; not:$bad}" test -z "$bad"
others=$(grep -vE '^(gmon\.out(\.snap[0-9]+)?(\.callpath)?|pid|err)$' script.ls |
	grep -vE '^gmon\.out\.[0-9]+(\.snap[0-9]+)?(\.callpath)?$')
cp_check "a script's snapshots: no other file than the pid-named ones of the shell's, if sampled" \
	test -z "$others"
cp_check "a script's snapshots: nothing on stderr" test ! -s script/err
"$EGPROF" -b --callpath ./prog script/gmon.out > script/report 2> script/report.err
cp_check "a script's snapshots: the program's own pair at exit" test -s script/report

# processes that are not profiled, alone: nothing at all (a program
# without -pg is sampled by default, so profiled: instrumenting mode is
# asked for here, in which it is not)
mkdir -p alone && cd alone || exit 1
CALLPATH_MODE=instrument CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO" sleep 1 2> /dev/null &
spid=$!
sleep 0.5
threads=$(ls /proc/$spid/task 2> /dev/null | wc -l)
wait $spid
cp_check "sleep, not profiled: no thread of the runtime's ($threads thread)" test "$threads" = 1
# killed, the shell's status as an outer shell sees it
killed() { # SIG [VAR=VALUE...]
	local sig=$1
	shift
	env "$@" sh -c 'sh -c "kill -'"$sig"' \$\$"; echo $?' 2> /dev/null
}
rc0=$(killed TERM) rc1=$(killed TERM CALLPATH_MODE=instrument CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO")
rc2=$(killed USR1) rc3=$(killed USR1 CALLPATH_MODE=instrument CALLPATH_SNAPSHOT_SIGNAL=USR1 LD_PRELOAD="$CP_SO")
cp_check "sh, not profiled: SIGTERM and the snapshot signal end it as without the runtime ($rc0 $rc1, $rc2 $rc3)" \
	test "$rc0" = "$rc1" -a "$rc2" = "$rc3"
cp_check "sh and sleep, not profiled: no file" test -z "$(ls)"
cd "$WORKDIR" || exit 1

# a fork child's snapshot carries its pid
mkdir -p fork && (cd fork && CALLPATH_SNAPSHOT_SIGNAL=USR1 LD_PRELOAD="$CP_SO" ../prog fork > out 2> err)
parent=$(awk '$1 == "parent" { print $2 }' fork/out)
child=$(awk '$1 == "child" { print $2 }' fork/out)
cp_check "fork: the parent's snapshot is its own (pid $parent)" \
	test -n "$parent" -a "$(cp_header fork/gmon.out.snap1.callpath pid)" = "$parent"
cp_check "fork: the child's is gmon.out.$child.snap1, its own" \
	test -n "$child" -a "$(cp_header fork/gmon.out.$child.snap1.callpath pid 2> /dev/null)" = "$child"
"$EGPROF" -b --callpath ./prog fork/gmon.out.$child.snap1 > fork/child.report 2> fork/child.err
cp_check "fork: the child's snapshot is a pair, with the child's calls" \
	grep -q 'in_child' fork/child.report
cp_check "fork: nothing on stderr" test ! -s fork/err
cp_done
