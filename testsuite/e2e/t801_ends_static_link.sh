#!/usr/bin/env bash
# Static links (`gcc -static -pg ... -lcallpath`, libcallpath.a): a program
# that never calls signal() or sigaction() (nothing of it refers to the
# archive's signal code) still gets the end handlers and snapshots: killed
# by SIGTERM it dies of it (status 143, as without the runtime) leaving
# gmon.out and its sidecar, paired; CALLPATH_SNAPSHOT=0.05 leaves
# snapshots.  The archive member that holds them used to stay out of such
# a link: no snapshots, nothing written for a killed run, and not a word.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
if ! echo 'int main(void){return 0;}' | gcc -static -x c -o /dev/null - 2>/dev/null; then
	echo "1..0 # SKIP no static C library"
	exit 0
fi
cat > loop.c <<'EOF'
#include <stdio.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i * i; }
__attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		leaf(i);
}
int main(void)
{
	FILE *f = fopen("started", "w");

	if (f)
		fclose(f);
	for (;;)
		work(100000);
}
EOF
gcc -static -pg -O1 -o plain loop.c || exit 1
gcc -static -pg -O1 -o prog loop.c -L"$CP_LIB" -lcallpath || exit 1
cp_check "the program is static" bash -c "! readelf -d prog 2>/dev/null | grep -q NEEDED"
cp_check "it refers to no signal function" \
	bash -c "! nm prog | grep -qwE 'T (signal|sigaction)'"

# run DIR [VAR=VALUE...]: start it there, SIGTERM it once it made
# "started" and a few snapshots could be taken, its status in DIR/rc
run() {
	local d=$1 prog=$2
	shift 2
	rm -rf "$d" && mkdir "$d" || return 1
	(
		cd "$d" || exit 1
		env "$@" "../$prog" > out 2> err &
		pid=$!
		for _ in $(seq 1000); do [ -e started ] && break; sleep 0.01; done
		# snapshots every 0.05 s: wait for the third (10 s at most)
		for _ in $(seq 1000); do
			[ -e gmon.out.snap3.callpath ] || [ -z "${WANT_SNAPS:-}" ] && break
			sleep 0.01
		done
		sleep 0.1
		kill -TERM $pid
		wait $pid
		echo $? > rc
	)
}

run p plain
run s prog
cp_check "SIGTERM: status 143 as without the runtime ($(cat p/rc), $(cat s/rc))" \
	test "$(cat p/rc)" = 143 -a "$(cat s/rc)" = 143
cp_check "SIGTERM: nothing on stderr" test ! -s s/err
calls=$(cp_calls_of "$SYSGPROF" ./prog s/gmon.out leaf)
cp_check "SIGTERM: gmon.out written, /usr/bin/gprof reads it (leaf: ${calls:-no} calls)" \
	test "${calls:-0}" -gt 0
"$EGPROF" -b --callpath ./prog s/gmon.out > s/report 2> s/report.err
cp_check "SIGTERM: the pair is read (main > work > leaf)" \
	grep -qE '^ +[0-9]+ .* leaf \(work\+0x' s/report
sed 's/^/# /' s/report.err | head -n 3

WANT_SNAPS=1 run t prog CALLPATH_SNAPSHOT=0.05
n=$(ls t | grep -cE '^gmon\.out\.snap[0-9]+$')
cp_check "CALLPATH_SNAPSHOT=0.05: snapshots written ($n)" test "$n" -ge 3
"$EGPROF" -b --callpath ./prog t/gmon.out.snap3 > t/report 2> t/report.err
cp_check "CALLPATH_SNAPSHOT=0.05: snapshot 3's pair is read" \
	grep -qE '^ +[0-9]+ .* leaf \(work\+0x' t/report
cp_check "CALLPATH_SNAPSHOT=0.05: killed, the run's own pair too" \
	test "$(cat t/rc)" = 143 -a -s t/gmon.out.callpath
cp_done
