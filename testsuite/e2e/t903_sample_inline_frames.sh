#!/usr/bin/env bash
# Inlined functions as frames in sampled paths: a C++ program built -O2
# -g, whose templates the compiler inlines, gets a frame per inlined
# function (named "NAME [inlined]", called from the line it was inlined
# at), from its debug information, after the run; its time is the inlined
# function's.  Without -g the same program's paths name only the real
# functions, and the time is theirs (the sum does not change).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > inl.cc <<'EOF'
#include <cstdio>
#include <cstdlib>
template <typename T> struct P { T x, y; };
template <typename T> static inline T norm2(const P<T> &p) { return p.x * p.x + p.y * p.y; }
template <typename T> static inline T sweep(long n)
{
	T acc = 0;
	for (long i = 0; i < n; i++) {
		P<T> p = { T(i % 97), T(i % 89) };
		acc += norm2(p);
	}
	return acc;
}
__attribute__((noinline)) double work(long n) { return sweep<double>(n) + sweep<float>(n / 2); }
int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 60000000;
	std::printf("%g\n", work(n) > 0 ? 1.0 : 0.0);
	return 0;
}
EOF
g++ -O2 -g -o inl inl.cc && g++ -O2 -o inl-nodebug inl.cc || exit 1
mkdir -p g n
(cd g && LD_PRELOAD="$CP_SO" ../inl > /dev/null) && (cd n && LD_PRELOAD="$CP_SO" ../inl-nodebug > /dev/null) || exit 1
"$EGPROF" -b --folded g.folded ./inl g/gmon.out > /dev/null 2> g.err
"$EGPROF" -b --folded n.folded ./inl-nodebug n/gmon.out > /dev/null 2> n.err
"$EGPROF" -b --callpath ./inl g/gmon.out > g.txt 2> /dev/null
cp_check "-g: the inlined template is a frame under work, marked inlined" \
	grep -qE '^main;work\(long\);sweep<double> \[inlined\];norm2<double> \[inlined\] [0-9]+$' g.folded
cp_check "-g: both instantiations are frames of their own" \
	bash -c "grep -q 'sweep<double>' g.folded && grep -q 'sweep<float>' g.folded"
cp_check "-g: an inlined frame is called from the source line it was inlined at" \
	grep -qE 'sweep<double>[^ ]* \[inlined\] \(inl\.cc:14\)' g.txt
cp_check "-g: most of work's time is its inlined functions'" \
	bash -c "awk '/\\[inlined\\]/ { i += \$NF } { t += \$NF } END { exit !(i * 10 > t * 8) }' g.folded"
cp_check "without -g: no inlined frame, the time is work's own" \
	bash -c "! grep -q inlined n.folded && grep -qE '^main;work\\(long\\) [0-9]+$' n.folded"
cp_done
