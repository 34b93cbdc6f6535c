#!/usr/bin/env bash
# The files upstream gprof opens itself (the program, gmon files, -R's map,
# -S's symbol table) on which stock gprof 2.40 hangs or crashes are refused
# at once with a message naming them (gprof-ext/input_check.h), in plain
# mode as in --diff and --rank-stats; what stock gprof reads well, or
# refuses itself, still gets exactly its output.  Each run is bounded
# (timeout, address space): a command that hangs or crashes fails its
# check instead of the machine.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
mkfifo fifo
mkdir adir
nm -A app >app.map 2>/dev/null
: >empty.map
printf 'app.o:0000000000401136 T main\napp.o:nospace\n' >nospace.map
printf 'No symbols in empty.o\n' >nosyms.map

limit=4000000
ldd "$EGPROF" 2>/dev/null | grep -q libasan && limit=unlimited

# refused NAME TEXT ARGS...: exit 1 within 20 s, no crash, TEXT on stderr,
# nothing on stdout
refused() {
	local name=$1 text=$2
	shift 2
	( ulimit -v $limit; timeout 20 "$EGPROF" "$@" ) >out.txt 2>err.txt </dev/null
	rc=$?
	check "$name: exit 1 (exit $rc)" [ $rc = 1 ]
	check "$name: says why" has_err err.txt "$text"
	check "$name: no output" [ ! -s out.txt ]
}

# Stock gprof crashes on these (an uninitialised buffer, strrchr of NULL):
# exit 139 by luck of the stack, or garbage.
refused "-R empty map" "empty.map: the function map is empty" -R empty.map app gmon.out
refused "--file-ordering=empty map" "empty.map: the function map is empty" \
	--file-ordering=empty.map app gmon.out
refused "-R /dev/null" "/dev/null: the function map is empty" \
	-R /dev/null app gmon.out
refused "-R a line without a symbol" "nospace.map: line 2 is not \`nm -A\` output" \
	-R nospace.map app gmon.out
# Stock gprof loops for ever on these.
refused "-R a directory" "adir: not a regular file (a directory)" -R adir app gmon.out
refused "-R /dev/zero" "/dev/zero: not a regular file (a character device)" \
	-R /dev/zero app gmon.out
refused "-R a FIFO" "fifo: not a regular file (a FIFO or pipe); -R reads its function map twice" \
	-R fifo app gmon.out
refused "-S /dev/zero" "/dev/zero: not a regular file (a character device)" \
	-S /dev/zero app gmon.out
refused "-S a FIFO" "fifo: not a regular file (a FIFO or pipe); -S reads its symbol table twice" \
	-S fifo app gmon.out
refused "a FIFO as the program" "fifo: not a regular file (a FIFO or pipe); the program is read with seeks" \
	fifo gmon.out
# Stock gprof allocates and clears 16 GiB for /dev/zero's "histogram".
refused "/dev/zero as a gmon file" "/dev/zero: not a regular file (a character device)" \
	app /dev/zero
# The last -R is the one upstream reads; -R with an extension of ours.
refused "-R good -R empty" "empty.map: the function map is empty" \
	-R app.map -R empty.map app gmon.out
refused "-R empty with --dot" "empty.map: the function map is empty" \
	-R empty.map --dot=g.dot app gmon.out
check "... and no g.dot written" [ ! -e g.dot ]
# The other modes open the same files through their loaders.
refused "--rank-stats -S /dev/zero" "/dev/zero: not a regular file (a character device)" \
	--rank-stats -S /dev/zero app gmon.out gmon.2
refused "--rank-stats, /dev/zero among the ranks" "/dev/zero: not a regular file" \
	--rank-stats app gmon.out /dev/zero
refused "--diff, a FIFO as the second program" "fifo: not a regular file (a FIFO or pipe)" \
	--diff app gmon.out fifo gmon.2
refused "--diff, /dev/zero as a gmon file" "/dev/zero: not a regular file" \
	--diff app /dev/zero gmon.2

# What stock gprof reads well or refuses itself stays exactly its own.
same() {
	local name=$1
	shift
	( ulimit -v $limit; timeout 20 /usr/bin/gprof "$@" ) >sys.out 2>sys.err </dev/null
	src=$?
	( ulimit -v $limit; timeout 20 "$EGPROF" "$@" ) >ours.out 2>ours.err </dev/null
	orc=$?
	sed -i "s|^$EGPROF:|gprof:|; s|^/usr/bin/gprof:|gprof:|" sys.err ours.err
	check "$name: stock gprof's output (exit $src, ours $orc)" \
		eval '[ $src = $orc ] && cmp -s sys.out ours.out && cmp -s sys.err ours.err'
}
same "-R a good map" -R app.map app gmon.out
same "-R No symbols only" -R nosyms.map app gmon.out
same "-R a missing map" -R nosuch.map app gmon.out
same "-S a directory" -S adir app gmon.out
same "a directory as the program" adir gmon.out
same "/dev/null as the program" /dev/null gmon.out
same "/dev/null as a gmon file" -b app /dev/null
same "-S /dev/null" -S /dev/null app gmon.out
timeout 20 /usr/bin/gprof -b app <(cat gmon.out) >sys.out 2>&1
timeout 20 "$EGPROF" -b app <(cat gmon.out) >ours.out 2>&1
check "a gmon file from a pipe: stock gprof's output" cmp -s sys.out ours.out
check "... a profile" grep -q "Flat profile" ours.out
same "-R last of two" -R empty.map -R app.map app gmon.out
# Parse errors are upstream's own, before its second pass would crash.
printf 'app.o:nospace\n:no file\n' >parse.map
same "-R a map upstream cannot parse" -R parse.map app gmon.out
check "... which is upstream's message" has_err ours.err "unable to parse mapping file parse.map"

done_testing
