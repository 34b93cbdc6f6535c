#!/usr/bin/env bash
# Sampled paths (a build without -pg) walk through libraries: qsort calls
# the program's comparator, so libc's sort functions are frames of calls
# in the paths, not only leaves.  Such a function was taken for one of the
# program's (kind "function"), and so were an MPI library's progress
# functions: judged at the program's speed, with the program's jitter and
# "probably inlined" moves, an A/A pair of two-rank jobs of a release
# build showed false significant rows.  Each library function is a row of
# kind "library" in every view that has kinds.
#
# And a side of several files (a directory of ranks) of sampled runs: its
# summed paths forgot that none of its runs counted calls, so the diff's
# JSON gave every function 0 calls (never a count for what was not
# counted) and its source line said the calls were the sidecars'.
#
# Exact: kinds and calls come from where the code is and how it was
# recorded, not from the samples' numbers (each run has about 150 ms of
# CPU time in the sort: at 1000 samples a second, a run without a sample
# in it has a chance below e^-100).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
cat > sorts.c <<'C'
#include <stdio.h>
#include <stdlib.h>
static volatile double sink;
static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	for (int i = 0; i < 20; i++)
		sink += x * 1e-9;
	return (x > y) - (x < y);
}
int main(int argc, char **argv)
{
	size_t n = 200000;
	double *v = malloc(n * sizeof(*v));
	unsigned s = (unsigned)(argc > 1 ? atoi(argv[1]) : 1);

	for (int r = 0; r < 3; r++) {
		for (size_t i = 0; i < n; i++)
			v[i] = (double)(s = s * 1103515245u + 12345u);
		qsort(v, n, sizeof(*v), cmp);
	}
	printf("%g\n", v[0] > v[n - 1] ? 1.0 : 0.0);
	return 0;
}
C
gcc -O2 -g -o sorts sorts.c || { echo "Bail out! build"; exit 1; }
# two "ranks" a side, each a process writing gmon.<pid> into its folder
for side in A B; do
	mkdir -p "$side"
	for r in 0 1; do
		OMPI_COMM_WORLD_RANK=$r GMON_OUT_PREFIX="$PWD/$side/gmon" LD_PRELOAD="$CP_SO" \
			./sorts $((r + 1)) > /dev/null || { echo "Bail out! run"; exit 1; }
	done
done
cp_check "each side has two files with sidecars" \
	bash -c "[ \$(ls A/*.callpath | wc -l) = 2 ] && [ \$(ls B/*.callpath | wc -l) = 2 ]"
one=$(ls A/gmon.* | grep -v callpath | head -1)
two=$(ls B/gmon.* | grep -v callpath | head -1)

"$EGPROF" --diff --format json ./sorts "$one" "$two" > one.json 2> one.err
"$EGPROF" --diff --format json ./sorts A B > ranks.json 2> ranks.err
"$EGPROF" --diff ./sorts A B > ranks.txt 2>> ranks.err
for f in one ranks; do
	cp_check "$f: libc's frames of calls (qsort's sort) are library rows; cmp is the program's" \
		python3 -c "
import json, sys
d = json.load(open('$f.json'))
kind = {x['name']: x['kind'] for x in d['functions']}
libc = [n for n in kind if n.endswith('[libc.so.6]')]
bad = [n for n in libc if kind[n] != 'library']
print('# libc rows:', len(libc), 'not library:', bad, 'cmp:', kind.get('cmp'), file=sys.stderr)
sys.exit(0 if libc and not bad and kind.get('cmp') == 'function' else 1)"
done
cp_check "the sides of ranks: no function shows a call count (null), as with one file each" \
	python3 -c "
import json, sys
d = json.load(open('ranks.json'))
fns = [x for x in d['functions'] if x['kind'] != 'cycle']
sys.exit(0 if fns and all(x['calls_base'] is None and x['calls_second'] is None for x in fns) else 1)"
cp_check "the sides of ranks: the source says the calls were not counted" \
	bash -c "tr '\n' ' ' < ranks.txt | grep -q 'calls: not counted (sampled without -pg)'"
cp_check "nothing on stderr" bash -c "! cat one.err ranks.err | grep -q ."
cp_done
