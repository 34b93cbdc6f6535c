#!/usr/bin/env bash
# Foreign gmon files are refused (issue 11 item 8): a profile of another
# program, of another build of the same program, and of a non-PIE build read
# with the PIE binary, in --diff, --rank-stats and a graph export; the
# message names both files, the exit status is 1 and an existing output file
# stays as it was; --force reads them; the right pairs are still accepted.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
cat > one.c <<'C'
static volatile double s;
__attribute__((noipa)) void work(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
__attribute__((noipa)) void more(long n) { for (long i = 0; i < n; i++) s -= i * 0.25; }
int main(void) { for (int k = 0; k < 50; k++) { work(400000); more(200000); } return 0; }
C
cat > other.c <<'C'
static volatile unsigned x = 1;
__attribute__((noipa)) void spin(long n) { for (long i = 0; i < n; i++) x = x * 69069u + 1u; }
__attribute__((noipa)) void helper_a(void) { spin(1000); }
__attribute__((noipa)) void helper_b(void) { spin(2000); }
__attribute__((noipa)) void helper_c(void) { spin(3000); }
int main(void) { for (int k = 0; k < 3000; k++) { helper_a(); helper_b(); helper_c(); } spin(30000000); return 0; }
C
build() { gcc -pg -g "$@" && return 0; echo "not ok 1 - build $*"; echo "1..1"; exit 1; }
build -O1 -o one one.c
build -O2 -o one-O2 one.c
build -O1 -no-pie -o one-nopie one.c
build -O1 -o other other.c
for p in one one-O2 one-nopie other; do
	mkdir -p "r-$p" && (cd "r-$p" && "../$p") || { echo "not ok 1 - run $p"; echo "1..1"; exit 1; }
done

refused() { # NAME GMON BINARY CMD...: exit 1, one message naming both files
	local name=$1 gmon=$2 bin=$3
	shift 3
	"$@" > out.txt 2> err.txt
	local rc=$?
	check "$name: refused (exit 1)" test $rc -eq 1
	check "$name: the message names both files" \
		grep -q "$gmon: does not belong to '$bin': .*--force reads it anyway" err.txt
}
refused "--diff, another program" r-other/gmon.out one \
	"$EGPROF" --diff one r-one/gmon.out one r-other/gmon.out
refused "--diff, another build (-O2)" r-one-O2/gmon.out one \
	"$EGPROF" --diff one r-one/gmon.out one r-one-O2/gmon.out
refused "--diff, the non-PIE build read with the PIE binary" r-one-nopie/gmon.out one \
	"$EGPROF" --diff one r-one/gmon.out one r-one-nopie/gmon.out
refused "--diff, the PIE profile read with the non-PIE build" r-one/gmon.out one-nopie \
	"$EGPROF" --diff one-nopie r-one/gmon.out one-nopie r-one-nopie/gmon.out
mkdir ranks && cp r-one/gmon.out ranks/gmon.1 && cp r-other/gmon.out ranks/gmon.2
refused "--rank-stats, a file of another program" ranks/gmon.2 one \
	"$EGPROF" --rank-stats one ranks
echo "keep me" > keep.dot
refused "--dot, another program" r-other/gmon.out one \
	"$EGPROF" one r-other/gmon.out --dot keep.dot
check "--dot: the existing output file is as it was" grep -qx "keep me" keep.dot

# Two builds whose text is identical (only a string differs): only the
# sidecar's build-id tells them apart.
CP=$BUILDDIR/callpath
for v in 1 2; do
	sed "s/int main(void)/const char *tag = \"build $v\";\nint main(void)/" one.c > tag$v.c
	gcc -pg -O1 -g -Wl,--build-id -o tag$v tag$v.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" &&
		mkdir -p r-tag$v && (cd r-tag$v && "../tag$v") ||
		{ echo "not ok - build tag$v"; }
done
check "the two tagged builds have the same text" \
	bash -c "cmp -s <(objdump -d tag1 | tail -n +3) <(objdump -d tag2 | tail -n +3)"
check "each run wrote a sidecar" test -s r-tag2/gmon.out.callpath
refused "--diff, a build with the same text, told by its sidecar's build-id" r-tag2/gmon.out tag1 \
	"$EGPROF" --diff tag1 r-tag1/gmon.out tag1 r-tag2/gmon.out
check "... the message names the sidecar" grep -q "r-tag2/gmon.out.callpath: recorded from another binary than 'tag1' (build-id differs)" err.txt
"$EGPROF" --diff tag1 r-tag1/gmon.out tag2 r-tag2/gmon.out > /dev/null 2>&1
check "the tagged builds, each with its own gmon file, are accepted" test $? -eq 0

"$EGPROF" --diff one r-one/gmon.out one-O2 r-one-O2/gmon.out > ok.txt 2> ok.err
check "--diff of two builds, each with its own gmon file, is accepted" \
	bash -c "[ $? -eq 0 ] && [ ! -s ok.err ] && grep -q 'Flat profile' ok.txt"
"$EGPROF" --diff one-nopie r-one-nopie/gmon.out one r-one/gmon.out > /dev/null 2>&1
check "--diff of the non-PIE and the PIE build, each with its own, is accepted" test $? -eq 0
"$EGPROF" --force --diff one r-one/gmon.out one r-other/gmon.out > forced.txt 2> forced.err
check "--force reads the foreign file" bash -c "[ $? -eq 0 ] && grep -q 'Flat profile' forced.txt"
"$EGPROF" one r-other/gmon.out > plain.txt 2> plain.err
/usr/bin/gprof one r-other/gmon.out > sys.txt 2> sys.err
check "plain gprof still reads it, as GNU gprof does" cmp -s plain.txt sys.txt
check "... and warns, one line on stderr" bash -c "[ \$(wc -l < plain.err) = 1 ] &&
	grep -q \"^$EGPROF: warning: r-other/gmon.out: does not belong to 'one': \" plain.err"
dl_done
