#!/usr/bin/env bash
# Threads hammering tiny functions: the per-thread trees merged at exit hold
# every call; glibc's own mcount loses arcs when threads collide (reported,
# not asserted: it depends on timing).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc threads threads.c -O1 || exit 1
cd "$WORKDIR" || exit 1
for n in 2 4; do
	LD_PRELOAD="$CP_SO" ./threads $n > out.$n
	expect=$(awk '{ print $2 }' out.$n)
	cp_folded ./threads gmon.out.callpath > folded.$n
	printf 'main 1\nworker %d\nworker;small %d\nworker;small;tiny %d\n' \
		"$n" "$expect" "$expect" > expected.$n
	cp_same "$n threads: every call counted exactly" expected.$n folded.$n
	cp_check "$n threads: $n thread trees merged" \
		test "$(cp_header gmon.out.callpath threads)" -eq $((n + 1))
	cp_check "$n threads: nothing dropped" \
		test "$(cp_header gmon.out.callpath dropped-reentry)" -eq 0
	got=$(cp_calls_of "$SYSGPROF" ./threads gmon.out small)
	echo "# $n threads: glibc's gmon.out counts ${got:-0} of $expect calls of small" \
		"(lost $((expect - ${got:-0})))"
done
cp_done
