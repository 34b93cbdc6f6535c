#!/usr/bin/env bash
# A corrupt gmon file among the rank files that passes the checks made
# before upstream reads it (a record of an unknown tag, a file cut inside a
# record): upstream says what is wrong with it, and the front end then
# said "the loader exited with status 2 (out of memory, or its output
# could not be sent)": the loader's status after the front end, stopping
# at the failed file, closed the pipe the other files' profiles were
# still being sent on.  The failure reported is the file's, with each
# number of workers; no word of memory or of sending.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cp_cc acc acceptance.c -O1 || exit 1
for i in 1 2 3 4 5 6; do
	mkdir -p r$i && (cd r$i && ../acc) && cp r$i/gmon.out gmon.$i || exit 1
done
python3 - gmon.3 gmon.5 <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[20] = 7                       # the first record's tag: no such tag
open(sys.argv[1], 'wb').write(b)
b = open(sys.argv[2], 'rb').read()
open(sys.argv[2], 'wb').write(b[:len(b) - 7])   # cut inside its last record
PY
for jobs in 1 2 4; do
	"$EGPROF" -b --rank-stats --jobs $jobs ./acc gmon.1 gmon.2 gmon.3 gmon.4 gmon.5 gmon.6 \
		> out.txt 2> err.txt
	rc=$?
	cp_check "--jobs $jobs: exit 1 (got $rc)" test $rc -eq 1
	cp_check "--jobs $jobs: upstream says what is wrong with a bad file" \
		grep -qE "gmon\\.3: found bad tag 7 \\(file corrupted\\?\\)|gmon\\.5: unexpected end of file" err.txt
	cp_check "--jobs $jobs: the failure named is a bad file's" \
		grep -qE "gmon\\.[35]: cannot read the profile of '\\./acc'" err.txt
	cp_check "--jobs $jobs: no loader status, no word of memory" \
		bash -c "! grep -qE 'status [0-9]|out of memory|could not be sent' err.txt"
	sed 's/^/# /' err.txt
done
cp_done
