#!/usr/bin/env bash
# A program linked with -lcallpath writes the gmon.out a plain -pg build
# writes (issue 23, acceptance 1), not only one that preloads it.
# libcallpath.so's own _init (crti.o) called __gmon_start__, which the link
# with -lcallpath resolved to the program's (gcrt1.o's) and exported:
# glibc's profiling started from the library's _init, before the program's,
# and _mcleanup, registered with atexit before the dynamic linker's
# finalizer, wrote gmon.out after the program's destructors, counting
# their calls (exitorder's dtor -> leaf; ctors.cc's static destructor ->
# bump), with the runtime in charge or glibc (CALLPATH_ARCS=glibc) alike.
# Compared: gprof -b -q (histogram bins zeroed, index numbers aside) and
# the calls of gprof -b -p of a plain build and of the same source linked
# with -lcallpath, run as is and with CALLPATH_ARCS=glibc, and preloaded.
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
CPDIR="$BUILDDIR/callpath"
for src in exitorder.c ctors.cc; do
	name=${src%.*}
	cc=gcc
	[ "${src##*.}" = cc ] && cc=g++
	$cc -pg -O0 -o $name.plain "$GM_SRC/$src" &&
	$cc -pg -O0 -o $name.linked "$GM_SRC/$src" -L"$CPDIR" -lcallpath -Wl,-rpath,"$CPDIR" ||
		exit 1
	mkdir -p $name.p $name.l $name.g $name.pre
	(cd $name.p && ../$name.plain > out)
	(cd $name.l && ../$name.linked > out)
	(cd $name.g && CALLPATH_ARCS=glibc ../$name.linked > out)
	(cd $name.pre && LD_PRELOAD="$CP_SO" ../$name.plain > out)
	for run in p l g pre; do
		case $run in p|pre) prog=$name.plain ;; *) prog=$name.linked ;; esac
		$GM_CMP --zero-bins $name.$run/gmon.out $name.$run.z
		"$SYSGPROF" -b -q $prog $name.$run.z | sed 's/\[[0-9]*\]//g' > $name.$run.q
		gm_flat_calls "$SYSGPROF" $prog $name.$run/gmon.out > $name.$run.calls
	done
	for run in l g pre; do
		case $run in
		l) what="linked with -lcallpath" ;;
		g) what="linked, CALLPATH_ARCS=glibc" ;;
		pre) what="preloaded" ;;
		esac
		cp_same "$name, $what: the program's output is unchanged" $name.p/out $name.$run/out
		cp_same "$name, $what: gprof -b -q as the plain build's" $name.p.q $name.$run.q
		cp_same "$name, $what: the calls of gprof -b -p as the plain build's" \
			$name.p.calls $name.$run.calls
	done
done
cp_done
