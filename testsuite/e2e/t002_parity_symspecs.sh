#!/bin/bash
# Parity of the options that take symbol specifications (-p -P -q -Q -e -E
# -f -F -n -N -k and their long forms): each option with a spec by name, by
# file:name (the two static helper() functions), by file:line, by file, by
# bare line, and with a spec that matches nothing; arcs for -k/-q/-Q; and
# several specs at once.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

e2e_build_std cmix-O0g-nopie cmix-O2-pie cxx-O0g-pie cxx-O2-nopie csmall-O0g-pie

# Spec options. The short ones with optional arguments need them attached;
# the others are tried both ways. The -O2 builds get the short ones only.
short_opts=(-p -P -q -Q "-e " -E "-f " -F "-n " -N)
spec_opts=("${short_opts[@]}"
	--flat-profile= --no-flat-profile= --graph= --no-graph= --time= --no-time=)

fib=$(e2e_line cmix/recur.c fib)
ring=$(e2e_line cmix/recur.c ring_a)
cmix_specs=(fib spin main helper stat_a.c:helper stat_b.c:helper "recur.c:$fib"
	"recur.c:$((fib + 1))" "recur.c:$ring" recur.c "$ring" is_even nosuch nosuch.c:fib)
cxx_specs=(c_linkage_spin main _ZNK3geo6Circle4areaEv _ZN12_GLOBAL__N_16helperEi
	left.cc:_ZN12_GLOBAL__N_16helperEi right.cc:_ZN12_GLOBAL__N_16helperEi
	_ZN5outer5inner4deepEi shapes.cc "geo::Circle::area() const" _Z8use_lefti)
csmall_specs=(leaf middle csmall.c:leaf csmall.c:22 csmall.c:34 csmall.h:mix unused_static)

for o in "${spec_opts[@]}"; do
	for s in "${cmix_specs[@]}"; do
		e2e_case cmix-O0g-nopie "gprof -b $o'$s' prog gmon.out"
	done
	for s in "${cxx_specs[@]}"; do
		e2e_case cxx-O0g-pie "gprof -b $o'$s' prog gmon.out"
	done
done
for o in "${short_opts[@]}"; do
	for s in "${cmix_specs[@]}"; do
		e2e_case cmix-O2-pie "gprof -b $o'$s' prog gmon.out"
	done
	for s in "${cxx_specs[@]}"; do
		e2e_case cxx-O2-nopie "gprof -b $o'$s' prog gmon.out"
	done
done
for o in "${spec_opts[@]}"; do
	for s in "${csmall_specs[@]}"; do
		e2e_case csmall-O0g-pie "gprof -b $o'$s' prog gmon.out gmon.2"
	done
done

# Arcs: -k from/to removes an arc; -q/-Q with a slash include/exclude arcs.
arcs=(main/spin helper/spin stat_a.c:helper/spin fib/fib is_even/is_odd ring_c/ring_a
	/spin main/ nosuch/spin "recur.c:$ring/ring_b")
for v in cmix-O0g-nopie cmix-O2-pie; do
	for a in "${arcs[@]}"; do
		e2e_case "$v" "gprof -b -q -k '$a' prog gmon.out"
		e2e_case "$v" "gprof -b -k'$a' prog gmon.out gmon.2"
		e2e_case "$v" "gprof -b -q'$a' prog gmon.out"
		e2e_case "$v" "gprof -b -Q'$a' prog gmon.out"
	done
done
for a in main/c_linkage_spin _ZN5outer5inner4deepEi/_ZN5outer5inner6deeperEi \
	 left.cc:_ZN12_GLOBAL__N_16helperEi/c_linkage_spin; do
	e2e_case cxx-O0g-pie "gprof -b -q -k '$a' prog gmon.out"
	e2e_case cxx-O2-nopie "gprof -k '$a' prog gmon.out"
done

# Several specs together, with and without -b/-z, and without -b.
combos=(
	"-pfib -pspin -qmain"
	"-Pspin -Qmain"
	"-e spin -f main"
	"-E spin -F fib"
	"-n spin -N fib"
	"-pstat_a.c:helper -Pstat_b.c:helper -z"
	"-qmain -k main/spin -k fib/fib"
	"-Fspin -Efib -c"
	"-pspin -T"
	"-Qhelper -w 50"
	"-z -Pmain -pnever_called"
	"-ffib -ffib"
	"-a -phelper"
	"-l -pspin"
	"-l -qfib"
)
for v in cmix-O0g-nopie cmix-O2-pie; do
	for c in "${combos[@]}"; do
		e2e_case "$v" "gprof $c prog gmon.out gmon.2 gmon.3"
		e2e_case "$v" "gprof -b $c prog gmon.out"
	done
done

e2e_run_cases
e2e_done
