#!/usr/bin/env python3
"""Write a -pg test program with NFUNCS functions and a realistic call graph.

  gen.py DIR NFUNCS [SEED]

Writes DIR/main.c and DIR/u<k>.c (500 functions per file, one in four
static, so BFD's file symbols and local symbols matter).  The call graph is a
tree per file (the file's l-th function calls its 2l+1-th and 2l+2-th:
every function runs once per round; main calls each file's first),
plus a few extra arcs per function to nearby and to far functions further
on, called with d = 0 so they do their work without descending; one in a
hundred extra arcs points back to the caller's parent, which gives gprof
small cycles to find (arcs go backwards only within a file, so no cycle
spans files: real programs have many small cycles, not one giant one).  The work loop
of each function has its own length, so the flat profile is not uniform.
`prog R` runs R rounds (default 1).  Static functions in different files share
names (s<i % 1000>), as in real code with file-local helpers.
"""
import random
import sys

PER_FILE = 500


def name(i):
    """Static functions get file-local names that repeat across files."""
    return "s%d_%d" % (i % 1000, i // PER_FILE) if i % 4 == 3 else "f%d" % i


def children(i, n):
    lo = i - i % PER_FILE
    l = i - lo
    return [c for c in (lo + 2 * l + 1, lo + 2 * l + 2)
            if c < min(n, lo + PER_FILE)]


def parent(i):
    lo = i - i % PER_FILE
    return lo + (i - lo - 1) // 2


def main():
    d, n = sys.argv[1], int(sys.argv[2])
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 15)
    extra = {}
    for i in range(n):
        arcs = []
        for _ in range(rnd.randrange(0, 3)):
            r = rnd.random()
            if r < 0.01 and i % PER_FILE > 0:
                j = parent(i)             # a cycle
            elif r < 0.8:
                j = min(n - 1, i + rnd.randrange(1, 40))
            elif i + 1 < n:
                j = rnd.randrange(i + 1, n)
            else:
                continue
            arcs.append(j)
        extra[i] = arcs
    files = (n + PER_FILE - 1) // PER_FILE
    for k in range(files):
        lo, hi = k * PER_FILE, min(n, (k + 1) * PER_FILE)
        with open("%s/u%d.c" % (d, k), "w") as fp:
            fp.write("extern volatile long sink;\n")
            # prototypes: globals of every file are declared where called
            callees = set()
            for i in range(lo, hi):
                for j in children(i, n) + extra[i]:
                    if j < n:
                        callees.add(j)
            for j in sorted(callees):
                if j % 4 == 3 and not lo <= j < hi:
                    continue
                st = "static " if j % 4 == 3 else ""
                fp.write("%svoid %s(int d);\n" % (st, name(j)))
            for i in range(lo, hi):
                st = "static " if i % 4 == 3 else ""
                fp.write("__attribute__((noinline)) %svoid %s(int d)\n{\n"
                         % (st, name(i)))
                fp.write("\tfor (long k = 0; k < %d; k++) sink += k ^ %d;\n"
                         % (50 + (i * 7919) % 400, i))
                fp.write("\tif (!d) return;\n")
                for j in children(i, n) + extra[i]:
                    if j >= n:
                        continue
                    if j % 4 == 3 and not lo <= j < hi:
                        continue   # another file's static: not reachable
                    arg = "d" if j in children(i, n) else "0"
                    fp.write("\t%s(%s);\n" % (name(j), arg))
                fp.write("}\n")
    with open("%s/main.c" % d, "w") as fp:
        fp.write("#include <stdlib.h>\nvolatile long sink;\n")
        for k in range(files):
            fp.write("void f%d(int d);\n" % (k * PER_FILE))
        fp.write("int main(int argc, char **argv)\n{\n"
                 "\tint r = argc > 1 ? atoi(argv[1]) : 1;\n"
                 "\tfor (int i = 0; i < r; i++) {\n")
        for k in range(files):
            fp.write("\t\tf%d(1);\n" % (k * PER_FILE))
        fp.write("\t}\n\treturn 0;\n}\n")
    with open("%s/files" % d, "w") as fp:
        fp.write(" ".join(["main.c"] + ["u%d.c" % k for k in range(files)]) + "\n")


main()
