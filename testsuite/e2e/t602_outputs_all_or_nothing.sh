#!/usr/bin/env bash
# Issue 12 item 3: a command that fails leaves every output as it was:
# gprof -s with a bad sidecar does not rewrite gmon.sum; --gml with a
# failing --dot (or a failing --folded) leaves no GML file.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
out_sidecars
"$EGPROF" -s app gmon.out gmon.2 || { echo "Bail out! gprof -s failed"; exit 1; }
cp gmon.sum good.sum
cp gmon.sum.callpath good.sum.callpath
mv gmon.2.callpath good.2.callpath
echo "not a sidecar" >gmon.2.callpath

# failed NAME ARGS...: exit 1 and gmon.sum, gmon.sum.callpath, g.gml as they were
failed() {
	local name=$1
	shift
	snap gmon.sum gmon.sum.callpath g.gml
	"$EGPROF" "$@" >out.txt 2>err.txt; rc=$?
	check "$name: exit 1" [ $rc = 1 ]
	check "$name: every output as it was" unchanged gmon.sum gmon.sum.callpath g.gml
}

failed "gprof -s with a bad sidecar" -s app gmon.out gmon.2 gmon.sum
check "... and the error names the sidecar" has_err err.txt "gmon.2.callpath: bad magic"
failed "gprof -s --dot with a bad sidecar" -s -b app gmon.out gmon.2 --gml g.gml
mv good.2.callpath gmon.2.callpath

# outputs planned, then one fails: nothing is written
mkfifo never
failed "--gml and a --dot into a missing folder" -b app gmon.out --gml g.gml --dot nodir/x.dot
check "... the error names the --dot file" has_err err.txt "nodir/x.dot: cannot write"
rm gmon.out.callpath.keep 2>/dev/null
mv gmon.out.callpath gmon.out.callpath.keep
failed "--gml and a --folded without sidecar" -b app gmon.out --gml g.gml --folded f.folded
check "... no folded file either" [ ! -e f.folded ]
mv gmon.out.callpath.keep gmon.out.callpath
echo old >g.gml
failed "an existing --gml and a --folded without sidecar (--callpath=missing)" \
	-b app gmon.out --gml g.gml --callpath=missing --folded f.folded

if [ "$(id -u)" = 0 ] && mknod full c 1 7; then
	rm -f g.gml
	failed "--gml and a --dot on a full device" -b app gmon.out --gml g.gml --dot full
	check "... the error names the device" has_err err.txt "full: cannot write: No space left on device"
	failed "-s --graphml on a full device: gmon.sum staged, not written" \
		-s -b app gmon.out gmon.2 --graphml full
	check "full is still a device" [ -c full ]
else
	ok "# SKIP device nodes need root (mknod)"
fi

# and when all is well, everything is written, gmon.sum as upstream writes it
rm -f gmon.sum gmon.sum.callpath
"$EGPROF" -s -b app gmon.out gmon.2 --gml g.gml --folded f.folded >/dev/null 2>ok.err; rc=$?
check "-s with exports: exit 0, all outputs written" \
	[ $rc = 0 -a -s g.gml -a -s f.folded -a -s gmon.sum -a -s gmon.sum.callpath ]
"$SYSGPROF" -s app gmon.out gmon.2 -b >/dev/null && mv gmon.sum sys.sum 2>/dev/null
"$EGPROF" -s -b app gmon.out gmon.2 --gml g.gml >/dev/null
zero_spare() { head -c 8 "$1"; head -c 12 /dev/zero; tail -c +21 "$1"; }
check "staged gmon.sum is byte for byte upstream's" \
	bash -c "$(declare -f zero_spare); cmp -s <(zero_spare gmon.sum) <(zero_spare sys.sum)"
# gmon.sum.callpath is an output like the others: a symlink is written through
rm -f gmon.sum.callpath && : >kept.callpath && ln -s kept.callpath gmon.sum.callpath
"$EGPROF" -s -b app gmon.out gmon.2 --gml g.gml >/dev/null 2>link.err; rc=$?
check "-s with gmon.sum.callpath a symlink: exit 0, the link stays, its target has the sum" \
	bash -c "[ $rc = 0 ] && [ -L gmon.sum.callpath ] && [ -s kept.callpath ]"
check "no temporary files left" no_temps
done_testing
