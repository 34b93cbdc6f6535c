#!/usr/bin/env bash
# A/A pairs on real programs: the same binary run twice, diffed; every row
# flagged significant is a false alarm.
#
#   bench/diff/real/aa.sh [PAIRS] [WORK]     (default 5 pairs, a temp folder)
#
# PROGRAMS="lua lulesh xsbench comd" chooses the programs (lib.sh).  Each
# is built once with -pg; each pair is two runs, one after the other (the
# MPI program: two jobs of 2 ranks, each rank a file).  Prints, per
# program and pair, the significant rows of `gprof --diff` (from its JSON:
# the same verdicts as the text) and the totals.  REDIFF=1 with the WORK of
# an earlier run only runs gprof --diff again on its gmon files.
# EGPROF names the gprof (default the build's), EGPROF_ARGS adds options.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pairs=${1:-5}
WORK=${2:-$(mktemp -d /tmp/egprof-aa.XXXXXX)}
. "$here/lib.sh"
read -r -a extra <<< "${EGPROF_ARGS:-}"
mkdir -p "$WORK" || exit 1
programs=${PROGRAMS:-lua lulesh xsbench comd}

total=0
for p in $programs; do
	if [ -z "${REDIFF:-}" ]; then
		real_build "$p" base || exit 1
		for i in $(seq 1 "$pairs"); do
			real_run "$p" base "$WORK/aa/$p/$i/a" && real_run "$p" base "$WORK/aa/$p/$i/b" || exit 1
		done
	fi
	bin=$(real_bin "$p" base)
	n=0
	for i in $(seq 1 "$pairs"); do
		d=$WORK/aa/$p/$i
		"$EGPROF" "${extra[@]}" --format json --diff "$bin" "$(real_gmon "$d/a")" \
			"$(real_gmon "$d/b")" > "$d/diff.json" 2> "$d/diff.err" ||
			{ cat "$d/diff.err"; exit 1; }
		"$EGPROF" -b -p --extended "${extra[@]}" --diff "$bin" "$(real_gmon "$d/a")" \
			"$(real_gmon "$d/b")" > "$d/diff.txt" 2>&1
		read -r k names < <(python3 - "$d/diff.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sig = [f for f in d["functions"] if f["kind"] != "cycle" and f["significant"]]
print(len(sig), "; ".join("%s (%+.2f s, calls %s -> %s)" % (f["name"][:40], f["self_diff"],
      f["calls_base"], f["calls_second"]) for f in sig))
PY
)
		printf '%-8s pair %d: %d significant %s\n' "$p" "$i" "$k" "${names:+: $names}"
		n=$((n + k))
	done
	printf '%-8s %d significant rows in %d A/A pairs\n' "$p" "$n" "$pairs"
	total=$((total + n))
done
echo "all: $total significant rows; outputs in $WORK"
