#!/usr/bin/env python3
"""A glibc gmon file with one large histogram, for egprof-sum's memory
(t617, bench/mpi/sum_rss.sh).

    gen_big_hist.py OUT NBINS SEED

One histogram record of NBINS 16-bit bins (every fourth block of 65,536
bins zero, the others a pattern that depends on SEED) and 1,000 arcs of
about 2^32 calls.  The file is 2 * NBINS + 21,061 bytes.
"""
import struct
import sys

out, nbins, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lo = 0x400000
blk = 65536
with open(out, "wb") as f:
    f.write(b"gmon" + struct.pack("<I", 1) + b"\0" * 12)
    f.write(b"\0" + struct.pack("<QQII", lo, lo + 2 * nbins, nbins, 100) + b"seconds".ljust(15, b"\0") + b"s")
    pat = bytearray(2 * blk)
    for i in range(blk):
        struct.pack_into("<H", pat, 2 * i, (i * 7919 + seed * 104729) % 65536)
    zero = bytes(2 * blk)
    for b in range(0, nbins, blk):
        n = min(blk, nbins - b)
        f.write((zero if (b // blk) % 4 == 3 else pat)[:2 * n])
    for i in range(1000):
        f.write(b"\1" + struct.pack("<QQI", lo + 16 * i, lo + 16 * i + 64, 0xF0000000 + i + seed))
