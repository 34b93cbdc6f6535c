#!/usr/bin/env bash
# gprof2dot and the strict reader read the classic diff of a real-shaped
# program (issue 24 item 9): C++ names (namespaces, templates, spaces), an
# interpreter's mutual recursion (a gprof cycle), GCC clones (.constprop,
# .isra, .cold) and negative numbers everywhere, in many sign patterns.
# gprof2dot's `-f prof` reader is not packaged in Debian:
# gprof2dot_accept.py is its acceptance (its line patterns and the checks
# its profile makes) written anew from its source.  On an old diff it
# stopped on an AssertionError: a callee line named [N] a function whose own
# line has a negative number, which it had skipped.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
G2D=$SRCDIR/testsuite/e2e/gprof2dot_accept.py
STRICT=$SRCDIR/testsuite/e2e/gprof_text.py
MKGMON=$SRCDIR/testsuite/fixtures/fig1/mkgmon.py
cd "$WORKDIR" || exit 1
g++ -O2 -pg -o rs "$SRCDIR/testsuite/fixtures/realshape/realshape.cc" 2> build.log ||
	{ echo "not ok 1 - build"; cat build.log; echo "1..1"; exit 1; }
(nm rs; nm -C rs) | awk 'NF >= 3 { $1 = ""; $2 = ""; sub(/^  /, ""); print }' | sort -u > names

# the program's symbols by what they are (mangled names differ by compiler)
sym() { nm rs | awk -v p="$1" '$3 ~ p { print $3; exit }'; }
MAIN=main EVAL=$(sym '^_ZN2vm4evalE[^.]*$') APPLY=$(sym '^_ZN2vm5applyE[^.]*$')
CHECKED=$(sym 'checked') SCALE=$(sym 'scale') TRACE=$(sym 'trace')
COLD=$(sym '^_ZN2vm4evalE.*[.]cold$')
check "the program has a cycle's members, clones and C++ names" \
	test -n "$EVAL" -a -n "$APPLY" -a -n "$CHECKED" -a -n "$SCALE" -a -n "$TRACE"
case $SCALE in *.constprop.*|*.isra.*) ;; *) echo "# note: no clone of scale in this build" ;; esac

# spec VARIANT SIDE: the samples and calls of one side.  Variant 0 moves
# checked's calls from apply to main while checked takes longer (its own
# line negative, apply's line of it positive: what stopped gprof2dot);
# variant 1 turns the calls inside the cycle around (eval calls apply more,
# apply calls eval less); the others scale each function and each call by
# its own factor (0.4x .. 2.5x), a function gone in some: every sign.
spec() {
	python3 - "$1" "$2" "$MAIN" "$EVAL" "$APPLY" "$CHECKED" "$SCALE" "$TRACE" "$COLD" <<'PY'
import sys
v, side = int(sys.argv[1]), sys.argv[2]
main, ev, ap, ch, sc, tr, cold = sys.argv[3:10]
ticks = {main: 40, ev: 300, ap: 500, ch: 600, sc: 900, tr: 80}
if cold:
    ticks[cold] = 5
arcs = {(main, ev): 300, (ev, ap): 61500, (ap, ev): 25500, (ap, ch): 123000,
        (ap, sc): 123000, (main, tr): 300, (main, ch): 20000}
factors = [0.4, 0.7, 1.0, 1.6, 2.5, 1.3, 0.8]
if side == "b":
    if v == 0:
        ticks[ch] = 900
        arcs[(main, ch)], arcs[(ap, ch)] = 100000, 60000
    elif v == 1:
        arcs[(ev, ap)], arcs[(ap, ev)] = 90000, 12000
        ticks[ev], ticks[ap] = 200, 700
    else:
        for k, name in enumerate(sorted(ticks)):
            ticks[name] = max(1, round(ticks[name] * factors[(v + 3 * k) % 7]))
        for k, arc in enumerate(sorted(arcs)):
            arcs[arc] = max(1, round(arcs[arc] * factors[(2 * v + 5 * k) % 7]))
        if v % 3 == 0:
            del ticks[tr], arcs[(main, tr)]   # gone from the second run
words = ["%s=%d" % kv for kv in sorted(ticks.items())]
words += ["%s>%s=%d" % (a, b, n) for (a, b), n in sorted(arcs.items())]
print("\n".join(words))
PY
}
bad_g2d=0 bad_strict=0
for v in 0 1 2 3 4 5 6 7; do
	spec "$v" a > a$v.spec && spec "$v" b > b$v.spec &&
		python3 "$MKGMON" rs a$v.gmon --spec a$v.spec && python3 "$MKGMON" rs b$v.gmon --spec b$v.spec ||
		{ echo "not ok - gmon files of variant $v"; exit 1; }
	"$EGPROF" --diff rs a$v.gmon b$v.gmon > d$v.txt 2> d$v.err
	python3 "$G2D" d$v.txt > g$v.out || { bad_g2d=$((bad_g2d + 1)); echo "# variant $v: $(cat g$v.out)"; }
	python3 "$STRICT" d$v.txt names > s$v.out 2>&1 || { bad_strict=$((bad_strict + 1)); echo "# variant $v: $(tail -1 s$v.out)"; }
done
check "every variant's classic diff has negative numbers in its call graph" \
	bash -c 'for v in 0 1 2 3 4 5 6 7; do sed -n "/Call graph/,/^\f/p" d$v.txt | grep -q " -[0-9]" || exit 1; done'
check "gprof2dot's reader takes the classic diff of all 8 variants" test $bad_g2d = 0
check "the strict reader takes them all" test $bad_strict = 0
check "gprof2dot reads the functions whose lines are unsigned, and skips the rest" \
	bash -c 'for v in 0 1 2 3 4 5 6 7; do grep -Eq "^ok: [1-9][0-9]* functions" g$v.out || exit 1; done'
check "references to an entry it cannot read are (N), as gprof's to unprinted ones" \
	bash -c 'cat d?.txt | sed -n "/Call graph/,/^\f/p" | grep -Eq "^ +.* \([0-9]+\)$"'
# the readers also take what gprof itself prints of each side
"$SYSGPROF" rs a0.gmon > sys.txt
check "both readers take /usr/bin/gprof's output of the same program" \
	bash -c "python3 '$G2D' sys.txt >/dev/null && python3 '$STRICT' sys.txt names >/dev/null"
# and the real runs: a change of work in the clone, timing as it falls
./rs 4000 20 > /dev/null && mv gmon.out r1.gmon && ./rs 4000 60 > /dev/null && mv gmon.out r2.gmon
"$EGPROF" --diff rs r1.gmon r2.gmon > real.txt 2> real.err
check "the classic diff of two real runs: both readers" \
	bash -c "python3 '$G2D' real.txt >/dev/null && python3 '$STRICT' real.txt names >/dev/null"
dl_done
