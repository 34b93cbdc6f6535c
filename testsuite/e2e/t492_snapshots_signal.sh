#!/usr/bin/env bash
# CALLPATH_SNAPSHOT_SIGNAL=USR2: each USR2 writes the next snapshot, and
# the program's output and exit status are as without the runtime (and
# without the signal).  A bad signal name is refused with one line.
# (issue 26)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc ends ends.c -O1 || exit 1
cd "$WORKDIR" || exit 1

wait_for() {	# wait_for FILE: up to 10 s
	for _ in $(seq 1000); do
		[ -e "$1" ] && return 0
		sleep 0.01
	done
	return 1
}

mkdir -p plain rt
(cd plain && touch stop && ../ends until-stop > out; echo $? > status)

cd rt || exit 1
CALLPATH_SNAPSHOT_SIGNAL=USR2 LD_PRELOAD="$CP_SO" ../ends until-stop > out 2> stderr &
pid=$!
wait_for started
kill -USR2 $pid
wait_for gmon.out.snap1.callpath
kill -USR2 $pid
wait_for gmon.out.snap2.callpath
touch stop
wait $pid
echo $? > status
cd "$WORKDIR"
cp_same "the program's output is unchanged" plain/out rt/out
cp_check "its exit status is unchanged ($(cat rt/status))" \
	test "$(cat plain/status)" = "$(cat rt/status)"
cp_check "nothing on stderr" test ! -s rt/stderr
for k in 1 2; do
	"$EGPROF" -b --callpath ./ends rt/gmon.out.snap$k > rt/report$k 2>&1
	cp_check "snap$k: gprof --callpath reads the pair" \
		grep -qE 'leaf \(work\+0x' rt/report$k
done
c1=$(cp_calls_of /usr/bin/gprof ./ends rt/gmon.out.snap1 leaf)
c2=$(cp_calls_of /usr/bin/gprof ./ends rt/gmon.out.snap2 leaf)
cp_check "cumulative: leaf ${c1:-0} calls, then ${c2:-0}" \
	test "${c1:-0}" -gt 0 -a "${c2:-0}" -ge "${c1:-0}"
cp_check "no third snapshot" test ! -e rt/gmon.out.snap3

# A bad name: one line, and the signal keeps its meaning.
CALLPATH_SNAPSHOT_SIGNAL=NOSUCH LD_PRELOAD="$CP_SO" ./ends view > /dev/null 2> bad.err
cp_check "a bad signal name is refused in one line" \
	test "$(grep -c "ignoring CALLPATH_SNAPSHOT_SIGNAL='NOSUCH'" bad.err)" = 1
cp_done
