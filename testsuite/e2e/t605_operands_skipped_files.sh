#!/usr/bin/env bash
# Issue 12 item 11: a directory operand names every file it skips and why;
# a file that starts like a gmon file but ends before its header does (a
# rank that died writing it) is an error naming it, not a dropped rank.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
mkdir d d/sub
cp gmon.out d/gmon.1
cp gmon.2 d/gmon.2
echo "notes" >d/README
: >d/empty
cp gmon.out d/gmon.sum
cp gmon.out d/gmon.3.tmp.123
cp gmon.out d/.hidden
echo x >d/gmon.9.callpath
ln -s /dev/zero d/zero

"$EGPROF" --rank-stats app d >rs.out 2>rs.err; rc=$?
check "--rank-stats DIR: exit 0" [ $rc = 0 ]
check "two ranks read" grep -q "2 gmon files" rs.out
check "names README: not a gmon file" has_err rs.err "skipping 'd/README': it is not a gmon file"
check "names the empty file" has_err rs.err "skipping 'd/empty': it is empty"
check "names the sub-directory" has_err rs.err "skipping 'd/sub': it is not a regular file"
check "names the link to a device" has_err rs.err "skipping 'd/zero': it is not a regular file"
check "names the sum" has_err rs.err "skipping 'd/gmon.sum': a sum"
check "names the temporary file" has_err rs.err "skipping 'd/gmon.3.tmp.123': a temporary file"
check "names the hidden file" has_err rs.err "skipping 'd/.hidden': a hidden file"
check "names a sidecar without its gmon file" \
	has_err rs.err "skipping 'd/gmon.9.callpath': a call-path sidecar without its gmon file"
check "says nothing of the members it reads" bash -c '! grep -q "gmon\.[12]\b" rs.err'

head -c 3 gmon.out >d/gmon.3
"$EGPROF" --rank-stats app d >rs3.out 2>rs3.err; rc=$?
check "a 3-byte rank file: exit 1" [ $rc = 1 ]
check "a 3-byte rank file: named as truncated" \
	has_err rs3.err "d/gmon.3: truncated gmon file (3 bytes"
"$EGPROF" --diff app d gmon.out >diff3.out 2>diff3.err; rc=$?
check "--diff with the same directory: exit 1, names it" \
	bash -c "[ $rc = 1 ] && grep -qF \"d/gmon.3: truncated gmon file\" diff3.err"
head -c 12 gmon.out >d/gmon.3
"$EGPROF" --rank-stats app d >rs12.out 2>rs12.err; rc=$?
check "a 12-byte rank file with the magic: exit 1, named" \
	bash -c "[ $rc = 1 ] && grep -qF \"d/gmon.3: truncated gmon file (12 bytes\" rs12.err"
done_testing
