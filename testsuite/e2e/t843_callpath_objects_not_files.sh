#!/usr/bin/env bash
# A sidecar names the objects its samples ran in (shared libraries), and
# the reader opens them to name those program counters: one whose path was
# a FIFO (or became one) made every call-path output wait for a writer for
# ever.  The objects' files are read only when they are regular files (the
# one input module, utils/infile.h); a library that cannot be read leaves
# its samples unnamed, as a library that is gone does.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > spin.c <<'C'
#include <stdlib.h>
#include <string.h>
static char buf[1 << 20];
volatile int sink;
__attribute__((noinline)) void fill(int n)
{
	for (int i = 0; i < n; i++) {
		memset(buf, i, sizeof(buf));
		sink += buf[i % sizeof(buf)];
	}
}
int main(int argc, char **argv) { fill(argc > 1 ? atoi(argv[1]) : 3000); return 0; }
C
gcc -pg -O1 -o spin spin.c || exit 1
LD_PRELOAD="$CP_SO" ./spin 3000 || exit 1
libc=$("$CP_DUMP" -H gmon.out.callpath | awk '$1 == "object" && /libc\.so/ { print $NF; exit }')
cp_check "the sidecar lists the C library ($libc)" test -n "$libc"
# the same path length: a FIFO in a short folder, named as long
short=$(mktemp -d /tmp/t843.XXXXXX) || exit 1
trap 'rm -rf "$short"' EXIT
fifo=$short/f
while [ ${#fifo} -lt ${#libc} ]; do fifo=${fifo}x; done
cp_check "a FIFO's path as long as the library's" test ${#fifo} -eq ${#libc}
mkfifo "$fifo" || exit 1
mkdir -p bad && cp gmon.out bad/
python3 - gmon.out.callpath bad/gmon.out.callpath "$libc" "$fifo" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
old, new = sys.argv[3].encode(), sys.argv[4].encode()
assert b.count(old) == 1 and len(old) == len(new)
open(sys.argv[2], 'wb').write(b.replace(old, new))
PY
"$EGPROF" -b --callpath ./spin gmon.out > good.txt 2>&1
for out in "--callpath" "--folded f.folded" "--pprof p.pb.gz" "--html p.html"; do
	# shellcheck disable=SC2086 # the option and its file
	(cd bad && timeout 20 "$EGPROF" -b $out ../spin gmon.out > out.txt 2> err.txt)
	rc=$?
	cp_check "$out with a FIFO as the library: done (exit $rc, 124 is a hang)" test $rc -eq 0
done
cp_check "the C library's samples are named from the real file" \
	grep -qE 'memset|__memset' good.txt
cp_done
