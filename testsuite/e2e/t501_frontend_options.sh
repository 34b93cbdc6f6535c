#!/usr/bin/env bash
# The front end: our options are taken out, errors are clear, --help and -v
# add our part after upstream's, installation honours DESTDIR and prefixes.
set -u
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }

cat > prog.c <<'C'
int leaf(int x) { volatile int s = 0; for (int i = 0; i < x; i++) s += i; return s; }
int main(void) { long t = 0; for (int i = 0; i < 2000; i++) t += leaf(20000); return t == 42; }
C
gcc -pg -o prog prog.c && ./prog

# --help: upstream's text, then ours, exit 0.
# Both run as "gprof": upstream's usage line names argv[0].
(exec -a gprof "$EGPROF" --help) > ours.txt 2>&1; rc=$?
(exec -a gprof "$SYSGPROF" --help) > theirs.txt 2>&1
check "--help exits 0" [ $rc = 0 ]
check "--help starts with upstream's help" cmp -s theirs.txt <(head -c "$(stat -c %s theirs.txt)" ours.txt)
check "--help lists --diff" grep -q -- '--diff' ours.txt
check "--help lists --gml" grep -q -- '--gml FILE' ours.txt

# -v: upstream's three lines, then one naming egprof.
"$EGPROF" -v > v.txt; rc=$?
check "-v exits 0" [ $rc = 0 ]
check "-v keeps upstream's lines" cmp -s <(head -n 3 v.txt) <("$SYSGPROF" -v)
check "-v names egprof" grep -q '^egprof [0-9]' <(sed -n 4p v.txt)

# Our option errors: message naming the option, exit 1, nothing on stdout.
"$EGPROF" prog gmon.out --gml > out.txt 2> err.txt; rc=$?
check "--gml without a file fails" [ $rc = 1 ]
check "--gml without a file says so" grep -q "option '--gml' needs an argument" err.txt
check "--gml without a file prints no profile" [ ! -s out.txt ]
"$EGPROF" --diff --rank-stats prog gmon.out > /dev/null 2> err.txt; rc=$?
check "--diff with --rank-stats is refused" [ $rc = 1 ] && grep -q 'cannot be combined' err.txt
# --rank-stats reads each file through upstream on its own: options that
# write files (-s gmon.sum, -y annotated sources) or choose another output
# are refused, naming the option, before anything is read or written.
for opt in -s -y -A -C -i -r "-R order.txt" -l -x -T "-w 100" --gml=g.gml --folded=f.txt --folded-calls=f.txt --callpath; do
	rm -f gmon.sum
	# shellcheck disable=SC2086
	"$EGPROF" --rank-stats $opt prog gmon.out > out.txt 2> err.txt; rc=$?
	name=${opt%% *}; name=${name%%=*}
	check "--rank-stats refuses $name" [ $rc = 1 ] && [ ! -s out.txt ] && [ ! -e gmon.sum ] &&
		grep -q "option '$name' cannot be used with --rank-stats (" err.txt
done
"$EGPROF" --rank-stats --sum prog gmon.out > /dev/null 2> err.txt; rc=$?
check "--rank-stats refuses --sum by its long name" [ $rc = 1 ] &&
	grep -q "option '--sum' cannot be used with --rank-stats (statistics read each rank file on its own" err.txt
"$EGPROF" --rank-stats -b -z -pleaf -a --no-demangle prog gmon.out > out.txt 2> err.txt; rc=$?
check "--rank-stats accepts symbol-selecting options" [ $rc = 0 ] && [ ! -s err.txt ] &&
	grep -q ' leaf$' out.txt && [ ! -e gmon.sum ]
"$EGPROF" --noise=abc --diff prog gmon.out gmon.out > /dev/null 2> err.txt; rc=$?
check "--noise needs a number" [ $rc = 1 ] && grep -q "option '--noise' needs a number" err.txt
"$EGPROF" --extended=1 prog gmon.out > /dev/null 2> err.txt; rc=$?
check "--extended takes no argument" [ $rc = 1 ] && grep -q "takes no argument" err.txt

# Abbreviations stay upstream's: --dem is --demangle there.
"$EGPROF" --dem -b -p prog gmon.out > a.txt 2>&1; ra=$?
"$SYSGPROF" --dem -b -p prog gmon.out > b.txt 2>&1; rb=$?
check "upstream abbreviations keep their meaning" cmp -s a.txt b.txt
check "upstream abbreviations keep their status" [ $ra = $rb ]

# After "--", nothing is ours.
"$EGPROF" -b -p -- prog gmon.out > a.txt 2>&1; ra=$?
"$SYSGPROF" -b -p -- prog gmon.out > b.txt 2>&1; rb=$?
check "arguments after -- go to upstream" cmp -s a.txt b.txt

# Installation: DESTDIR, prefix, program prefix, the egprof link, man pages.
make -s -C "$BUILDDIR" install DESTDIR="$WORKDIR/inst" prefix=/opt/eg \
	bindir=/opt/eg/bin mandir=/opt/eg/man program_prefix=eg- > install.log 2>&1
check "install puts eg-gprof in bindir" [ -x inst/opt/eg/bin/eg-gprof ]
check "install links eg-egprof to it" [ "$(readlink inst/opt/eg/bin/eg-egprof)" = eg-gprof ]
check "install adds both man pages" [ -f inst/opt/eg/man/man1/eg-gprof.1 ] && [ -f inst/opt/eg/man/man1/eg-egprof.1 ]
"inst/opt/eg/bin/eg-egprof" -b -p prog gmon.out > a.txt 2>&1
"$SYSGPROF" -b -p prog gmon.out > b.txt 2>&1
check "the installed gprof works" cmp -s a.txt b.txt

# configure's --program-prefix reaches the Makefile.
mkdir cfg && (cd cfg && "$SRCDIR/configure" --program-prefix=eg- --prefix=/opt/x > /dev/null 2>&1)
check "configure --program-prefix sets the installed name" grep -q '^program_prefix = eg-$' cfg/Makefile
check "configure --prefix is honoured" grep -q '^prefix = /opt/x$' cfg/Makefile
(cd cfg && "$SRCDIR/configure" --with-binutils-src=/nonexistent > /dev/null 2> err.txt); rc=$?
check "configure names a missing binutils source" [ $rc != 0 ] && grep -q "'/nonexistent'" cfg/err.txt
(cd cfg && "$SRCDIR/configure" --bogus > /dev/null 2> err.txt); rc=$?
check "configure refuses unknown options" [ $rc != 0 ] && grep -q "unknown option '--bogus'" cfg/err.txt

# The option table drives --help; the man page and the README must follow it.
ours_opts=$(sed -n '/^egprof .* extensions:$/,$p' ours.txt | grep -o '^  --[a-z-]*' | sed 's/^  //')
check "--help's section lists our options" [ -n "$ours_opts" ]
for opt in $ours_opts; do
	check "egprof(1) documents $opt" grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" "$SRCDIR/doc/egprof.1"
	check "README mentions $opt" grep -q -- "$opt" "$SRCDIR/README.md"
done

echo "# $n cases"
[ $fails = 0 ]
