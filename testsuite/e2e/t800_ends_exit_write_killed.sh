#!/usr/bin/env bash
# SIGTERM while the exit writes the profile: a program whose exit writes a
# 3 MB sidecar is killed at moments chosen from what its exit is seen
# doing (testsuite/fixtures/exitkill.py: as gmon.out appears, as the
# temporary sidecar appears or reaches a random share of its size, a
# random share of a measured exit's time after main returned): never a
# fixed delay, so a slow machine is hit at the same points of the work.
# Every run must leave the complete pair, as an unkilled run does: gmon.out
# that /usr/bin/gprof reads (never emptied), a sidecar that gprof
# --callpath pairs with it, holding every call path with its exact count,
# no temporary file, nothing on stderr ("their registry is busy" was said
# for a program with one thread), the status of SIGTERM or of the exit.
# The same for 115 threads alive at the exit, with snapshots every 0.05 s.
# bench/callpath/exitkill.sh does 200 kills of a 12 MB sidecar.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc endwrite endwrite.c -O1 || exit 1
cd "$WORKDIR" || exit 1
nm -nS endwrite > endwrite.nm
export CALLPATH_RECURSION=full

# check DIR LABEL: one TAP line per property over every run of DIR
check() {
	local d=$1 what=$2 r bad_gmon= bad_pair= bad_paths= bad_tmp= bad_err= bad_rc= n=0
	"$CP_DUMP" -f -s endwrite.nm "$d/calib/gmon.out.callpath" |
		awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' | sort > "$d/calib.folded"
	for r in "$d"/run.*; do
		n=$((n + 1))
		calls=$(cp_calls_of "$SYSGPROF" ./endwrite "$r/gmon.out" p 2> /dev/null)
		[ "${calls:-0}" -gt 0 ] || bad_gmon="$bad_gmon ${r##*/}"
		"$EGPROF" -b --callpath ./endwrite "$r/gmon.out" > "$r/report" 2> "$r/report.err" ||
			bad_pair="$bad_pair ${r##*/}"
		if [ -e "$r/gmon.out.callpath" ]; then
			"$CP_DUMP" -f -s endwrite.nm "$r/gmon.out.callpath" |
				awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' | sort > "$r/folded"
			cmp -s "$d/calib.folded" "$r/folded" || bad_paths="$bad_paths ${r##*/}"
		else
			bad_paths="$bad_paths ${r##*/}"
		fi
		[ -z "$(ls "$r" | grep tmp)" ] || bad_tmp="$bad_tmp ${r##*/}"
		[ ! -s "$r/err" ] || bad_err="$bad_err ${r##*/}"
	done
	awk '$1 ~ /^[0-9]+$/ && $4 != 0 && $4 != 143 { print "run." $1 }' "$d.log" > "$d.rc"
	bad_rc=$(tr '\n' ' ' < "$d.rc")
	cp_check "$what: gmon.out read by /usr/bin/gprof after every kill ($n runs)${bad_gmon:+; not:$bad_gmon}" \
		test -z "$bad_gmon" -a "$n" -gt 0
	cp_check "$what: every pair read by gprof --callpath${bad_pair:+; not:$bad_pair}" \
		test -z "$bad_pair"
	cp_check "$what: every sidecar holds every call path, counts exact${bad_paths:+; not:$bad_paths}" \
		test -z "$bad_paths"
	cp_check "$what: no temporary file left${bad_tmp:+; left:$bad_tmp}" test -z "$bad_tmp"
	cp_check "$what: nothing on stderr${bad_err:+; said:$bad_err}" test -z "$bad_err"
	cp_check "$what: status 143 (SIGTERM) or 0 (the exit came first)${bad_rc:+; not:$bad_rc}" \
		test -z "$bad_rc"
	for r in $bad_err; do sed "s/^/# $r: /" "$d/$r/err" | head -n 3; done
	for r in $bad_pair; do sed "s/^/# $r: /" "$d/$r/report.err" | head -n 3; done
	# the runs: number, kind of moment, fraction, status, what was seen
	if [ -n "$bad_gmon$bad_pair$bad_paths$bad_tmp$bad_err$bad_rc" ]; then
		sed 's/^/# /' "$d.log" | head -n 40
	else
		head -n 1 "$d.log" | sed 's/^/# /'
	fi
}

python3 "$SRCDIR/testsuite/fixtures/exitkill.py" single 24 800 -- \
	env LD_PRELOAD="$CP_SO" "$WORKDIR/endwrite" 15 > single.log 2> single.err
cp_check "one thread: the killer ran" test -s single.log -a ! -s single.err
check single "one thread"

python3 "$SRCDIR/testsuite/fixtures/exitkill.py" threads 12 801 -- \
	env CALLPATH_SNAPSHOT=0.05 LD_PRELOAD="$CP_SO" "$WORKDIR/endwrite" 15 115 \
	> threads.log 2> threads.err
cp_check "115 threads, snapshots: the killer ran" test -s threads.log -a ! -s threads.err
check threads "115 threads, snapshots every 0.05 s"
cp_done
