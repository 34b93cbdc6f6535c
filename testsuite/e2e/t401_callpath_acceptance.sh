#!/usr/bin/env bash
# The acceptance program (testsuite/fixtures/callpath/acceptance.c) through every way
# of using the runtime: LD_PRELOAD, -lcallpath (.so) and libcallpath.a, PIE
# and not, -mfentry; gmon.out's call graph must not change.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_acceptance_expected > "$WORKDIR/expected"

# variant: name, compile flags, link flags, how to run
run_variant() {
	local name=$1 cflags=$2 lflags=$3 how=$4 d="$WORKDIR/$1"
	mkdir -p "$d"
	# shellcheck disable=SC2086
	gcc -pg $cflags -o "$d/prog" "$CP_EX/acceptance.c" $lflags || {
		cp_check "$name: builds" false; return; }
	(cd "$d" && ./prog && mv gmon.out gmon.plain && rm -f gmon.out.callpath) ||
		{ cp_check "$name: runs without the runtime" false; return; }
	if [ "$how" = preload ]; then
		(cd "$d" && LD_PRELOAD="$CP_SO" ./prog)
	else
		(cd "$d" && ./prog)
	fi
	cp_check "$name: writes gmon.out and gmon.out.callpath" \
		test -s "$d/gmon.out" -a -s "$d/gmon.out.callpath"
	cp_folded "$d/prog" "$d/gmon.out.callpath" > "$d/folded"
	cp_same "$name: call paths and counts" "$WORKDIR/expected" "$d/folded"
	cp_graph_counts "$SYSGPROF" "$d/prog" "$d/gmon.plain" > "$d/graph.plain"
	cp_graph_counts "$SYSGPROF" "$d/prog" "$d/gmon.out" > "$d/graph.with"
	cp_same "$name: gmon.out call graph identical with and without" \
		"$d/graph.plain" "$d/graph.with"
}

# A -lcallpath binary cannot run without the runtime, so its "plain" run is
# the same program linked without it.
run_linked() {
	local name=$1 cflags=$2 lib=$3 d="$WORKDIR/$1"
	mkdir -p "$d"
	# shellcheck disable=SC2086
	gcc -pg $cflags -o "$d/plain" "$CP_EX/acceptance.c" &&
	gcc -pg $cflags -o "$d/prog" "$CP_EX/acceptance.c" $lib || {
		cp_check "$name: builds" false; return; }
	(cd "$d" && ./plain && mv gmon.out gmon.plain && ./prog)
	cp_check "$name: writes gmon.out.callpath" test -s "$d/gmon.out.callpath"
	cp_folded "$d/prog" "$d/gmon.out.callpath" > "$d/folded"
	cp_same "$name: call paths and counts" "$WORKDIR/expected" "$d/folded"
	cp_graph_counts "$SYSGPROF" "$d/plain" "$d/gmon.plain" > "$d/graph.plain"
	cp_graph_counts "$SYSGPROF" "$d/prog" "$d/gmon.out" > "$d/graph.with"
	cp_same "$name: gmon.out arcs identical with and without" \
		"$d/graph.plain" "$d/graph.with"
}

run_variant preload-pie "-O1" "" preload
run_variant preload-nopie "-O1 -fno-pie" "-no-pie" preload
run_variant preload-O0 "-O0" "" preload
run_variant preload-fentry "-O2 -mfentry -fno-optimize-sibling-calls" "" preload
run_linked linked-so "-O1" "-L$CP_LIB -lcallpath -Wl,-rpath,$CP_LIB"
run_linked linked-a-pie "-O1" "$CP_A"
run_linked linked-a-nopie "-O1 -fno-pie -no-pie" "$CP_A"

d="$WORKDIR/preload-fentry"
cp_check "fentry: the header says so" \
	test "$(cp_header "$d/gmon.out.callpath" flags)" = 0x1
d="$WORKDIR/preload-pie"
cp_check "PIE: load address recorded" \
	test "$(cp_header "$d/gmon.out.callpath" load-address)" != 0x0
cp_check "PIE: build-id recorded" test -n "$(cp_header "$d/gmon.out.callpath" build-id)"
d="$WORKDIR/preload-nopie"
cp_check "non-PIE: load address 0" \
	test "$(cp_header "$d/gmon.out.callpath" load-address)" = 0x0
cp_check "exe path recorded" \
	test "$(cp_header "$d/gmon.out.callpath" exe)" = "$d/prog"
cp_done
