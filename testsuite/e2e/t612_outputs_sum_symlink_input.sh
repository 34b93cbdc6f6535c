#!/usr/bin/env bash
# gprof -s through a symlink or a hard link (issue 28 item 4): when
# gmon.sum is a link to one of the gmon files being summed, upstream's -s
# replaced that input with the sum and exited 0.  It is refused now, naming
# both, in plain mode (upstream writing gmon.sum itself) and with our
# options (gmon.sum staged), with every file as it was; summing into
# gmon.sum by its own name (`gprof -s app g2 gmon.sum`, gmon.sum a link)
# stays allowed and gives stock gprof's sum.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
cp gmon.out g1 && cp gmon.2 g2 && cp g1 g1.orig && cp g2 g2.orig
mkdir sub

# refused NAME MESSAGE ARGS...: exit 1, MESSAGE on stderr, files as they were
refused() {
	local name=$1 msg=$2
	shift 2
	snap g1 g2 gmon.sum x.dot
	"$EGPROF" "$@" > out.txt 2> err.txt; rc=$?
	check "$name: exit 1 (got $rc)" [ $rc = 1 ]
	check "$name: says why" has_err err.txt "$msg"
	check "$name: every file as it was" unchanged g1 g2 gmon.sum x.dot
	check "$name: g1 holds its profile" cmp -s g1 g1.orig
}
ln -s g1 gmon.sum
msg="refusing to write 'gmon.sum' (-s): it is 'g1', an input of this command"
refused "plain -s, gmon.sum -> g1" "$msg" -s app g1 g2
refused "-s --dot, gmon.sum -> g1" "$msg" -s --dot x.dot app g1 g2
refused "plain -s, gmon.sum -> g1 also named" "$msg" -s app gmon.sum g1
rm gmon.sum && ln -s sub/../g2 gmon.sum
refused "plain -s, gmon.sum -> sub/../g2" \
	"refusing to write 'gmon.sum' (-s): it is 'g2', an input of this command" -s app g1 g2
rm gmon.sum && ln g1 gmon.sum
refused "plain -s, gmon.sum a hard link of g1" "$msg" -s app g1 g2

# by its own name, the link is the sum's: as stock gprof
rm gmon.sum && ln -s g1 gmon.sum
"$EGPROF" -s app g2 gmon.sum; rc=$?
check "-s app g2 gmon.sum (gmon.sum -> g1): allowed (exit $rc)" [ $rc = 0 ]
check "... gmon.sum is still the link" test -L gmon.sum
cp g1 ours.sum
cp g1.orig g1
"$SYSGPROF" -s app g2 gmon.sum
check "... the sum is stock gprof's (bytes 8-19 aside)" \
	bash -c "cmp -s <(head -c 8 ours.sum; tail -c +21 ours.sum) <(head -c 8 g1; tail -c +21 g1)"
done_testing
