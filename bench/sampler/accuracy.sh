#!/usr/bin/env bash
# bench/sampler/accuracy.sh - sampling mode's call paths against perf's
# (`perf record --call-graph dwarf`, DWARF unwinding of a copy of the
# stack, the independent tool) on the same binary.
#
#   bench/sampler/accuracy.sh [--builddir DIR] NAME DIR CMD... [-- NAME DIR CMD...]
#
# Each CMD (a release build) runs once under the runtime (sampling mode,
# 1000 Hz of each thread's CPU time) and once under perf (1000 Hz), in DIR.
# accuracy.py compares each function's self share and each hot path's
# inclusive share (within 2 and 3 points plus 3 standard deviations of the
# sampling noise), and the script prints how many of the runtime's stack
# walks reached main or the thread's start routine.  Figures only.
set -u
builddir=$(pwd)
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	*) break ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
so="$builddir/callpath/libcallpath.so"
gprof="$builddir/gprof-ext/gprof"
dump="$builddir/tools/cpdump/cpdump"
export LC_ALL=C
tmp=$(mktemp -d /tmp/egprof-acc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
while [ $# -gt 0 ]; do
	name=$1 dir=$2
	shift 2
	cmd=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	rm -rf "$tmp/$name" && mkdir -p "$tmp/$name"
	(cd "$dir" && GMON_OUT_PREFIX="$tmp/$name/gmon" LD_PRELOAD="$so" "${cmd[@]}" > /dev/null 2>&1)
	g=$(ls "$tmp/$name"/gmon.[0-9]* | grep -v callpath | head -1)
	prog=$("$dump" -H "$g.callpath" | awk '$1 == "exe" { print $2 }')
	"$gprof" -b --folded "$tmp/$name/ours.folded" "$prog" "$g" > /dev/null 2>&1
	(cd "$dir" && perf record -q -F 1000 --call-graph dwarf -o "$tmp/$name/perf.data" \
		"${cmd[@]}" > /dev/null 2>&1)
	perf script -F ip,sym,dso -i "$tmp/$name/perf.data" > "$tmp/$name/perf.script" 2> /dev/null
	w=$("$dump" -H "$g.callpath" | awk '$1 == "samples" { s = $2 } $1 == "time-taken" { t = $2 }
		END { print (t > 0 ? s / t : 1) }')
	walks=$("$dump" -H "$g.callpath" | awk '$1 == "walks" { w = $2 } $1 == "walks-0" { c = $2 }
		END { printf "%.2f%% of %d", 100 * c / w, w }')
	echo "== $name: stack walks complete: $walks; a sample stands for $w periods"
	python3 "$here/accuracy.py" "$tmp/$name/ours.folded" "$tmp/$name/perf.script" --weight "$w"
done
