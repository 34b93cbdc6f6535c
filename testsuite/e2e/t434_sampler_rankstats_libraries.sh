#!/usr/bin/env bash
# --rank-stats with sidecars that place every sample (issue 22): each
# rank's time in shared libraries, which gmon.out's histogram cannot show.
# Three "ranks" (OMPI_COMM_WORLD_RANK, GMON_OUT_PREFIX) of placed.c: rank 0
# only computes (arith), rank 1 spends its 0.3 s in use_libm (three
# quarters of it in libm), rank 2 in memcpy.  The per-rank table gains
# "sampled s", "libs %" and "instr %": rank 0 under 10% in libraries,
# ranks 1 and 2 over 50%, each rank's sampled seconds within 5% + 3 sd of
# the CPU time it measured.  Without sidecars the table is as before.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

gcc -pg -O1 -g -o "$WORKDIR/placed" "$CP_EX/placed.c" -lm -lpthread || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.rank.* cpu.*
r=0
for f in arith use_libm use_memcpy; do
	OMPI_COMM_WORLD_RANK=$r GMON_OUT_PREFIX=gmon.rank LD_PRELOAD="$CP_SO" \
		./placed only $f 0.3 > cpu.$r || exit 1
	r=$((r + 1))
done
"$EGPROF" --rank-stats ./placed gmon.rank.* > stats.txt 2> err.txt
cp_check "--rank-stats ran" test -s stats.txt
cp_check "the per-rank table has the sampled columns" \
	grep -q 'sampled s  libs % instr %' stats.txt
row() { awk -v r="$1" '/^Per rank:/ { on = 1; next } on && $1 == r && NF >= 12 { print; exit }' stats.txt; }
for r in 0 1 2; do
	read -r sampled libs < <(row $r | awk '{ print $9, $10 }')
	want=$(awk '{ print $2 }' cpu.$r)
	cp_check "rank $r: ${sampled}s sampled for ${want}s of CPU time (5% + 3 sd)" \
		cp_secs_within "$(awk -v s="$sampled" 'BEGIN { printf "%d", s * 1000 + 0.5 }')" 1000 "$want" 5
	case $r in
	0) cp_check "rank 0 (arith): ${libs}% in libraries, under 10" \
		awk -v l="$libs" 'BEGIN { exit !(l < 10) }' ;;
	*) cp_check "rank $r: ${libs}% in libraries, over 50" \
		awk -v l="$libs" 'BEGIN { exit !(l > 50) }' ;;
	esac
done
mkdir -p bare && cp gmon.rank.[0-9]* bare/ && rm -f bare/*.callpath
(cd bare && "$EGPROF" --rank-stats ../placed gmon.rank.* > stats.txt 2> err.txt)
cp_check "without sidecars, no sampled columns" \
	test -s bare/stats.txt -a -z "$(grep 'sampled s' bare/stats.txt)"
cp_done
