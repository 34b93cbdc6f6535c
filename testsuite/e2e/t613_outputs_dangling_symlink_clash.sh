#!/usr/bin/env bash
# Two outputs to one file through a dangling symlink (issue 28 item 5):
# `--dot out --gml link` with link -> out, out not written yet, exited 0
# and one of the graphs was lost (both were renamed onto out).  The clash
# check follows a dangling symlink to the file it would create: refused
# before anything is written, naming both; different files stay allowed.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
mkdir d
ln -s out.dot link
ln -s link link2
ln -s ../out.dot d/up

# refused NAME MESSAGE ARGS...: exit 1, MESSAGE on stderr, nothing written
refused() {
	local name=$1 msg=$2
	shift 2
	"$EGPROF" "$@" > out.txt 2> err.txt; rc=$?
	check "$name: exit 1 (got $rc)" [ $rc = 1 ]
	check "$name: says why" has_err err.txt "$msg"
	check "$name: nothing written" test ! -e out.dot
	check "$name: the links are as they were" \
		bash -c '[ "$(readlink link)" = out.dot ] && [ "$(readlink link2)" = link ]'
	check "$name: no temporary left" no_temps
}
refused "--dot out.dot --gml link" \
	"refusing to write 'out.dot' (--dot): --gml writes 'link', the same file" \
	-b app gmon.out --dot out.dot --gml link
refused "--gml link2 --graphml out.dot (two hops)" \
	"--gml writes 'link2', the same file" -b app gmon.out --gml link2 --graphml out.dot
refused "--dot d/up --gml out.dot (a link into another folder)" \
	"--gml writes 'out.dot', the same file" -b app gmon.out --gml out.dot --dot d/up
refused "--dot link --gml \$PWD/out.dot (absolute)" \
	"the same file" -b app gmon.out --dot link --gml "$PWD/out.dot"

"$EGPROF" -b app gmon.out --dot link --gml other.gml > /dev/null 2>&1; rc=$?
check "--dot link --gml other.gml: allowed (exit $rc)" [ $rc = 0 ]
check "... the DOT went through the link to out.dot" bash -c 'test -L link && grep -q digraph out.dot'
check "... and the GML to other.gml" grep -q graph other.gml
done_testing
