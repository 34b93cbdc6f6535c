#!/usr/bin/env bash
# Snapshots that cannot be written are said on stderr, once for each
# reason, whatever the number of periods: a folder the process may not
# write in (EACCES: the failure was silent) and a full disk (ENOSPC: said
# at every period).  The program's output and status are its own; the
# exit's messages are glibc's and the runtime's as without snapshots.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > phases.c <<'EOF'
#include <stdio.h>
#include <time.h>
volatile unsigned long sink;
#include "contexts.h"
int main(void)
{
	struct timespec t0, t;
	unsigned x = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {	/* 0.6 s: a dozen periods of 0.05 s */
		p(12, x++ & 4095);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < 0.6);
	puts("done");
	return 0;
}
EOF
gcc -pg -O1 -I"$CP_EX" -o phases phases.c || exit 1
chmod 755 phases

# EACCES: a folder the process may not write in (as an unprivileged user
# when the tests run as root, who may write anywhere)
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	else
		"$@"
	fi
}
mkdir -p ro && chmod 555 ro
if ! (cd ro && as_user test -x ../phases -a -r "$CP_SO" -a ! -w .) 2> /dev/null; then
	echo "ok 1 # SKIP no unprivileged user to run as"
	CP_N=1
else
	(cd ro && as_user ../phases > ../plain.out 2> ../plain.err; echo $? > ../plain.rc)
	(cd ro && as_user env CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO" ../phases \
		> ../snap.out 2> ../snap.err; echo $? > ../snap.rc)
	(cd ro && as_user env LD_PRELOAD="$CP_SO" ../phases > ../nosnap.out 2> ../nosnap.err)
	cp_check "EACCES: the program's output and status as without the runtime" \
		bash -c "cmp -s plain.out snap.out && test $(cat plain.rc) = $(cat snap.rc)"
	n=$(grep -c 'not written' snap.err)
	cp_check "EACCES: said once ($n lines)" test "$n" = 1
	cp_check "EACCES: naming the snapshot and the reason" \
		grep -q '^callpath: snapshot 1 not written: gmon.out.snap1: Permission denied' snap.err
	grep -v 'snapshot .* not written' snap.err > snap.rest
	cp_same "EACCES: the exit's messages as without snapshots" nosnap.err snap.rest
	sed 's/^/# /' snap.err
fi

# ENOSPC: a 256 KiB file system, the snapshots' files bigger
mkdir -p fs && unshare -rm sh -c '
	mount -t tmpfs -o size=256k tmpfs fs || exit 77
	cd fs || exit 1
	CALLPATH_RECURSION=full CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$1" "$2" > ../full.out 2> ../full.err
	echo $? > ../full.rc
	ls > ../full.ls
	' sh "$CP_SO" "$WORKDIR/phases"
if [ $? = 77 ] || [ ! -e full.rc ]; then
	echo "ok $((CP_N + 1)) # SKIP a full disk: no tmpfs mount here"
	CP_N=$((CP_N + 1))
else
	n=$(grep -c 'not written' full.err)
	cp_check "ENOSPC: the program ran as usual" \
		bash -c "test $(cat full.rc) = 0 && grep -q done full.out"
	cp_check "ENOSPC: said once ($n lines)" test "$n" = 1
	cp_check "ENOSPC: with the reason" grep -q 'No space left on device' full.err
	cp_check "ENOSPC: no temporary file left" bash -c "! grep -q tmp full.ls"
	sed 's/^/# /' full.err | head -n 5
fi
cp_done
