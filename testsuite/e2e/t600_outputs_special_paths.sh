#!/usr/bin/env bash
# Issue 12 item 1: an output path that is not a regular file is written in
# place, never renamed over: device nodes, FIFOs, /dev/fd/N (process
# substitution), a link to /proc/self/fd/1; "-" is standard output; a
# symlink to a regular file is written through (the link stays).  Device
# nodes are private copies made with mknod, so nothing of the system's is
# at stake even with a broken build.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
out_sidecars

"$EGPROF" -b app gmon.out --dot ref.dot --folded ref.folded >/dev/null 2>ref.err
check "reference exports are written" [ -s ref.dot -a -s ref.folded ]

# "-" is standard output, after gprof's own text
"$EGPROF" -b app gmon.out --dot - >dash.out 2>dash.err; rc=$?
check "--dot -: exit 0" [ $rc = 0 ]
check "--dot -: no file named '-'" [ ! -e ./- ]
check "--dot -: gprof's text, then the graph on standard output" \
	bash -c 'head -1 dash.out | grep -q "^Flat profile:" && sed -n "/^digraph/,\$p" dash.out >dash.dot && cmp -s dash.dot ref.dot'
check "dot reads the graph written to standard output" \
	bash -c 'dot -Tsvg dash.dot >/dev/null 2>dot.err && [ ! -s dot.err ]'

# a private symlink to /proc/self/fd/1, as /dev/stdout is
ln -s /proc/self/fd/1 mystdout
"$EGPROF" -b app gmon.out --folded mystdout >stdout.out 2>stdout.err; rc=$?
check "--folded to a link to /proc/self/fd/1: exit 0" [ $rc = 0 ]
check "the link is still a symlink" [ -L mystdout ]
check "the folded stacks went to standard output" \
	bash -c 'grep "^main" stdout.out >got.folded; grep "^main" ref.folded >want.folded;
		 cmp -s got.folded want.folded'

# process substitution: /dev/fd/63 and the like
"$EGPROF" -b app gmon.out --folded >(cat >sub.folded) --dot >(cat >sub.dot) >/dev/null 2>sub.err; rc=$?
sleep 1
check "process substitution: exit 0, nothing on stderr" [ $rc = 0 -a ! -s sub.err ]
check "process substitution: the readers got both files" \
	bash -c 'cmp -s sub.folded ref.folded && cmp -s sub.dot ref.dot'

# a FIFO
mkfifo fifo
timeout 20 cat fifo >fifo.got &
reader=$!
timeout 20 "$EGPROF" -b app gmon.out --dot fifo >/dev/null 2>fifo.err; rc=$?
wait $reader
check "FIFO: exit 0" [ $rc = 0 ]
check "FIFO: still a FIFO" [ -p fifo ]
check "FIFO: the reader got the graph" cmp -s fifo.got ref.dot

# a symlink to a regular file: the target is rewritten, the link stays
echo old >target.dot
chmod 640 target.dot
ln -s target.dot link.dot
"$EGPROF" -b app gmon.out --dot link.dot >/dev/null 2>link.err; rc=$?
check "symlink to a regular file: exit 0" [ $rc = 0 ]
check "symlink to a regular file: the link is still a link to it" \
	[ -L link.dot -a "$(readlink link.dot)" = target.dot ]
check "symlink to a regular file: the target has the graph" cmp -s target.dot ref.dot
check "a replaced file keeps its permissions" [ "$(stat -c %a target.dot)" = 640 ]

if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null && mknod full c 1 7; then
	"$EGPROF" -b app gmon.out --gml null --graphml null2 --dot null >/dev/null 2>null.err
	rc=$?
	check "device node (null): exit 0" [ $rc = 0 ]
	check "device node: still a character device" [ -c null ]
	ln -s null devlink
	"$EGPROF" -b app gmon.out --folded devlink >/dev/null 2>devlink.err; rc=$?
	check "symlink to a device: exit 0, link and device kept" [ $rc = 0 -a -L devlink -a -c null ]
	"$EGPROF" -b app gmon.out --gml full >/dev/null 2>full.err; rc=$?
	check "device node (full): exit 1" [ $rc = 1 ]
	check "device node (full): the error names it" has_err full.err "full: cannot write: No space left on device"
	check "device node (full): still a character device" [ -c full ]
	if [ -x "$EGSUM" ]; then
		"$EGSUM" -o null gmon.out gmon.2 >egsum.out 2>egsum.err; rc=$?
		check "egprof-sum -o device: exit 0, still a device" [ $rc = 0 -a -c null ]
	fi
else
	ok "# SKIP device nodes need root (mknod)"
fi
check "no temporary files left" no_temps
done_testing
