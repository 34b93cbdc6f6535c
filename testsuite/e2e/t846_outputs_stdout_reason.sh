#!/usr/bin/env bash
# Every write error names the file and the reason, standard output too:
# `--html -` (or `--pprof -`, or any report) into /dev/full said "cannot
# write standard output: write error": upstream's report had failed
# first, the stream kept only that it had (glibc drops what it held) and
# errno had moved on.  The reason is asked of the descriptor without
# writing a byte (utils/outfile.c): a full device, a closed descriptor, a
# pipe whose reader is gone (SIGPIPE ignored, as a shell's `trap '' PIPE`
# leaves it).  Plain gprof (no option of ours) is untouched: stock gprof
# exits 0 into /dev/full, and so does ours.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cp_cc acc acceptance.c -O1 || exit 1
(LD_PRELOAD="$CP_SO" ./acc) || exit 1
for out in "--html -" "--pprof -" "--callpath" "--folded-calls -"; do
	# shellcheck disable=SC2086 # the option and its file
	"$EGPROF" -b $out ./acc gmon.out > /dev/full 2> err.txt
	rc=$?
	cp_check "$out into /dev/full: exit $rc, the reason said" \
		bash -c "[ $rc = 1 ] && grep -qF 'cannot write standard output: No space left on device' err.txt"
	# shellcheck disable=SC2086
	"$EGPROF" -b $out ./acc gmon.out 2> err.txt >&-
	rc=$?
	cp_check "$out into a closed descriptor: exit $rc, the reason said" \
		bash -c "[ $rc = 1 ] && grep -qF 'cannot write standard output: Bad file descriptor' err.txt"
done
# a pipe whose reader is gone before the program starts
python3 - "$EGPROF" > /dev/null <<'PY'
import os, signal, subprocess, sys
r, w = os.pipe()
os.close(r)
with open("err.txt", "wb") as err:
    p = subprocess.run([sys.argv[1], "-b", "--html", "-", "./acc", "gmon.out"], stdout=w,
                       stderr=err, preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
open("rc.txt", "w").write("%d\n" % p.returncode)
PY
rc=$(cat rc.txt)
cp_check "--html - into a pipe with no reader (SIGPIPE ignored): exit $rc, the reason said" \
	bash -c "[ $rc = 1 ] && grep -qF 'cannot write standard output: Broken pipe' err.txt"
cp_check "no message without a reason" bash -c "! grep -q 'write error' err.txt"
"$EGPROF" -b ./acc gmon.out > /dev/full 2> err.txt
rc=$?
"$SYSGPROF" -b ./acc gmon.out > /dev/full 2> sys.txt
src=$?
cp_check "plain gprof into /dev/full: as stock gprof (exit $rc and $src, same stderr)" \
	bash -c "[ $rc = $src ] && cmp -s err.txt sys.txt"
cp_done
