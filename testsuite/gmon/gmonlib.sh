# gmonlib.sh - helpers for the end-to-end tests of gmon.out written by the
# runtime's modules (t480-t489; source it after setting nothing).
#
# The runtime's side is played by a test fixture, arcrec.c (an mcount of
# its own and a locked hash of arcs), built with runtime/gmon_*.c into
#   gm_build_preload DIR   DIR/libarcrec.so  (LD_PRELOAD; gmon_interpose.c)
#   gm_build_archive DIR   DIR/libarcrec.a   (static links; gmon_static.c)
# and compared with plain -pg runs by
#   gm_compare NAME PROG A B [FILE]   four TAP lines: the files' parts (header,
#       histogram header, arc records in order: gmoncmp.py), gprof -b -q with
#       the bins zeroed (the call graph then depends on the arcs alone, not
#       on timer luck), and the calls column of gprof -b -p.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
GM_SRC="$SRCDIR/testsuite/gmon"
GM_CMP="python3 $GM_SRC/gmoncmp.py"
# the runtime's flags (runtime/module.mk), without the build's sanitizers
GM_CFLAGS="-O2 -g -Wall -Wextra -Werror -std=gnu11 -fPIC -fvisibility=hidden \
-fno-omit-frame-pointer -I$SRCDIR"

gm__objects() { # DIR SUFFIX DEFINES...
	local d=$1 s=$2 m
	shift 2
	mkdir -p "$d" || return 1
	for m in gmon_out gmon_start gmon_interpose gmon_static; do
		gcc $GM_CFLAGS "$@" -c -o "$d/$m$s.o" "$SRCDIR/runtime/$m.c" || return 1
	done
	gcc $GM_CFLAGS -mgeneral-regs-only "$@" -c -o "$d/arcrec$s.o" "$GM_SRC/arcrec.c" &&
	gcc "$@" -c -o "$d/mcount$s.o" "$GM_SRC/arcrec_mcount.S"
}

gm_build_preload() {
	gm__objects "$1" "" &&
	gcc -shared -Wl,-z,defs -o "$1/libarcrec.so" "$1"/gmon_out.o "$1"/gmon_start.o \
		"$1"/gmon_interpose.o "$1"/arcrec.o "$1"/mcount.o
}

gm_build_archive() {
	gm__objects "$1" -a -DARCREC_STATIC &&
	rm -f "$1/libarcrec.a" &&
	ar rcs "$1/libarcrec.a" "$1"/gmon_out-a.o "$1"/gmon_start-a.o \
		"$1"/gmon_static-a.o "$1"/arcrec-a.o "$1"/mcount-a.o
}

# gm_flat_calls GPROF PROG GMON: "name calls" of the flat profile, sorted.
gm_flat_calls() {
	"$1" -b -p "$2" "$3" | awk '$1 ~ /^[0-9.]+$/ && NF == 7 { print $NF, $4 }' | sort
}

gm_compare() {
	local name=$1 prog=$2 a=$3 b=$4 f=${5:-gmon.out}
	cp_check "$name: both runs wrote $f" test -s "$a/$f" -a -s "$b/$f" || return
	local st=0
	$GM_CMP "$a/$f" "$b/$f" > "$WORKDIR/$name.parts" || st=$?
	cp_check "$name: header, histogram header and arc records identical" test $st = 0
	[ $st = 0 ] || sed 's/^/# /' "$WORKDIR/$name.parts"
	$GM_CMP --zero-bins "$a/$f" "$WORKDIR/$name.a.z" &&
	$GM_CMP --zero-bins "$b/$f" "$WORKDIR/$name.b.z" &&
	"$SYSGPROF" -b -q "$prog" "$WORKDIR/$name.a.z" > "$WORKDIR/$name.qa" 2>&1
	"$SYSGPROF" -b -q "$prog" "$WORKDIR/$name.b.z" > "$WORKDIR/$name.qb" 2>&1
	cp_same "$name: gprof -b -q identical" "$WORKDIR/$name.qa" "$WORKDIR/$name.qb"
	gm_flat_calls "$SYSGPROF" "$prog" "$a/$f" > "$WORKDIR/$name.pa"
	gm_flat_calls "$SYSGPROF" "$prog" "$b/$f" > "$WORKDIR/$name.pb"
	cp_same "$name: calls of gprof -b -p identical" "$WORKDIR/$name.pa" "$WORKDIR/$name.pb"
}
