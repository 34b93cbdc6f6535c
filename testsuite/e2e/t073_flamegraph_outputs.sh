#!/usr/bin/env bash
# --flamegraph FILE follows the rules of every output (utils/outfile.h):
# a bad path is refused before anything is read or printed (a sidecar made
# unreadable as a sidecar shows that the analysis never ran), naming the
# path and the option; an input is never overwritten; a failing command
# leaves an existing file as it was; a device is written in place, never
# replaced; "-" is standard output after gprof's text.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
cd v/base || exit 1
cp gmon.out.callpath good.callpath
cp gmon.out gmon.keep

# the sidecar is garbage: reading it would fail with its own message
head -c 64 /dev/urandom >gmon.out.callpath
"$EGPROF" -b views gmon.out --flamegraph no/such/dir/f.svg >out.txt 2>err.txt
rc=$?
check "a folder that does not exist: exit 1, nothing on stdout" \
	bash -c "[ $rc = 1 ] && [ ! -s out.txt ]"
check "the message names the path and --flamegraph, not the sidecar" \
	bash -c "grep -q \"no/such/dir/f.svg: cannot write (--flamegraph)\" err.txt && ! grep -q callpath err.txt"
"$EGPROF" -b views gmon.out --flamegraph gmon.out >out.txt 2>err.txt
rc=$?
check "an input named as the output: refused, the input unchanged" \
	bash -c "[ $rc = 1 ] && cmp -s gmon.out gmon.keep && grep -q \"refusing to write 'gmon.out' (--flamegraph)\" err.txt"
mkdir -p adir
"$EGPROF" -b views gmon.out --flamegraph adir >out.txt 2>err.txt
rc=$?
check "a folder as the output: exit 1, a message naming it" \
	bash -c "[ $rc = 1 ] && [ -d adir ] && grep -q adir err.txt"
cp good.callpath gmon.out.callpath

# a command that fails after the plan leaves the existing file as it was
echo "old" >f.svg
"$EGPROF" -b views gmon.out --focus no_such_function --flamegraph f.svg >/dev/null 2>err.txt
rc=$?
check "a failing command: exit 1, the existing file untouched" \
	bash -c "[ $rc != 0 ] && [ \"\$(cat f.svg)\" = old ]"
"$EGPROF" -b views gmon.out --flamegraph f.svg >/dev/null 2>&1 && xmllint --noout f.svg
check "then written: a regular file replaced by the SVG" [ $? = 0 ]

"$EGPROF" -b views gmon.out --flamegraph /dev/null >/dev/null 2>err.txt
check "/dev/null: written in place, still a device" bash -c "[ \$? = 0 ] && [ -c /dev/null ]"
"$EGPROF" -b -p views gmon.out --flamegraph - >both.txt 2>err.txt
check "'-': the SVG on stdout after gprof's text" \
	bash -c "'$EGPROF' -b -p views gmon.out >flat.txt && head -c \$(stat -c %s flat.txt) both.txt | cmp -s - flat.txt && tail -c +\$((\$(stat -c %s flat.txt) + 1)) both.txt | xmllint --noout -"
done_testing
