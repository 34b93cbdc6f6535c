#!/usr/bin/env bash
# Issue 21 item 9: the runtime treats the sidecar's path as glibc treats
# gmon.out: a symbolic link there is refused (glibc opens gmon.out with
# O_NOFOLLOW), left as it is, its target untouched, and the refusal said
# on stderr; a FIFO is written into (a reader gets the sidecar's bytes)
# and stays a FIFO.  Before, both were replaced by a regular file.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1

mkdir link && cd link || exit 1
ln -s ../elsewhere gmon.out.callpath
LD_PRELOAD="$CP_SO" ../acc > /dev/null 2> err
rc=$?
cp_check "a symlink: the program's exit status is its own ($rc)" test "$rc" = 0
cp_check "a symlink: left as it was, nothing written behind it" \
	test -L gmon.out.callpath -a "$(readlink gmon.out.callpath)" = ../elsewhere -a ! -e ../elsewhere
cp_check "a symlink: the runtime says why it wrote nothing" \
	grep -q "callpath: gmon.out.callpath: not written: it is a symbolic link" err
cp_check "gmon.out is not written through a symlink either (glibc)" \
	bash -c "ln -s ../elsewhere2 gmon.out && ../acc > /dev/null 2>&1; test ! -e ../elsewhere2"
cd .. || exit 1

mkdir fifo && cd fifo || exit 1
mkfifo gmon.out.callpath
timeout 20 cat gmon.out.callpath > ../read.callpath &
reader=$!
LD_PRELOAD="$CP_SO" timeout 20 ../acc > /dev/null 2> err
rc=$?
wait $reader
cp_check "a FIFO: the program's exit status is its own ($rc), nothing said" \
	test "$rc" = 0 -a ! -s err
cp_check "a FIFO: still a FIFO" test -p gmon.out.callpath
cp_folded ../acc ../read.callpath > folded
cp_acceptance_expected > expected
cp_same "a FIFO: its reader got the sidecar" expected folded
cp_check "a FIFO: what it got names gmon.out's hash" \
	test "$(cp_header ../read.callpath gmon-hash)" = "$(cp_hash gmon.out)"
cd .. || exit 1
cp_done
