#!/usr/bin/env bash
# The standing stress corpus of issue 21: programs made of what real codes
# are made of, each run without and with the runtime.  Their stdout (which
# prints the results of their system calls and of their work) and exit
# status must be identical, and every profile they leave is read back:
# `gprof -b --callpath` exits 0 and, for single-threaded processes, the
# sidecar never counts fewer calls than gmon.out (but for the calls it says
# it dropped), or the profile is refused with a message naming the file.
#
#   coroutines (ucontext, main thread and workers, stacks unmapped; -pg and
#   -mfentry), handlers on an alternate stack, a signal handler calling
#   instrumented code at 1 kHz, siginterrupt/SIGALRM timeouts, 2,000
#   short-lived threads (bench/callpath/threads.sh runs 100,000; t423
#   5,000 with memory bounds), fork, fork+exec, vfork+exec, posix_spawn and
#   system(), dlopen/dlclose of a -pg library, a library constructor and a
#   .preinit_array function calling the program, moncontrol, setjmp/longjmp
#   and C++ exceptions through deep recursion, `ulimit -v`, a full disk,
#   GMON_OUT_PREFIX into a missing folder; a SIGPROF handler of the
#   program's that calls instrumented code, installed while snapshots are
#   written, and SIGPROF storms only a thread of the runtime's could take;
#   SIGTERM handlers installed with SA_RESETHAND, the process killed twice;
#   a shell script around the program with snapshots on (the shell and
#   `sleep` are not profiled); nanosleep, poll, select, usleep and sleep(1)
#   with CALLPATH_EVENTS=perf::CONTEXT-SWITCHES, whose overflows ended
#   every one of them with EINTR (none may be interrupted).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
S="$CP_EX/stress"
build() { # OUT SRC FLAGS...
	local out=$1 src=$2 cc=gcc
	shift 2
	case $src in *.cc) cc=g++ ;; esac
	$cc -pg "$@" -o "$out" "$src" -lpthread -ldl 2> "$out.build" ||
		{ cp_check "build $out" false; cat "$out.build" | sed 's/^/# /'; }
}
build coro "$S/coro.c" -O0
build coro-fentry "$S/coro.c" -O0 -mfentry
build alt "$S/altstack.c" -O0
build sighammer "$S/sighammer.c" -O1
build sigsem "$S/sigsem.c" -O0
build churn "$S/churn.c" -O1
build spawn "$S/spawn.c" -O1
build dl "$S/dl.c" -O1
build dllib.so "$S/dl.c" -O1 -fPIC -shared -DDL_LIB
build early3 "$S/early3.c" -O0
build libearly3.so "$S/early3.c" -O0 -fPIC -shared -DEARLY_LIB
gcc -pg -O0 -DNO_PREINIT -o libctor "$S/early3.c" -Wl,--no-as-needed -L. -learly3 \
	-Wl,-rpath,"$WORKDIR"
build moncontrol "$S/moncontrol.c" -O1 -Wno-implicit-function-declaration
build deepjump "$S/deepjump.c" -O1
build deepthrow "$S/deepthrow.cc" -O1
build ulimitv "$S/ulimitv.c" -O1
build busy "$S/busy.c" -O1
build ownprof "$S/ownprof.c" -O1
build resethand "$S/resethand.c" -O1
build sleeps "$S/sleeps.c" -O1

# CASE NAME [setup] -- CMD...: run CMD in a folder of its own without and
# with the runtime (GMON_OUT_PREFIX there: every process its own files),
# compare, read every profile back.
case_dir=$(readlink -f "$WORKDIR")
case_run() {
	local name=$1 d="c.${1// /_}" rc0 rc1 g s n=0 bad=0 single
	shift
	rm -rf "$d" && mkdir -p "$d/plain" "$d/pre" || return
	(cd "$d/plain" && GMON_OUT_PREFIX="$PWD/gmon" timeout 60 "$@" > out 2> err; echo $? > rc)
	(cd "$d/pre" && GMON_OUT_PREFIX="$PWD/gmon" LD_PRELOAD="$CP_SO" timeout 60 "$@" \
		> out 2> err; echo $? > rc)
	rc0=$(cat "$d/plain/rc") rc1=$(cat "$d/pre/rc")
	cp_check "$name: exit status $rc1, as without the runtime ($rc0)" test "$rc0" = "$rc1"
	cp_check "$name: the same output" cmp -s "$d/plain/out" "$d/pre/out"
	for g in "$d"/pre/gmon.[0-9]*; do
		case $g in *.callpath|*'*'*) continue ;; esac
		s=$g.callpath
		[ -e "$s" ] || continue
		# the program that wrote it: the exe its sidecar names; only the
		# case's own programs.  A system binary around them (the
		# harness's `timeout`, a script's `sh` or `sleep`) that a loaded
		# machine's start-up gave a sample writes a profile in sampling
		# mode, of a binary without symbols: nothing of the case's to
		# check (`sleep` in a shell script, a loaded CI run)
		prog=$(cp_header "$s" exe)
		case $prog in "$case_dir"/*) ;; *) continue ;; esac
		n=$((n + 1))
		"$EGPROF" -b --callpath "$prog" "$g" > "$g.report" 2> "$g.err" || {
			grep -q "$(basename "$g")" "$g.err" || bad=1
			echo "# $g refused: $(head -c 300 "$g.err")"
		}
		single=$(cp_header "$s" threads)
		if [ "$single" = 1 ] && ! cp_counts_consistent "$prog" "$g" "$s" > "$g.counts"; then
			bad=1
			sed 's/^/# /' "$g.counts"
		fi
	done
	cp_check "$name: $n profile(s) read back, counts consistent with gmon.out" \
		test "$bad" = 0 -a "$n" -gt 0
}

W=$WORKDIR
case_run "coroutines, main thread, -mfentry" "$W/coro-fentry" main 20
case_run "coroutines, worker thread" "$W/coro" thread 20
case_run "coroutines, uninstrumented worker thread" "$W/coro-fentry" cold 20
case_run "coroutine spinning through ticks" "$W/coro-fentry" spin 5
case_run "sigaltstack handlers" "$W/alt" 10
case_run "signal handler at 1 kHz" "$W/sighammer"
case_run "siginterrupt and SIGALRM timeouts" "$W/sigsem"
case_run "2,000 short-lived threads" "$W/churn" 2000
case_run "fork, exec, vfork, posix_spawn, system" "$W/spawn"
case_run "dlopen and dlclose of a -pg library" "$W/dl" "$W/dllib.so"
case_run ".preinit_array calling the program" "$W/early3"
case_run "a library constructor calling the program" "$W/libctor"
case_run "moncontrol" "$W/moncontrol"
case_run "setjmp/longjmp and siglongjmp out of deep recursion" "$W/deepjump"
case_run "C++ exceptions through deep recursion" "$W/deepthrow"
case_run "ulimit -v 1600000" bash -c "ulimit -v 1600000 && exec '$W/ulimitv'"
case_run "own SIGPROF handler, snapshots every 0.01 s" \
	env CALLPATH_SNAPSHOT=0.01 CALLPATH_RECURSION=full "$W/ownprof" 100
case_run "SA_RESETHAND SIGTERM handler, killed twice" "$W/resethand"
case_run "SA_RESETHAND|SA_SIGINFO SIGTERM handler, killed twice" "$W/resethand" siginfo
case_run "a shell script around the program, snapshots every 0.05 s" \
	env CALLPATH_SNAPSHOT=0.05 sh -c "sleep 0.2; '$W/busy' 100; sleep 0.2"
case_run "sleeping calls, CALLPATH_EVENTS=perf::CONTEXT-SWITCHES" \
	env CALLPATH_EVENTS=perf::CONTEXT-SWITCHES "$W/sleeps"
d="c.sleeping_calls,_CALLPATH_EVENTS=perf::CONTEXT-SWITCHES"
cp_check "sleeping calls: none interrupted (EINTR) with the runtime" \
	bash -c "[ -s '$d/pre/out' ] && ! grep -q Interrupted '$d/pre/out'"
# GMON_OUT_PREFIX into a missing folder: glibc writes gmon.out instead
rm -rf nodir && mkdir nodir && cd nodir || exit 1
GMON_OUT_PREFIX="$PWD/missing/gmon" "$W/busy" 20 > plain.out 2>&1; rc0=$?
rm -f gmon.out
GMON_OUT_PREFIX="$PWD/missing/gmon" LD_PRELOAD="$CP_SO" "$W/busy" 20 > pre.out 2>&1; rc1=$?
cp_check "GMON_OUT_PREFIX into a missing folder: as without the runtime" \
	test "$rc0" = "$rc1" -a "$(cat plain.out)" = "$(cat pre.out)"
"$EGPROF" -b --callpath "$W/busy" gmon.out > report 2> err
cp_check "GMON_OUT_PREFIX into a missing folder: gmon.out and its sidecar read back" \
	test $? = 0 -a ! -s err
cd .. || exit 1
# a full disk: the second run's sidecar cannot be written; the old one is
# removed, and the reader names the missing file (t427 has the details)
mkdir -p fs && unshare -rm sh -c '
	mount -t tmpfs -o size=4m,nr_inodes=3 tmpfs fs || exit 77
	cd fs || exit 1
	"$1/busy" 20 > ../full.plain 2>&1; echo $? > ../full.rc0; rm -f gmon.out
	LD_PRELOAD="$2" "$1/busy" 30 > /dev/null 2>&1
	LD_PRELOAD="$2" "$1/busy" 20 > ../full.out 2> /dev/null; echo $? > ../full.rc1
	"$3" -b --callpath "$1/busy" gmon.out > /dev/null 2> ../full.err; echo $? > ../full.rc
	' sh "$W" "$CP_SO" "$EGPROF"
if [ $? = 77 ] || [ ! -e full.rc ]; then
	echo "ok $((CP_N + 1)) # SKIP a full disk: no tmpfs mount here"
	CP_N=$((CP_N + 1))
else
	cp_check "a full disk: as without the runtime" \
		test "$(cat full.rc0)" = "$(cat full.rc1)" -a "$(cat full.plain)" = "$(cat full.out)"
	cp_check "a full disk: the profile is refused, naming the file" \
		bash -c "test $(cat full.rc) = 1 && grep -q 'gmon.out.callpath' full.err"
fi
cp_done
