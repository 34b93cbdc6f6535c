#!/usr/bin/env bash
# Case studies of --diff on real programs: a change is injected into a copy
# of a public program's source (the sed scripts below, ours), the baseline
# and the changed build run once each (the MPI case: one job of 2 ranks per
# side), and the table says where the changed function lands among the
# significant rows.
#
#   bench/diff/real/cases.sh [REPS] [WORK]   (default 1 repetition, a temp dir)
#
# CASES="lua-slower comd-rank" runs only those.  REDIFF=1 with the WORK of
# an earlier run only runs gprof --diff again on its gmon files (EGPROF
# names the gprof, default the build's).  The programs and workloads are
# lib.sh's.  The machine's load is part of the experiment.
set -u
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-1}
WORK=${2:-$(mktemp -d /tmp/egprof-cases.XXXXXX)}
. "$here/lib.sh"
read -r -a extra <<< "${EGPROF_ARGS:-}"
mkdir -p "$WORK" || exit 1

# SPIN N: C code that burns about N additions, kept by the compiler
spin() {
	echo "{ volatile unsigned egprof_s_ = 0; for (unsigned egprof_i_ = 0; egprof_i_ < $1; egprof_i_++) egprof_s_ += egprof_i_; }"
}

# --- patches (run in the program's source folder) --------------------------
# lua: luaH_getshortstr does more work per call
p_lua_slower() {
	sed -i "/^lu_byte luaH_getshortstr (Table \*t, TString \*key, TValue \*res) {/a $(spin 30)" ltable.c
}
# lua: internshrstr did more work in the baseline (the second run is the fix)
p_lua_intern_slow() {
	sed -i "/^static TString \*internshrstr (lua_State \*L, const char \*str, size_t l) {/a $(spin 24)" lstring.c
}
# lua: match_class out of line, or inlined with -DEGPROF_INLINE
p_lua_inline() {
	sed -i 's/^static int match_class (int c, int cl) {/static EGPROF_ATTR int match_class (int c, int cl) {/' lstrlib.c
}
# lua: luaS_hash out of line in both; the second build hashes two bytes a
# call (the same bytes, the same hash: more calls at equal work)
p_lua_hash() {
	sed -i 's/^static unsigned luaS_hash (/static __attribute__((noinline)) unsigned luaS_hash (/' lstring.c
}
p_lua_hash_chunks() {
	p_lua_hash
	sed -i 's/^  unsigned int h = luaS_hash(str, l, g->seed);/  unsigned int h = g->seed ^ cast_uint(l); { size_t k_ = l; while (k_ > 0) { size_t n_ = k_ > 2 ? 2 : k_; h = luaS_hash(str + k_ - n_, n_, h ^ cast_uint(n_)); k_ -= n_; } }/' lstring.c
	grep -q 'k_ -= n_' lstring.c
}
# LULESH: CalcElemVolume(x[8], y[8], z[8]) does more work
p_lulesh_slower() {
	sed -i "/^Real_t CalcElemVolume( const Real_t x\[8\], const Real_t y\[8\], const Real_t z\[8\] )/{n;a $(spin 300)
}" lulesh.cc
}
# LULESH: the parallel loop of CalcHourglassControlForElems did more work in
# the baseline (an OpenMP outlined region)
p_lulesh_hourglass_slow() {
	sed -i "/^void CalcHourglassControlForElems(Domain& domain,/,/^}/{/for (Index_t i=0 ; i<numElem ; ++i){/a $(spin 3000)
}" lulesh.cc
}
# LULESH: CalcElemShapeFunctionDerivatives out of line, or inlined
p_lulesh_inline() {
	sed -i 's/^void CalcElemShapeFunctionDerivatives( Real_t const x\[\],/EGPROF_ATTR void CalcElemShapeFunctionDerivatives( Real_t const x[],/' lulesh.cc
}
# LULESH: CalcElemShapeFunctionDerivatives does more work, on its calls
# from CalcKinematicsForElems only (one call path)
p_lulesh_path() {
	p_lulesh_inline
	sed -i '0,/^#include "lulesh.h"/s//#include "lulesh.h"\nstatic thread_local int egprof_slow_path;/' lulesh.cc
	sed -i "/^  const Real_t x0 = x\[0\] ;   const Real_t x1 = x\[1\] ;/i if (egprof_slow_path) $(spin 1500)" lulesh.cc
	sed -i 's/^    CalcElemShapeFunctionDerivatives( x_local, y_local, z_local,$/    egprof_slow_path = 1; &/;
		s/^                                      B, &detJ );$/& egprof_slow_path = 0;/' lulesh.cc
	[ "$(grep -c 'egprof_slow_path' lulesh.cc)" = 4 ]
}
# XSBench: calculate_micro_xs does more work
p_xs_slower() {
	sed -i "/^                           long idx, double \* restrict xs_vector, int grid_type, int hash_bins ){/a $(spin 200)" Simulation.c
}
# XSBench: calculate_macro_xs did more work in the baseline
p_xs_macro_slow() {
	sed -i "/^                         double \* restrict macro_xs_vector, int grid_type, int hash_bins, int max_num_nucs ){/a $(spin 3000)" Simulation.c
}
# XSBench: calculate_micro_xs out of line, or inlined
p_xs_inline() {
	sed -i 's/^void calculate_micro_xs(   double p_energy, int nuc, long n_isotopes,/EGPROF_ATTR void calculate_micro_xs(   double p_energy, int nuc, long n_isotopes,/' Simulation.c
	sed -i 's/^void calculate_micro_xs(/EGPROF_ATTR void calculate_micro_xs(/' XSbench_header.h
}
# CoMD: interpolate does more work on rank 1 only
p_comd_rank() {
	sed -i "/^void interpolate(InterpolationObject\* table, real_t r, real_t\* f, real_t\* df)/{n;a static int egprof_rank = -1; if (egprof_rank < 0) egprof_rank = getMyRank(); if (egprof_rank == 1) $(spin 40)
}" eam.c
	grep -q 'egprof_rank == 1' eam.c
}
# CoMD: eamForce's loops do more work on every rank
p_comd_slower() {
	sed -i "/^         interpolate(pot->f, pot->rhobar\[iOff\], &fEmbed, &dfEmbed);/a $(spin 20000)" eam.c
	grep -q 'egprof_i_' eam.c
}
# CoMD: advanceVelocity takes its first box; the second build calls it once
# per box instead of once for all (more calls at equal work)
p_comd_velocity() {
	sed -i 's/^static void advanceVelocity(SimFlat\* s, int nBoxes, real_t dt);/static void advanceVelocity(SimFlat* s, int first, int nBoxes, real_t dt);/;
		s/^void advanceVelocity(SimFlat\* s, int nBoxes, real_t dt)/void advanceVelocity(SimFlat* s, int first, int nBoxes, real_t dt)/;
		/^void advanceVelocity/,/^}/s/^   for (int iBox=0; iBox<nBoxes; iBox++)$/   for (int iBox=first; iBox<first+nBoxes; iBox++)/' timestep.c
	sed -i 's/advanceVelocity(s, s->boxes->nLocalBoxes, 0.5\*dt);/advanceVelocity(s, 0, s->boxes->nLocalBoxes, 0.5*dt);/' timestep.c
}
p_comd_velocity_boxes() {
	p_comd_velocity
	sed -i 's/advanceVelocity(s, 0, s->boxes->nLocalBoxes, 0.5\*dt);/for (int b_ = 0; b_ < s->boxes->nLocalBoxes; b_++) advanceVelocity(s, b_, 1, 0.5*dt);/' timestep.c
	grep -q 'advanceVelocity(s, b_, 1' timestep.c
}

NOINLINE='-DEGPROF_ATTR=__attribute__((noinline))'
INLINE='-DEGPROF_ATTR=__attribute__((always_inline))'
INLINE_C='-DEGPROF_ATTR=__attribute__((always_inline)) inline'

# name|program|kind|changed function(s)|baseline patch|baseline flags|second patch|second flags
cases=(
"lua-slower|lua|slower|luaH_getshortstr|||p_lua_slower|"
"lua-faster|lua|faster|internshrstr|p_lua_intern_slow|||"
"lua-inline|lua|inlined by a flag|match_class singlematch matchbracketclass match|p_lua_inline|$NOINLINE|p_lua_inline|$INLINE_C"
"lua-calls|lua|more calls, equal work|luaS_hash|p_lua_hash||p_lua_hash_chunks|"
"lulesh-slower|lulesh|slower|CalcElemVolume|||p_lulesh_slower|"
"lulesh-faster|lulesh|faster (OpenMP region)|CalcHourglassControlForElems|p_lulesh_hourglass_slow|||"
"lulesh-inline|lulesh|inlined by a flag|CalcElemShapeFunctionDerivatives IntegrateStressForElems CalcKinematicsForElems|p_lulesh_inline|$NOINLINE|p_lulesh_inline|$INLINE"
"lulesh-path|lulesh|one call path|CalcElemShapeFunctionDerivatives|p_lulesh_inline|$NOINLINE|p_lulesh_path|$NOINLINE"
"xsbench-slower|xsbench|slower|calculate_micro_xs|||p_xs_slower|"
"xsbench-faster|xsbench|faster|calculate_macro_xs|p_xs_macro_slow|||"
"xsbench-inline|xsbench|inlined by a flag|calculate_micro_xs calculate_macro_xs|p_xs_inline|$NOINLINE|p_xs_inline|$INLINE"
"comd-rank|comd|one rank (MPI, one job per side)|interpolate|||p_comd_rank|"
"comd-slower|comd|slower (every rank)|eamForce|||p_comd_slower|"
"comd-calls|comd|more calls, equal work|advanceVelocity|p_comd_velocity||p_comd_velocity_boxes|"
)

# where NAMES OUTPUT: "first-significant position-of-changed hit top3": the
# rows of the --extended table in order; significant = no "~"/"=" mark; a
# name is compared by its base (before "(", " [", " (+")
where() {
	python3 - "$1" "$2" <<'PY'
import re, sys
want = set(sys.argv[1].split())
rows = []
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 9 and re.match(r"^-?[0-9]+\.[0-9]+$", f[0]) and f[7] in ("XX", "X.", ".X"):
        mark = f[-1] if f[-1] in ("~", "=") else ""
        name = " ".join(f[8:-1] if mark else f[8:])
        base = re.split(r"\(| \[| \(\+", name)[0].strip()
        rows.append((base, not mark))
sig = [n for n, s in rows if s]
first = sig[0] if sig else "-"
pos = next((i + 1 for i, n in enumerate(sig) if n in want), 0)
print(first, pos, 1 if first in want else 0, 1 if 0 < pos <= 3 else 0, len(sig))
PY
}

for r in $(seq 1 "$reps"); do
	for spec in "${cases[@]}"; do
		IFS='|' read -r name prog kind want pa fa pb fb <<< "$spec"
		case " ${CASES:-$name} " in *" $name "*) ;; *) continue ;; esac
		d=$WORK/cases/$name/$r
		if [ -z "${REDIFF:-}" ]; then
			if [ "$r" = 1 ] || [ ! -x "$(real_bin "$prog" "$name-a")" ]; then
				real_build "$prog" "$name-a" "$pa" ${fa:+"$fa"} || exit 1
				real_build "$prog" "$name-b" "$pb" ${fb:+"$fb"} || exit 1
			fi
			real_run "$prog" "$name-a" "$d/a" && real_run "$prog" "$name-b" "$d/b" || exit 1
		fi
		ba=$(real_bin "$prog" "$name-a") bb=$(real_bin "$prog" "$name-b")
		"$EGPROF" -b -p --extended "${extra[@]}" --diff "$ba" "$(real_gmon "$d/a")" \
			"$bb" "$(real_gmon "$d/b")" > "$d/diff.txt" 2> "$d/diff.err"
		"$EGPROF" -p "${extra[@]}" --diff "$ba" "$(real_gmon "$d/a")" \
			"$bb" "$(real_gmon "$d/b")" > "$d/classic.txt" 2>> "$d/diff.err"
		read -r first pos hit top3 nsig < <(where "$want" "$d/diff.txt")
		printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$name" "$prog" "$kind" "$want" "$first" \
			"$pos" "$hit" "$top3" "$nsig" >> "$WORK/results.$$"
	done
done

printf '%-15s %-30s %-34s %-24s %4s %5s %5s\n' case kind "changed function" \
	"first significant row" "pos" "first" "top3"
awk -F'|' '{ printf "%-15s %-30s %-34s %-24s %4s %5s %5s\n", $1, $3, substr($4, 1, 34),
	     substr($5, 1, 24), $6, $7, $8; n++; h += $7; t += $8 }
	   END { printf "all: %d diffs, changed function the first significant row in %d (%d%%), in the top 3 in %d (%d%%)\n",
		 n, h, n ? 100 * h / n : 0, t, n ? 100 * t / n : 0 }' "$WORK/results.$$"
rm -f "$WORK/results.$$"
echo "outputs in $WORK"
