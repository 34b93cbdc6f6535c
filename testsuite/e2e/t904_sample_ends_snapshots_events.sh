#!/usr/bin/env bash
# Sampling mode's ends and extras: a release build killed by SIGTERM
# writes its pair (read back, sampled); periodic snapshots of a running
# one are sampled files too; CALLPATH_EVENTS' overflows are placed on the
# walked paths; threads each have their own paths, rooted at their start
# routine; a program that ran too briefly to be sampled says so once; and
# the stack walk calls nothing of the C library in the handler (its
# object: only its table, in normal context, uses dl_iterate_phdr).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > app.c <<'EOF'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static volatile double s;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
__attribute__((noinline)) void *worker(void *a) { (void)a; spin(100000000); return NULL; }
int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";

	if (!strcmp(how, "brief"))
		return 0;
	if (!strcmp(how, "threads")) {
		pthread_t t[2];
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, worker, NULL);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	spin(!strcmp(how, "long") ? 1500000000 : 150000000);
	if (!strcmp(how, "kill"))
		raise(SIGTERM);
	return 0;
}
EOF
gcc -O2 -g -o app app.c -lpthread || exit 1

mkdir -p k && (cd k && bash -c "LD_PRELOAD='$CP_SO' ../app kill 2> err" 2> /dev/null; echo $? > rc)
cp_check "killed by SIGTERM: the status of SIGTERM" test "$(cat k/rc)" = 143
cp_check "killed: its sampled pair written" \
	bash -c "test -s k/gmon.out && test '$(cp_header k/gmon.out.callpath flags 2>/dev/null)' = 0x10"
"$EGPROF" -b --folded k.folded ./app k/gmon.out > /dev/null 2> k.err
cp_check "killed: read back, main -> spin" grep -qE '^main;spin [0-9]+$' k.folded

mkdir -p s && (cd s && CALLPATH_SNAPSHOT=0.2 LD_PRELOAD="$CP_SO" ../app long 2> err)
snap=$(ls s/gmon.out.snap[0-9]* 2>/dev/null | grep -v callpath | head -1)
cp_check "snapshots: written while it ran ($snap)" test -n "$snap" -a -s "$snap.callpath"
cp_check "snapshots: sampled files" test "$(cp_header "$snap.callpath" flags 2>/dev/null)" = 0x10
"$EGPROF" -b --folded snap.folded ./app "$snap" > /dev/null 2> snap.err
cp_check "snapshots: read back, main -> spin" grep -qE '^main;spin [0-9]+$' snap.folded

mkdir -p t && (cd t && LD_PRELOAD="$CP_SO" ../app threads 2> err)
"$EGPROF" -b --folded t.folded ./app t/gmon.out > /dev/null 2> t.err
cp_check "threads: each thread's path starts at its start routine" \
	grep -qE '^worker;spin [0-9]+$' t.folded
cp_check "threads: the sidecar counts three threads" test "$(cp_header t/gmon.out.callpath threads)" = 3

if [ -n "$(cp_header k/gmon.out.callpath exe)" ] && grep -q 'HAVE_PAPI = yes' "$BUILDDIR/Makefile"; then
	mkdir -p e && (cd e && CALLPATH_EVENTS=perf::TASK-CLOCK@1000000 LD_PRELOAD="$CP_SO" ../app 2> err)
	"$EGPROF" -b --callpath --metric perf::TASK-CLOCK ./app e/gmon.out > e.txt 2> e.err
	cp_check "CALLPATH_EVENTS: the events are on the walked paths (main -> spin)" \
		grep -qE '^ +- +[0-9.]+ +[0-9.]+ +spin \(main\+0x[0-9a-f]+\)$' e.txt
else
	echo "ok $((CP_N + 1)) # SKIP no PAPI in this build"
	CP_N=$((CP_N + 1))
fi

mkdir -p b && (cd b && LD_PRELOAD="$CP_SO" ../app brief 2> err)
cp_check "too brief to be sampled: said once, no file" \
	bash -c "[ \$(grep -c 'ran too briefly to be sampled' b/err) = 1 ] && [ ! -e b/gmon.out ]"

undef=$(nm -u "$BUILDDIR/runtime/rt/unwind.o" | awk '$2 !~ /^cp_|^_GLOBAL_OFFSET_TABLE_$/ { print $2 }' |
	sort | tr '\n' ' ')
cp_check "the stack walk calls nothing of the C library but dl_iterate_phdr (normal context): $undef" \
	test "$undef" = "dl_iterate_phdr "
cp_check "the stack walk uses no vector register (no hidden memcpy)" \
	bash -c "! objdump -d '$BUILDDIR/runtime/rt/unwind.o' | grep -qE '%[xyz]mm'"
cp_done
