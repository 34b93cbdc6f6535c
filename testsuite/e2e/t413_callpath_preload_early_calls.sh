#!/usr/bin/env bash
# Calls that arrive before the runtime has started (a library's constructor
# calling into the program, libcallpath preloaded: its constructor runs
# later) still reach glibc's counter, gmon.out says what it says without the
# runtime, and the sidecar records them too, with main still a root.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
gcc -O1 -fPIC -shared -o libearly.so "$CP_EX/earlylib.c" || exit 1
gcc -pg -O0 -o early "$CP_EX/early.c" -Wl,--no-as-needed -L. -learly \
	-Wl,-rpath,"$WORKDIR" || exit 1

./early > plain.out && mv gmon.out gmon.plain
LD_PRELOAD="$CP_SO" ./early > pre.out
cp_check "runs the same (the vector-register arguments survive the start)" \
	cmp -s plain.out pre.out
cp_check "and computes scale(1.5, 4.0) = 6.00" grep -qx "scale 6.00" pre.out
cp_calls_of "$SYSGPROF" ./early gmon.out leaf > calls.pre
cp_check "gmon.out: leaf called 10 times, as without the runtime ($(cat calls.pre))" \
	test "$(cat calls.pre)" = 10 -a "$(cp_calls_of "$SYSGPROF" ./early gmon.plain leaf)" = 10
cp_graph_counts "$SYSGPROF" ./early gmon.plain > graph.plain
cp_graph_counts "$SYSGPROF" ./early gmon.out > graph.pre
cp_same "gmon.out: the call graph equals a run without the runtime" graph.plain graph.pre
cp_folded ./early gmon.out.callpath > folded
cat > expected <<'END'
app_hook 1
app_hook;leaf 5
main 1
main;app_hook 1
main;app_hook;leaf 5
scale 1
END
cp_same "the sidecar has the constructor's calls too, main a root" expected folded
cp_check "nothing dropped" test "$(cp_header gmon.out.callpath dropped-stopped)" -eq 0
cp_done
