#!/usr/bin/env python3
"""Compare sampling mode's call paths with perf's (bench/sampler/accuracy.sh).

  accuracy.py OURS.folded PERF.script [--top N] [--weight W]

OURS.folded: `gprof --folded` of a sampled run ("a;b;c SAMPLES").
PERF.script: `perf script -F ip,sym,dso` of `perf record --call-graph
dwarf` on the same binary (one block per sample, innermost frame first).

perf's kernel frames are left out (the kernel's time is the user frame's
that entered it, as a CPU-time timer's sample sees it).
Both are reduced to function names (inlined functions are frames on both
sides: perf script resolves them as we do, from the debug information;
library names without their object, C++ parameter lists dropped, perf's
frames above main or the thread's start routine dropped), then compared:
  - each function's self share (its samples as the innermost frame), for
    the top N functions of either side;
  - each hot path's inclusive share (the samples whose path starts with
    it), for the top N paths of either side, up to depth 4;
and every difference is judged against 2 points (3 for paths) plus 3
standard deviations of the two shares' binomial sampling noise (ours: a
sample stands for W periods on average, the sidecar's samples over its
signals taken, so its noise is that of n / W signals).
Prints a table and a last line "PASS n/m" (figures; a bench, no test).
"""
import math
import re
import sys
from collections import Counter

START = {"start", "libc_start_main", "libc_start_call_main", "libc_start_main_impl",
         "start_thread", "clone3", "clone"}


def untemplate(name):
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def norm(name):
    """A function's name as both tools spell it: the two name C++ templates,
    return types and aliases differently (DWARF's names against demangled
    symbols), so template arguments, return types, namespaces and leading
    underscores go (instantiations merge alike on both sides)."""
    name = re.sub(r" \[[^\]]*\]$", "", name.strip())      # " [libc.so.6]"
    name = re.sub(r"\+0x[0-9a-f]+$", "", name)
    name = re.sub(r"\.(constprop|isra|part|cold)(\.\d+)*", "", name)
    name = untemplate(name)
    name = re.sub(r"\(.*\)( const)?$", "", name)           # C++ parameters
    name = name.strip().split(" ")[-1]                      # a return type
    name = name.split("::")[-1]
    return name.lstrip("_") or name


def read_ours(path):
    paths = Counter()
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line or " " not in line:
            continue
        stack, n = line.rsplit(" ", 1)
        try:
            n = int(n)
        except ValueError:
            continue
        frames = [norm(f.replace(" [inlined]", "")) for f in stack.split(";") if f]
        paths[tuple(frames)] += n
    return paths


def read_perf(path):
    paths = Counter()
    block = []

    def flush():
        if not block:
            return
        frames = [f for f in reversed(block) if f is not None]   # outermost first
        # drop the C library's start frames above main / the start routine
        while frames and (frames[0] in START or frames[0] == "[unknown]"):
            frames.pop(0)
        if frames:
            paths[tuple(frames)] += 1
        block.clear()

    for line in open(path, errors="replace"):
        if not line.strip():
            flush()
            continue
        if not line.startswith((" ", "\t")):
            flush()
            continue
        parts = line.split()
        if len(parts) < 2:
            continue
        # the kernel's frames (a page fault, a system call) are the time of
        # the user frame below them, as a CPU-time timer's sample lands
        # on the user instruction when the kernel returns to it
        if "[kernel.kallsyms]" in parts[-1] or "[unknown]" == parts[-1].strip("()"):
            if not block or block[-1] is None:
                block.append(None)
            continue
        sym = " ".join(parts[1:-1]) if parts[-1].startswith("(") else " ".join(parts[1:])
        block.append(norm(sym))
    flush()
    return paths


def self_shares(paths):
    c = Counter()
    for p, n in paths.items():
        if p:
            c[p[-1]] += n
    return c


def prefix_shares(paths, depth):
    c = Counter()
    for p, n in paths.items():
        for d in range(1, min(depth, len(p)) + 1):
            c[p[:d]] += n
    return c


def compare(a, b, na, nb, keys, slack, label, rows, weight):
    ok = 0
    for k in keys:
        pa, pb = a.get(k, 0) / na, b.get(k, 0) / nb
        p = (pa + pb) / 2
        sd = math.sqrt(max(p * (1 - p), 1e-12) * (weight / na + 1 / nb))
        tol = slack + 3 * 100 * sd
        diff = 100 * (pa - pb)
        good = abs(diff) <= tol
        ok += good
        name = k if isinstance(k, str) else ";".join(k)
        rows.append("%-5s %7.2f %7.2f %7.2f %6.2f %s  %s" % (
            label, 100 * pa, 100 * pb, diff, tol, "ok " if good else "OFF", name[:110]))
    return ok


def main():
    args = sys.argv[1:]
    top, depth, weight = 15, 4, 1.0
    for opt in ("--top", "--weight"):
        if opt in args:
            i = args.index(opt)
            if opt == "--top":
                top = int(args[i + 1])
            else:
                weight = float(args[i + 1])
            del args[i:i + 2]
    ours, perf = read_ours(args[0]), read_perf(args[1])
    na, nb = sum(ours.values()), sum(perf.values())
    if not na or not nb:
        print("no samples: ours %d, perf %d" % (na, nb))
        return 1
    rows = []
    sa, sb = self_shares(ours), self_shares(perf)
    keys = sorted(set(k for k, _ in sa.most_common(top)) | set(k for k, _ in sb.most_common(top)),
                  key=lambda k: -(sa.get(k, 0) / na + sb.get(k, 0) / nb))
    # functions of a few samples say nothing either way
    keys = [k for k in keys if max(sa.get(k, 0) / na, sb.get(k, 0) / nb) >= 0.01]
    ok = compare(sa, sb, na, nb, keys, 2.0, "self", rows, weight)
    n = len(keys)
    pa, pb = prefix_shares(ours, depth), prefix_shares(perf, depth)
    pkeys = sorted(set(k for k, _ in pa.most_common(top)) | set(k for k, _ in pb.most_common(top)),
                   key=lambda k: -(pa.get(k, 0) / na + pb.get(k, 0) / nb))
    pkeys = [k for k in pkeys if max(pa.get(k, 0) / na, pb.get(k, 0) / nb) >= 0.02]
    ok += compare(pa, pb, na, nb, pkeys, 3.0, "path", rows, weight)
    n += len(pkeys)
    print("samples: ours %d, perf %d" % (na, nb))
    print("kind    ours%   perf%   diff  bound  verdict")
    for r in rows:
        print(r)
    print("PASS %d/%d" % (ok, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
