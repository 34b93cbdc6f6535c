#!/usr/bin/env python3
"""Write a C program of N functions (default 2,000) for the rank benchmarks:
f_i calls f_{i+1} in a chain of loops so every function gets calls and
some samples.  Usage: genprog.py [N] > prog.c"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
print("#include <stdlib.h>\nvolatile double sink;")
for i in range(n - 1, -1, -1):
    nxt = f"f{i + 1}(x + 1);" if i + 1 < n else ""
    print(f"void f{i}(int x) {{ double s = 0; for (int j = 0; j < 40 + x % 7; j++) "
          f"s += j * 0.5; sink += s; {nxt} }}")
print("int main(int argc, char **argv) { int r = argc > 1 ? atoi(argv[1]) : 1;")
print(f"  for (int k = 0; k < 300 * r; k++) f0(k); return 0; }}")
