#!/usr/bin/env bash
# Found by testsuite/fuzz/fuzz_options (reproducer in its corpus): one argv
# element can hold many short options ("-bbbb"), but the front end's option
# splitter (gprof-ext/cmdline.c) had room for one option per element, and
# wrote past its array: `gprof --diff -bbbb...` aborted in malloc.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
cc -pg -O1 -no-pie -o prog "$SRCDIR/testsuite/fixtures/loaders/work.c" && ./prog ||
	{ echo "not ok 1 - build work.c"; echo "1..1"; exit 1; }
many=-$(printf 'b%.0s' $(seq 100))
"$EGPROF" --diff -b prog gmon.out gmon.out > one.txt 2> one.err
"$EGPROF" --diff "$many" prog gmon.out gmon.out > many.txt 2> many.err
rc=$?
check "--diff -b x100 in one element: exit 0 (got $rc)" test $rc -eq 0
check "... the same report as -b" cmp -s one.txt many.txt
"$EGPROF" --rank-stats -zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz prog gmon.out gmon.out > r.txt 2> r.err
rc=$?
check "--rank-stats -z x43 in one element: exit 0 (got $rc)" test $rc -eq 0
"$EGPROF" --gml g.gml "$many" -zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz prog gmon.out > p.txt 2> p.err
rc=$?
"$SYSGPROF" "$many" -zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz prog gmon.out > s.txt 2> s.err
check "--gml with bundled options: exit 0 (got $rc), gprof's report" \
	bash -c "[ $rc = 0 ] && cmp -s p.txt s.txt"
dl_done
