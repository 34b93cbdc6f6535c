#!/usr/bin/env bash
# fork: the child writes its own sidecar (named after its own gmon file),
# holding what it inherited plus its own calls, as gmon.out does.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc fork fork.c -O1 || exit 1
cd "$WORKDIR" || exit 1
mkdir -p out
GMON_OUT_PREFIX="$WORKDIR/out/g" LD_PRELOAD="$CP_SO" ./fork
n=$(ls out/*.callpath 2>/dev/null | wc -l)
cp_check "two sidecars, one per process" test "$n" -eq 2
child="" parent=""
for f in out/*.callpath; do
	if [ "$(cp_header "$f" ppid)" = 0 ]; then parent=$f; else child=$f; fi
done
cp_check "the child's header names its parent" \
	test -n "$child" -a "$(cp_header "${child:-/dev/null}" ppid)" = "$(cp_header "${parent:-/dev/null}" pid)"
cp_folded ./fork "$parent" > folded.parent
cp_folded ./fork "$child" > folded.child
printf 'main 1\nmain;before 1\nmain;parent_work 5\n' > expected.parent
printf 'main 1\nmain;before 1\nmain;child_work 3\n' > expected.child
cp_same "parent: its own paths" expected.parent folded.parent
cp_same "child: inherited paths and its own" expected.child folded.child
cp_check "each sidecar is beside its gmon file" \
	test -f "${parent%.callpath}" -a -f "${child%.callpath}"
cp_done
