# scale_lib.sh - generated big programs for the parity scripts on scale
# (t007-t010); source it after lib.sh.
#
# e2e_build_scale ID NFUNCS
#   Generate an NFUNCS-function program with bench/scale/gen.py, compile it
#   once with -pg -O0 -g -fpie and link it twice, as a PIE and as a non-PIE
#   executable (position-independent code in a fixed-address ET_EXEC: the
#   compile is what costs, and gprof sees the executable's type and
#   addresses).  Each link gives two templates like e2e_build's: ID-pie-g
#   and ID-nopie-g (with debug info), ID-pie and ID-nopie (the same programs
#   with their debug info stripped by objcopy, sharing their profiles: the
#   code is the same).  Prints nothing; the log is $WORKDIR/p/ID.log and
#   success leaves $WORKDIR/p/ID.ok; then e2e_check_builds ID.
e2e_build_scale() (
	local id=$1 n=$2 s="$WORKDIR/src/$1" o="$WORKDIR/o/$1" f
	rm -f "$WORKDIR/p/$id.ok"
	mkdir -p "$s" "$o" "$WORKDIR/p"
	{
		python3 "$SRCDIR/bench/scale/gen.py" "$s" "$n" &&
		cd "$s" &&
		for f in $(cat files); do
			gcc -pg -O0 -g -fpie -c "$f" -o "$o/${f%.c}.o" || exit 1
		done &&
		e2e__link_scale "$id-pie" -pie &&
		e2e__link_scale "$id-nopie" -no-pie &&
		touch "$WORKDIR/p/$id.ok"
	} >"$WORKDIR/p/$id.log" 2>&1
)

# e2e__link_scale NAME LDFLAG: templates NAME-g and NAME from the objects in
# $o and the sources in $s (both set by e2e_build_scale).
e2e__link_scale() {
	local p="$WORKDIR/p/$1-g" q="$WORKDIR/p/$1"
	mkdir -p "$p" &&
	cp "$s"/*.c "$p/" &&
	cd "$p" &&
	gcc -pg "$2" "$o"/*.o -o prog &&
	(cd "$o" && nm -A --extern-only --defined-only -- *.o) >mapfile &&
	./prog 1 && mv gmon.out gmon.2 &&
	GMON_OUT_PREFIX=gmon.pfx ./prog 3 && mv gmon.pfx.* gmon.3 &&
	./prog 2 &&
	[ -s gmon.out ] && [ -s gmon.2 ] && [ -s gmon.3 ] &&
	cp -a "$p" "$q" &&
	objcopy --strip-debug "$p/prog" "$q/prog" &&
	nm "$p/prog" >"$p/syms.nm" && nm "$q/prog" >"$q/syms.nm"
}
