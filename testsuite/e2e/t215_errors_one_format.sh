#!/usr/bin/env bash
# Error messages in one format, gprof's (issue 13 item 11): a message about
# a file is "PROG: FILE: reason", PROG being argv[0] as upstream prints it.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

sh "$FIG1/fig1.sh" . >build.log 2>&1 || { echo "Bail out! fig1.sh failed"; exit 1; }
mkdir -p empty
printf 'not a gmon file\n' > junk.gmon

# expect NAME REGEX ARGS...: exit 1 and one stderr line matching ^gprof: REGEX
expect() {
	local name=$1 re=$2; shift 2
	(exec -a gprof "$EGPROF" "$@") >out.txt 2>err.txt; local rc=$?
	check "$name: exit 1" [ $rc = 1 ]
	check "$name: 'gprof: FILE: reason'" grep -Eq "^gprof: $re" err.txt || sed 's/^/# /' err.txt
}

expect "missing gmon in a diff" "nosuch\.gmon: No such file or directory$" \
	--diff demo fig1-a.gmon nosuch.gmon
expect "missing binary in a diff" "nosuchbin: No such file or directory$" \
	--diff nosuchbin fig1-a.gmon demo fig1-b.gmon
expect "not a gmon file" "junk\.gmon: too short to be a gmon file|junk\.gmon: not a gmon file" \
	--diff demo fig1-a.gmon junk.gmon
expect "directory without gmon files" "empty: no gmon files in this directory$" \
	--diff demo empty fig1-b.gmon
expect "unwritable GML" "nodir/x\.gml: cannot write \(--gml\): no folder 'nodir' \(create it first, or name another\)$" \
	-b demo fig1-a.gmon --gml nodir/x.gml
expect "unwritable SVG" "nodir/x\.svg: cannot write \(--svg\): no folder 'nodir' \(create it first, or name another\)$" \
	-b demo fig1-a.gmon --svg nodir/x.svg
expect "missing sidecar" "fig1-a\.gmon\.callpath: No such file or directory" \
	-b --callpath demo fig1-a.gmon
expect "missing rank file" "nosuch\.gmon: No such file or directory$" \
	--rank-stats demo fig1-a.gmon nosuch.gmon

# The same form as upstream's own message for the same file, plus PROG.
(exec -a gprof "$SYSGPROF" demo nosuch.gmon) >/dev/null 2>sys.err
(exec -a gprof "$EGPROF" --diff demo fig1-a.gmon nosuch.gmon) >/dev/null 2>ours.err
check "upstream's 'FILE: reason' after 'gprof: '" \
	bash -c 'grep -qxF "gprof: $(head -n 1 sys.err)" ours.err'
done_testing
