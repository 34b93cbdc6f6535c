#!/usr/bin/env bash
# Counters never make a sleeping call return early, and counting in user
# mode only is said.
#
# 1. perf::CONTEXT-SWITCHES overflows as its thread blocks, and the
#    overflow's signal ended every nanosleep, poll, select and usleep at
#    once with EINTR (77 of 81 calls): it is now counted by reading each
#    thread's counter from the runtime's reader thread, never by a signal.
#    The calls' results (printed by the program, as in the runtime's
#    stress corpus) and the exit status are those of a run without the
#    runtime, and the 81 sleeping calls' switches are all counted (each
#    leaves the CPU at least once; preemptions may add some).  The same
#    with perf::CS@10 (its other name, a period: still read, exactly) and
#    perf::PAGE-FAULTS (counted by overflow, only while the thread runs).
# 2. As a user the system forbids kernel-mode counting
#    (/proc/sys/kernel/perf_event_paranoid 2), PAPI counts in user mode only,
#    where no context switch is seen: one line on stderr, once, the sidecar's
#    metric flagged user-only (0x10) and --callpath --metric warning.  Run as
#    the user `nobody` through setpriv when we are root; skipped where
#    neither can be done or users may count in kernel mode.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
if ! grep -qa "libpapi\.so\." "$CP_SO"; then
	echo "ok 1 # SKIP this build has no PAPI (configure found no libpapi-dev)"
	echo "1..1"
	exit 0
fi
cd "$WORKDIR" || exit 1
chmod 755 "$WORKDIR"
gcc -pg -O1 -o sleeps "$CP_EX/stress/sleeps.c" || exit 1
./sleeps > plain.out; plain_rc=$?
cp_check "the plain run's calls all slept (no EINTR)" bash -c "! grep -q Interrupted plain.out"

for ev in perf::CONTEXT-SWITCHES perf::CS@10 perf::PAGE-FAULTS; do
	d=$(echo "$ev" | tr -c 'A-Za-z0-9\n' _)
	mkdir -p "$d"
	(cd "$d" && CALLPATH_EVENTS=$ev LD_PRELOAD="$CP_SO" ../sleeps > out 2> err; echo $? > rc)
	cp_check "$ev: every call's result and the status as without the runtime" \
		bash -c "cmp -s plain.out $d/out && [ \$(cat $d/rc) = $plain_rc ]"
	grep -c Interrupted "$d/out" | sed "s/^/# $ev: EINTR /"
done
for d in perf__CONTEXT_SWITCHES perf__CS_10; do
	ev=$("$CP_DUMP" -H $d/gmon.out.callpath | awk '$1 == "metric" && $2 ~ /^perf::C/ { print $2 }')
	"$EGPROF" -b -p --metric "$ev" --folded $d/f ./sleeps $d/gmon.out > /dev/null 2>&1
	n=$(awk '{ s += $NF } END { print s + 0 }' $d/f 2> /dev/null)
	un=$("$CP_DUMP" -H $d/gmon.out.callpath | awk '$1 == "metric" && $2 ~ /^perf::C/ { print $NF }')
	cp_check "$ev: counted, nothing said, period 1: $n switches placed + ${un:-?} unplaced >= 81" \
		bash -c "[ ! -s $d/err ] && [ \$(( $n + ${un:-0} )) -ge 81 ] && '$CP_DUMP' -H $d/gmon.out.callpath | grep -q '^metric $ev events kind 3 flags 0x0 period 1 '"
done
cp_check "perf::PAGE-FAULTS counted" \
	bash -c "'$CP_DUMP' -H perf__PAGE_FAULTS/gmon.out.callpath | grep -q '^metric perf::PAGE-FAULTS events'"

# 2. user mode only
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo 2)
as_user=
if [ "$(id -u)" = 0 ]; then
	as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
	command -v setpriv > /dev/null || as_user=
	id nobody > /dev/null 2>&1 || as_user=
elif [ "$paranoid" -ge 2 ]; then
	as_user=env
fi
if [ -z "$as_user" ] || [ "$paranoid" -lt 2 ]; then
	cp_check "user mode # SKIP users may count kernel events here (perf_event_paranoid $paranoid) or no user to run as" true
	cp_done
fi
mkdir -p user && chmod 777 user && cp sleeps user/ && chmod 755 user/sleeps
(cd user && $as_user env CALLPATH_EVENTS=perf::PAGE-FAULTS LD_PRELOAD="$CP_SO" ./sleeps > out 2> err)
echo "# as $(cd user && $as_user id -un): $(cat user/err)"
cp_check "as a user: one line says events are counted in user mode only" \
	bash -c "[ \$(grep -c 'counting events in user mode only' user/err) = 1 ] && [ \$(wc -l < user/err) = 1 ]"
cp_check "as a user: the calls' results are unchanged" cmp -s plain.out user/out
cp_check "the sidecar's metric is flagged user-only (0x10)" \
	bash -c "'$CP_DUMP' -H user/gmon.out.callpath | grep -Eq '^metric perf::PAGE-FAULTS events kind 3 flags 0x1[0-9a-f] '"
"$EGPROF" -b -p --callpath --metric perf::PAGE-FAULTS ./sleeps user/gmon.out > user/report 2>&1
cp_check "--callpath --metric warns that the kernel's events are not in it" \
	grep -q "^warning: perf::PAGE-FAULTS was counted in user mode only" user/report
cp_done
