#!/usr/bin/env bash
# Our gprof under valgrind's memcheck: no invalid read or write, no use of
# uninitialised memory, in plain gprof, --diff, the graph exports and the
# call-path report.  Leaks are not checked here: upstream gprof never frees
# what it reads before it exits (the unit tests check our modules for leaks).
set -u
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
if ! command -v valgrind > /dev/null; then
	echo "ok 1 - # SKIP valgrind not installed"; exit 0
fi
case $(nm "$EGPROF" 2>/dev/null | grep -c __asan_init) in
	0) ;; *) echo "ok 1 - # SKIP built with AddressSanitizer"; exit 0 ;;
esac
vg() { # name, command...: memcheck over the process and its loaders
	local name=$1; shift
	valgrind -q --error-exitcode=99 --trace-children=yes --leak-check=no \
		--log-file=vg.%p.log "$@" > out.txt 2> err.txt
	local rc=$?
	if [ $rc = 99 ] || grep -qs 'Invalid\|uninitialised\|Mismatched' vg.*.log; then
		not_ok "$name (memcheck errors)"
		cat vg.*.log | head -n 20 | sed 's/^/# /'
	elif [ $rc != 0 ]; then
		not_ok "$name (exit $rc)"
		head -n 5 err.txt | sed 's/^/# /'
	else
		ok "$name"
	fi
	rm -f vg.*.log
}

sh "$SRCDIR/testsuite/fixtures/fig1/fig1.sh" fig1 > /dev/null
cat > prog.c <<'C'
int leaf(int x) { volatile int s = 0; for (int i = 0; i < x; i++) s += i; return s; }
int mid(int x) { return leaf(x) + leaf(x / 2); }
int main(void) { long t = 0; for (int i = 0; i < 300; i++) t += mid(20000); return t == 42; }
C
gcc -pg -g -o prog prog.c && ./prog
LD_PRELOAD="$BUILDDIR/callpath/libcallpath.so" ./prog
mv gmon.out gmon.cp && mv gmon.out.callpath gmon.cp.callpath
./prog

vg "plain gprof" "$EGPROF" prog gmon.out
vg "gprof -l -A" "$EGPROF" -l -A prog gmon.out
vg "--diff --extended" "$EGPROF" --diff --extended fig1/demo fig1/fig1-a.gmon fig1/fig1-b.gmon
vg "--diff with graphs" "$EGPROF" -b --diff --gml d.gml --dot d.dot --graphml d.graphml \
	fig1/demo fig1/fig1-a.gmon fig1/fig1-b.gmon
vg "single graphs" "$EGPROF" -b --gml s.gml --dot s.dot --graphml s.graphml prog gmon.out
vg "--callpath --folded-calls" "$EGPROF" -b --callpath --folded-calls f.txt prog gmon.cp
vg "--rank-stats" "$EGPROF" --rank-stats prog gmon.out gmon.cp
vg "--diff of a garbage gmon" sh -c "head -c 100 /dev/urandom > junk; \"$EGPROF\" --diff prog gmon.out junk; [ \$? = 1 ]"
echo "# $n cases"
[ $fails = 0 ]
