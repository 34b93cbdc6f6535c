#!/usr/bin/env bash
# Sampling mode on the runtime's stress corpus: the same programs built
# without -pg (-O2 -g, what a release build is), each run without and with
# the runtime preloaded, must print the same and exit the same; every
# profile they leave is read back (`gprof -b --callpath` and stock gprof's
# flat profile), says its paths were sampled, and counts no call.  Most of
# the corpus tests calls and runs for microseconds without -pg: such a run
# may take no sample, and then says so in one line and writes nothing.
# sampstress.c puts CPU time where the walk is hard (coroutine stacks, a
# handler on an alternate stack, a library unloaded while another thread
# runs one, fork children, longjmp, threads one after the other, recursion
# deeper than the walk's bound), and the paths there are checked.  Two
# programs make the walk's worst cases: corrupt.c lies in its frame chain
# while samples come (garbage, data and code that is no call site as
# return addresses, a garbage frame pointer), jit.c runs and calls back
# from generated code without unwind information.  There the walk must
# stop, never crash, and put what it could not finish under [truncated],
# never under a caller it read from garbage.
#
# Noise bound: the checks of paths need samples where the walk is hard, and
# each such place runs long enough to be signalled whatever the scheduler
# does: the kernel checks CPU-time timers at its tick on the thread it finds
# running, and the threads case's threads each run about 12 ms of CPU (a
# fixed count of additions; longer on a slower machine), more than a tick
# at 100 Hz, so each is running at a tick after its first period.  Threads
# of 2 ms took no signal at all in 9 of 100 runs beside a busy loop per core
# (the scheduler started and ended each between two ticks); 20 threads of
# 12 ms: 0 of 100.  The other cases run one thread for tens of ticks.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
S="$CP_EX/stress"
build() { # OUT SRC FLAGS...
	local out=$1 src=$2 cc=gcc
	shift 2
	case $src in *.cc) cc=g++ ;; esac
	$cc -g "$@" -o "$out" "$src" -lpthread -ldl 2> "$out.build" ||
		{ cp_check "build $out" false; sed 's/^/# /' "$out.build"; }
}
build coro "$S/coro.c" -O2
build alt "$S/altstack.c" -O2
build sighammer "$S/sighammer.c" -O2
build sigsem "$S/sigsem.c" -O2
build churn "$S/churn.c" -O2
build spawn "$S/spawn.c" -O2
build dl "$S/dl.c" -O2
build dllib.so "$S/dl.c" -O2 -fPIC -shared -DDL_LIB
build deepjump "$S/deepjump.c" -O2
build deepthrow "$S/deepthrow.cc" -O2
build ulimitv "$S/ulimitv.c" -O2
build busy "$S/busy.c" -O2
build corrupt "$S/corrupt.c" -O2 -fno-omit-frame-pointer
build jit "$S/jit.c" -O2
build sampstress "$S/sampstress.c" -O2
build sampstress.so "$S/sampstress.c" -O2 -fPIC -shared -DSAMPSTRESS_LIB
cp sampstress.so sampstress.so.copy

# CASE NAME -- CMD...: run CMD in a folder of its own without and with the
# runtime preloaded into it (GMON_OUT_PREFIX there: every process its own
# files), compare, read every profile back.
case_run() {
	local name=$1 d="c.${1// /_}" rc0 rc1 g s n=0 bad=0 calls quiet=
	shift
	rm -rf "$d" && mkdir -p "$d/plain" "$d/pre" || return
	(cd "$d/plain" && GMON_OUT_PREFIX="$PWD/gmon" timeout 60 "$@" > out 2> err; echo $? > rc)
	(cd "$d/pre" && GMON_OUT_PREFIX="$PWD/gmon" timeout 60 env LD_PRELOAD="$CP_SO" "$@" \
		> out 2> err; echo $? > rc)
	rc0=$(cat "$d/plain/rc") rc1=$(cat "$d/pre/rc")
	if grep -q 'ran too briefly to be sampled' "$d/pre/err" || ! grep -q callpath "$d/pre/err"; then
		quiet=brief
	fi
	cp_check "$name: exit status $rc1, as without the runtime ($rc0)" test "$rc0" = "$rc1"
	cp_check "$name: the same output" cmp -s "$d/plain/out" "$d/pre/out"
	cp_check "$name: the runtime said nothing, or that the run was too brief to sample" \
		bash -c "! grep callpath '$d/pre/err' | grep -qv 'ran too briefly to be sampled'"
	for g in "$d"/pre/gmon.[0-9]*; do
		case $g in *.callpath|*'*'*|*.report|*.err|*.flat) continue ;; esac
		s=$g.callpath
		[ -e "$s" ] || continue
		n=$((n + 1))
		prog=$(cp_header "$s" exe)
		"$EGPROF" -b --callpath "$prog" "$g" > "$g.report" 2> "$g.err" || {
			bad=1
			echo "# $g refused: $(head -c 300 "$g.err")"
		}
		"$SYSGPROF" -b -p "$prog" "$g" > "$g.flat" 2>> "$g.err" || {
			bad=1
			echo "# stock gprof refused $g: $(head -c 300 "$g.err")"
		}
		calls=$(cp_header "$s" calls)
		if [ "$(cp_header "$s" flags)" != 0x10 ] || [ "$calls" != 0 ]; then
			bad=1
			echo "# $s: flags $(cp_header "$s" flags), calls $calls: not sampled paths"
		fi
	done
	# too brief: said so, or (a process that ran children) quiet
	if [ "$n" = 0 ] && [ "${quiet:-}" = brief ]; then
		cp_check "$name: no sample, no profile" test "$bad" = 0
	else
		cp_check "$name: $n profile(s) read back, sampled, no call counted" \
			test "$bad" = 0 -a "$n" -gt 0
	fi
}

W=$WORKDIR
case_run "coroutines, main thread" "$W/coro" main 20
case_run "coroutines, worker thread" "$W/coro" thread 20
case_run "coroutine spinning" "$W/coro" spin 5
case_run "sigaltstack handlers" "$W/alt" 10
case_run "signal handler at 1 kHz" "$W/sighammer"
case_run "siginterrupt and SIGALRM timeouts" "$W/sigsem"
case_run "2,000 short-lived threads" "$W/churn" 2000
case_run "fork, exec, vfork, posix_spawn, system" "$W/spawn"
case_run "dlopen and dlclose of a library" "$W/dl" "$W/dllib.so"
case_run "setjmp/longjmp and siglongjmp out of deep recursion" "$W/deepjump"
case_run "C++ exceptions through deep recursion" "$W/deepthrow"
case_run "ulimit -v 1600000" bash -c "ulimit -v 1600000 && exec '$W/ulimitv'"
case_run "a corrupt frame chain" "$W/corrupt" 20
case_run "generated code without unwind information" "$W/jit" 10
for m in "coro 40" "altstack 60" "dlchurn 150" "fork 4" "longjmp 60" "threads 20" "deep 1000"; do
	case_run "sampstress $m" "$W/sampstress" $m "$W/sampstress.so"
done

# The walk's worst cases, in detail: what it could not finish is under
# [truncated], and no path names a caller of the lying functions but main
# (their only caller), nor any caller of the generated code.
folded() { # DIR PROG: the folded stacks of the one profile in DIR
	local g
	for g in "$1"/gmon.[0-9]*; do
		case $g in *.callpath|*.err|*.flat|*.report|*.folded) continue ;; esac
		"$EGPROF" -b --folded "$g.folded" "$2" "$g" > /dev/null 2>&1 && cat "$g.folded"
	done
}
walks() { # DIR KEY: a sampled section's field summed over DIR's sidecars
	local s t=0 v
	for s in "$1"/gmon.[0-9]*.callpath; do
		v=$(cp_header "$s" "$2")
		t=$((t + ${v:-0}))
	done
	echo "$t"
}
complete() { # DIR: walks to the root, in percent
	local n c
	n=$(walks "$1" walks) c=$(walks "$1" walks-0)
	[ "$n" -gt 0 ] && echo $((100 * c / n)) || echo 0
}
for m in coro altstack longjmp threads fork; do
	d=$(echo c.sampstress_"$m"_*/pre)
	cp_check "sampstress $m: 99% of the walks reach the root ($(complete "$d")% of $(walks "$d" walks))" \
		test "$(complete "$d")" -ge 99
done
folded c.sampstress_coro_*/pre "$W/sampstress" > coro.folded
cp_check "coro: a coroutine's path starts at its function (makecontext's return)" \
	grep -qE '^coro_a;burn_nested;burn ' coro.folded
folded c.sampstress_altstack_*/pre "$W/sampstress" > alt.folded
cp_check "altstack: the handler's frames on the alternate stack are under the code it interrupted" \
	grep -qE '^main;(altstack( \[inlined\])?;)?raise \[libc\.so\.6\];.*;(on_usr1;)?burn_nested;burn ' alt.folded
folded c.sampstress_dlchurn_*/pre "$W/sampstress" > dl.folded
cp_check "dlchurn: the library's frames are named with the library" \
	grep -qE '^lib_user;lib_burn \[sampstress\.so\];lib_inner \[sampstress\.so\] ' dl.folded
# the parent only forks and waits: it writes a profile only when it took a
# sample (a loaded machine gives it one now and then), so the children are
# the files with a parent pid
kids=0
for s in c.sampstress_fork_*/pre/gmon.[0-9]*.callpath; do
	[ "$(cp_header "$s" ppid)" != 0 ] && kids=$((kids + 1))
done
cp_check "fork: each child's profile is its own, 4 of them ($kids)" test "$kids" = 4
d=$(echo c.sampstress_deep_*/pre)
# (a sample before or after the recursion is a whole path: complete)
cp_check "deep: walks deeper than the bound end at it ($(walks "$d" walks-5) of $(walks "$d" walks)), the others complete" \
	test "$(walks "$d" walks-5)" -gt 0 -a \
	     "$(( $(walks "$d" walks-5) + $(walks "$d" walks-0) ))" = "$(walks "$d" walks)"
folded "$d" "$W/sampstress" > deep.folded
cp_check "deep: those paths are under [truncated]" grep -qE '^\[truncated\];deeper' deep.folded

folded c.a_corrupt_frame_chain/pre "$W/corrupt" > corrupt.folded
cp_check "corrupt: some walks stopped at the lies, under [truncated]" \
	grep -q '^\[truncated\];' corrupt.folded
cp_check "corrupt: the lying functions are main's children or [truncated]'s, never deeper" \
	bash -c "! grep -E 'lying_(return|frame)' corrupt.folded | grep -vqE '^(main|\[truncated\](;main)?);lying_'"
cp_check "corrupt: the honest rounds are whole paths from main" \
	grep -qE '^main;(honest;)?spin' corrupt.folded
folded c.generated_code_without_unwind_information/pre "$W/jit" > jit.folded
cp_check "jit: the samples in generated code are under [truncated] as [unknown]" \
	grep -q '^\[truncated\];\[unknown\] ' jit.folded
cp_check "jit: no path goes through the generated code to a caller" \
	bash -c "! grep -E 'run_generated;.*(unknown|callback)' jit.folded"
cp_done
