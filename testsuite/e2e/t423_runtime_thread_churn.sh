#!/usr/bin/env bash
# Issue 21 item 4: a thread's state is merged into the retired tree and
# unmapped when the thread ends, so threads run one after another cost the
# live ones only.  5,000 threads created and joined in turn: peak RSS at
# most that of the run without the runtime + 16 MB, mappings once they are
# joined at most that + 64 (before: 36 KB and 4 mappings per thread ever
# created, 1.08 GB and 30,276 mappings for 30,000, and the program's own
# pthread_create failing past about 65,000).  bench/callpath/threads.sh runs
# 100,000 (too long for every check).  And every thread's calls are in the
# profile, exactly: 5,000 work and 10,000 leaf under the thread roots.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
N=5000
gcc -pg -O1 -o churn "$CP_EX/stress/churn.c" -lpthread || exit 1
/usr/bin/time -f %M -o plain.rss ./churn $N plain.maps > plain.out || exit 1
rm -f gmon.out
/usr/bin/time -f %M -o pre.rss env LD_PRELOAD="$CP_SO" ./churn $N pre.maps > pre.out
rc=$?
cp_check "exit $rc and the same output" test "$rc" = 0 -a "$(cat plain.out)" = "$(cat pre.out)"
p=$(cat plain.rss) q=$(cat pre.rss)
cp_check "peak RSS $q KB, at most ${p} KB (plain) + 16 MB" test "$q" -le $((p + 16384))
p=$(cat plain.maps) q=$(cat pre.maps)
cp_check "$q mappings after the threads ended, at most $p (plain) + 64" test "$q" -le $((p + 64))
cp_folded ./churn gmon.out.callpath > folded
cp_check "every thread's calls, exactly (worker $N, work $N, leaf $((2 * N)))" \
	bash -c "grep -qx 'worker $N' folded && grep -qx 'worker;work $N' folded &&
		 grep -qx 'worker;work;leaf $((2 * N))' folded"
cp_check "the sidecar sums $((N + 1)) thread trees" \
	test "$(cp_header gmon.out.callpath threads)" = $((N + 1))
"$EGPROF" -b --callpath ./churn gmon.out > report 2> report.err
cp_check "gprof --callpath reads it" test $? -eq 0 -a ! -s report.err
echo "# peak RSS $(cat plain.rss) KB -> $(cat pre.rss) KB, mappings $(cat plain.maps) -> $(cat pre.maps)"
cp_done
