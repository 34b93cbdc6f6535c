#!/usr/bin/env bash
# A program looping for ever, ended by SIGTERM, SIGINT, SIGHUP, SIGQUIT
# (sent) and SIGXCPU (ulimit -t): with the runtime it leaves gmon.out
# (stock gprof reads it) and a sidecar that passes the pair check
# (gprof --callpath), and its parent sees the same wait status as without
# the runtime, core-dump bit included.  A program with its own SIGTERM
# handler that prints and exit(3)s: the line, status 3, the profile.  What
# sigaction()/signal() report for SIGTERM is the same with and without
# the runtime (its handler is held behind the program's view).  (issue 26)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc ends ends.c -O1 || exit 1
cd "$WORKDIR" || exit 1

# status.py [--xcpu] [--core] SIG CMD...: start CMD, send SIG once it made
# the file "started" (or, with SIG "-", wait), print the raw wait status.
cat > status.py <<'EOF'
import os, signal, sys, time
args = sys.argv[1:]
core = False
if args[0] == "--core":
    core = True
    args = args[1:]
sig, cmd = args[0], args[1:]
pid = os.fork()
if pid == 0:
    import resource
    if core:
        resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    else:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if sig == "XCPU":
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        resource.setrlimit(resource.RLIMIT_CPU, (1, hard))
    os.execv(cmd[0], cmd)
if sig not in ("XCPU", "-"):
    for _ in range(1000):
        if os.path.exists("started"):
            break
        time.sleep(0.01)
    time.sleep(0.2)
    os.kill(pid, getattr(signal, "SIG" + sig))
_, st = os.waitpid(pid, 0)
print(hex(st))
EOF

st() {	# the wait status (the last line: the program's output comes first)
	tail -n1 "$1/status"
}

run() {	# run DIR SIG [--core] [preload|plain] MODE
	local d=$1 sig=$2 how=$3 mode=$4 core=
	case $how in core-*) core=--core; how=${how#core-} ;; esac
	rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
	if [ "$how" = preload ]; then
		LD_PRELOAD="$CP_SO" python3 ../status.py $core "$sig" ../ends $mode
	else
		python3 ../status.py $core "$sig" ../ends $mode
	fi > status 2> stderr
	cd "$WORKDIR"
}

for sig in TERM INT HUP QUIT XCPU; do
	run plain-$sig $sig plain loop
	run rt-$sig $sig preload loop
	cp_check "$sig: same wait status as without the runtime ($(st plain-$sig))" \
		test "$(st plain-$sig)" = "$(st rt-$sig)"
	cp_check "$sig: the status is the signal's" \
		test "$(( $(st rt-$sig) & 0x7f ))" = "$(kill -l $sig)"
	cp_check "$sig: without the runtime no gmon.out (the reason for all this)" \
		test ! -e plain-$sig/gmon.out
	cp_check "$sig: nothing on stderr" test ! -s rt-$sig/stderr
	calls=$(cp_calls_of /usr/bin/gprof ./ends rt-$sig/gmon.out leaf)
	cp_check "$sig: /usr/bin/gprof reads gmon.out (leaf: $calls calls)" \
		test "${calls:-0}" -gt 0
	"$EGPROF" -b --callpath ./ends rt-$sig/gmon.out > rt-$sig/report 2>&1
	cp_check "$sig: gprof --callpath reads the pair (main > work > leaf)" \
		grep -qE '^ +[0-9]+ .* leaf \(work\+0x' rt-$sig/report
	cp_check "$sig: the sidecar holds gmon.out's identity" \
		test "$(cp_header rt-$sig/gmon.out.callpath gmon-identity)" = 0x1
	cp_check "$sig: no temporary file left" \
		test -z "$(ls rt-$sig | grep tmp)"
done

# A core dump where the kernel writes one into the folder (core_pattern a
# plain name): the core bit as without the runtime.
if [ "$(cut -c1 /proc/sys/kernel/core_pattern)" != "|" ]; then
	run plain-core QUIT core-plain loop
	run rt-core QUIT core-preload loop
	cp_check "QUIT with core dumps on: same status ($(st plain-core), core bit 0x80)" \
		test "$(st plain-core)" = "$(st rt-core)"
	cp_check "QUIT with core dumps on: profile written" test -s rt-core/gmon.out.callpath
	rm -f plain-core/core* rt-core/core*
else
	cp_check "# SKIP core_pattern pipes cores elsewhere" true
fi

# The program's own handler runs (the kernel's to run) and its exit stands.
run plain-handler TERM plain handler
run rt-handler TERM preload handler
cp_check "own handler: status 3 (0x300)" test "$(st rt-handler)" = 0x300
cp_check "own handler: same status as without the runtime" \
	test "$(st plain-handler)" = "$(st rt-handler)"
cp_check "own handler: its line printed" \
	test "$(head -n1 rt-handler/status)" = "handler ran"
"$EGPROF" -b --callpath ./ends rt-handler/gmon.out > rt-handler/report 2>&1
cp_check "own handler: the profile written at its exit, pair read" \
	grep -qE 'leaf \(work\+0x' rt-handler/report

# SIGTERM raised after glibc's _mcleanup wrote gmon.out (a destructor of
# the program's, before the runtime's): the handler does not run
# _mcleanup again (it frees glibc's tables), writes the sidecar of the
# gmon.out the exit wrote, and the process dies of SIGTERM.
run plain-late - plain exit-term
run rt-late - preload exit-term
cp_check "SIGTERM during the exit: same status as without the runtime ($(st plain-late))" \
	test "$(st plain-late)" = "$(st rt-late)"
cp_check "SIGTERM during the exit: glibc's gmon.out stands" test -s rt-late/gmon.out
"$EGPROF" -b --callpath ./ends rt-late/gmon.out > rt-late/report 2>&1
cp_check "SIGTERM during the exit: its sidecar written, the pair read" \
	grep -qE 'leaf \(work\+0x' rt-late/report

# What the program sees of SIGTERM's action, step by step.
./ends view > view.plain
LD_PRELOAD="$CP_SO" ./ends view > view.rt
cp_same "sigaction/signal report the program's own actions" view.plain view.rt

cp_done
