#!/usr/bin/env bash
# Issue 21 item 3: the runtime's signal(), sigaction() and setitimer()
# (which watch for SIGPROF and ITIMER_PROF) keep glibc's exact semantics:
# signal() restarts system calls unless siginterrupt() said otherwise (a
# read() meant to time out on SIGALRM used to hang: the program's own
# second timer ends it here, so the test cannot hang), SIG_ERR and bad
# signal numbers give EINVAL, the flags and mask sigaction() reports, bad
# `which` for setitimer, old values returned.  Each line of the program's
# report is compared with a run without the runtime, with -pg and -mfentry,
# preloaded and linked.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
gcc -pg -O0 -o sigsem "$CP_EX/stress/sigsem.c" &&
gcc -pg -mfentry -O0 -o sigsem-fentry "$CP_EX/stress/sigsem.c" &&
gcc -pg -O0 -o sigsem-linked "$CP_EX/stress/sigsem.c" -L"$CP_LIB" -lcallpath \
	-Wl,-rpath,"$CP_LIB" || exit 1
./sigsem > plain.out 2>&1
cp_check "without the runtime: the read is interrupted after siginterrupt" \
	grep -q "signal after siginterrupt (interrupted): read -1 (Interrupted system call)" plain.out
for run in sigsem sigsem-fentry linked; do
	case $run in
	linked) timeout 20 ./sigsem-linked > "$run.out" 2>&1 ;;
	*) LD_PRELOAD="$CP_SO" timeout 20 "./$run" > "$run.out" 2>&1 ;;
	esac
	rc=$?
	cp_check "$run: exit $rc" test "$rc" = 0
	cp_same "$run: every result as glibc's" plain.out "$run.out"
done
# the watchers still see what they watch: a SIGPROF handler of the program
"$EGPROF" -b --callpath ./sigsem-linked gmon.out > report 2> report.err
cp_check "the profile reads back" test $? -eq 0
cp_done
