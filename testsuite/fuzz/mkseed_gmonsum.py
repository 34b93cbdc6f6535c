#!/usr/bin/env python3
"""A seed for fuzz_gmonsum: a sum in egprof-sum's wire format (mpi/gmonsum.h):
parts, each after its u64 length: 'N' files, 'H' a histogram header, 'B' a
block of its bins (16- and 32-bit widths), 'A' arcs.

    mkseed_gmonsum.py OUT
"""
import struct
import sys

hdr = struct.pack("<QQII", 0x400000, 0x400000 + 2 * 70000, 70000, 100) + b"seconds".ljust(15, b"\0") + b"s"
parts = [b"N" + struct.pack("<Q", 3), b"H" + hdr]
parts.append(b"B" + hdr + struct.pack("<IIB", 0, 16, 2) + struct.pack("<16H", *range(1, 17)))
parts.append(b"B" + hdr + struct.pack("<IIB", 65536, 8, 4) + struct.pack("<8I", *(70000 + i for i in range(8))))
parts.append(b"A" + struct.pack("<I", 2) + struct.pack("<QQQ", 0x400010, 0x400040, 5) +
             struct.pack("<QQQ", 0x400020, 0x400040, 1 << 33))
with open(sys.argv[1], "wb") as f:
    for p in parts:
        f.write(struct.pack("<Q", len(p)) + p)
