#!/usr/bin/env bash
# --rank-stats linear in its files, with progress in logs (issue 28 item 8).
#
# Each rank file is read by a worker forked from the loader, and a fork
# copies the page tables of the process's private memory.  The loader was
# forked from a front end that had already expanded, checked and planned
# every rank file, so each worker's fork copied about a kilobyte per file
# of all of them: quadratic (10,000 files 5.8 s, 100,000 files 147 s; perf:
# copy_page_range).  The loader is now forked before any of that and gets
# its files through shared memory, so its private memory, which every
# worker's fork copies, no longer grows with the files.  Checked
# deterministically, not by timing (bench/mpi/curve.sh prints the time
# curve): the first rank file is a FIFO that blocks its worker; while it
# waits, the loader's anonymous memory (RssAnon) is read with 100 and with
# 2,000 files: the old loader grew by 1.7 MB, this one by the argv strings
# it shares with the front end (under 512 KB).
#
# --progress writes progress lines into a log (stderr not a terminal):
# whole lines, and one at the end; without it, nothing.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
cc -pg -O1 -no-pie -o prog "$SRCDIR/testsuite/fixtures/loaders/work.c" && ./prog ||
	{ echo "not ok 1 - build work.c"; echo "1..1"; exit 1; }
mkdir d
for i in $(seq 1 2000); do ln -s ../gmon.out d/gmon.$i; done
mkfifo d/gmon.0

# loader_anon N: the loader's RssAnon (KB) while its first worker waits
# on the FIFO, with N more files; the run then ends normally (rc in $N.rc)
loader_anon() {
	local n=$1 fe ld wk i
	"$EGPROF" --rank-stats --force --jobs 1 prog d/gmon.0 \
		$(seq 1 "$n" | sed 's|^|d/gmon.|') > "$n.out" 2> "$n.err" &
	fe=$!
	# up to 2 minutes: a loaded CI machine took over 20 s to fork the
	# loader's first worker with 2,000 files.  The loader is the child of
	# the front end that has a child (its worker, blocked on the FIFO) and
	# the same two processes twice in a row, 50 ms apart: under the
	# sanitizers a short-lived child of the front end once had a child of
	# its own and was gone before its memory was read
	local prev= cur= anon=
	for i in $(seq 1 2400); do
		cur=
		for ld in $(cat /proc/$fe/task/*/children 2> /dev/null); do
			wk=$(cat /proc/$ld/task/*/children 2> /dev/null | awk '{ print $1 }')
			[ -n "$wk" ] && { cur="$ld $wk"; break; }
		done
		if [ -n "$cur" ] && [ "$cur" = "$prev" ]; then
			anon=$(awk '/^RssAnon:/ { print $2 }' /proc/${cur%% *}/status 2> /dev/null)
			[ -n "$anon" ] && break
		fi
		prev=$cur
		sleep 0.05
	done
	echo "$anon" > "$n.anon"
	cat gmon.out > d/gmon.0
	wait $fe
	echo $? > "$n.rc"
	cat "$n.anon"
}
a100=$(loader_anon 100)
a2000=$(loader_anon 2000)
check "the runs end (exit $(cat 100.rc) and $(cat 2000.rc))" \
	test "$(cat 100.rc) $(cat 2000.rc)" = "0 0"
check "... with 101 and 2,001 ranks" \
	bash -c "grep -q '^101 ranks' 100.out && grep -q '^2001 ranks' 2000.out"
check "the loader's memory was read (${a100:-?} KB, ${a2000:-?} KB)" test -n "$a100" -a -n "$a2000"
check "the loader's private memory does not grow with the files (${a100:-?} KB -> ${a2000:-?} KB)" \
	test $(( ${a2000:-999999} - ${a100:-0} )) -lt 512

# --progress into a log
"$EGPROF" --rank-stats --progress prog d/gmon.[1-9]* > p.out 2> p.err
check "--progress into a file: a last line with the time" \
	grep -qE '^rank files read: 2000/2000 \(100%\) in [0-9.]+ s$' p.err
check "... whole lines, no carriage return" bash -c "! grep -q $'\r' p.err"
"$EGPROF" --rank-stats prog d/gmon.[1-9]* > q.out 2> q.err
check "without --progress, nothing on stderr (not a terminal)" test ! -s q.err
check "--progress: the same report" cmp -s p.out q.out
"$EGPROF" --progress -b prog gmon.out > /dev/null 2> r.err; rc=$?
check "--progress without --rank-stats: refused (exit $rc)" \
	bash -c "[ $rc = 1 ] && grep -qF -- '--progress shows the reading of rank files' r.err"
dl_done
