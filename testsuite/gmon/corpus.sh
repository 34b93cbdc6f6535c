# corpus.sh - the corpus of t480 (the fixture) and t485 (libcallpath):
# plain -pg runs against runs with $PRE preloaded (taking gmon.out over)
# and with $REFUSE in the environment too (refusing: glibc's functions
# write).  Set PRE, REFUSE and GM_FENTRY ("none" when $PRE has no
# __fentry__), cd to $WORKDIR, then source this after gmonlib.sh.
NOASLR="setarch $(uname -m) -R"

# run3 NAME PROG ARGS: plain in NAME.p, taken over in NAME.r, refused in NAME.f
run3() {
	local name=$1 prog=$2
	shift 2
	mkdir -p "$name.p" "$name.r" "$name.f"
	(cd "$name.p" && $NOASLR "$prog" "$@" > out)
	(cd "$name.r" && LD_PRELOAD=$PRE $NOASLR "$prog" "$@" > out)
	(cd "$name.f" && env $REFUSE LD_PRELOAD=$PRE $NOASLR "$prog" "$@" > out)
	cp_same "$name: the program's output is unchanged" "$name.p/out" "$name.r/out"
}

for opt in O0 O2; do
	srcs="recur fptr"	# -O2 inlines the others' calls away
	[ $opt = O0 ] && srcs="$srcs qsortcb monctl restart"
	for src in $srcs; do
		gcc -pg -$opt -o $src.$opt "$GM_SRC/$src.c" || exit 1
		run3 $src.$opt "$WORKDIR/$src.$opt"
		gm_compare $src.$opt $src.$opt $src.$opt.p $src.$opt.r
	done
	g++ -pg -$opt -o ctors.$opt "$GM_SRC/ctors.cc" || exit 1
	run3 ctors.$opt "$WORKDIR/ctors.$opt"
	gm_compare ctors.$opt ctors.$opt ctors.$opt.p ctors.$opt.r
done
gcc -pg -O0 -no-pie -o recur.nopie "$GM_SRC/recur.c" || exit 1
run3 recur.nopie "$WORKDIR/recur.nopie" 12
gm_compare recur.nopie recur.nopie recur.nopie.p recur.nopie.r
gcc -pg -O0 -mfentry -o fptr.fentry "$GM_SRC/fptr.c" || exit 1
run3 fptr.fentry "$WORKDIR/fptr.fentry"
if [ "$GM_FENTRY" = none ]; then
	# the fixture has no __fentry__: -mfentry calls reach glibc's counter,
	# which the take-over leaves off (glibc's tables are never allocated),
	# so the runtime must count every call itself
	cp_check "fptr.fentry: glibc's counter stays off under the take-over" \
		bash -c "! $GM_CMP --dump fptr.fentry.r/gmon.out | grep -q '^arc'"
else
	gm_compare fptr.fentry fptr.fentry fptr.fentry.p fptr.fentry.r
fi

# moncontrol(0) stops glibc's profil() under the take-over too: 0.25 s of
# CPU in spin_off while off is never sampled (a tick every 10 ms: 25
# expected were it on); 0.15 s in spin_on while on is (15 expected; none
# has a probability below 1e-6 under Poisson noise)
gcc -pg -O0 -o monhist "$GM_SRC/monhist.c" || exit 1
mkdir -p monhist.r && (cd monhist.r && LD_PRELOAD=$PRE ../monhist > out) || exit 1
"$SYSGPROF" -b -p monhist monhist.r/gmon.out > monhist.flat
cp_check "moncontrol(0): no samples while off" \
	bash -c "! awk '\$NF == \"spin_off\" && \$3 > 0' monhist.flat | grep -q ."
cp_check "moncontrol(1): samples while on" \
	bash -c "awk '\$NF == \"spin_on\" && \$3 > 0' monhist.flat | grep -q ."

# a -pg shared library: arcs into it carry its address
gcc -pg -O0 -fPIC -shared -o libshlib.so "$GM_SRC/shlib.c" || exit 1
gcc -pg -O0 -o shmain "$GM_SRC/shmain.c" -L. -lshlib -Wl,-rpath,"$WORKDIR" || exit 1
run3 shmain "$WORKDIR/shmain"
gm_compare shmain-vs-refused shmain shmain.f shmain.r
$GM_CMP --zero-bins shmain.p/gmon.out shmain.p.z && $GM_CMP --zero-bins shmain.r/gmon.out shmain.r.z
"$SYSGPROF" -b -q shmain shmain.p.z > shmain.qp; "$SYSGPROF" -b -q shmain shmain.r.z > shmain.qr
cp_same "shmain: gprof -b -q identical to the plain run" shmain.qp shmain.qr
gm_compare recur.O0-vs-refused recur.O0 recur.O0.f recur.O0.r

# fork: each process writes its own file (GMON_OUT_PREFIX), the child
# with the counts it inherited
gcc -pg -O0 -o forked "$GM_SRC/forked.c" || exit 1
mkdir -p fork.p fork.r
(cd fork.p && GMON_OUT_PREFIX=g $NOASLR ../forked > out)
(cd fork.r && GMON_OUT_PREFIX=g LD_PRELOAD=$PRE $NOASLR ../forked > out)
for side in p r; do
	set -- $(cd fork.$side && ls g.* | grep -v callpath | sort -t. -k2 -n)
	mkdir -p fp.$side fc.$side
	[ $# = 2 ] && cp "fork.$side/$1" fp.$side/gmon.out && cp "fork.$side/$2" fc.$side/gmon.out
done
gm_compare fork-parent forked fp.p fp.r
gm_compare fork-child forked fc.p fc.r
