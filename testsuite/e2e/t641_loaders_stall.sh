#!/usr/bin/env bash
# A live but stuck loader (issue 12 item 5, gprof-ext/loader_watch.h): a
# gmon file or binary that is a FIFO nobody writes passes the checks and
# the loader blocks opening it, alive, using no CPU.  With
# EGPROF_LOADER_STALL=2 it must be reported within seconds, naming the
# file and the process state, ended (workers too), exit 1, every output as
# it was.  A slow loader (reading a little at a time, slower than the
# stall time, or computing in silence) must not be taken for a stuck one.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1

cat > app.c <<'EOC'
#include <stdlib.h>
__attribute__((noinline)) int f(int n)
{ volatile int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int main(int argc, char **argv)
{ long t = 0; for (int i = 0; i < atoi(argv[1]); i++) t += f(20000); return t == 1; }
EOC
cc -pg -O1 -no-pie -o app app.c && ./app 3000 && mv gmon.out g1 && ./app 2000 && mv gmon.out g2 ||
	{ echo "not ok 1 - build and run app.c"; echo "1..1"; exit 1; }
mkfifo g.fifo app.fifo
export EGPROF_LOADER_STALL=2

# no_reader FIFO: nobody has it open for reading any more (the loader and
# its workers are gone): a non-blocking open for writing fails with ENXIO
no_reader() {
	python3 -c 'import os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
except OSError:
    sys.exit(0)
sys.exit(1)' "$1"
}

echo "an older graph" > out.dot
cp out.dot out.dot.orig
start=$SECONDS
timeout 60 "$EGPROF" --diff --dot out.dot app g1 app g.fifo > diff.out 2> diff.err
rc=$?
check "--diff with a gmon FIFO: exit 1, not a hang (exit $rc, 124 is a hang)" test $rc -eq 1
check "... within 2 s of stall and a few of checking ($((SECONDS - start)) s)" \
	test $((SECONDS - start)) -le 15
check "... names the file and says it made no progress for 2 s" \
	grep -q "loader made no progress for 2 s .* while reading 'g.fifo'" diff.err
check "... and the loader's state" grep -q "(loader [0-9]* sleeping" diff.err
check "... the output is as it was" cmp -s out.dot out.dot.orig
check "... the loader is gone" no_reader g.fifo
check "... one message" test "$(grep -c . diff.err)" -eq 1

# A FIFO as the binary is refused before any loader starts (BFD seeks in
# the program: a pipe can never be one); a binary whose reading sticks is
# below, with the shim.
timeout 60 "$EGPROF" --rank-stats app.fifo g1 g2 > ranks.out 2> ranks.err
rc=$?
check "--rank-stats with a FIFO as the binary: exit 1 (exit $rc)" test $rc -eq 1
check "... refused before reading it" grep -q "app.fifo: not a regular file (a FIFO or pipe)" ranks.err
check "... nobody has it open" no_reader app.fifo

# One loader, workers (--jobs 2), the FIFO among the rank files: the
# worker reading it is named and ended with its loader.
# (--force: no ownership check in the loader, which would open it first)
timeout 60 "$EGPROF" --rank-stats --force --jobs 2 app g1 g2 g.fifo > ranks2.out 2> ranks2.err
rc=$?
check "--rank-stats --jobs 2, a rank file a FIFO: exit 1 (exit $rc)" test $rc -eq 1
check "... names the file" grep -q "while reading 'g.fifo'" ranks2.err
check "... and a worker's state" grep -q "worker [0-9]* sleeping" ranks2.err
check "... the worker is gone" no_reader g.fifo

# Slow, not stuck.  A shim (LD_PRELOAD, this test only) makes each of the
# first 12 freads of g2 wait 0.4 s (4.8 s in all, more than twice the
# stall time): with "read" it then reads a byte (a slow disk: rchar moves),
# with "cpu" it spins instead (a loader computing in silence); with
# "stuck" it never returns (a hung network filesystem).  Neither
# may be taken for a stuck loader, and the numbers stay gprof's.
cat > slow.c <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static int calls;
size_t fread(void *p, size_t size, size_t n, FILE *fp)
{
	static size_t (*real)(void *, size_t, size_t, FILE *);
	const char *target = getenv("SLOW_FILE"), *mode = getenv("SLOW_MODE");
	char link[64], path[4096];
	ssize_t k;

	if (!real)
		real = (size_t (*)(void *, size_t, size_t, FILE *))dlsym(RTLD_NEXT, "fread");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fileno(fp));
	k = readlink(link, path, sizeof(path) - 1);
	if (target && mode && k > 0 && calls < 12) {
		path[k] = 0;
		if (strlen(path) >= strlen(target) &&
		    !strcmp(path + strlen(path) - strlen(target), target)) {
			char c;
			struct timespec t0, t;

			calls++;
			if (!strcmp(mode, "stuck")) {
				for (;;)
					pause();
			} else if (!strcmp(mode, "read")) {
				usleep(400000);
				if (pread(fileno(fp), &c, 1, 0) < 0)
					abort();
			} else {
				clock_gettime(CLOCK_MONOTONIC, &t0);
				do
					clock_gettime(CLOCK_MONOTONIC, &t);
				while ((t.tv_sec - t0.tv_sec) * 1000000000L +
				       (t.tv_nsec - t0.tv_nsec) < 400000000L);
			}
		}
	}
	return real(p, size, n, fp);
}
EOC
cc -shared -fPIC -o slow.so slow.c -ldl || { echo "not ok - build slow.so"; exit 1; }

# The binary's reading sticks: the stalled loader names it.
SLOW_FILE=/app SLOW_MODE=stuck LD_PRELOAD=$PWD/slow.so \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	timeout 60 "$EGPROF" --rank-stats app g1 g2 > ranks.out 2> ranks.err
rc=$?
check "--rank-stats, the binary's reading stuck: exit 1 (exit $rc)" test $rc -eq 1
check "... names the binary" grep -q "while reading the binary 'app'" ranks.err
"$EGPROF" --diff -b -p app g1 app g2 > fast.out 2>&1
for mode in read cpu; do
	start=$SECONDS
	SLOW_FILE=/g2 SLOW_MODE=$mode LD_PRELOAD=$PWD/slow.so \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		timeout 60 "$EGPROF" --diff -b -p app g1 app g2 > slow.out 2> slow.err
	rc=$?
	check "a slow loader ($mode) finishes (exit $rc, $((SECONDS - start)) s)" test $rc -eq 0
	check "... slower than the stall time" test $((SECONDS - start)) -ge 4
	check "... with the numbers of the same file read at once" cmp -s slow.out fast.out
done
dl_done
