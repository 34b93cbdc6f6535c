#!/usr/bin/env bash
# egprof-record, the launcher: a release build is sampled and a -pg build
# instrumented into the output directory, the program's exit status (or
# the signal that killed it) is the launcher's, every process of the run
# writes its own pair, the command it prints at the end reads the profile,
# an earlier run is moved aside, and under mpirun each rank names its
# files with its rank.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
REC="$BUILDDIR/record/egprof-record"
cat > app.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile double s;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
__attribute__((noinline)) void work(void) { spin(60000000); }
int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";

	work();
	if (!strcmp(how, "kill"))
		raise(SIGTERM);
	if (!strcmp(how, "fork")) {
		pid_t p = fork();
		if (p == 0) {
			work();
			exit(4);
		}
		waitpid(p, NULL, 0);
	}
	printf("done %s\n", how);
	return 3;
}
EOF
gcc -O2 -g -o rel app.c && gcc -pg -O2 -g -o pg app.c || exit 1

"$REC" --help > help.out 2>&1
cp_check "--help: a usage naming its options" \
	bash -c "grep -q '^Usage: egprof-record' help.out && grep -q -- '--freq HZ' help.out"
"$REC" --version > ver.out
cp_check "--version: egprof's" grep -q '^egprof-record (egprof) 0\.1\.0$' ver.out

"$REC" -o out -- ./rel > rel.out 2> rel.err
rc=$?
cp_check "release build: the program's exit status ($rc)" test "$rc" = 3
cp_check "release build: its output" grep -q '^done $' rel.out
g=$(ls out/gmon.[0-9]* | grep -v callpath)
cp_check "release build: one gmon file and its sidecar in the output directory" \
	test "$(echo "$g" | wc -l)" = 1 -a -s "$g.callpath"
cp_check "release build: the paths were sampled" test "$(cp_header "$g.callpath" flags)" = 0x10
cmd=$(sed -n 's/^  gprof /gprof /p' rel.err)
cp_check "release build: the summary prints the command that reads it" \
	test "$cmd" = "gprof --callpath ./rel $WORKDIR/$g"
$EGPROF -b ${cmd#gprof } > report.txt 2> report.err
cp_check "release build: that command reads it: main -> work -> spin" \
	grep -qE '^ +- +[0-9.]+ +[0-9.]+ +spin \(work\+0x[0-9a-f]+\)$|spin \(main\+' report.txt

"$REC" -o out -- ./pg > pg.out 2> pg.err
rc=$?
cp_check "-pg build: the exit status" test "$rc" = 3
cp_check "an earlier run moved to out.old" test -e "out.old/$(basename "$g").callpath"
g=$(ls out/gmon.[0-9]* | grep -v callpath)
cp_check "-pg build: instrumented (calls counted)" \
	bash -c "test '$(cp_header "$g.callpath" flags)' = 0x0 && test '$(cp_header "$g.callpath" calls)' -gt 0"

# (in a shell of its own: bash would report the death on our stderr)
bash -c "'$REC' -q -o k -- ./rel kill > k.out 2> k.err" 2> /dev/null
rc=$?
cp_check "killed by SIGTERM: the launcher dies of it too (status $rc)" test "$rc" = 143
cp_check "killed: its profile was written" bash -c "ls k/gmon.*.callpath > /dev/null 2>&1"
cp_check "--quiet: no summary" bash -c "! grep -q egprof-record k.err"

"$REC" -o f -- ./rel fork > f.out 2> f.err
cp_check "fork: two processes, two pairs" test "$(ls f/gmon.*.callpath | wc -l)" = 2
cp_check "fork: the summary counts them and names --rank-stats" \
	bash -c "grep -q '2 profiles in' f.err && grep -q 'gprof --rank-stats' f.err"

"$REC" -o m -- ./no-such-program > m.out 2> m.err
rc=$?
cp_check "a program that is not there: 127, said" \
	bash -c "[ $rc = 127 ] && grep -q \"cannot run './no-such-program'\" m.err"

if e2e_mpi_setup; then
	"${MPIRUN[@]}" -np 2 "$REC" -o "$WORKDIR/mpi" -- ./rel > mpi.out 2> mpi.err
	rc=$?
	cp_check "mpirun -np 2: the ranks' status ($rc)" test "$rc" = 3
	cp_check "mpirun -np 2: each rank its pair, named by rank" \
		bash -c "ls mpi/gmon.r0.*.callpath mpi/gmon.r1.*.callpath > /dev/null"
	cp_check "mpirun -np 2: rank 0 alone prints the summary" \
		test "$(grep -c '^egprof-record: ' mpi.err)" = 1
	$EGPROF --rank-stats ./rel mpi > rs.txt 2> rs.err
	cp_check "mpirun -np 2: --rank-stats reads the directory" \
		grep -q "^Rank statistics: './rel', 2 gmon files" rs.txt
else
	echo "ok $((CP_N + 1)) # SKIP mpirun not installed"
	CP_N=$((CP_N + 1))
fi
cp_done
