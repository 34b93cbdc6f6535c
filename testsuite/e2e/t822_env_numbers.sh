#!/usr/bin/env bash
# The runtime reads every number in its environment one way (runtime/env.h):
# decimal digits only.  Blanks before or after, a sign, a base prefix, or a
# value out of range are refused alike, each with the same words,
#   callpath: ignoring NAME='VALUE': not a number in [LO, HI]
# and the default kept; CALLPATH_HZ=" 10" was accepted and "10 " refused.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cp_cc acc acceptance.c -O1 || exit 1
./acc > plain.out

# run VAR VALUE: the program's stderr with VAR=VALUE, and its sidecar
run() {
	rm -f gmon.out gmon.out.callpath
	env "$1=$2" LD_PRELOAD="$CP_SO" ./acc > out 2> err
	cmp -s plain.out out || echo "# output changed with $1='$2'"
}
for v in " 10" "10 " "+10" "-10" "0x10" "1e3" "10000000000000000000000" "5" "10001"; do
	run CALLPATH_HZ "$v"
	cp_check "CALLPATH_HZ='$v' refused in the common words" \
		grep -qxF "callpath: ignoring CALLPATH_HZ='$v': not 0 or a number in [10, 10000]" err
	cp_check "... and the default rate kept (1 ms periods)" \
		test "$(cp_header gmon.out.callpath time-period)" = 1000000
done
run CALLPATH_HZ 50
cp_check "CALLPATH_HZ=50 taken (20 ms periods), nothing said" \
	bash -c "[ \"\$('$CP_DUMP' -H gmon.out.callpath | awk '\$1 == \"time-period\" { print \$2 }')\" = 20000000 ] && [ ! -s err ]"
for var in CALLPATH_MAX_NODES CALLPATH_MAX_DEPTH; do
	for v in " 100" "100 " "-1"; do
		run $var "$v"
		cp_check "$var='$v' refused in the common words" \
			grep -qF "callpath: ignoring $var='$v': not a number in [16, " err
	done
done
run CALLPATH_DEPTH " 2"
cp_check "CALLPATH_DEPTH=' 2' refused: full paths kept" \
	bash -c "grep -qxF \"callpath: ignoring CALLPATH_DEPTH=' 2': not a number in [0, 1024]\" err && [ \$('$CP_DUMP' -H gmon.out.callpath | awk '\$1 == \"depth\" { print \$2 }') = 0 ]"
cp_done
