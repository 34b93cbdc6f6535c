#!/usr/bin/env bash
# Issue 21 item 8: a pair is one run's by what the run recorded, not by what
# the counts say.  The sidecar records the size and hash of the gmon file
# glibc wrote (checked here against a hash computed from the format's
# definition, in Python), the readers refuse another run's sidecar naming
# both files -- with --callpath, --diff with one file or many per side, -s
# -- and --force reads it anyway with a warning; --rank-stats labels such a
# rank by its name, with a warning.  The runtime follows glibc's choice of
# name (GMON_OUT_PREFIX into a missing folder or too long a name: glibc
# falls back to gmon.out, and so does the sidecar), and a run that cannot
# write its sidecar (a full disk) removes the old one rather than leave it
# beside the new gmon.out.  Before, each of these was accepted silently or
# left an older run's sidecar to be read.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
gcc -pg -O1 -o "$WORKDIR/busy" "$CP_EX/stress/busy.c" || exit 1
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1

# two runs of one program that differ (in their counts)
for r in 1 2; do
	LD_PRELOAD="$CP_SO" ./busy $((40 + 10 * r)) > /dev/null
	mv gmon.out g$r && mv gmon.out.callpath g$r.callpath
done
cp_check "the sidecar records its gmon file's size and hash (computed apart)" \
	test "$(cp_header g1.callpath gmon-hash)" = "$(cp_hash g1)" \
	-a "$(cp_header g1.callpath gmon-size)" = "$(stat -c %s g1)" \
	-a "$(cp_header g1.callpath gmon-file)" = gmon.out
cp_check "two runs differ (their histograms)" test "$(cp_hash g1)" != "$(cp_hash g2)"
mkdir -p mixed && cp g1 mixed/gmon.out && cp g2.callpath mixed/gmon.out.callpath

refused() { # NAME ERRFILE RC
	cp_check "$1: refused (exit $3), naming both files" \
		bash -c "test $3 = 1 && grep -q \"gmon.out.callpath: does not belong to '[^']*gmon.out': recorded with a gmon file of [0-9]* bytes\" $2"
}
(cd mixed && "$EGPROF" -b --callpath ../busy gmon.out > out 2> err)
refused "--callpath" mixed/err $?
(cd mixed && "$EGPROF" -b --callpath --force ../busy gmon.out > out 2> err)
rc=$?
cp_check "--callpath --force: read (exit $rc), with a warning" \
	bash -c "test $rc = 0 && grep -q 'warning: gmon.out.callpath: does not belong to .gmon.out.*read anyway (--force)' mixed/err && grep -q 'Call-path profile' mixed/out"
"$EGPROF" -b --diff --callpath ./busy g1 ./busy mixed/gmon.out > d.out 2> d.err
refused "--diff --callpath, one file a side" d.err $?
mkdir -p side1 side2 && cp g1 g1.callpath side1/ && cp mixed/gmon.out side2/g3 &&
	cp mixed/gmon.out.callpath side2/g3.callpath && cp g2 g2.callpath side2/
"$EGPROF" -b --diff --callpath ./busy side1 side2 > d2.out 2> d2.err
rc=$?
cp_check "--diff --callpath, two files a side: refused (exit $rc), naming both" \
	bash -c "test $rc = 1 && grep -q 'side2/g3.callpath: does not belong to .side2/g3.' d2.err"
"$EGPROF" -b --diff --callpath --force ./busy side1 side2 > d3.out 2> d3.err
cp_check "--diff --callpath --force: read, with a warning" \
	bash -c "test $? = 0 && grep -q 'read anyway (--force)' d3.err"
"$EGPROF" -b --diff ./busy side1 side2 > d4.out 2> d4.err
cp_check "--diff without call paths reads its exact calls from the sidecars: refused too" \
	bash -c "test $? = 1 && grep -q 'does not belong' d4.err"
(cd side2 && "$EGPROF" -s ../busy g2 g3 > out 2> err; echo $? > rc)
cp_check "-s: refused (exit $(cat side2/rc)), naming both, nothing written" \
	bash -c "test $(cat side2/rc) = 1 && grep -q 'g3.callpath: does not belong to .g3.' side2/err && test ! -e side2/gmon.sum -a ! -e side2/gmon.sum.callpath"
(cd side1 && cp g1 g4 && cp g1.callpath g4.callpath && "$EGPROF" -s ../busy g1 g4 > out 2> err)
cp_check "-s: the sum's sidecar records gmon.sum's hash, and reads back with it" \
	bash -c "test '$(cp_header side1/gmon.sum.callpath gmon-hash 2>/dev/null)' = '$(cp_hash side1/gmon.sum 2>/dev/null)' &&
		 cd side1 && '$EGPROF' -b --callpath ../busy gmon.sum > /dev/null"
# egprof-sum, gprof -s's MPI twin: the same refusal, and the same identity
if command -v mpirun > /dev/null && [ -x "$BUILDDIR/mpi/egprof-sum" ]; then
	MPIRUN=(mpirun --oversubscribe)
	[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
	export OMPI_MCA_btl_vader_single_copy_mechanism=none
	"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-sum" -o side2/es side2/g2 side2/g3 > es.out 2> es.err
	rc=$?
	cp_check "egprof-sum: refused (exit $rc), naming both" \
		bash -c "test $rc = 1 && grep -q 'side2/g3.callpath: does not belong to .side2/g3.' es.err"
	"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-sum" -o side1/es side1/g1 side1/g4 > es.out 2> es.err
	cp_check "egprof-sum: the sum's sidecar records its gmon sum's hash" \
		test "$(cp_header side1/es.callpath gmon-hash 2>/dev/null)" = "$(cp_hash side1/es 2>/dev/null)"
fi
"$EGPROF" --rank-stats ./busy side2 > rs.out 2> rs.err
rc=$?
cp_check "--rank-stats: reads the ranks (exit $rc), warns of the sidecar of another run" \
	bash -c "test $rc = 0 && grep -q 'side2/g3.callpath: does not belong to .side2/g3.' rs.err"

# glibc's fallback name: GMON_OUT_PREFIX into a missing folder, or too long
for why in missing long; do
	rm -rf fb && mkdir fb && cd fb || exit 1
	../acc > /dev/null && mv gmon.out old && LD_PRELOAD="$CP_SO" ../acc > /dev/null &&
		mv gmon.out.callpath gmon.out.callpath.old && mv old gmon.out &&
		mv gmon.out.callpath.old gmon.out.callpath	# an older pair
	case $why in
	missing) pfx="$PWD/no/such/dir/gmon" ;;
	long) pfx="$PWD/$(printf 'x%.0s' $(seq 300))" ;;
	esac
	GMON_OUT_PREFIX=$pfx LD_PRELOAD="$CP_SO" ../acc > /dev/null 2> err
	cp_check "GMON_OUT_PREFIX $why: glibc fell back to gmon.out, the sidecar with it" \
		test "$(cp_header gmon.out.callpath gmon-hash)" = "$(cp_hash gmon.out)" \
		-a "$(cp_header gmon.out.callpath gmon-file)" = gmon.out
	"$EGPROF" -b --callpath ../acc gmon.out > out 2> gerr
	cp_check "GMON_OUT_PREFIX $why: the new pair reads back" test $? = 0 -a ! -s gerr
	cd .. || exit 1
done

# a full disk: tmpfs with no inode to spare for the new sidecar's
# temporary file (glibc rewrites gmon.out in place: no new inode); needs a
# mount namespace of our own
full_disk() {
	mkdir -p fs && unshare -rm sh -c '
		mount -t tmpfs -o size=4m,nr_inodes=3 tmpfs fs || exit 77
		cd fs || exit 1
		LD_PRELOAD="$1" ../busy 30 > /dev/null 2> ../run1.err
		ls > ../run1.ls
		LD_PRELOAD="$1" ../busy 30 > /dev/null 2> ../run2.err
		ls > ../run2.ls
		"$2" -b --callpath ../busy gmon.out > ../full.out 2> ../full.err
		echo $? > ../full.rc' sh "$CP_SO" "$EGPROF"
}
full_disk
rc=$?
if [ $rc = 77 ] || [ $rc = 1 -a ! -e run1.ls ]; then
	echo "ok $((CP_N + 1)) # SKIP no tmpfs mount here (unshare -rm; mount -t tmpfs)"
	CP_N=$((CP_N + 1))
else
	cp_check "full disk: the first run wrote both files" grep -qx gmon.out.callpath run1.ls
	cp_check "full disk: the second run could not, and removed the old sidecar, saying so" \
		bash -c "! grep -qx gmon.out.callpath run2.ls && grep -q 'callpath: .*removed .gmon.out.callpath. of an earlier run' run2.err"
	cp_check "full disk: gprof --callpath names the missing sidecar (exit $(cat full.rc))" \
		bash -c "test $(cat full.rc) = 1 && grep -q 'gmon.out.callpath: No such file' full.err"
fi
cp_done
