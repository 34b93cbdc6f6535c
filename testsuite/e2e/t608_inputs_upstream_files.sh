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

# An address-space limit (not under AddressSanitizer, which reserves
# terabytes of shadow memory up front).  Under ASan, -R's output is not
# compared with stock gprof's: upstream reads a field of its map entries
# that it never set, so the file order is the heap's (testsuite/e2e/lib.sh,
# e2e__allocator_dependent); refusals are checked all the same.
limit=4000000 asan=no
ldd "$EGPROF" 2>/dev/null | grep -q libasan && limit=unlimited asan=yes

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
	if [ $asan = yes ] && [[ " $* " = *" -R "* ]]; then
		ok "$name # SKIP allocator-dependent upstream path under ASan"
		return
	fi
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
"$EGPROF" -R parse.map app gmon.out >ours.out 2>ours.err
check "... which is upstream's message" has_err ours.err "unable to parse mapping file parse.map"

# Stock gprof against egprof on 200 generated maps (a fixed seed): nm -A
# lines, "No symbols in" lines, lines without a colon or a space, fields of
# 1,000 to 3,000 bytes around upstream's 1,023, with and without a last
# newline.  Where stock gprof crashes (exit 139) egprof refuses the map with
# its reason; everywhere else both print the same bytes and exit alike.
# (No empty map: stock gprof's behaviour on it is the luck of its stack.)
mkdir maps
python3 - maps <<'EOP'
import random, sys
r = random.Random(608)
names = ["main", "use_a", "use_b", "spin", "leaf"]
def field(most):
    k = min(r.choice([0, 1, 3, 10, 1000, 1023, 1024, 1030, 2046, 2047, 2100, 3100]), most)
    return "".join(r.choice("abcxyz_.0") for _ in range(k))
def line():
    c = r.random()
    if c < 0.45:
        return "%s:%016x %s %s" % (r.choice(["app", "a.o", "a b.o"]), r.randrange(1 << 20),
                                   r.choice("TtDdbr"), r.choice(names))
    if c < 0.55: return "No symbols in %s.o" % field(20)
    if c < 0.65: return "%s:%s" % (field(3000), field(3000))
    if c < 0.72: return "%s:%s %s" % (field(30), field(3000), field(3000))
    if c < 0.78: return field(50)
    if c < 0.82: return ""
    if c < 0.86: return ":" + field(10)
    if c < 0.90: return "   " + field(5) + ":x y"
    return "%s.o:0 T %s" % (field(5), field(3000))
for i in range(200):
    text = "\n".join(line() for _ in range(r.choice([1, 1, 2, 3, 5])))
    text += r.choice(["\n", "\n", "", "\n\n", " "])
    if not text.strip("\n "):
        text = "x"
    open("%s/m%03d.map" % (sys.argv[1], i), "w").write(text)
EOP
crashed=0 refused_ok=0 identical=0 bad=0
for m in maps/*.map; do
	( ulimit -v $limit; timeout 20 /usr/bin/gprof -b -R "$m" app gmon.out ) >sys.out 2>sys.err </dev/null
	src=$?
	( ulimit -v $limit; timeout 20 "$EGPROF" -b -R "$m" app gmon.out ) >ours.out 2>ours.err </dev/null
	orc=$?
	sed -i "s|^$EGPROF:|gprof:|; s|^/usr/bin/gprof:|gprof:|" sys.err ours.err
	refused=no
	[ $orc = 1 ] && grep -q "is not \`nm -A\` output\|too long for gprof's map reader" ours.err &&
		refused=yes
	if [ $src = 139 ]; then
		crashed=$((crashed + 1))
		if [ $refused = yes ]; then refused_ok=$((refused_ok + 1)); else bad=$((bad + 1)); echo "# $m: stock crashed, ours exit $orc"; fi
	elif [ $refused = no ] && [ $src = $orc ] && cmp -s sys.out ours.out && cmp -s sys.err ours.err; then
		identical=$((identical + 1))
	elif [ $refused = no ] && [ $asan = yes ] && [ $orc -lt 128 ]; then
		identical=$((identical + 1)) # the heap's file order: not compared
	else
		bad=$((bad + 1)); echo "# $m: stock exit $src, ours exit $orc (refused: $refused)"
	fi
done 2>/dev/null
echo "# generated maps: stock crashed on $crashed, egprof refused $refused_ok of them; $identical identical"
check "generated maps: each crash of stock gprof refused, every other map stock gprof's output ($bad not)" \
	[ $bad = 0 ]
check "... and both kinds were met" test $crashed -ge 10 -a $identical -ge 100

done_testing
