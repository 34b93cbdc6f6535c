#!/usr/bin/env bash
# bench/callpath/threads.sh - threads run one after another (thread pools
# that recreate workers, servers): what the runtime costs per thread.
#
#   bench/callpath/threads.sh [--builddir DIR] [--threads N] [--baseline SO]
#
# Prints figures only: for N threads (default 100,000) created and joined
# in turn, each making 3 instrumented calls, the wall and CPU seconds, the
# peak RSS and the mappings left once they are joined, without the runtime,
# with this build's libcallpath and, with --baseline, another build's, the
# runs interleaved.  Issue 21's bound: peak RSS at most plain + 16 MB,
# mappings at most plain + 64 (t423 checks them on 5,000 threads).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
n=100000
baseline=
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--threads) n=$2; shift 2 ;;
	--baseline) baseline=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--threads N] [--baseline SO]" >&2; exit 2 ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
[ -e "$so" ] || { echo "no $so: run make first" >&2; exit 1; }
work=$(mktemp -d /tmp/egprof-threads.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
gcc -pg -O1 -o churn "$srcdir/testsuite/fixtures/callpath/stress/churn.c" -lpthread || exit 1

run() { # LABEL PRELOAD
	rm -f gmon.out*
	/usr/bin/time -f '%e %U %S %M' -o t.txt env ${2:+LD_PRELOAD=$2} ./churn "$n" maps.txt > /dev/null
	read -r wall user sys rss < t.txt
	printf '%-14s %8s s wall %7s s user %7s s sys %9s KiB peak RSS %6s mappings\n' \
		"$1" "$wall" "$user" "$sys" "$rss" "$(cat maps.txt)"
}
echo "$n threads created and joined in turn"
run plain ""
run libcallpath "$so"
[ -n "$baseline" ] && run baseline "$baseline"
[ -e gmon.out.callpath ] && "$builddir/tools/cpdump/cpdump" -H gmon.out.callpath |
	awk '$1 == "threads" || $1 == "nodes" || $1 == "calls" { printf "%s %s  ", $1, $2 } END { print "(the last run\x27s sidecar)" }'
