#!/usr/bin/env bash
# Issue 12 item 6: an input that is not a regular file (/dev/zero never
# ends, a FIFO may never get a writer, a directory) is refused at once by
# every reader of ours: sidecars, --callpath=FILE, cpdump (its files and
# -s NMFILE) and egprof-sum.  Each run is bounded (timeout, address space)
# so a reader that does not refuse fails the test instead of the machine.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
out_sidecars
mkfifo fifo
mkdir adir

# An address-space limit (not under AddressSanitizer, which reserves
# terabytes of shadow memory up front).
limit=4000000
ldd "$EGPROF" 2>/dev/null | grep -q libasan && limit=unlimited

# refused NAME TEXT PROG ARGS...: exit 1 within 20 s, TEXT on stderr
refused() {
	local name=$1 text=$2
	shift 2
	( ulimit -v $limit; timeout 20 "$@" ) >out.txt 2>err.txt </dev/null; rc=$?
	check "$name: exit 1" [ $rc = 1 ]
	check "$name: says why" has_err err.txt "$text"
}

refused "--callpath=/dev/zero" "/dev/zero: not a regular file (a character device)" \
	"$EGPROF" -b app gmon.out --callpath=/dev/zero
refused "--callpath=FIFO" "fifo: not a regular file (a FIFO or pipe)" \
	"$EGPROF" -b app gmon.out --callpath=fifo
refused "--folded with --callpath=DIR" "adir: not a regular file (a directory)" \
	"$EGPROF" -b app gmon.out --callpath=adir --folded f.folded
mv gmon.out.callpath real.callpath
ln -s /dev/zero gmon.out.callpath
refused "a sidecar linked to /dev/zero" "gmon.out.callpath: not a regular file" \
	"$EGPROF" -b app gmon.out --callpath
refused "gprof -s with a sidecar linked to /dev/zero" "gmon.out.callpath: not a regular file" \
	"$EGPROF" -s app gmon.out gmon.2
check "... and no gmon.sum written" [ ! -e gmon.sum ]
refused "--diff --callpath with a sidecar linked to /dev/zero" "not a regular file" \
	"$EGPROF" --diff --callpath app gmon.out gmon.2
rm gmon.out.callpath
mv real.callpath gmon.out.callpath
refused "cpdump /dev/zero" "cpdump: /dev/zero: not a regular file" "$CPDUMP" /dev/zero
refused "cpdump FIFO" "cpdump: fifo: not a regular file" "$CPDUMP" fifo
refused "cpdump -s /dev/zero" "cpdump: /dev/zero: not a regular file" \
	"$CPDUMP" -s /dev/zero gmon.out.callpath
if [ -x "$EGSUM" ]; then
	refused "egprof-sum /dev/zero" "/dev/zero: not a regular file" \
		"$EGSUM" -o s.sum gmon.out /dev/zero
	refused "egprof-sum FIFO" "fifo: not a regular file" "$EGSUM" -o s.sum gmon.out fifo
	check "... and no sum written" [ ! -e s.sum ]
fi
# still read: a regular file through a symlink
ln -s gmon.out.callpath link.callpath
"$EGPROF" -b app gmon.out --callpath=link.callpath >out.txt 2>err.txt; rc=$?
check "--callpath=symlink to a regular sidecar: exit 0" [ $rc = 0 -a ! -s err.txt ]
done_testing
