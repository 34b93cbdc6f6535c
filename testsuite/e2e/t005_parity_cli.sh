#!/bin/bash
# Parity of the command line and of error handling: -v and --help, unknown,
# ambiguous and abbreviated options, missing arguments, @FILE response files,
# demangling styles, -r/-R (function and file ordering), -S (external symbol
# table), -d (debug output), and every way the input files can be wrong:
# missing, directories, not executables, stripped, other programs' profiles,
# empty, truncated or corrupt gmon files.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

e2e_build_std cmix-O0g-nopie cxx-O0g-pie csmall-O0g-pie cmix-O2-pie

# Under AddressSanitizer (configure --enable-sanitizers) a memory limit
# stops ASan itself: those few cases are skipped, and say so.
asan=no
if ldd "$EGPROF" 2>/dev/null | grep -q libasan || nm "$EGPROF" 2>/dev/null | grep -q __asan_init; then
	asan=yes
fi

P="$WORKDIR/p/cmix-O0g-nopie"
e2e_bad_gmons cmix-O0g-nopie
cp "$WORKDIR/p/csmall-O0g-pie/gmon.out" "$P/gmon.foreign"
mkdir "$P/sub"
cp "$WORKDIR/o/cmix-O0g-nopie/spin.o" "$P/"
strip -o "$P/stripped" "$P/prog"
gcc -pg -g -fpic -shared -o "$P/libcmix.so" "$CORPUS"/cmix/*.c
gcc -O0 -o "$P/nopg" "$CORPUS/csmall/csmall.c"
# Other ELF classes, when this system's compiler can make them (no libc needed).
has_m32=no
printf 'int leaf(int x) { return x + 1; }\nint main(void) { return leaf(0); }\n' >"$WORKDIR/tiny.c"
if gcc -m32 -nostdlib -static -Wl,-e,main -o "$P/m32" "$WORKDIR/tiny.c" 2>/dev/null &&
   gcc -mx32 -nostdlib -static -Wl,-e,main -o "$P/mx32" "$WORKDIR/tiny.c" 2>/dev/null; then
	has_m32=yes
fi
# file-ordering maps: good one (nm -A of the objects) made by e2e_build, plus
# broken ones
printf 'No symbols in empty.o\n' >"$P/nosyms.map"
cat "$P/mapfile" >>"$P/nosyms.map"
printf ':no file name here\n' >"$P/bad.map"
# external symbol tables
: >"$P/syms.empty"
printf 'this is\nnot nm output at all\n' >"$P/syms.junk"
grep ' [tT] ' "$P/syms.nm" | sort -r >"$P/syms.reversed"
# response files
printf -- '-b\n-p\nprog\ngmon.out\n' >"$P/opts.b"
printf -- '-q\n@opts.b\n' >"$P/opts.nested"
printf -- "'-b' \"-q\" prog 'gmon.out' gmon\\\\.2\n" >"$P/opts.quoted"
printf -- '-v\n' >"$P/opts.v"
printf -- '--help\n' >"$P/opts.help"
printf -- '--bogus\n' >"$P/opts.bad"
: >"$P/opts.empty"
printf -- '@opts.loop\n' >"$P/opts.loop"

# -v and --help: ours may add to them (see lib.sh), upstream's part must match.
for c in -v --version --vers --v "-v prog gmon.out" "-b -v" "-b --v prog gmon.out" "-p -v -q" \
	 @opts.v; do
	e2e_case cmix-O0g-nopie "gprof $c" version
done
e2e_case empty "gprof -v" version
for c in --help -h --he --h "-b -h prog" "-b --h prog gmon.out" "-h -v" "-v -h" @opts.help; do
	mode=help
	[ "$c" = "-v -h" ] && mode=version
	e2e_case cmix-O0g-nopie "gprof $c" "$mode"
done
e2e_case empty "gprof --help" help

# Unknown, ambiguous and abbreviated options, missing and bad arguments.
# Abbreviations matter: a new long option in our front end must not make an
# upstream abbreviation ambiguous (--gr, --ext=, --di): a name upstream knows,
# even as an ambiguous abbreviation, stays upstream's.  Abbreviations of our
# own options are ours (t860 checks what each means); a name neither table
# knows, or one that abbreviates several of ours, gets our one-line message
# instead of upstream's usage (mode badopt).
for c in -X -j -g -G -bX --no --de --d --s --e --di --f --t --p --a --b --l \
	 --i --n --m --w --gr --fl --ti --su --in --br --tr --li \
	 --g --gra --g=main --ex --exte=syms.nm --e=syms.nm --ext=syms.nm --di=. \
	 "--=x" "--line=3" "--brief=x" "--sum=1" -w -k -m -R -S -I -t -O -n -N -e \
	 -E -f -F --width --time --file-ordering --external-symbol-table --min-count \
	 "-- -b" "-b -- prog gmon.out" --; do
	e2e_case cmix-O0g-nopie "gprof $c"
	e2e_case cmix-O0g-nopie "gprof -b $c prog gmon.out"
done
for c in --bogus --graph-x --fo --ra --foldd; do
	e2e_case cmix-O0g-nopie "gprof $c" badopt
	e2e_case cmix-O0g-nopie "gprof -b $c prog gmon.out" badopt
done
for c in "-w abc" "-w -5" "-w 0" "-w 99999" "--width=7" "-t -1 -A" "-t x -A" "-t 2 -A -x" \
	 "-m x -C" "-m -3 -C" "-m 99999999999999999999 -C" "--gr=main" "--fl=spin" \
	 "--ti=spin" "--no-t=spin" "--br" "--li --br" "--su" "--w=50 --br" \
	 "-Ox" "-O" "-Oq" "--file-format=xyz" "--file-format=" -Op "-Ob -Oa"; do
	e2e_case cmix-O0g-nopie "gprof $c prog gmon.out"
done

# Demangling styles on C++.
for c in --demangle --no-demangle --demangle=gnu-v3 --demangle=auto --demangle=java \
	 --demangle=gnat --demangle=dlang --demangle=rust --demangle=none --demangle=bogus \
	 --demangle= "--demangle --no-demangle" "--no-demangle --demangle=gnu-v3" \
	 "--demangle=java -q" "--no-demangle -q" "--no-demangle -A" "--no-demangle -l" \
	 "--no-demangle -r" "--demangle=GNU-V3" "--dem" "--no-dem"; do
	e2e_case cxx-O0g-pie "gprof -b $c prog gmon.out"
done
e2e_case cxx-O0g-pie "gprof --demangle=bogus"
e2e_case cmix-O0g-nopie "gprof --demangle=java -b prog gmon.out"

# @FILE response files.
for c in @opts.b @opts.nested @opts.quoted "@nosuch prog gmon.out" "@opts.empty prog gmon.out" \
	 @opts.bad "-b @opts.b -q" "@opts.b @opts.b" "prog @opts.b" "-p @opts.quoted"; do
	e2e_case cmix-O0g-nopie "gprof $c"
done

# -r and -R: function and file ordering. (Not a directory, a FIFO, a device,
# an empty map or a line without a symbol: stock gprof loops for ever or
# crashes by luck of its stack on those, and egprof refuses them; see
# t608_inputs_upstream_files.)
for c in "-r" "-r -b" "-r -z" "-r -a" "--function-ordering -c" "-R mapfile" "-R mapfile -b" \
	 "--file-ordering mapfile" "-R nosyms.map" "-R bad.map" "-R nosuch" \
	 "-r -R mapfile" "-R mapfile -r" "-R mapfile -s" "-r -s" "-R mapfile -l"; do
	e2e_case cmix-O0g-nopie "gprof $c prog gmon.out"
	e2e_case cmix-O2-pie "gprof $c prog gmon.out gmon.2"
done
e2e_case cxx-O0g-pie "gprof -R mapfile prog gmon.out"
e2e_case cxx-O0g-pie "gprof -r prog gmon.out"
e2e_case csmall-O0g-pie "gprof -R mapfile prog gmon.out"

# -S: external symbol table instead of the program's own.
for c in "-S syms.nm" "-S syms.nm -b -q" "-S syms.nm -l -b" "-S syms.nm -A" "-S syms.nm -z" \
	 "--external-symbol-table=syms.nm" "-S syms.reversed -b" "-S syms.empty" "-S syms.junk" \
	 "-S nosuch" "-S sub" "-S syms.nm -c -b" "-S syms.nm -pspin" "-S syms.nm -s"; do
	e2e_case cmix-O0g-nopie "gprof $c prog gmon.out"
done
for c in "-S syms.nm -b" "-S syms.nm --no-demangle -b" "-S syms.nm -q"; do
	e2e_case cxx-O0g-pie "gprof $c prog gmon.out"
done
e2e_case cmix-O0g-nopie "gprof -S ../cmix-O2-pie/syms.nm -b prog gmon.out"

# -d: debug output (deterministic; upstream is built with DEBUG).
for c in -d -d1 -d2 -d4 -d8 -d16 -d32 -d64 -d128 -d256 -d512 -d1024 "-d2048 -C" "-d4096 -pspin" \
	 "-d8192 -A" --debug --debug=6 -dabc "-d0" "-d -s" "-d -l -b" "-d -c -b"; do
	e2e_case cmix-O0g-nopie "gprof $c prog gmon.out"
done
e2e_case cxx-O0g-pie "gprof -d prog gmon.out"

# Missing and wrong input files.
e2e_case empty "gprof"
e2e_case empty "gprof -b"
e2e_case empty "gprof -b prog"
for c in "cp prog a.out && gprof -b" "cp prog a.out && gprof" "cp prog a.out && gprof -b a.out" \
	 "rm gmon.out && gprof -b prog" "rm gmon.out && cp prog a.out && gprof" \
	 "gprof -b prog" "gprof nosuch gmon.out" "gprof -b prog nosuch" "gprof -b prog gmon.out nosuch" \
	 "gprof -b prog gmon.out gmon.2 nosuch gmon.3" "gprof sub gmon.out" "gprof -b prog sub" \
	 "gprof . gmon.out" "gprof gmon.out gmon.out" "gprof mapfile gmon.out" \
	 "gprof /dev/null gmon.out" "gprof -b prog /dev/null" "gprof stripped gmon.out" \
	 "gprof -b prog ''" "gprof '' gmon.out" \
	 "gprof -b ../csmall-O0g-pie/prog gmon.out" "gprof -b -l ../cmix-O2-pie/prog gmon.out" \
	 "gprof -b -A prog ../cmix-O2-pie/gmon.out" "gprof -S syms.nm stripped gmon.out"; do
	e2e_case cmix-O0g-nopie "$c"
done
# a gmon file of another program: GNU gprof's output, and one warning
for c in "gprof spin.o gmon.out" "gprof -b nopg gmon.out" "gprof -b prog gmon.foreign" \
	 "gprof -b prog gmon.out gmon.foreign" "gprof -b prog gmon.foreign gmon.out"; do
	e2e_case cmix-O0g-nopie "$c" foreign
done
# a shared library built with -pg, as the program (the gmon file is the
# program's: its calls enter no function of the library)
e2e_case cmix-O0g-nopie "gprof -b libcmix.so gmon.out" foreign
e2e_case cmix-O0g-nopie "gprof -b -l libcmix.so gmon.out" foreign
if [ "$has_m32" = yes ]; then
	for c in "gprof m32 gmon.out" "gprof mx32 gmon.out" "gprof -b -S syms.nm m32 gmon.out"; do
		e2e_case cmix-O0g-nopie "$c"
	done
fi

# Broken gmon files, alone and after a good one.
# (-Ob is not tried on the truncated gmon-format files: read as BSD, their
# header asks for a 16 GiB histogram and upstream runs out of memory or time.)
for g in empty t3 t19 t21 t40 half short1 badver badtag text bsdlohi bsdbig oldbsd; do
	for o in -b -i -s "-b -q"; do
		e2e_case cmix-O0g-nopie "gprof $o prog gmon.$g"
	done
	e2e_case cmix-O0g-nopie "gprof -b prog gmon.out gmon.$g"
	e2e_case cmix-O0g-nopie "gprof -s prog gmon.out gmon.$g"
done
for g in empty t3 t19 t21 text bsdlohi bsdbig oldbsd; do
	e2e_case cmix-O0g-nopie "gprof -Ob prog gmon.$g"
done
# With a memory limit, the others fail fast in xmalloc, whose message counts
# the bytes allocated so far: the heap use of both must match.
if [ "$asan" = no ]; then
	for g in out t40 half short1 badver badtag; do
		e2e_case cmix-O0g-nopie "ulimit -v 2000000; gprof -Ob prog gmon.$g"
	done
fi

# Output that cannot be written, and closed standard streams.
for c in "-b prog gmon.out" "prog gmon.out gmon.2" "-A prog gmon.out" "--help" "-v" \
	 "-s prog gmon.out" "-b prog nosuch"; do
	e2e_case cmix-O0g-nopie "gprof $c >/dev/full"
	e2e_case cmix-O0g-nopie "gprof $c >&-"
done
e2e_case cmix-O0g-nopie "gprof --bogus >/dev/full" badopt
e2e_case cmix-O0g-nopie "gprof --bogus >&-" badopt
e2e_case cmix-O0g-nopie "gprof -b prog nosuch 2>&-"
e2e_case cmix-O0g-nopie "gprof -b prog - <&-"
e2e_case cmix-O0g-nopie "gprof -b prog gmon.out <&-"
e2e_case cmix-O0g-nopie "gprof -b -A -y prog gmon.out >/dev/full"

e2e_run_cases
if [ "$asan" = yes ]; then
	ok "out-of-memory cases # SKIP our gprof is built with AddressSanitizer"
fi
if [ "$has_m32" = yes ]; then
	ok "-m32 and -mx32 programs could be built"
else
	ok "-m32 and -mx32 programs could be built # SKIP compiler cannot make them"
fi
e2e_done
