#!/usr/bin/env bash
# CALLPATH_SNAPSHOT's seconds and CALLPATH_SNAPSHOT_SIGNAL's number are read
# the one way every number of the runtime's environment is (runtime/env.h):
# digits (the seconds: with one decimal point), no blanks before or after,
# no sign, no base prefix, no exponent.  strtod and strtol took " 1", "+1",
# "0x1" and "1e3" as seconds and " 10" or "+10" as a signal, where
# CALLPATH_HZ and the others refuse those forms.  A refused value is said
# in the variable's own words and nothing is started for it.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc ends ends.c -O1 || exit 1
cd "$WORKDIR" || exit 1

# run VAR VALUE [ARGS...]: the program's stderr in err, its files in run/
run() {
	local var=$1 val=$2
	shift 2
	rm -rf run && mkdir run && (cd run && env "$var=$val" LD_PRELOAD="$CP_SO" ../ends "$@" > out 2> ../err)
}
snaps() { ls run | grep -cE '^gmon\.out\.snap[0-9]+$'; }

for v in " 1" "1 " "+1" "-1" "0x1" "1e3" "1e-1" "inf" "nan" "." "1..5" "0.5.1" "1,5" "0.001" "1000001"; do
	run CALLPATH_SNAPSHOT "$v" phases 0.05 0.3
	cp_check "CALLPATH_SNAPSHOT='$v' refused in the variable's words" \
		grep -qxF "callpath: ignoring CALLPATH_SNAPSHOT='$v': not a number of seconds in [0.01, 1000000]" err
	cp_check "... and no snapshot taken" test "$(snaps)" = 0
done
# the accepted forms: a snapshot every 0.1 s of a 1 s run (the writer
# thread has 0.9 s of wall time to be scheduled once, on any machine)
for v in "0.1" ".1" "0.10"; do
	run CALLPATH_SNAPSHOT "$v" phases 0.5 1
	cp_check "CALLPATH_SNAPSHOT='$v' taken, nothing said" test ! -s err
	cp_check "... and snapshots written ($(snaps))" test "$(snaps)" -ge 1
done

msg="not a signal a snapshot can be asked with (USR1, USR2, HUP, ...)"
for v in " 10" "10 " "+10" "0x0a" "010x" "-10" "99999999999999999999"; do
	run CALLPATH_SNAPSHOT_SIGNAL "$v" phases 0.05 0.1
	cp_check "CALLPATH_SNAPSHOT_SIGNAL='$v' refused" \
		grep -qxF "callpath: ignoring CALLPATH_SNAPSHOT_SIGNAL='$v': $msg" err
done
for v in 10 USR1 SIGUSR1; do
	run CALLPATH_SNAPSHOT_SIGNAL "$v" phases 0.05 0.1
	cp_check "CALLPATH_SNAPSHOT_SIGNAL='$v' (SIGUSR1) taken, nothing said" test ! -s err
done
cp_done
