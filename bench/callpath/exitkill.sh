#!/usr/bin/env bash
# bench/callpath/exitkill.sh - SIGTERM while the exit writes the profile.
#
#   bench/callpath/exitkill.sh [--builddir DIR] [--runs N] [--depth D]
#                              [--threads T] [--snapshot SECONDS] [--seed S]
#
# Prints figures only.  testsuite/fixtures/callpath/endwrite.c with 2^(D+1) - 1
# calling contexts (D = 17 by default: a 12 MB sidecar) is run once
# without a signal, then N times (200) killed by SIGTERM at moments chosen
# from what its exit is seen doing (testsuite/fixtures/exitkill.py: as
# gmon.out appears, as the temporary sidecar appears or holds a random
# share of its bytes, a random share of the measured exit's time after
# main returned, as main returns).  For each run: is gmon.out there and
# read by /usr/bin/gprof, emptied, does gprof --callpath take the pair or
# refuse it with a message naming a file, are the call paths the
# unkilled run's, is a temporary file left, was anything said on stderr.
# t800 is the same check, smaller, in `make check`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
runs=200 depth=17 threads=0 snapshot= seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--snapshot) snapshot=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--runs N] [--depth D] [--threads T]" \
		"[--snapshot SECONDS] [--seed S]" >&2; exit 2 ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
gprof="$builddir/gprof-ext/gprof"
cpdump="$builddir/tools/cpdump/cpdump"
[ -e "$so" ] || { echo "no $so: run make first" >&2; exit 1; }
work=$(mktemp -d /tmp/egprof-exitkill.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
gcc -pg -O1 -o endwrite "$srcdir/testsuite/fixtures/callpath/endwrite.c" -lpthread || exit 1
nm -nS endwrite > endwrite.nm

folded() {
	"$cpdump" -f -s endwrite.nm "$1" 2> /dev/null |
		awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' | sort
}

python3 "$srcdir/testsuite/fixtures/exitkill.py" k "$runs" "$seed" -- \
	env CALLPATH_RECURSION=full ${snapshot:+CALLPATH_SNAPSHOT=$snapshot} LD_PRELOAD="$so" \
	"$work/endwrite" "$depth" $([ "$threads" -gt 0 ] && echo "$threads") > kills.log || exit 1
folded k/calib/gmon.out.callpath > calib.folded
nodes=$("$cpdump" -H k/calib/gmon.out.callpath | awk '$1 == "nodes" { print $2 }')
echo "endwrite $depth$([ "$threads" -gt 0 ] && echo " $threads threads")${snapshot:+, snapshots every $snapshot s}:" \
	"$nodes nodes, sidecar $(stat -c %s k/calib/gmon.out.callpath) bytes"
echo "unkilled run: $(head -n 1 kills.log)"

pairs=0 refused=0 neither=0 emptied=0 nogmon=0 exact=0 tmps=0 said=0 n=0
for r in k/run.*; do
	n=$((n + 1))
	if [ ! -e "$r/gmon.out" ]; then
		nogmon=$((nogmon + 1))
	elif [ ! -s "$r/gmon.out" ]; then
		emptied=$((emptied + 1))
	fi
	if "$gprof" -b --callpath ./endwrite "$r/gmon.out" > "$r/report" 2> "$r/report.err"; then
		pairs=$((pairs + 1))
		[ "$(folded "$r/gmon.out.callpath")" = "$(cat calib.folded)" ] && exact=$((exact + 1))
	elif grep -q "$r/gmon.out" "$r/report.err"; then
		refused=$((refused + 1))
	else
		neither=$((neither + 1))
	fi
	[ -z "$(ls "$r" | grep tmp)" ] || tmps=$((tmps + 1))
	[ ! -s "$r/err" ] || said=$((said + 1))
done
echo "runs killed:                     $n"
echo "complete pairs (read):           $pairs (call paths exact: $exact)"
echo "refused with a message:          $refused"
echo "neither:                         $neither"
echo "gmon.out emptied:                $emptied"
echo "gmon.out missing:                $nogmon"
echo "temporary files left:            $tmps"
echo "runs that said something:        $said"
echo "status (count status):           $(awk '$1 ~ /^[0-9]+$/ { print $4 }' kills.log | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
echo "seen at the kill (count what):   $(awk '$1 ~ /^[0-9]+$/ { print $5 }' kills.log | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
