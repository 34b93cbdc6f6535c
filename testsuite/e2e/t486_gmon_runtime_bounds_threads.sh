#!/usr/bin/env bash
# gmon.out's arcs kept by libcallpath (issue 23), beyond t485's corpus:
#  - calls the trees cannot take (CALLPATH_MAX_NODES, CALLPATH_MAX_DEPTH
#    below what the program needs) go to the runtime's flat arc table:
#    gmon.out still equals a plain run's, record for record;
#  - threads: two threads calling tick() 2,000,000 times each: 4,000,000
#    in gmon.out, exactly (glibc's counter drops calls that find it busy:
#    printed for the record);
#  - glibc's __mcount_internal is never called once the runtime has taken
#    over (a gdb breakpoint's hit count), and is called with
#    CALLPATH_ARCS=glibc (the fallback);
#  - static links with libcallpath.a: the same call graph as a plain static
#    build, index numbers aside, and CALLPATH_ARCS=glibc writes the same
#    file byte for byte (glibc's table then holds every arc).
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
NOASLR="setarch $(uname -m) -R"

gcc -pg -O0 -o recur "$GM_SRC/recur.c" && gcc -pg -O0 -o fptr "$GM_SRC/fptr.c" || exit 1
for prog in recur fptr; do
	mkdir -p $prog.p && (cd $prog.p && $NOASLR ../$prog > out) || exit 1
done
# bounds PROG NAME ENV...: the trees drop calls, gmon.out does not
bounds() {
	local prog=$1 d=$1.$2
	shift 2
	mkdir -p $d && (cd $d && env "$@" LD_PRELOAD="$CP_SO" $NOASLR ../$prog > out) || exit 1
	cp_check "$prog, $*: calls were dropped from the trees" \
		bash -c "'$BUILDDIR/tools/cpdump/cpdump' $d/gmon.out.callpath | grep -q '^dropped.* [1-9]'"
	gm_compare "$prog-$*" $prog $prog.p $d
}
bounds recur depth CALLPATH_MAX_DEPTH=16
bounds recur nodes CALLPATH_RECURSION=full CALLPATH_MAX_NODES=16
bounds fptr nodes CALLPATH_MAX_NODES=16

gcc -pg -O0 -o ticks "$GM_SRC/ticks.c" -lpthread || exit 1
mkdir -p tp tr && (cd tp && ../ticks > /dev/null) && (cd tr && LD_PRELOAD="$CP_SO" ../ticks > /dev/null) ||
	exit 1
echo "# plain glibc counted $(cp_calls_of "$SYSGPROF" ticks tp/gmon.out tick) calls of tick"
cp_check "two threads: 4000000 calls of tick in gmon.out" \
	test "$(cp_calls_of "$SYSGPROF" ticks tr/gmon.out tick)" = 4000000

# glibc's counter: hits of a breakpoint on __mcount_internal
hits() { # ENV...
	env "$@" gdb -q -batch -ex 'set breakpoint pending on' -ex 'break __mcount_internal' \
		-ex run -ex 'info breakpoints' ./recur 2>/dev/null |
		awk '/already hit/ { print $4; found = 1 } END { if (!found) print 0 }'
}
if command -v gdb > /dev/null; then
	mkdir -p gdb && cd gdb
	cp ../recur .
	cp_check "taken over: glibc's __mcount_internal is never called" \
		test "$(hits LD_PRELOAD="$CP_SO")" = 0
	cp_check "CALLPATH_ARCS=glibc: glibc's __mcount_internal counts" \
		test "$(hits CALLPATH_ARCS=glibc LD_PRELOAD="$CP_SO")" != 0
	cd ..
else
	cp_skip "glibc's __mcount_internal never called (no gdb)"
fi

if echo 'int main(void){return 0;}' | gcc -static -x c -o /dev/null - 2>/dev/null; then
	# qsortcb's callbacks are called from libc's qsort, linked in: glibc
	# keeps those arcs, named after the libc symbol nearest the call site,
	# which libcallpath.a's own libc calls move (compared with CALLPATH_ARCS=glibc)
	for src in recur fptr monctl qsortcb; do
		gcc -static -pg -O0 -o $src.splain "$GM_SRC/$src.c" &&
		gcc -static -pg -O0 -o $src.s "$GM_SRC/$src.c" "$CP_A" -lpthread || exit 1
		mkdir -p $src.sp $src.sr $src.sf
		(cd $src.sp && ../$src.splain > out)
		(cd $src.sr && ../$src.s > out)
		(cd $src.sf && CALLPATH_ARCS=glibc ../$src.s > out)
		cp_same "static $src: the program's output is unchanged" $src.sp/out $src.sr/out
		gm_compare static-$src-vs-glibc $src.s $src.sf $src.sr
		$GM_CMP --zero-bins $src.sp/gmon.out $src.sp.z && $GM_CMP --zero-bins $src.sr/gmon.out $src.sr.z
		"$SYSGPROF" -b -q $src.splain $src.sp.z | sed 's/\[[0-9]*\]//g' > $src.sqp
		"$SYSGPROF" -b -q $src.s $src.sr.z | sed 's/\[[0-9]*\]//g' > $src.sqr
		[ $src = qsortcb ] ||
		cp_same "static $src: gprof -b -q as a plain static build's, index numbers aside" \
			$src.sqp $src.sqr
	done
else
	cp_skip "static links (no static C library)"
fi
cp_done
