#!/usr/bin/env bash
# MPI ranks with a real mpirun (OpenMPI): a -pg PIE program linked with
# libcallpath (testsuite/mpi/ranks.c: rank 0 alone calls timers(), work grows
# with the rank) runs twice with 4 ranks, each run into its own directory.
# Checks rank identity from sidecars, --rank-stats, --diff of the two
# directories (with --callpath: per-side sidecar sums), -s (byte-identical
# to /usr/bin/gprof, plus a sidecar sum whose ranks line up although each
# loaded the PIE elsewhere: one tree, the union of the ranks' trees; also
# with --callpath; none, and a stale one removed, when some sidecars are
# missing) and egprof-sum under mpirun (the same policy).  Skips when
# OpenMPI is not installed.
# False-failure bound: the time checks compare ranks whose work differs by a
# third or more (work_unit: 1, 2, 3 and 4 units, some 30 to 120 ticks at
# 100 Hz); ITIMER_PROF's ticks are periodic in CPU time, so a count strays
# from its time by a tick or two (seen: 30, 59, 87, 120), and the
# imbalance check's band (1.3 to 1.9 around 1.6) holds 18% either way.  As
# Poisson draws (which overstate periodic ticks) rank 3 falls to rank 2's
# count with a chance of 2%; what can move them is a rank's CPU time per
# unit of work, which this script, run alone, keeps within a few percent.
# testsuite: alone (measures CPU time: see testsuite/run)
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"

if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then
	echo "ok 1 - # SKIP mpirun or mpicc not installed (apt-get install openmpi-bin libopenmpi-dev)"
	echo "1..1"
	exit 0
fi

CP="$BUILDDIR/callpath"
CPDUMP="$BUILDDIR/tools/cpdump/cpdump"
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # containers without CMA
cd "$WORKDIR" || exit 1

# PIE, the compiler's default: with address-space randomisation every rank
# loads the program elsewhere, and summing sidecars must still line up the
# ranks' paths (sidecar_merge rebases to one load address).
if mpicc -pg -O1 -g -o ranks "$SRCDIR/testsuite/mpi/ranks.c" \
	-L"$CP" -lcallpath -Wl,-rpath,"$CP" >build.log 2>&1 &&
   LC_ALL=C readelf -h ranks | grep -q 'Type: *DYN'; then
	ok "MPI test program builds as PIE with -pg and -lcallpath"
else
	not_ok "MPI test program builds as PIE with -pg and -lcallpath"
	diag <build.log
	e2e_done
fi
nm -n ranks >ranks.nm

# The ranks' time is glibc's histogram (what --rank-stats reads), with the
# runtime's 1 kHz per-thread timers beside glibc's ticks (the default).
# OpenMPI's progress threads sleep in epoll: when the runtime's handler
# blocked SIGPROF, the kernel handed glibc's tick to one of them and the
# histogram lost it, so work_unit's 1:2:3:4 shares came out wrong in 1 run
# of 3 (issue 22; t436 tests that mechanism alone).
run() { # DIR SIZE
	mkdir -p "$1"
	GMON_OUT_PREFIX="$WORKDIR/$1/gmon" "${MPIRUN[@]}" -np 4 -x GMON_OUT_PREFIX ./ranks "$2" \
		>"$1.log" 2>&1
}
if run run1 2 && run run2 4; then
	ok "mpirun -np 4 runs twice"
else
	not_ok "mpirun -np 4 runs twice"
	diag <run1.log
	diag <run2.log 2>/dev/null
	e2e_done
fi

for d in run1 run2; do
	ng=$(find $d -name 'gmon.[0-9]*' ! -name '*.callpath' | wc -l)
	ns=$(find $d -name 'gmon.[0-9]*.callpath' | wc -l)
	if [ "$ng" = 4 ] && [ "$ns" = 4 ]; then
		ok "$d: four gmon files and four sidecars"
	else
		not_ok "$d: four gmon files and four sidecars (found $ng and $ns)"
		ls $d | diag
	fi
	ranks=$(for s in $d/*.callpath; do "$CPDUMP" -H "$s" | sed -n 's/^rank //p'; done | sort -n | tr '\n' ' ')
	pids_ok=1
	for s in $d/*.callpath; do
		pid=$("$CPDUMP" -H "$s" | sed -n 's/^pid //p')
		[ "$s" = "$d/gmon.$pid.callpath" ] || pids_ok=0
	done
	if [ "$ranks" = "0 1 2 3 " ] && [ $pids_ok = 1 ]; then
		ok "$d: sidecars record ranks 0..3 and the pids of their gmon files"
	else
		not_ok "$d: sidecars record ranks 0..3 and the pids of their gmon files (ranks: $ranks)"
	fi
done
# Without randomisation the rebasing checks below would prove nothing.
nload=$(for s in run1/*.callpath; do "$CPDUMP" -H "$s" | sed -n 's/^load-address //p'; done |
	sort -u | wc -l)
if [ "$nload" -gt 1 ]; then
	ok "run1: the ranks loaded the PIE at $nload different addresses"
else
	echo "ok $((E2E_N + 1)) - # SKIP one load address for all ranks (no ASLR?)"
	E2E_N=$((E2E_N + 1))
fi

# Folded paths named with the program's symbols (cpdump names addresses
# relative to each file's load address), summed by path: the same for the
# ranks one by one as for a summed sidecar, when the sum lined them up.
folded_by_name() { # FILE... -> "path count" lines, summed per path, sorted
	for f in "$@"; do "$CPDUMP" -f -s ranks.nm "$f"; done |
		awk '{ c[$1] += $2 } END { for (p in c) print p, c[p] }' | sort
}
total() { "$CPDUMP" -H "$1" | sed -n 's/^calls //p'; }
# nodes of calls: the time samples' leaves (issue 22) are at library
# addresses each rank loaded elsewhere, moved into the sum's address space
# by the objects they lie in, so they are left out of both counts
nodes() { "$CPDUMP" -H "$1" | awk '$1 == "nodes" { n = $2 } $1 == "leaves" { l = $2 } END { print n - l }'; }
# Distinct (callee, call site) paths, named, over the files one by one: the
# node count of a sum that lines the ranks up (the union of their trees).
union_nodes() { # FILE...
	for f in "$@"; do "$CPDUMP" -s ranks.nm "$f" | sed -n '/^dropped-stopped/,$p' | sed 1d |
		grep -v ' <- \[sample\]'; done |
		awk '{ match($0, /^ */); d = RLENGTH / 2; sub(/^ *[0-9]+ /, "");
		       key[d] = (d ? key[d - 1] ";" : "") $0; print key[d] }' | sort -u | wc -l
}

# --rank-stats reads each file through upstream on its own: -s would write
# gmon.sum once per file, so it is refused, and nothing is written.
"$EGPROF" --rank-stats -s ./ranks run2 >rs-s.out 2>rs-s.err
rc=$?
if [ $rc = 1 ] && grep -q "option '-s' cannot be used with --rank-stats" rs-s.err &&
   [ ! -s rs-s.out ] && [ ! -e gmon.sum ] && [ ! -e run2/gmon.sum ]; then
	ok "--rank-stats -s APP DIR is refused and writes no gmon.sum"
else
	not_ok "--rank-stats -s APP DIR is refused and writes no gmon.sum (status $rc)"
	diag <rs-s.err
fi

# --rank-stats on a directory.
"$EGPROF" --rank-stats ./ranks run2 >stats.out 2>stats.err
rc=$?
if [ $rc = 0 ] && grep -q 'ranks from call-path sidecars' stats.out; then
	ok "--rank-stats APP DIR runs and takes ranks from the sidecars"
else
	not_ok "--rank-stats APP DIR runs and takes ranks from the sidecars (status $rc)"
	diag <stats.err
fi
if grep -Eq ' 1/4  timers$' stats.out && grep -q 'timers .* only rank 0' stats.out; then
	ok "--rank-stats finds timers on rank 0 only (1/4)"
else
	not_ok "--rank-stats finds timers on rank 0 only (1/4)"
	diag <stats.out
fi
# work_unit: imbalance column (2nd) about 4/2.5 = 1.6, max on rank 3, min on rank 0.
line=$(grep -E ' work_unit$' stats.out)
if awk -v l="$line" 'BEGIN { split(l, f); exit !(f[2] > 1.3 && f[2] < 1.9 && f[7] == "0" && f[8] == "3" && f[11] == "4/4") }'; then
	ok "--rank-stats shows work_unit imbalanced, min on rank 0, max on rank 3"
else
	not_ok "--rank-stats shows work_unit imbalanced, min on rank 0, max on rank 3"
	echo "$line" | diag
fi
# Rank 3 does the most work: the most time in the program's own code (the
# per-rank table's sampled seconds less their libraries' and the
# instrumentation's shares), and the summary's slowest rank by that time:
# by self seconds, which count the libraries, where ranks that wait for
# rank 3 spin in MPI (sched_yield), a waiting rank could come first on a
# loaded machine.
own=$(awk '/^Per rank:/ { t = 1; next } t && /^ *[0-9]+ / && NF >= 12 {
	printf "%s %.4f\n", $1, $9 * (100 - $10 - $11) / 100 }' stats.out | sort -k2 -g | tail -1 | cut -d' ' -f1)
if grep -q '^    rank 0: distance' stats.out && [ "$own" = 3 ] &&
	grep -q "^  slowest rank 3: [0-9.]* s in the program's own code" stats.out; then
	ok "--rank-stats summary: rank 0 is the outlier, rank 3 works longest in the program's code"
else
	not_ok "--rank-stats summary: rank 0 is the outlier, rank 3 works longest in the program's code"
	echo "most own time: rank ${own:-?}" | diag
	sed -n '/^Per rank/,$p' stats.out | diag
fi

# The same from a list of files, and without sidecars (labels by file name).
"$EGPROF" --rank-stats --jobs 2 ./ranks $(ls run2/gmon.* | grep -v callpath) >files.out 2>&1
if cmp -s stats.out files.out; then
	ok "--rank-stats APP FILES... equals APP DIR"
else
	not_ok "--rank-stats APP FILES... equals APP DIR"
	diff stats.out files.out | diag
fi
mkdir -p bare && cp run2/gmon.[0-9]* bare/ && rm -f bare/*.callpath
"$EGPROF" --rank-stats ./ranks bare >bare.out 2>&1
if grep -q 'no sidecars' bare.out && grep -Eq ' 1/4  timers$' bare.out; then
	ok "--rank-stats without sidecars labels ranks by file and still finds 1/4"
else
	not_ok "--rank-stats without sidecars labels ranks by file and still finds 1/4"
	diag <bare.out
fi

# --diff of the two run directories (the diff feature sums each side).
"$EGPROF" --diff ./ranks run2 run1 >diff.out 2>diff.err
rc=$?
if grep -q 'not built yet' diff.err; then
	echo "ok $((E2E_N + 1)) - # SKIP --diff is not built yet"
	E2E_N=$((E2E_N + 1))
elif [ $rc = 0 ] && grep -q 'work_unit' diff.out; then
	ok "--diff APP DIR1 DIR2 compares the summed runs"
else
	not_ok "--diff APP DIR1 DIR2 compares the summed runs (status $rc)"
	diag <diff.err
	diag <diff.out
fi

# --diff --callpath of the two directories: each side's call paths are the
# sum of its ranks' sidecars (calls per side as summed by hand), named.
"$EGPROF" --diff --callpath --folded-calls dirs.folded ./ranks run2 run1 >cpdiff.out 2>cpdiff.err
rc=$?
t2=0; t1=0
for s in run2/*.callpath; do t2=$((t2 + $(total "$s"))); done
for s in run1/*.callpath; do t1=$((t1 + $(total "$s"))); done
if [ $rc = 0 ] && grep -q "calls $t2 -> $t1\." cpdiff.out &&
   [ "$(awk '{ a += $2; b += $3 } END { print a, b }' dirs.folded)" = "$t2 $t1" ] &&
   grep -q '^main;work;work_unit ' dirs.folded; then
	ok "--diff --callpath DIR1 DIR2: each side sums its ranks' sidecars ($t2 -> $t1 calls)"
else
	not_ok "--diff --callpath DIR1 DIR2: each side sums its ranks' sidecars (want $t2 -> $t1 calls; status $rc)"
	diag <cpdiff.err
	grep 'paths changed' cpdiff.out | diag
	diag <dirs.folded
fi

# -s: gmon.sum byte-identical to /usr/bin/gprof's (bar the spare header
# bytes upstream leaves uninitialised), and gmon.sum.callpath beside it.
files=$(cd run1 && ls gmon.* | grep -v callpath | tr '\n' ' ')
for side in ours sys; do
	rm -rf sum.$side && cp -a run1 sum.$side
	bin=$EGPROF
	[ $side = sys ] && bin=$SYSGPROF
	(cd sum.$side && "$bin" -s ../ranks $files >out 2>err; echo $? >rc)
	head -c 12 /dev/zero | dd of=sum.$side/gmon.sum bs=1 seek=8 conv=notrunc status=none
done
if cmp -s sum.ours/gmon.sum sum.sys/gmon.sum && cmp -s sum.ours/out sum.sys/out &&
   cmp -s sum.ours/err sum.sys/err && cmp -s sum.ours/rc sum.sys/rc; then
	ok "-s over rank files: gmon.sum, output and status as /usr/bin/gprof's"
else
	not_ok "-s over rank files: gmon.sum, output and status as /usr/bin/gprof's"
	cat sum.ours/err | diag
fi
want=0
for s in run1/*.callpath; do want=$((want + $(total "$s"))); done
if [ -f sum.ours/gmon.sum.callpath ] && [ "$(total sum.ours/gmon.sum.callpath)" = "$want" ] &&
   [ ! -e sum.sys/gmon.sum.callpath ]; then
	ok "-s also sums the sidecars into gmon.sum.callpath ($want calls)"
else
	not_ok "-s also sums the sidecars into gmon.sum.callpath (want $want calls)"
fi
# Without rebasing, the other ranks' addresses would be named with the first
# one's load address: wrong names, or raw 0x... addresses.
folded_by_name run1/*.callpath >ranks.folded
folded_by_name sum.ours/gmon.sum.callpath >sum.folded
if [ -s ranks.folded ] && cmp -s ranks.folded sum.folded && ! grep -q 0x sum.folded; then
	ok "-s: the PIE ranks' paths line up in the sum (named paths and counts as summed by hand)"
else
	not_ok "-s: the PIE ranks' paths line up in the sum (named paths and counts as summed by hand)"
	diff ranks.folded sum.folded | diag
fi
# Lined up node by node, not only by name: main's call site is in the C
# library, loaded elsewhere by each rank, and is recorded as 0 (external),
# so the sum is one tree, the union of the ranks' trees (rank 0 alone calls
# timers), not one copy per rank.
want_nodes=$(union_nodes run1/*.callpath)
all_nodes=0
for s in run1/*.callpath; do all_nodes=$((all_nodes + $(nodes "$s"))); done
got_nodes=$(nodes sum.ours/gmon.sum.callpath)
if [ "$got_nodes" = "$want_nodes" ] && [ "$got_nodes" -lt "$all_nodes" ] &&
   [ "$("$CPDUMP" sum.ours/gmon.sum.callpath | grep -c ' <- \[external\]$')" = 1 ]; then
	ok "-s: the sum has $got_nodes nodes, the union of the ranks' trees (not $all_nodes), one external root"
else
	not_ok "-s: the sum has the union of the ranks' nodes (want $want_nodes, got $got_nodes; $all_nodes in all)"
	"$CPDUMP" -s ranks.nm sum.ours/gmon.sum.callpath | diag
fi

# -s with --callpath runs through gprof with extensions: the same gmon.sum,
# and the sidecars are summed there too.
rm -rf sum.cp && cp -a run1 sum.cp
(cd sum.cp && "$EGPROF" -s --callpath ../ranks $files >out 2>err)
rc=$?
head -c 12 /dev/zero | dd of=sum.cp/gmon.sum bs=1 seek=8 conv=notrunc status=none 2>/dev/null
# (the sidecars record the hash of their gmon.sum, whose spare header bytes
# upstream leaves uninitialised: compared as cpdump prints all but that)
sum_of() { "$CPDUMP" "$1" | grep -v '^gmon-hash \|^written-ns '; }
if [ $rc = 0 ] && cmp -s sum.cp/gmon.sum sum.sys/gmon.sum &&
   cmp -s <(sum_of sum.cp/gmon.sum.callpath) <(sum_of sum.ours/gmon.sum.callpath) &&
   grep -q 'work_unit' sum.cp/out; then
	ok "-s --callpath: the same gmon.sum and gmon.sum.callpath as -s alone, and the report"
else
	not_ok "-s --callpath: the same gmon.sum and gmon.sum.callpath as -s alone, and the report (status $rc)"
	diag <sum.cp/err
fi

# Only some gmon files with a sidecar: gmon.sum as always, a warning, and no
# gmon.sum.callpath (a sum of some ranks would not match gmon.sum); one an
# earlier run left is removed, and the user is told.
rm -rf sum.part && cp -a run1 sum.part && rm -f "$(ls sum.part/*.callpath | head -1)"
(cd sum.part && "$EGPROF" -s ../ranks $files >out 2>err)
rc=$?
if [ $rc = 0 ] && [ -f sum.part/gmon.sum ] && [ ! -e sum.part/gmon.sum.callpath ] &&
   grep -q "warning: not writing 'gmon.sum.callpath': 'gmon\.[0-9]*' has no call-path sidecar" sum.part/err &&
   ! grep -q removed sum.part/err; then
	ok "-s with some sidecars missing: gmon.sum, a warning naming the file, no gmon.sum.callpath"
else
	not_ok "-s with some sidecars missing: gmon.sum, a warning naming the file, no gmon.sum.callpath (status $rc)"
	diag <sum.part/err
fi
cp sum.ours/gmon.sum.callpath sum.part/gmon.sum.callpath
(cd sum.part && "$EGPROF" -s ../ranks $files >out 2>err)
rc=$?
if [ $rc = 0 ] && [ ! -e sum.part/gmon.sum.callpath ] &&
   grep -q "warning: removed 'gmon.sum.callpath' of an earlier run" sum.part/err; then
	ok "-s with some sidecars missing removes a stale gmon.sum.callpath and says so"
else
	not_ok "-s with some sidecars missing removes a stale gmon.sum.callpath and says so (status $rc)"
	diag <sum.part/err
fi
rm -rf sum.bare && cp -a bare sum.bare
(cd sum.bare && "$EGPROF" -s ../ranks gmon.[0-9]* && [ -f gmon.sum ] && [ ! -e gmon.sum.callpath ])
if [ $? = 0 ]; then
	ok "-s without sidecars writes gmon.sum only"
else
	not_ok "-s without sidecars writes gmon.sum only"
fi
cp sum.ours/gmon.sum.callpath sum.bare/gmon.sum.callpath
(cd sum.bare && "$EGPROF" -s ../ranks gmon.[0-9]* >out 2>err)
rc=$?
if [ $rc = 0 ] && [ ! -e sum.bare/gmon.sum.callpath ] && [ ! -s sum.bare/err ]; then
	ok "-s without sidecars removes a stale gmon.sum.callpath silently"
else
	not_ok "-s without sidecars removes a stale gmon.sum.callpath silently (status $rc)"
	diag <sum.bare/err
fi

# egprof-sum: an MPI-parallel sum reads as gprof -s's does.
if [ -x "$BUILDDIR/mpi/egprof-sum" ]; then
	mkdir -p psum
	if (cd psum && "${MPIRUN[@]}" -np 3 "$BUILDDIR/mpi/egprof-sum" -o p.sum ../run1 >log 2>&1); then
		"$SYSGPROF" -b ./ranks psum/p.sum >p.txt 2>&1
		"$SYSGPROF" -b ./ranks sum.sys/gmon.sum >s.txt 2>&1
		folded_by_name psum/p.sum.callpath >psum.folded
		if cmp -s p.txt s.txt && [ "$(total psum/p.sum.callpath)" = "$want" ] &&
		   cmp -s psum.folded ranks.folded &&
		   [ "$(nodes psum/p.sum.callpath)" = "$want_nodes" ]; then
			ok "mpirun -np 3 egprof-sum: gprof reads it as gprof -s's sum; sidecars summed and lined up ($want_nodes nodes)"
		else
			not_ok "mpirun -np 3 egprof-sum: gprof reads it as gprof -s's sum; sidecars summed and lined up"
			diff p.txt s.txt | diag
			echo "nodes $(nodes psum/p.sum.callpath), want $want_nodes" | diag
		fi
	else
		not_ok "mpirun -np 3 egprof-sum runs"
		diag <psum/log
	fi
	# -s's policy: with one sidecar missing, a warning naming the first
	# file without one and no sidecar sum (a stale one removed); without
	# any, no sidecar sum and no message.
	missing=$(ls sum.part/gmon.[0-9]* | grep -v callpath | while read -r g; do
		[ -e "$g.callpath" ] || { echo "$g"; break; }; done)
	echo stale >psum/part.sum.callpath
	(cd psum && "${MPIRUN[@]}" -np 3 "$BUILDDIR/mpi/egprof-sum" -o part.sum ../sum.part \
		>part.log 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ -f psum/part.sum ] && [ ! -e psum/part.sum.callpath ] &&
	   grep -q "egprof-sum: warning: not writing 'part.sum.callpath': '../$missing' has no call-path sidecar" psum/part.log &&
	   grep -q "removed 'part.sum.callpath' of an earlier run" psum/part.log; then
		ok "egprof-sum with a sidecar missing: warns naming it, writes no sidecar sum, removes a stale one"
	else
		not_ok "egprof-sum with a sidecar missing: warns naming it ($missing), writes no sidecar sum, removes a stale one (status $rc)"
		diag <psum/part.log
	fi
	(cd psum && "${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-sum" -o bare.sum ../bare \
		>bare.log 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ -f psum/bare.sum ] && [ ! -e psum/bare.sum.callpath ] &&
	   ! grep -q 'egprof-sum' psum/bare.log; then
		ok "egprof-sum without sidecars: the gmon sum only, no message"
	else
		not_ok "egprof-sum without sidecars: the gmon sum only, no message (status $rc)"
		diag <psum/bare.log
	fi
else
	not_ok "egprof-sum was built (mpicc exists)"
fi

e2e_done
