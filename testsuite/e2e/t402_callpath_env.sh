#!/usr/bin/env bash
# Environment: GMON_OUT_PREFIX names the sidecar after glibc's gmon file,
# CALLPATH_DEPTH keeps the last k frames, CALLPATH_MAX_NODES bounds memory
# and counts what it drops; MPI rank variables land in the header.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc acc acceptance.c -O1 || exit 1
cp_cc many manypaths.c -O1 || exit 1
cd "$WORKDIR" || exit 1

mkdir -p pfx
GMON_OUT_PREFIX="$WORKDIR/pfx/prof" LD_PRELOAD="$CP_SO" ./acc
gmon=$(ls pfx | grep -v callpath)
cp_check "GMON_OUT_PREFIX: glibc wrote prof.<pid>" test -n "$gmon" -a -f "pfx/$gmon"
cp_check "GMON_OUT_PREFIX: the sidecar is prof.<pid>.callpath" test -f "pfx/$gmon.callpath"
cp_check "GMON_OUT_PREFIX: no gmon.out.callpath" test ! -e gmon.out.callpath
cp_check "the pid in the header is the pid in the name" \
	test "prof.$(cp_header "pfx/$gmon.callpath" pid)" = "$gmon"
cp_check "no temporary file left beside it" test "$(ls pfx | wc -l)" -eq 2

CALLPATH_DEPTH=2 LD_PRELOAD="$CP_SO" ./acc
cat > expected.depth2 <<'END'
a;c 3
b;c 7
b;d 2
d;c 2
main 1
main;a 3
main;b 9
main;op 7
main;r 1
r;leaf 1
r;r 3
END
cp_folded ./acc gmon.out.callpath > folded.depth2
cp_same "CALLPATH_DEPTH=2 keeps the last two frames" expected.depth2 folded.depth2
cp_check "CALLPATH_DEPTH=2 is in the header" test "$(cp_header gmon.out.callpath depth)" = 2

CALLPATH_DEPTH=1 LD_PRELOAD="$CP_SO" ./acc
cp_folded ./acc gmon.out.callpath | awk '{ s += $2 } END { print s }' > total.depth1
cp_check "CALLPATH_DEPTH=1 still counts every call (39)" test "$(cat total.depth1)" = 39

# manypaths 8: 2^9 - 1 nodes of p plus main; 9 * 256 calls of p plus main
# (a recursion: full paths, as CALLPATH_RECURSION=full keeps them)
CALLPATH_RECURSION=full CALLPATH_MAX_NODES=16 LD_PRELOAD="$CP_SO" ./many 8
nodes=$(cp_call_nodes gmon.out.callpath)
calls=$(cp_header gmon.out.callpath calls)
dropped=$(cp_header gmon.out.callpath dropped-node-limit)
cp_check "CALLPATH_MAX_NODES=16 bounds the tree ($nodes nodes)" test "$nodes" -eq 16
cp_check "recorded + dropped = every call ($calls + $dropped = 2305)" \
	test $((calls + dropped)) -eq 2305

CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ./many 8
cp_check "unbounded: all 512 nodes" test "$(cp_call_nodes gmon.out.callpath)" -eq 512

CALLPATH_MAX_NODES=oops LD_PRELOAD="$CP_SO" ./acc 2> warn.txt
cp_check "a bad CALLPATH_MAX_NODES is reported and ignored" \
	grep -q "callpath: ignoring CALLPATH_MAX_NODES='oops'" warn.txt

SLURM_PROCID=5 LD_PRELOAD="$CP_SO" ./acc
cp_check "SLURM_PROCID is the rank" test "$(cp_header gmon.out.callpath rank)" = 5
OMPI_COMM_WORLD_RANK=3 SLURM_PROCID=5 LD_PRELOAD="$CP_SO" ./acc
cp_check "OMPI_COMM_WORLD_RANK comes first" test "$(cp_header gmon.out.callpath rank)" = 3
LD_PRELOAD="$CP_SO" ./acc
cp_check "no rank: -1" test "$(cp_header gmon.out.callpath rank)" = -1
cp_done
