#!/usr/bin/env bash
# Issue 12 item 2: an output that names an input (the executable, a gmon
# file, a sidecar, a directory member; by the same path, another spelling,
# a symlink or a hard link) or another output is refused before anything
# is written: exit 1, a message naming both, every file as it was.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
out_sidecars
mkdir d && cp gmon.out d/gmon.1 && cp gmon.2 d/gmon.2
ln -s app app.link
ln gmon.out hard.out
ALL="app gmon.out gmon.2 gmon.out.callpath gmon.2.callpath d/gmon.1 d/gmon.2"

# refused CASE-NAME MESSAGE ARGS...: exit 1, MESSAGE on stderr, inputs unchanged
refused() {
	local name=$1 msg=$2
	shift 2
	snap $ALL x.dot x.gml
	"$EGPROF" "$@" >out.txt 2>err.txt; rc=$?
	check "$name: exit 1" [ $rc = 1 ]
	check "$name: says why" has_err err.txt "$msg"
	check "$name: every file as it was" unchanged $ALL x.dot x.gml
}

refused "--dot the executable" \
	"refusing to write 'app' (--dot): it is 'app', an input" -b app gmon.out --dot app
refused "--gml the gmon file" \
	"refusing to write 'gmon.out' (--gml)" -b app gmon.out --gml gmon.out
refused "--graphml the gmon file spelt ./gmon.out" \
	"refusing to write './gmon.out' (--graphml)" -b app gmon.out --graphml ./gmon.out
refused "--folded the sidecar" \
	"refusing to write 'gmon.out.callpath' (--folded)" -b app gmon.out --folded gmon.out.callpath
refused "--dot a symlink to the executable" \
	"refusing to write 'app.link' (--dot): it is 'app'" -b app gmon.out --dot app.link
refused "--gml a hard link to the gmon file" \
	"refusing to write 'hard.out' (--gml): it is 'gmon.out'" -b app gmon.out --gml hard.out
refused "--dot the default gmon.out (no operands)" \
	"refusing to write 'gmon.out' (--dot)" -b --dot gmon.out
refused "--folded the --callpath=FILE input" \
	"refusing to write 'gmon.2.callpath' (--folded)" -b app gmon.out --callpath=gmon.2.callpath --folded gmon.2.callpath
refused "--diff: --dot the second gmon file" \
	"refusing to write 'gmon.2' (--dot)" --diff app gmon.out gmon.2 --dot gmon.2
refused "--diff: --gml the second executable" \
	"refusing to write 'app.link' (--gml): it is 'app'" --diff app gmon.out app.link gmon.2 --gml app.link
refused "--diff: --graphml a member of a directory operand" \
	"refusing to write 'd/gmon.2' (--graphml)" --diff app d gmon.out --graphml d/gmon.2
refused "two outputs, one file" \
	"refusing to write 'x.dot' (--dot): --gml writes 'x.dot', the same file" \
	-b app gmon.out --gml x.dot --dot x.dot
refused "two outputs, one file by two spellings (not there yet)" \
	"refusing to write './new.dot' (--graphml): --dot writes 'new.dot'" \
	-b app gmon.out --dot new.dot --graphml ./new.dot
check "... and it was not created" [ ! -e new.dot ]
refused "-s and --dot gmon.sum" \
	"refusing to write 'gmon.sum' (-s): --dot writes 'gmon.sum'" -s -b app gmon.out --dot gmon.sum
check "... and no gmon.sum was written" [ ! -e gmon.sum ]

# gprof -s reading the gmon.sum it rewrites is how -s is used: allowed
"$SYSGPROF" -s app gmon.out gmon.2 && mv gmon.sum sys.sum && "$SYSGPROF" -s app gmon.out sys.sum &&
	mv gmon.sum sys2.sum
"$EGPROF" -s app gmon.out gmon.2 && "$EGPROF" -s -b app gmon.out gmon.sum --dot s.dot >/dev/null 2>s.err; rc=$?
check "-s may read the gmon.sum it rewrites (with an export): exit 0" [ $rc = 0 ]
zero_spare() { head -c 8 "$1"; head -c 12 /dev/zero; tail -c +21 "$1"; }
check "... and gmon.sum is what /usr/bin/gprof -s writes" \
	bash -c "cmp -s <($(declare -f zero_spare); zero_spare gmon.sum) <($(declare -f zero_spare); zero_spare sys2.sum)"

if [ -x "$EGSUM" ]; then
	EGPROF_SAVE=$EGPROF
	EGPROF=$EGSUM
	refused "egprof-sum -o an input" "refusing to write 'gmon.2' (-o)" -o gmon.2 gmon.out gmon.2
	refused "egprof-sum -o a directory member" "refusing to write 'd/gmon.1' (-o)" -o d/gmon.1 d
	EGPROF=$EGPROF_SAVE
fi
check "no temporary files left" no_temps
done_testing
