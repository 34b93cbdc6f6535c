#!/usr/bin/env bash
# A killed run's per-thread values (the profile written by the end
# handlers, a node table per live thread): two_threads.c wait runs work_a
# and work_b for ever on worker threads and says "ready" once both are
# inside them; SIGTERM then.  The sidecar's reader gives each live thread
# its own entry (the main thread marked, the tids the tables carry), every
# node's values add up exactly, and in the HTML columns worker-a's entry
# holds work_a and not work_b, and the other worker's the reverse.  No
# timing: the kill comes once both threads are in their functions (their
# calls are counted then); samples are not asserted.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
gcc -pg -O1 -g -o two "$SRCDIR/testsuite/fixtures/callpath/two_threads.c" -lpthread >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build two_threads.c"; exit 1; }
LD_PRELOAD="$CALLPATH_SO" ./two wait >out.txt &
pid=$!
for _ in $(seq 600); do grep -q ready out.txt && break; sleep 0.1; done
kill -TERM $pid
wait $pid
rc=$?
check "killed by SIGTERM (status $rc), ready first" sh -c "[ $rc = 143 ] && grep -q ready out.txt"
"$BUILDDIR/tools/cpdump/cpdump" -H gmon.out.callpath >head.txt
check "the main thread and both workers have their entries" \
	sh -c 'grep -q "^thread-views 3 " head.txt && grep -q "^thread 0 tid $0 main " head.txt &&
	       [ "$(grep -c "^thread [12] tid [1-9][0-9]* kept threads 1 nodes [0-9]* calls [1-9][0-9]* " head.txt)" = 2 ]' $pid
"$EGPROF" -b two gmon.out --html r.html >/dev/null 2>err.txt
check "--html exits 0" [ $? = 0 ]
"$PY" - r.html >check.txt 2>&1 <<'PY'
import json, re, sys
s = open(sys.argv[1]).read()
c = json.loads(re.search(r'<script[^>]*id="egprof-data"[^>]*>(.*?)</script>', s, re.S).group(1))["callpath"]
tv, n = c["thread_values"], len(c["parent"])
calls, samples, funcs = [0] * n, [0] * n, {}
for f, t, k, v in zip(tv["frame"], tv["thread"], tv["calls"], tv["samples"]):
    calls[f] += k
    samples[f] += v
    funcs.setdefault(t, set()).add(c["names"][c["function"][f]])
for i in range(n):
    assert calls[i] == c["calls"][i] + c["recursive_calls"][i], i
    assert samples[i] == c["self_samples"][i], i
workers = sorted((sorted(f & {"work_a", "work_b"}) for t, f in funcs.items()
                  if c["threads"][t]["kind"] == "thread"), key=str)
assert workers == [["work_a"], ["work_b"]], funcs
print("ok")
PY
check "every node adds up; each worker's entry holds its own function only" [ "$(tail -n 1 check.txt)" = ok ]
done_testing
