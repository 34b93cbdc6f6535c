#!/usr/bin/env bash
# Recursion is folded (bounded calling-context tree): fib(30) and a linear
# recursion 100,000 deep record every call in a handful of nodes, and the
# reports print recursive calls as gprof does ("1+2692536"), never a line
# per depth.  CALLPATH_RECURSION=full keeps the unfolded paths.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc recurse recurse.c -O2 -fno-optimize-sibling-calls || exit 1
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1
nm -nS recurse > recurse.nm

# bounded NAME CALLS ARGS...: the bounds of the issue's acceptance
bounded() {
	local name=$1 calls=$2 func=$3
	shift 3
	rm -f gmon.out gmon.out.callpath
	LD_PRELOAD="$CP_SO" ./recurse "$@" > /dev/null
	local nodes size dropped sum lines
	nodes=$(cp_call_nodes gmon.out.callpath)
	size=$(stat -c %s gmon.out.callpath)
	dropped=$("$CP_DUMP" -H gmon.out.callpath | awk '/^dropped-/ { s += $2 } END { print s }')
	sum=$("$CP_DUMP" -f -s recurse.nm gmon.out.callpath |
		awk -v f="$func" '{ n = split($1, p, ";") } p[n] == f { s += $2 } END { print s }')
	cp_check "$name: no call dropped ($dropped)" test "$dropped" -eq 0
	cp_check "$name: fewer than 100 nodes ($nodes)" test "$nodes" -lt 100
	cp_check "$name: sidecar under 64 KiB ($size bytes)" test "$size" -lt 65536
	cp_check "$name: $func's folded calls sum to $calls ($sum)" test "$sum" -eq "$calls"
	"$EGPROF" -b --callpath ./recurse gmon.out > report.$name
	lines=$(sed -n '/Call-path profile/,$p' report.$name | wc -l)
	cp_check "$name: gprof --callpath prints under 100 lines ($lines)" test "$lines" -lt 100
	cp_check "$name: the report shows 1+$((calls - 1)) as gprof does" \
		grep -qE "^ +1\+$((calls - 1))( +[0-9.]+ +[0-9.]+)? +$func " report.$name
	cp_check "$name: gprof's call graph says the same" \
		bash -c "'$SYSGPROF' -b -q ./recurse gmon.out | grep -qE '1\+$((calls - 1)) +$func '"
}

bounded fib30 2692537 fib fib 30
bounded down100k 100001 down down 100000

# folded stacks: one line per call site of the recursion, not per depth
rm -f gmon.out gmon.out.callpath
LD_PRELOAD="$CP_SO" ./recurse fib 20 > /dev/null
"$EGPROF" -b --folded-calls fib.folded ./recurse gmon.out > /dev/null
cat > fib.expected <<'END'
main 1
main;fib 1
main;fib;fib 21890
END
awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' fib.folded | sort > fib.sum
cp_same "folded stacks: main;fib 1 and main;fib;fib 21890" fib.expected fib.sum
cp_check "folded stacks: one main;fib;fib line (its two call sites summed)" \
	test "$(grep -c "^main;fib;fib " fib.folded)" -eq 1

# CALLPATH_RECURSION=full: the unfolded paths, flagged in the header
CALLPATH_RECURSION=full LD_PRELOAD="$CP_SO" ./acc
cp_acceptance_expected_full | sort > expected.full
cp_folded ./acc gmon.out.callpath > folded.full
cp_same "CALLPATH_RECURSION=full keeps one path per depth" expected.full folded.full
cp_check "CALLPATH_RECURSION=full is recorded in the header (flag 0x8)" \
	test $(( $(cp_header gmon.out.callpath flags) & 8 )) -eq 8
LD_PRELOAD="$CP_SO" ./acc
cp_acceptance_expected | sort > expected.folded
cp_folded ./acc gmon.out.callpath > folded.folded
cp_same "default: recursion folded into main;r" expected.folded folded.folded
CALLPATH_RECURSION=bogus LD_PRELOAD="$CP_SO" ./acc 2> warn.txt
cp_check "a bad CALLPATH_RECURSION is reported and ignored" \
	grep -q "callpath: ignoring CALLPATH_RECURSION='bogus'" warn.txt
cp_done
