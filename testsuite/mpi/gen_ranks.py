#!/usr/bin/env python3
"""Generate N rank files from one real gmon file, fast (no runs).

    gen_ranks.py TEMPLATE OUTDIR N

Writes OUTDIR/gmon.<i> for i in 0..N-1: the template's histogram and arcs,
with rank i's samples and calls scaled by 1 + i % 4 (so ranks differ and
functions are imbalanced), and on every 7th rank one more sample in the
first non-empty bin (so minima and maxima sit on different ranks).  Bins
saturate at 65535 (the format's limit); the template must be glibc's GNU
gmon format (histogram and arc records, 64-bit addresses).
"""
import os
import struct
import sys


def read_gmon(path):
    data = open(path, "rb").read()
    if data[:4] != b"gmon":
        sys.exit(f"{path}: not a gmon file")
    pos, hists, arcs = 20, [], []
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            low, high, n, rate = struct.unpack_from("<QQII", data, pos)
            dim = data[pos + 24:pos + 40]
            pos += 40
            bins = list(struct.unpack_from(f"<{n}H", data, pos))
            pos += 2 * n
            hists.append((low, high, rate, dim, bins))
        elif tag == 1:
            arcs.append(struct.unpack_from("<QQI", data, pos))
            pos += 20
        else:
            sys.exit(f"{path}: record tag {tag} not supported")
    return data[:20], hists, arcs


def variant(head, hists, arcs, k, bump):
    out = [head]
    for low, high, rate, dim, bins in hists:
        b = [min(65535, c * k) for c in bins]
        if bump:
            for j, c in enumerate(b):
                if c:
                    b[j] = min(65535, c + 1)
                    break
        out.append(struct.pack("<BQQII", 0, low, high, len(b), rate) + dim)
        out.append(struct.pack(f"<{len(b)}H", *b))
    for frm, to, count in arcs:
        out.append(struct.pack("<BQQI", 1, frm, to, min(0xFFFFFFFF, count * k)))
    return b"".join(out)


def main():
    template, outdir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    head, hists, arcs = read_gmon(template)
    os.makedirs(outdir, exist_ok=True)
    # eight distinct files: rank i is variant (i % 4, i % 7 == 0)
    cache = {}
    for i in range(n):
        key = (1 + i % 4, i % 7 == 0)
        if key not in cache:
            cache[key] = variant(head, hists, arcs, *key)
        with open(os.path.join(outdir, f"gmon.{i}"), "wb") as f:
            f.write(cache[key])


main()
