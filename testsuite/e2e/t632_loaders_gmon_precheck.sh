#!/usr/bin/env bash
# Gmon files on which stock gprof exhausts memory or works for hours (issue
# 12 item 7, doc/dev/reliability.md): refused at once, naming the file and the
# problem, in plain gprof mode, --diff and --rank-stats; near misses that
# stock gprof handles quickly still get its output byte for byte.  Memory is
# capped so that a regression fails (upstream's "out of memory") instead of
# clearing gigabytes on the test machine.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
MK="$SRCDIR/testsuite/fixtures/loaders/mkgmon_bad.py"

cc -pg -O1 -no-pie -o prog "$SRCDIR/testsuite/fixtures/loaders/work.c" && ./prog ||
	{ echo "not ok 1 - build work.c"; echo "1..1"; exit 1; }
for c in bins2e31 bins2e32 bsd2e31 ranges5000 ranges4096 shortbins; do
	python3 "$MK" $c $c.gmon 0x400000 0x401000
done

# The memory cap: ulimit -v, or for ASan (which reserves terabytes of
# address space for its shadow) its own allocation limit.
cap="ulimit -v 2000000"
if nm "$EGPROF" 2>/dev/null | grep -q __asan_init; then
	cap=:
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size=2000000000:allocator_may_return_null=1"
fi

# refused NAME WHY GMON ARGS...: exit 1, stderr names GMON and WHY, no output
refused() {
	local name=$1 why=$2 gmon=$3 rc
	shift 3
	($cap; timeout 60 "$EGPROF" "$@" > out.txt 2> err.txt)
	rc=$?
	check "$name: exit 1 (got $rc)" test $rc -eq 1
	check "$name: names '$gmon' and says '$why'" \
		grep -qF "$gmon: $why" err.txt
	check "$name: nothing on stdout" test ! -s out.txt
}
refused "2^31 bins" "truncated histogram record (2147483648 bins" bins2e31.gmon -b prog bins2e31.gmon
refused "2^32-1 bins" "truncated histogram record (4294967295 bins" bins2e32.gmon -b prog bins2e32.gmon
refused "BSD header of 2^31 bytes" "not a gmon file" bsd2e31.gmon -b prog bsd2e31.gmon
refused "5000 histogram ranges" "5000 histogram records of different address ranges" \
	ranges5000.gmon -b prog ranges5000.gmon
refused "-s with 2^31 bins" "truncated histogram record" bins2e31.gmon -s prog gmon.out bins2e31.gmon
check "... and no gmon.sum" test ! -e gmon.sum
refused "--diff with 2^31 bins" "truncated histogram record" bins2e31.gmon \
	--diff prog gmon.out bins2e31.gmon
refused "--rank-stats with 2^31 bins" "truncated histogram record" bins2e31.gmon \
	--rank-stats prog gmon.out bins2e31.gmon

# same NAME ARGS...: stdout, stderr and exit status as stock gprof
same() {
	local name=$1 rc1 rc2
	shift
	"$SYSGPROF" "$@" > sys.out 2> sys.err
	rc1=$?
	"$EGPROF" "$@" > ours.out 2> ours.err
	rc2=$?
	sed -i "s|^$EGPROF:|gprof:|; s|^$SYSGPROF:|gprof:|" sys.err ours.err
	check "$name: as stock gprof (exit $rc1 / $rc2)" \
		bash -c "[ $rc1 = $rc2 ] && cmp -s sys.out ours.out && cmp -s sys.err ours.err"
}
same "4096 histogram ranges" -b prog ranges4096.gmon
same "a short histogram (upstream's own message)" -b prog shortbins.gmon
same "a valid profile" -b prog gmon.out
dl_done
