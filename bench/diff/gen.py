#!/usr/bin/env python3
"""Generate a large program and two gmon specs for the --diff benchmark.

  gen.py DIR NFUNCS NARCS

DIR/big.c: NFUNCS functions; DIR/a.spec, DIR/b.spec: ticks and arcs for
testsuite/fixtures/fig1/mkgmon.py (NARCS distinct arcs each, b a perturbed
copy of a with some arcs and samples moved).
"""
import random, sys

d, nf, na = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(42)
with open(d + "/big.c", "w") as fp:
    fp.write("volatile long sink;\n")
    for i in range(nf):
        fp.write("__attribute__((noinline)) void fn%d(long n) "
                 "{ for (long i = 0; i < n; i++) sink += i ^ %d; }\n" % (i, i))
    fp.write("int main(void) { fn0(1); return 0; }\n")
arcs = set()
while len(arcs) < na:
    arcs.add((rnd.randrange(nf), rnd.randrange(nf)))
arcs = sorted(arcs)
for side, shift in (("a", 0), ("b", 1)):
    r = random.Random(7 + shift)
    with open("%s/%s.spec" % (d, side), "w") as fp:
        for i in range(nf):
            t = r.randrange(0, 40)
            if t:
                fp.write("fn%d=%d\n" % (i, t))
        for (p, c) in arcs:
            if shift and r.random() < 0.05:
                continue
            fp.write("fn%d>fn%d=%d\n" % (p, c, r.randrange(1, 1000)))
