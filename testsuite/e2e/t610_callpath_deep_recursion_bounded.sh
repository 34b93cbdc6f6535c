#!/usr/bin/env bash
# Reports linear in their input at any depth (issue 28 item 2): a recursion
# 20,000 deep recorded with CALLPATH_RECURSION=full (20,002 nodes, a 0.96 MB
# sidecar) made a 4.4 GB --callpath report, 1.0 GB of --folded-calls at
# 2 GB of RSS, 0.4 GB of cpdump and 1.0 GB of JSON.  A path of more than 32
# frames is printed as its first 16, "…(N frames)…" and its last 16
# (model/elide.h), and trees are indented 32 levels at most: each output
# here stays under 32 bytes per byte of the sidecar (measured: report 16x,
# folded 3.8x, cpdump 2.3x, JSON 7.4x), the numbers are all there, and a
# deep line says how much it left out.  Outputs are read through `head -c`
# so that a regression fails in seconds instead of writing gigabytes.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc recurse recurse.c -O2 -fno-optimize-sibling-calls || exit 1
cd "$WORKDIR" || exit 1
nm -nS recurse > recurse.nm
CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ./recurse down 20000 > /dev/null
size=$(stat -c %s gmon.out.callpath)
limit=$((32 * size))
# (the time samples' leaves, issue 22, are nodes too: as many as the
# program counters sampled, left out here)
calls_nodes=$(cp_call_nodes gmon.out.callpath)
cp_check "the sidecar holds 20,002 nodes of calls ($calls_nodes)" test "$calls_nodes" -eq 20002

# bytes CMD...: the bytes CMD writes, reading at most limit + 1
bytes() { "$@" 2> /dev/null | head -c $((limit + 1)) | wc -c; }
n=$(bytes "$EGPROF" -b --callpath ./recurse gmon.out)
cp_check "--callpath: $n bytes, under 32 x the sidecar's $size" test "$n" -le $limit
n=$(bytes "$EGPROF" -b --folded-calls - ./recurse gmon.out)
cp_check "--folded-calls: $n bytes, under 32 x the sidecar" test "$n" -le $limit
n=$(bytes "$EGPROF" -b --callpath --format json ./recurse gmon.out)
cp_check "--callpath --format json: $n bytes, under 32 x the sidecar" test "$n" -le $limit
n=$(bytes "$CP_DUMP" gmon.out.callpath)
cp_check "cpdump: $n bytes, under 32 x the sidecar" test "$n" -le $limit
n=$(bytes "$CP_DUMP" -f -s recurse.nm gmon.out.callpath)
cp_check "cpdump -f: $n bytes, under 32 x the sidecar" test "$n" -le $limit

# memory: the old --folded-calls held every path's text (2 GB here)
if [ -x /usr/bin/time ] && ! nm "$EGPROF" 2> /dev/null | grep -q __asan_init; then
	timeout 60 /usr/bin/time -f %M -o rss.txt "$EGPROF" -b --folded-calls /dev/null \
		./recurse gmon.out > /dev/null 2>&1
	rss=$(tail -n 1 rss.txt)
	cp_check "--folded-calls: peak RSS ${rss} KB, under 256 MB" test "${rss:-999999999}" -lt 262144
fi

timeout 60 "$EGPROF" -b --folded-calls calls.folded --callpath --all-paths ./recurse gmon.out > report.txt
cp_check "the report and the folded stacks are written" test -s calls.folded -a -s report.txt
# every call is there: 1 main, 20,001 calls of down, one line each
cp_check "--folded-calls: 20,002 lines" test "$(wc -l < calls.folded)" -eq 20002
cp_check "--folded-calls: the counts sum to 20,002 calls" \
	test "$(awk '{ s += $NF } END { print s }' calls.folded)" -eq 20002
# the deepest line: main, 15 down, the 19,969 left out, 16 down
head16="main$(printf ';down%.0s' $(seq 15))"
tail16="$(printf ';down%.0s' $(seq 16))"
cp_check "the deepest folded line: main;down x15;…(19,969 frames)…;down x16" \
	grep -qxF "$head16;…(19,969 frames)…$tail16 1" calls.folded
cp_check "a path of 32 frames is whole, one of 33 leaves 1 frame out" \
	bash -c "grep -qx 'main\\(;down\\)\\{31\\} 1' calls.folded &&
		 grep -qF '…(1 frame)…' calls.folded"
cp_check "no folded line has more than 33 frames" \
	bash -c "! awk -F';' 'NF > 33 { bad = 1 } END { exit !bad }' calls.folded"
cp_check "--callpath: a deep path is printed elided" \
	grep -qF " -> down (down+0x" report.txt
cp_check "--callpath: the deepest path says it left 19,969 frames out" \
	grep -qF -- "-> …(19,969 frames)… -> down (down+" report.txt
cp_check "--callpath: the tree says the depth of deep nodes" \
	grep -qE '^ +1 +([0-9.]+ +[0-9.]+ +)?\[depth 20,001\] \*down \(down\+0x' report.txt
cp_check "--callpath: down's calls are all counted" grep -qE '^down: 20001 calls, 20001 paths' report.txt
cp_done
