#!/usr/bin/env bash
# make install into a DESTDIR: libcallpath.so with a versioned soname,
# libcallpath.a, callpath.pc (gcc -pg prog.c $(pkg-config --libs callpath)
# links and records), cpdump; make uninstall removes them all.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
command -v pkg-config > /dev/null || { echo "1..0 # SKIP no pkg-config"; exit 0; }
dest="$WORKDIR/dest"
prefix=$(sed -n 's/^prefix = //p' "$BUILDDIR/Makefile")
libdir=$(sed -n 's/^libdir = //p' "$BUILDDIR/Makefile")
bindir=$(sed -n 's/^bindir = //p' "$BUILDDIR/Makefile")
make -s -C "$BUILDDIR" install DESTDIR="$dest" > "$WORKDIR/install.log" 2>&1
cp_check "make install DESTDIR=... succeeds" test $? -eq 0
L="$dest$libdir"
cp_check "libcallpath.so.1.0.0 installed" test -f "$L/libcallpath.so.1.0.0"
cp_check "its soname is libcallpath.so.1" \
	bash -c "readelf -d '$L/libcallpath.so.1.0.0' | grep -q 'SONAME.*\[libcallpath.so.1\]'"
cp_check "libcallpath.so.1 and libcallpath.so link to it" \
	test "$(readlink "$L/libcallpath.so.1")" = libcallpath.so.1.0.0 -a \
	     "$(readlink "$L/libcallpath.so")" = libcallpath.so.1
cp_check "libcallpath.a installed" test -f "$L/libcallpath.a"
cp_check "callpath.pc installed" test -f "$L/pkgconfig/callpath.pc"
cp_check "cpdump installed" test -x "$dest$bindir/cpdump"

# link a program against the installed library through pkg-config
export PKG_CONFIG_PATH="$L/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
libs=$(pkg-config --libs callpath | sed "s/ *$//")
cp_check "pkg-config --libs callpath names the installed library ($libs)" \
	test "$libs" = "-L$dest$libdir -lcallpath"
cd "$WORKDIR" || exit 1
# shellcheck disable=SC2086
gcc -pg -O1 -o prog "$CP_EX/acceptance.c" $(pkg-config --libs callpath) || exit 1
cp_check "the program needs libcallpath.so.1" \
	bash -c "readelf -d prog | grep -q 'NEEDED.*\[libcallpath.so.1\]'"
LD_LIBRARY_PATH="$L" ./prog
cp_check "it loads the installed library" \
	bash -c "LD_LIBRARY_PATH='$L' ldd ./prog | grep -q '$L/libcallpath.so.1'"
cp_acceptance_expected > expected
cp_folded ./prog gmon.out.callpath > folded
cp_same "and records the call paths" expected folded
"$dest$bindir/cpdump" -H gmon.out.callpath > header
cp_check "the installed cpdump reads them" grep -q "^version 4$" header
# shellcheck disable=SC2086
gcc -static -pg -O1 -o sprog "$CP_EX/acceptance.c" $(pkg-config --libs --static callpath) 2>/dev/null &&
	cp_check "a static link with the installed libcallpath.a runs" ./sprog

make -s -C "$BUILDDIR" uninstall DESTDIR="$dest" > "$WORKDIR/uninstall.log" 2>&1
cp_check "make uninstall succeeds" test $? -eq 0
left=$(find "$dest" \( -name '*callpath*' -o -name cpdump -o -name egprof-sum \) | tr '\n' ' ')
cp_check "make uninstall removes every file of libcallpath ($left)" test -z "$left"
echo "# prefix $prefix"
cp_done
