#!/usr/bin/env bash
# gprof --callpath / --folded-calls on the acceptance program (the issue's
# acceptance test): folded stacks give exactly the drawn counts, gprof's own
# output comes first byte for byte, and the report names every path.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
EG=$EGPROF

cp_acceptance_expected > "$WORKDIR/expected"

# variant NAME CFLAGS LDFLAGS: build, run without and with the runtime
# (CALLPATH_HZ=10: a tick the short run never reaches, so that the report
# has no time columns whatever the machine's speed)
variant() {
	local d="$WORKDIR/$1"
	mkdir -p "$d"
	# shellcheck disable=SC2086
	gcc -pg $2 -o "$d/prog" "$CP_EX/acceptance.c" $3 &&
	(cd "$d" && ./prog && mv gmon.out gmon.plain && CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" ./prog)
}

for v in pie:"-O1": nopie:"-O0 -fno-pie":"-no-pie" debug:"-O0 -g":; do
	IFS=: read -r name cflags lflags <<<"$v"
	d="$WORKDIR/$name"
	if ! variant "$name" "$cflags" "$lflags"; then
		cp_check "$name: builds and runs" false
		continue
	fi
	(cd "$d" && "$EG" --callpath --folded-calls out.folded prog gmon.out >out.txt 2>err.txt)
	cp_check "$name: exit status 0, nothing on stderr" \
		test $? -eq 0 -a ! -s "$d/err.txt"
	# identical stacks from different call sites are one line; sum anyway
	awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' "$d/out.folded" |
		sort >"$d/folded.sum"
	cp_same "$name: folded counts are exact" "$WORKDIR/expected" "$d/folded.sum"
	cp_check "$name: folded file is sorted, one line per stack" \
		cmp -s "$d/folded.sum" "$d/out.folded"
	(cd "$d" && "$SYSGPROF" prog gmon.out >sys.txt)
	head -c "$(stat -c %s "$d/sys.txt")" "$d/out.txt" >"$d/ours.prefix"
	cp_check "$name: gprof's own output first, byte-identical" \
		cmp -s "$d/sys.txt" "$d/ours.prefix"
	cp_check "$name: then the call-path section" \
		grep -q "^			Call-path profile$" "$d/out.txt"
	cp_graph_counts "$SYSGPROF" "$d/prog" "$d/gmon.plain" >"$d/graph.plain"
	cp_graph_counts "$SYSGPROF" "$d/prog" "$d/gmon.out" >"$d/graph.with"
	cp_same "$name: gmon.out call counts equal a run without the runtime" \
		"$d/graph.plain" "$d/graph.with"
done

# The report of the -O0 build, call-site offsets masked (they depend on
# the compiler).
d="$WORKDIR/nopie"
sed -n '/^			Call-path profile$/,$p' "$d/out.txt" |
	sed -E 's/\+0x[0-9a-f]+/+OFF/g' >"$d/report"
cat >"$WORKDIR/report.expected" <<'END'
			Call-path profile

From 'gmon.out.callpath': 39 calls along 10 paths to 8 functions.

Each function's calls, split by the path that reached it.  A path
lists the functions from the outermost, each with the call site it
was called from (the return address, as function+offset, or
file:line with -l).

c: 12 calls, 3 paths
       calls  %calls  path
           7  58.33  main -> b (main+OFF) -> c (b+OFF)
           3  25.00  main -> a (main+OFF) -> c (a+OFF)
           2  16.67  main -> b (main+OFF) -> d (b+OFF) -> c (d+OFF)

b: 9 calls, 1 path
       calls  %calls  path
           9 100.00  main -> b (main+OFF)

op: 7 calls, 1 path
       calls  %calls  path
           7 100.00  main -> op (main+OFF)

r: 4 calls, 1 path
       calls  %calls  path
         1+3 100.00  main -> r (main+OFF)

a: 3 calls, 1 path
       calls  %calls  path
           3 100.00  main -> a (main+OFF)

d: 2 calls, 1 path
       calls  %calls  path
           2 100.00  main -> b (main+OFF) -> d (b+OFF)

leaf: 1 call, 1 path
       calls  %calls  path
           1 100.00  main -> r (main+OFF) -> leaf (r+OFF)

main: 1 call, 1 path
       calls  %calls  path
           1 100.00  main


			Calling-context tree

Every path as a tree, callees indented under their callers; a '*'
marks a function reached along more than one path.

       calls  function (call site)
           1  main
           9    b (main+OFF)
           7      *c (b+OFF)
           2      d (b+OFF)
           2        *c (d+OFF)
           7    op (main+OFF)
         1+3    r (main+OFF)
           1      leaf (r+OFF)
           3    a (main+OFF)
           3      *c (a+OFF)
END
tr -d '\f' <"$d/report" >"$d/report.noff"
cp_same "report and tree of the -O0 build" "$WORKDIR/report.expected" "$d/report.noff"

# -l: call sites as file:line of the call.
d="$WORKDIR/debug"
(cd "$d" && "$EG" -b -l --callpath prog gmon.out >lines.txt 2>&1)
line_b=$(grep -n 'b(i < 2);' "$CP_EX/acceptance.c" | cut -d: -f1)
cp_check "-l: call sites are file:line of the call" \
	grep -q "main -> b (acceptance.c:$line_b) -> c (acceptance.c:" "$d/lines.txt"
(cd "$d" && "$EG" -b -l -L --callpath prog gmon.out >lines-L.txt 2>&1)
cp_check "-l -L: full file names" grep -q "(/.*/acceptance.c:$line_b)" "$d/lines-L.txt"

# --callpath=FILE and --folded-calls alone (no report on stdout).
d="$WORKDIR/pie"
(cd "$d" && mv gmon.out.callpath elsewhere.cp &&
 "$EG" -b --callpath=elsewhere.cp prog gmon.out >explicit.txt 2>&1)
cp_check "--callpath=FILE reads that file" \
	grep -q "^From 'elsewhere.cp': 39 calls" "$d/explicit.txt"
(cd "$d" && mv elsewhere.cp gmon.out.callpath && "$EG" -b --folded-calls only.folded prog gmon.out >only.txt &&
 "$SYSGPROF" -b prog gmon.out >only.sys)
cp_check "--folded-calls alone: stdout is gprof's" cmp -s "$d/only.txt" "$d/only.sys"
cp_check "--folded-calls alone: same stacks" cmp -s "$d/only.folded" "$d/out.folded"

# Several gmon files: their sidecars are summed, as gprof sums the files.
(cd "$d" && cp gmon.out gmon.2 && cp gmon.out.callpath gmon.2.callpath &&
 "$EG" -b --folded-calls two.folded prog gmon.out gmon.2 >/dev/null)
awk '{ print $1, 2 * $2 }' "$WORKDIR/expected" >"$WORKDIR/expected.x2"
cp_same "two gmon files: sidecars summed" "$WORKDIR/expected.x2" "$d/two.folded"
# Call sites outside the program are recorded as 0 (external): main's, in
# the C library, and a comparison function's called back by qsort.  The
# report leaves main's out and names the callback's "[external]"; two runs
# of the PIE (two load addresses) sum to one tree.
d="$WORKDIR/qsort"
mkdir -p "$d"
cat >"$d/q.c" <<'END'
#include <stdlib.h>
__attribute__((noinline)) int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}
int main(void)
{
	int v[] = { 3, 1, 2 };
	qsort(v, 3, sizeof(v[0]), cmp);
	return v[0] != 1;
}
END
if (cd "$d" && gcc -pg -O1 -o q q.c && CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" GMON_OUT_PREFIX=g ./q &&
    CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" GMON_OUT_PREFIX=g ./q); then
	set -- "$d"/g.[0-9]*.callpath
	(cd "$d" && "$EG" -b --callpath q "${1%.callpath}" >report.txt 2>err.txt)
	cp_check "qsort callback: main's call site left out, the callback's is [external]" \
		grep -Eq '^ +[0-9]+ +100\.00  main -> cmp \(\[external\]\)$' "$d/report.txt"
	cp_check "qsort callback: the tree shows main without a call site" \
		grep -Eq '^ +1  main$' "$d/report.txt"
	"$CP_DUMP" "$@" >"$d/sum.txt"
	cp_check "qsort callback: two runs sum to one tree of two nodes" \
		test "$(sed -n 's/^nodes //p' "$d/sum.txt")" = 2 -a \
		"$(grep -c '<- \[external\]$' "$d/sum.txt")" = 2
else
	cp_check "qsort callback program builds and runs" false
fi
cp_done
