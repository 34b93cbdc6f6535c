#!/usr/bin/env bash
# A complete install (issue 25 item 5).  `make install DESTDIR=...`: every
# installed program answers --help and --version (exit 0, on stdout) and has
# a man page that groff formats without a warning; egprof-rankstats is
# installed when built.  `make install prefix=DIR` (a prefix the dynamic
# linker does not search): the README's commands run from the installed
# tree, and a program linked through the installed callpath.pc finds
# libcallpath.so.1 at run time with no LD_LIBRARY_PATH (its rpath), as
# make install says; with the default prefix callpath.pc has no rpath
# (ld.so searches /usr/local/lib; make install runs ldconfig there, checked
# with a stand-in ldconfig).  make uninstall removes every file.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
unset LD_LIBRARY_PATH LD_PRELOAD GMON_OUT_PREFIX
mpi_built=0
[ -x "$BUILDDIR/mpi/egprof-rankstats" ] && mpi_built=1

# --- DESTDIR, the default prefix --------------------------------------------
dest="$WORKDIR/dest"
make -s -C "$BUILDDIR" install DESTDIR="$dest" >install.log 2>&1
check "make install DESTDIR=... succeeds" [ $? = 0 ]
bindir=$(sed -n 's/^bindir = //p' "$BUILDDIR/Makefile")
mandir=$(sed -n 's/^mandir = //p' "$BUILDDIR/Makefile")
libdir=$(sed -n 's/^libdir = //p' "$BUILDDIR/Makefile")
B="$dest$bindir"
want="gprof egprof cpdump egprof-record"
# the MPI tools when built (the sanitizer build has egprof-sum only)
[ -x "$BUILDDIR/mpi/egprof-sum" ] && want="$want egprof-sum"
[ $mpi_built = 1 ] && want="$want egprof-rankstats"
for p in $want; do
	check "$p is installed" [ -x "$B/$p" ]
done
check "nothing else is installed in bindir" \
	bash -c "[ \"\$(ls '$B' | sort | tr '\n' ' ')\" = \"\$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')\" ]"
for p in $(ls "$B"); do
	"$B/$p" --help >h.out 2>h.err; rc=$?
	check "$p --help: exit 0, a usage on stdout" \
		bash -c "[ $rc = 0 ] && grep -qi 'usage' h.out"
	"$B/$p" --version >v.out 2>v.err; rc=$?
	check "$p --version: exit 0, the version" \
		bash -c "[ $rc = 0 ] && grep -q '0\.1\.0\|2\.40' v.out"
	page="$dest$mandir/man1/$p.1"
	check "$p has a man page that groff formats without a warning" \
		bash -c "[ -f '$page' ] && groff -man -ww -Tutf8 '$page' 2>&1 >/dev/null | (! grep -q .)"
done
check "with DESTDIR, make install runs no ldconfig (a package's scripts do)" \
	bash -c "! grep -q 'ldconfig' install.log"
check "the default libdir is searched by ld.so: callpath.pc has no rpath" \
	bash -c "'$SRCDIR/scripts/libdir-runtime' searched '$libdir' &&
		 ! grep -q rpath '$dest$libdir/pkgconfig/callpath.pc'"
# the ldconfig step, with a stand-in that records its calls
mkdir -p fake && cat >fake/ldconfig <<EOF
#!/bin/sh
if [ "\$1" = -v ]; then echo "/srv/searched/lib: (from test)"; exit 0; fi
echo "ldconfig \$*" >>'$WORKDIR/ldconfig.calls'
EOF
chmod +x fake/ldconfig
LDCONFIG="$WORKDIR/fake/ldconfig" "$SRCDIR/scripts/libdir-runtime" ldconfig /srv/searched/lib "" >note1.txt
LDCONFIG="$WORKDIR/fake/ldconfig" "$SRCDIR/scripts/libdir-runtime" ldconfig /opt/elsewhere/lib "" >note2.txt
if [ "$(id -u)" = 0 ]; then
	check "a searched libdir: ldconfig refreshes ld.so's cache" bash -c "[ -s ldconfig.calls ] && [ ! -s note1.txt ]"
else
	check "a searched libdir: says to run ldconfig as root" grep -q 'run ldconfig as root' note1.txt
fi
check "another libdir: no ldconfig, says how programs find the library" \
	bash -c "[ \$(wc -l <ldconfig.calls 2>/dev/null || echo 0) -le 1 ] && grep -q 'LD_LIBRARY_PATH=/opt/elsewhere/lib' note2.txt"
make -s -C "$BUILDDIR" uninstall DESTDIR="$dest" >uninstall.log 2>&1
check "make uninstall DESTDIR=... removes every file" bash -c "[ -z \"\$(find '$dest' -type f -o -type l)\" ]"

# --- a prefix of its own: the README's commands from the installed tree -----
pre="$WORKDIR/inst"
make -s -C "$BUILDDIR" install prefix="$pre" bindir="$pre/bin" libdir="$pre/lib" \
	mandir="$pre/man" docdir="$pre/doc" >install2.log 2>&1
check "make install prefix=DIR succeeds" [ $? = 0 ]
check "make install says how programs find libcallpath there" \
	grep -q "LD_LIBRARY_PATH=$pre/lib" install2.log
check "callpath.pc gives an rpath to the installed library" \
	grep -q '^Libs: -L${libdir} -lcallpath -Wl,-rpath,${libdir}$' "$pre/lib/pkgconfig/callpath.pc"
export PATH="$pre/bin:$PATH" PKG_CONFIG_PATH="$pre/lib/pkgconfig"
mkdir -p app && cd app || exit 1
cat >prog.c <<'C'
#include <stdio.h>
volatile double s;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) s += i; }
__attribute__((noinline)) void mid(int n) { leaf(n); leaf(n / 2); }
int main(int argc, char **argv) { for (int i = 0; i < 200; i++) mid(argc > 1 ? 100000 : 150000); printf("%g\n", s); return 0; }
C
# readme DESCRIPTION COMMAND: the command is in README.md verbatim and runs
readme() {
	local what=$1 cmd=$2
	if ! grep -qF -- "$cmd" "$SRCDIR/README.md"; then
		not_ok "$what: '$cmd' is not in README.md"
		return
	fi
	if eval "$cmd" >readme.out 2>readme.err; then
		ok "$what: $cmd"
	else
		not_ok "$what: $cmd (status $?)"
		sed 's/^/# /' readme.err | head -5
	fi
}
readme "link through the installed callpath.pc, run" \
	'gcc -pg -O1 -o prog prog.c $(pkg-config --libs callpath) && ./prog'
check "the program finds the installed libcallpath.so.1 with no LD_LIBRARY_PATH" \
	bash -c "ldd ./prog | grep -q '$pre/lib/libcallpath.so.1' && [ -s gmon.out.callpath ]"
./prog >/dev/null && cp gmon.out gmon.1 && cp gmon.out.callpath gmon.1.callpath
./prog 2 >/dev/null && cp gmon.out gmon.2 && cp gmon.out.callpath gmon.2.callpath
./prog >/dev/null
cp prog prog1 && cp prog prog2
readme "the installed gprof, call paths" 'gprof --callpath --folded prog.folded prog gmon.out'
check "  ... the folded stacks name the program's paths" grep -q '^main;mid;leaf ' prog.folded
readme "a graph for yEd" 'gprof -b prog gmon.out --gml cg.gml'
readme "JSON of a diff" 'gprof --diff --format json prog1 gmon.1 prog2 gmon.2 > diff.json'
readme "pprof and HTML" 'gprof -b prog gmon.out --pprof prog.pb.gz --html report.html'
readme "pprof and HTML of a diff" 'gprof -b --diff prog1 gmon.1 prog2 gmon.2 --pprof diff.pb.gz --html diff.html'
check "  ... the files are there" bash -c "gzip -t prog.pb.gz && gzip -t diff.pb.gz &&
	grep -q egprof-data report.html && grep -q egprof-data diff.html"
check "README names LD_PRELOAD of the installed library and the man pages" \
	bash -c "grep -qF 'LD_PRELOAD=/usr/local/lib/libcallpath.so.1 ./prog' '$SRCDIR/README.md' &&
		 grep -qF 'man egprof cpdump egprof-sum egprof-rankstats' '$SRCDIR/README.md'"
if command -v man >/dev/null; then
	for p in egprof cpdump egprof-sum egprof-rankstats; do
		[ -x "$BUILDDIR/mpi/$p" ] || case $p in egprof-*) continue ;; esac
		check "  ... man finds the installed $p(1)" \
			bash -c "man -M '$pre/man' -P cat $p 2>/dev/null | sed 's/.\x08//g' | grep -q '^NAME'"
	done
fi
# the README's line names the default libdir: the same with this install's
rm -f gmon.out.callpath
LD_PRELOAD="$pre/lib/libcallpath.so.1" ./prog >/dev/null
check "  ... LD_PRELOAD=$pre/lib/libcallpath.so.1 ./prog writes the sidecar" [ -s gmon.out.callpath ]
readme "cpdump of the installed tree" 'cpdump -H gmon.out.callpath'
if [ $mpi_built = 1 ] && command -v mpirun >/dev/null; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
	mkdir -p run1 && cp gmon.1 run1/gmon.0 && cp gmon.2 run1/gmon.1
	ln -sf prog app
	check "mpirun egprof-rankstats from the installed tree" \
		bash -c "mpirun -np 2 egprof-rankstats ./app run1 | grep -q '^2 ranks'"
	check "mpirun egprof-sum from the installed tree" \
		bash -c "mpirun -np 2 egprof-sum -o run1.sum run1 && gprof -b -p ./app run1.sum | grep -q leaf"
fi
cd "$WORKDIR" || exit 1
make -s -C "$BUILDDIR" uninstall prefix="$pre" bindir="$pre/bin" libdir="$pre/lib" \
	mandir="$pre/man" docdir="$pre/doc" >uninstall2.log 2>&1
check "make uninstall prefix=DIR removes every file" bash -c "[ -z \"\$(find '$pre' -type f -o -type l)\" ]"
done_testing
