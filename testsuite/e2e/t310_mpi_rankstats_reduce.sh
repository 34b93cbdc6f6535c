#!/usr/bin/env bash
# --rank-stats at scale: 4,096 rank files generated from a real -pg run
# (testsuite/mpi/gen_ranks.py scales each rank's samples and calls by
# 1 + rank % 4 and bumps every 7th rank), read by `gprof --rank-stats` in
# bounded memory and by `mpirun -np 4 egprof-rankstats` as a tree
# reduction: the two reports must be byte-identical (also with 3 processes,
# not a power of two, and with gprof options).  The totals equal
# /usr/bin/gprof -s's flat profile of the same files (64 of them, below
# the 16-bit bin limit of the sum).  Skips the MPI part when OpenMPI is
# not installed.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1

if e2e_relax_halo &&
   python3 "$SRCDIR/testsuite/mpi/gen_ranks.py" gmon.out ranks 4096 &&
   [ "$(ls ranks | wc -l)" = 4096 ]; then
	ok "a -pg program runs; 4,096 rank files generated from its gmon.out"
else
	not_ok "a -pg program runs; 4,096 rank files generated from its gmon.out"
	diag <build.log
	e2e_done
fi

"$EGPROF" --rank-stats prog ranks >single.out 2>single.err
rc=$?
if [ $rc = 0 ] && grep -q '^4096 ranks, ' single.out && ! [ -s single.err ]; then
	ok "gprof --rank-stats over 4,096 files: report, nothing on stderr (not a terminal)"
else
	not_ok "gprof --rank-stats over 4,096 files (status $rc)"
	diag <single.err
fi

# Independent totals: gprof -s over 64 files, then its flat profile.
mkdir r64 && cp ranks/gmon.{0..63} r64/
"$EGPROF" --rank-stats prog r64 >r64.out 2>&1
(cd r64 && /usr/bin/gprof -s ../prog gmon.* && /usr/bin/gprof -b -p ../prog gmon.sum) >r64.flat 2>&1
bad=0
for f in relax halo; do
	want=$(awk -v f=$f '$NF == f { print $3 }' r64.flat)
	got=$(awk -v f=$f '$NF == f && $1 ~ /^[0-9.]+$/ { print $3; exit }' r64.out)
	[ -n "$want" ] && [ "$want" = "$got" ] || { bad=1; echo "$f: gprof -s $want, rank-stats total $got"; }
done >totals.diff
if [ $bad = 0 ]; then
	ok "per-function totals over 64 ranks equal /usr/bin/gprof -s's self seconds"
else
	not_ok "per-function totals over 64 ranks equal /usr/bin/gprof -s's self seconds"
	diag <totals.diff
fi

# A rank file sampled at another rate: one error naming it, nothing else.
mkdir hz && cp ranks/gmon.{0..3} hz/ &&
python3 - hz/gmon.2 <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<I", d, 20 + 1 + 20, 1000)   # first histogram's prof_rate
open(sys.argv[1], "wb").write(bytes(d))
PY
"$EGPROF" --rank-stats --jobs 1 prog hz >hz.out 2>hz.err
rc=$?
if [ $rc = 1 ] && [ "$(wc -l <hz.err)" = 1 ] && grep -q "hz/gmon.2: sampling rate 1000 Hz differs" hz.err &&
   ! [ -s hz.out ]; then
	ok "a rank file sampled at another rate: one error naming it, no report"
else
	not_ok "a rank file sampled at another rate (status $rc)"
	diag <hz.err
fi

if ! e2e_mpi_setup || ! [ -x "$BUILDDIR/mpi/egprof-rankstats" ]; then
	ok "# SKIP mpirun or egprof-rankstats not built (OpenMPI missing)"
	e2e_done
fi

for np in 4 3; do
	"${MPIRUN[@]}" -np $np "$BUILDDIR/mpi/egprof-rankstats" prog ranks >mpi$np.out 2>mpi$np.err
	rc=$?
	if [ $rc = 0 ] && cmp -s single.out mpi$np.out; then
		ok "mpirun -np $np egprof-rankstats: byte-identical to gprof --rank-stats on 4,096 files"
	else
		not_ok "mpirun -np $np egprof-rankstats: byte-identical to gprof --rank-stats (status $rc)"
		diff single.out mpi$np.out | diag
		diag <mpi$np.err
	fi
done

# gprof options reach every reader: -prelax (only relax is counted).
# (warnings name their program: compared without its name)
"$EGPROF" --rank-stats -prelax prog r64 2>&1 | sed "s|^$EGPROF: |PROG: |" >opt1.out
"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-rankstats" -prelax prog r64 2>&1 |
	sed "s|^egprof-rankstats: |PROG: |" >opt2.out
if cmp -s opt1.out opt2.out && grep -q '64 ranks, 1 functions' opt1.out; then
	ok "with -prelax: one function, the same report from both drivers"
else
	not_ok "with -prelax: one function, the same report from both drivers"
	diff opt1.out opt2.out | diag
fi

# Bad input: refused by process 0 with gprof --rank-stats's message.
"${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-rankstats" -s prog r64 >bad.out 2>bad.err
rc=$?
if [ $rc != 0 ] && grep -q "option '-s' cannot be used with --rank-stats" bad.err &&
   [ "$(grep -c 'cannot be used' bad.err)" = 1 ] && ! [ -e gmon.sum ]; then
	ok "egprof-rankstats -s: refused once, non-zero exit, no gmon.sum"
else
	not_ok "egprof-rankstats -s: refused once, non-zero exit (status $rc)"
	diag <bad.err
fi

# Inputs upstream would hang on (input_check.h): -S /dev/zero, and a device
# among the rank files, refused by process 0 before any reader starts.
for bad in "-S /dev/zero prog r64" "prog r64 /dev/zero"; do
	# shellcheck disable=SC2086 # the words of $bad are arguments
	timeout 60 "${MPIRUN[@]}" -np 2 "$BUILDDIR/mpi/egprof-rankstats" $bad >bad.out 2>bad.err
	rc=$?
	if [ $rc != 0 ] && [ $rc != 124 ] &&
	   grep -q "/dev/zero: not a regular file (a character device)" bad.err; then
		ok "egprof-rankstats $bad: refused, non-zero exit"
	else
		not_ok "egprof-rankstats $bad: refused, non-zero exit (status $rc)"
		diag <bad.err
	fi
done
e2e_done
