#!/usr/bin/env bash
# Static links: glibc's own __monstartup, moncontrol and _mcleanup run
# (libc.a's gmon.o cannot be replaced); gmon_static.c reads glibc's
# histogram and arc table through _gmonparam (hidden in libc.a, visible to
# the link), adds the runtime's arcs and writes gmon.out from an atexit
# handler registered after _init's, so before glibc's _mcleanup, which
# then writes nothing.  One binary, the fixture taking over or refusing
# (glibc writes): byte for byte the same file; against a plain static -pg
# build (other addresses): the same call graph, index numbers aside.
# -mfentry: glibc's __fentry__ wins in static links and counts into glibc's
# table, which the writer copies in glibc's order.
# Not compared: a static program that calls _mcleanup and monstartup again
# (restart.c) keeps the runtime's arcs of both sessions, where glibc's file
# holds the second only: glibc's _mcleanup cannot be replaced in a static
# link, so the runtime never learns of it (doc/dev/runtime.md).
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
if ! echo 'int main(void){return 0;}' | gcc -static -x c -o /dev/null - 2>/dev/null; then
	echo "1..0 # SKIP no static C library"
	exit 0
fi
gm_build_archive lib || { echo "not ok 1 - the fixture builds"; echo "1..1"; exit 1; }
AR="$WORKDIR/lib/libarcrec.a"

for src in recur fptr monctl qsortcb; do
	gcc -static -pg -O0 -o $src.plain "$GM_SRC/$src.c" &&
	gcc -static -pg -O0 -o $src "$GM_SRC/$src.c" "$AR" || exit 1
	mkdir -p $src.p $src.r $src.f
	(cd $src.p && ../$src.plain > out)
	(cd $src.r && ../$src > out)
	(cd $src.f && ARCREC_TAKEOVER=0 ../$src > out)
	cp_same "$src: the program's output is unchanged" $src.p/out $src.r/out
	gm_compare $src-vs-refused $src $src.f $src.r
	$GM_CMP --zero-bins $src.p/gmon.out $src.p.z && $GM_CMP --zero-bins $src.r/gmon.out $src.r.z
	"$SYSGPROF" -b -q $src.plain $src.p.z | sed 's/\[[0-9]*\]//g' > $src.qp
	"$SYSGPROF" -b -q $src $src.r.z | sed 's/\[[0-9]*\]//g' > $src.qr
	cp_same "$src: gprof -b -q as a plain static build's, index numbers aside" $src.qp $src.qr
done
g++ -static -pg -O0 -o ctors "$GM_SRC/ctors.cc" "$AR" || exit 1
mkdir -p ctors.r ctors.f && (cd ctors.r && ../ctors > out) && (cd ctors.f && ARCREC_TAKEOVER=0 ../ctors > out)
gm_compare ctors-vs-refused ctors ctors.f ctors.r

gcc -static -pg -mfentry -O0 -o fentry "$GM_SRC/fptr.c" "$AR" || exit 1
mkdir -p fentry.r fentry.f && (cd fentry.r && ../fentry > out) && (cd fentry.f && ARCREC_TAKEOVER=0 ../fentry > out)
gm_compare fentry-vs-refused fentry fentry.f fentry.r
cp_check "-mfentry: glibc's table is in the file" bash -c "$GM_CMP --dump fentry.r/gmon.out | grep -q '^arc'"

# the writer ran, not glibc's _mcleanup: GMON_OUT_PREFIX honoured, one file
mkdir -p prefix && (cd prefix && GMON_OUT_PREFIX=s ../recur > out)
cp_check "GMON_OUT_PREFIX: one file s.<pid>, no gmon.out" \
	bash -c 'cd prefix && [ "$(ls s.* | wc -l)" = 1 ] && [ ! -e gmon.out ]'
cp_done
