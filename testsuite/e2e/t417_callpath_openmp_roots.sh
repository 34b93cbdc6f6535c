#!/usr/bin/env bash
# OpenMP: each thread's paths are rooted at the outlined function, named by
# its own symbol (main._omp_fn.0, which gprof leaves out of its table and
# attributes to the function before it), never at another function or a
# static initialiser; gprof's own output and the stale-sidecar check are
# unaffected.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
for lang in c c++; do
	gcc -pg -O1 -fopenmp -x $lang -o omp-$lang "$CP_EX/corpus/omp.c" || exit 1
	rm -f gmon.out gmon.out.callpath
	OMP_NUM_THREADS=2 LD_PRELOAD="$CP_SO" ./omp-$lang > /dev/null
	"$EGPROF" -b --folded-calls omp.folded ./omp-$lang gmon.out > /dev/null 2> err
	cp_check "$lang: gprof --folded-calls accepts the sidecar" test $? -eq 0 -a ! -s err
	w=work
	[ $lang = c++ ] && w='work(int)'	# gprof demangles
	cat > expected <<END
main 1
main._omp_fn.0 1
main._omp_fn.0;$w 5
main;main._omp_fn.0 1
main;main._omp_fn.0;$w 5
END
	cp_same "$lang: the worker is rooted at main._omp_fn.0, the master runs it under main" \
		expected omp.folded
	cp_check "$lang: two threads recorded" test "$(cp_header gmon.out.callpath threads)" = 2
done
cp_done
