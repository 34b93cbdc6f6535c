#!/usr/bin/env bash
# A sampled process (no -pg) that took no sample holds no profile: it
# writes no snapshot and, killed, no pair, as at exit; the process the
# user ran says so in one line (a wrapper that ran others stays quiet).  A sampled process that started
# another writes under its pid from then on (gmon.out.<pid>, its
# snapshots gmon.out.<pid>.snapK), so that a -pg program it ran keeps
# gmon.out and gmon.out.snapK: a shell or `timeout` around a program
# replaced the program's snapshots, and left pairs of its own.
#
# Noise bound: the waiting program's CPU time after the runtime starts
# (a nanosleep, the exit) is about 1 us: 1 run in 100 took a sample at
# CALLPATH_HZ=10000 (a 100 us period, systematic sampling with a random
# start) here.  At CALLPATH_HZ=10 (100 ms) a run gets a sample with
# probability about 1e-5, and under 1 in 1,000 for the two runs together
# even on a machine 20 times slower.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > wait.c <<'EOF'
#include <time.h>
int main(void)
{
	struct timespec t = { 0, 600000000 };

	nanosleep(&t, 0);
	return 0;
}
EOF
cat > child.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static volatile double s;
__attribute__((noinline)) void child_work(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
int main(void)
{
	struct timespec ms = { 0, 1000000 };

	child_work(20000000);
	raise(SIGUSR1);
	for (int i = 0; i < 5000 && access("gmon.out.snap1.callpath", F_OK); i++)
		nanosleep(&ms, 0);
	printf("%d\n", (int)getpid());
	return 0;
}
EOF
cat > parent.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static volatile double s;
__attribute__((noinline)) void parent_work(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
int main(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("../child", "child", (char *)0);
		_exit(127);
	}
	char snap[64];
	struct timespec ms = { 0, 1000000 };

	waitpid(pid, 0, 0);
	parent_work(150000000);
	raise(SIGUSR1);
	/* the writer thread writes it: waited for, as the process's end would stop it */
	snprintf(snap, sizeof(snap), "gmon.out.%d.snap1.callpath", (int)getpid());
	for (int i = 0; i < 5000 && access(snap, F_OK); i++)
		nanosleep(&ms, 0);
	printf("%d\n", (int)getpid());
	return 0;
}
EOF
gcc -O2 -g -o wait wait.c && gcc -O2 -g -o parent parent.c && gcc -pg -O1 -o child child.c || exit 1

mkdir -p w && (cd w && CALLPATH_HZ=10 CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO" ../wait 2> err)
cp_check "a waiting program: no snapshot, no pair ($(ls w | tr '\n' ' '))" test "$(ls w)" = err
cp_check "a waiting program: said once that it ran too briefly" \
	test "$(grep -c 'too briefly' w/err)" = 1 -a "$(wc -l < w/err)" = 1

mkdir -p k && (cd k || exit 1
	CALLPATH_HZ=10 CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO" ../wait 2> err &
	pid=$!; sleep 0.3; kill -TERM $pid; wait $pid; echo $? > rc)
cp_check "a waiting program killed: the status of SIGTERM" test "$(cat k/rc)" = 143
cp_check "a waiting program killed: no file ($(ls k | tr '\n' ' '))" \
	test "$(ls k | tr '\n' ' ')" = "err rc "
cp_check "a waiting program killed: said once" \
	test "$(grep -c 'killed before its first sample' k/err)" = 1 -a "$(wc -l < k/err)" = 1

mkdir -p f && (cd f && CALLPATH_SNAPSHOT_SIGNAL=USR1 LD_PRELOAD="$CP_SO" ../parent > ppid 2> err)
ppid=$(tail -1 f/ppid)
cpid=$(ls f/gmon.out 2> /dev/null && cp_header f/gmon.out.callpath pid)
cp_check "a -pg program a sampled one ran: gmon.out and gmon.out.snap1 are its own" \
	bash -c "test -n '$cpid' -a '$cpid' != '$ppid' -a \
		'$(cp_header f/gmon.out.snap1.callpath pid 2>/dev/null)' = '$(cp_header f/gmon.out.callpath pid 2>/dev/null)'"
cp_check "the sampled parent: its pair and snapshot under its pid" \
	bash -c "test '$(cp_header f/gmon.out.$ppid.callpath flags 2>/dev/null)' = 0x10 -a \
		'$(cp_header f/gmon.out.$ppid.snap1.callpath pid 2>/dev/null)' = '$ppid'"
"$EGPROF" -b --folded f.folded ./parent "f/gmon.out.$ppid" > /dev/null 2> f.err
cp_check "the sampled parent: read back, main -> parent_work" grep -qE '^main;parent_work [0-9]+$' f.folded
cp_check "nothing on stderr" test ! -s f/err

# a sampled program that execs a static one (no runtime there): glibc's
# histogram timer (ITIMER_PROF) outlives execve, and its next SIGPROF
# ended the new program (status 155) 10 ms of CPU into it
cat > static.c <<'EOF'
#include <stdio.h>
static volatile double s;
int main(void)
{
	for (long i = 0; i < 200000000; i++)
		s += i * 0.5;
	puts("static done");
	return 0;
}
EOF
cat > execer.c <<'EOF'
#include <unistd.h>
static volatile double s;
int main(void)
{
	for (long i = 0; i < 20000000; i++)
		s += i * 0.5;
	execl("./static", "static", (char *)0);
	return 127;
}
EOF
if gcc -static -O1 -o static static.c 2> static.err && gcc -O2 -g -o execer execer.c; then
	out=$(LD_PRELOAD="$CP_SO" ./execer 2> execer.err); rc=$?
	cp_check "a sampled program execs a static one: it ends as without the runtime ($rc, $out)" \
		test "$rc" = 0 -a "$out" = "static done"
else
	cp_check "a sampled program execs a static one: static and execer built" false
fi

# under valgrind the runtime does not sample (valgrind's client died of
# SIGPROF at its start): it steps aside and says so
out=$(valgrind -q --tool=none --trace-children=yes \
	env LD_PRELOAD="$CP_SO" ./execer 2> vg.err); rc=$?
cp_check "under valgrind: the program runs as without the runtime ($rc, $out)" \
	test "$rc" = 0 -a "$out" = "static done"
cp_check "under valgrind: said once" test "$(grep -c 'under valgrind' vg.err)" = 1
cp_done
