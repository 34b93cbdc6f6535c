#!/usr/bin/env bash
# How long graphviz takes to lay out the call graph of a generated
# 600-function -pg program (testsuite/fixtures/bigprog/gen.py), single and
# differential, at the default pruning and unpruned: `dot -Tsvg` of the
# --dot file, and egprof's own --svg/--png (libgvc).  Runs are interleaved,
# median of N; wall seconds.  Issue 13's target: under 5 s at the default
# pruning.
#   bench/graph/layout.sh [BUILDDIR] [N]
set -eu
b=$(cd "${1:-.}" && pwd)
n=${2:-5}
src=$(cd "$(dirname "$0")/../.." && pwd)
g="$b/gprof-ext/gprof"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
python3 "$src/testsuite/fixtures/bigprog/gen.py" 600 > big.c
gcc -pg -O1 -fno-inline -o big big.c && ./big
mkdir changed && gcc -pg -O1 -fno-inline -DCHANGED -o changed/big big.c && (cd changed && ./big)

single="big gmon.out"
diff="--diff big gmon.out changed/big changed/gmon.out"
# case name -> egprof arguments
declare -A args=(
	[single-default]="$single"
	[diff-default]="$diff"
	[single-unpruned]="$single --node-thres 0 --edge-thres 0"
	[diff-unpruned]="$diff --node-thres 0 --edge-thres 0"
)
cases="single-default diff-default single-unpruned diff-unpruned"
now() { date +%s.%N; }
for c in $cases; do
	# shellcheck disable=SC2086
	"$g" -b ${args[$c]} --dot "$c.dot" >/dev/null 2>"$c.err"
	printf '%-16s %s\n' "$c" "$(grep -o 'left$\|[0-9]* and [0-9]* left' "$c.err" || echo "nothing pruned")"
done
declare -A dot svg png
for i in $(seq "$n"); do
	for c in $cases; do
		t0=$(now); dot -Tsvg "$c.dot" >/dev/null; t1=$(now)
		# shellcheck disable=SC2086
		"$g" -b ${args[$c]} --svg "$c.svg" >/dev/null 2>&1; t2=$(now)
		# shellcheck disable=SC2086
		"$g" -b ${args[$c]} --png "$c.png" >/dev/null 2>&1; t3=$(now)
		dot[$c]+="$(echo "$t1 - $t0" | bc) "
		svg[$c]+="$(echo "$t2 - $t1" | bc) "
		png[$c]+="$(echo "$t3 - $t2" | bc) "
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
printf '\n%-16s %10s %14s %14s   (median of %d, wall s)\n' case "dot -Tsvg" "egprof --svg" "egprof --png" "$n"
for c in $cases; do
	printf '%-16s %10s %14s %14s\n' "$c" "$(echo "${dot[$c]}" | median)" \
		"$(echo "${svg[$c]}" | median)" "$(echo "${png[$c]}" | median)"
done
echo "(egprof's times include reading the profile: gprof -b alone takes"
t0=$(now); "$g" -b big gmon.out >/dev/null; t1=$(now)
echo " $(echo "$t1 - $t0" | bc) s here)"
