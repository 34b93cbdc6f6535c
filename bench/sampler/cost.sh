#!/usr/bin/env bash
# bench/sampler/cost.sh - what sampling mode costs on programs built
# without -pg, beside perf record, on the same runs.
#
#   bench/sampler/cost.sh [--builddir DIR] [--reps N] [--hz HZ] \
#       NAME DIR CMD... [-- NAME DIR CMD... ...]
#
# Each CMD (a release build and its arguments) runs in DIR: plain (no
# profiler), with libcallpath preloaded (sampling mode, CALLPATH_HZ=HZ,
# default 1000, the runtime's default), under `perf record -g` (frame
# pointers, at perf's default rate) and under `perf record --call-graph
# dwarf` (what the accuracy check compares with); the variants run one
# after the other in each of N rounds (default 5), in a different order
# every round, so that a busy machine hurts them alike.  For each variant
# it prints the median of the rounds' CPU-time ratios to the plain run of
# the same round (user + system, the profiler's own process included for
# perf) and the median CPU seconds.  It also prints how the runtime's
# stack walks ended.  Figures only, never a verdict.
set -u
builddir=$(pwd)
reps=5
hz=1000
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--hz) hz=$2; shift 2 ;;
	*) break ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
dump="$builddir/tools/cpdump/cpdump"
[ -e "$so" ] || { echo "no $so: run make first" >&2; exit 1; }
[ $# -ge 3 ] || { echo "usage: $0 [--reps N] [--hz HZ] NAME DIR CMD... [-- NAME DIR CMD...]" >&2; exit 2; }
export LC_ALL=C
tmp=$(mktemp -d /tmp/egprof-cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system) of one run
run() {
	rm -rf "$tmp"/run && mkdir "$tmp/run"
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" > /dev/null 2>&1
	awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/t"
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

variants="plain sampled"
if command -v perf > /dev/null && perf record -q -o "$tmp/probe" true > /dev/null 2>&1; then
	variants="$variants perf-g perf-dwarf"
else
	echo "# perf record does not work here (kernel.perf_event_paranoid?): perf left out"
fi

printf '%-10s' program
for v in $variants; do printf ' %18s' "$v"; done
printf '   %s\n' "stack walks: complete of walked"
while [ $# -gt 0 ]; do
	name=$1 dir=$2
	shift 2
	cmd=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	declare -A t=() ratio=()
	walks=
	for r in $(seq "$reps"); do
		# rotate the order: round r starts at variant r
		order=$(echo $variants | tr ' ' '\n' | awk -v r="$r" '{ v[NR] = $0 } END {
			for (i = 0; i < NR; i++) print v[(i + r - 1) % NR + 1] }')
		declare -A now=()
		for v in $order; do
			case $v in
			plain) x=$(cd "$dir" && run "${cmd[@]}") ;;
			sampled) x=$(cd "$dir" && run env GMON_OUT_PREFIX="$tmp/run/gmon" \
					CALLPATH_HZ="$hz" LD_PRELOAD="$so" "${cmd[@]}")
				for s in "$tmp"/run/gmon.*.callpath; do
					[ -e "$s" ] && walks="$walks $("$dump" -H "$s" |
						awk '$1 == "walks" { w = $2 } $1 == "walks-0" { c = $2 }
						     END { printf "%d/%d", c, w }')"
				done ;;
			perf-g) x=$(cd "$dir" && run perf record -q -g -o "$tmp/run/perf.data" "${cmd[@]}") ;;
			perf-dwarf) x=$(cd "$dir" && run perf record -q --call-graph dwarf \
					-o "$tmp/run/perf.data" "${cmd[@]}") ;;
			esac
			now[$v]=$x
			t[$v]="${t[$v]:-} $x"
		done
		for v in $variants; do
			ratio[$v]="${ratio[$v]:-} $(awk -v a="${now[$v]}" -v b="${now[plain]}" \
				'BEGIN { print (b > 0 ? a / b : 0) }')"
		done
	done
	printf '%-10s' "$name"
	for v in $variants; do
		printf ' %7.3fs %7.3fx' "$(echo ${t[$v]} | median)" "$(echo ${ratio[$v]} | median)"
	done
	printf '   %s\n' "$(echo $walks | tr ' ' '\n' | awk -F/ '{ c += $1; w += $2 }
		END { if (w) printf "%.2f%% of %d", 100 * c / w, w }')"
done
