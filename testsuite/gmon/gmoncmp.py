#!/usr/bin/env python3
"""Compare two gmon.out files (x86_64, glibc's tagged format) part by part.

  gmoncmp.py A B            prints one line per part: "same"/"differs" for
                            the header, the histogram header (low/high pc,
                            size, rate, dimension), the bins, and the arc
                            records (in order, byte for byte); exit 0 when
                            all but the bins are the same, 1 otherwise.
  gmoncmp.py --zero-bins A OUT   writes A with every bin zeroed (gprof's
                            call graph then depends on the arcs alone).
  gmoncmp.py --dump A       prints the records.
"""
import struct, sys


def parse(data):
    if data[:4] != b"gmon":
        raise SystemExit("%s: not a gmon file" % sys.argv[-1])
    recs = []
    off = 20
    while off < len(data):
        tag = data[off]
        if tag == 0:
            hdr = data[off + 1:off + 41]
            n = struct.unpack_from("<i", hdr, 16)[0]
            recs.append(("hist", hdr, data[off + 41:off + 41 + 2 * n]))
            off += 41 + 2 * n
        elif tag == 1:
            recs.append(("arc", data[off + 1:off + 21]))
            off += 21
        else:
            raise SystemExit("unknown tag %d at byte %d" % (tag, off))
    return data[:20], recs


def build(head, recs):
    out = bytearray(head)
    for r in recs:
        out += bytes([0]) + r[1] + r[2] if r[0] == "hist" else bytes([1]) + r[1]
    return bytes(out)


def main():
    if sys.argv[1] == "--zero-bins":
        head, recs = parse(open(sys.argv[2], "rb").read())
        recs = [("hist", r[1], bytes(len(r[2]))) if r[0] == "hist" else r for r in recs]
        open(sys.argv[3], "wb").write(build(head, recs))
        return 0
    if sys.argv[1] == "--dump":
        head, recs = parse(open(sys.argv[2], "rb").read())
        for r in recs:
            if r[0] == "hist":
                lo, hi, n, rate = struct.unpack_from("<QQii", r[1])
                print("hist %#x %#x %d %d %r %d" % (lo, hi, n, rate, r[1][24:], sum(struct.unpack("<%dH" % n, r[2]))))
            else:
                print("arc %#x %#x %d" % struct.unpack("<QQI", r[1]))
        return 0
    ha, ra = parse(open(sys.argv[1], "rb").read())
    hb, rb = parse(open(sys.argv[2], "rb").read())
    hista = [r for r in ra if r[0] == "hist"]
    histb = [r for r in rb if r[0] == "hist"]
    arcsa = [r[1] for r in ra if r[0] == "arc"]
    arcsb = [r[1] for r in rb if r[0] == "arc"]
    order = [r[0] for r in ra] == [r[0] for r in rb]
    parts = [
        ("header", ha == hb),
        ("record order", order),
        ("histogram header", [r[1] for r in hista] == [r[1] for r in histb]),
        ("arcs", arcsa == arcsb),
    ]
    for name, same in parts:
        print("%s: %s" % (name, "same" if same else "differs"))
    print("bins: %s" % ("same" if [r[2] for r in hista] == [r[2] for r in histb] else "differ"))
    if arcsa != arcsb:
        for a in arcsa:
            if a not in arcsb:
                print("  only in A: arc %#x %#x %d" % struct.unpack("<QQI", a))
        for b in arcsb:
            if b not in arcsa:
                print("  only in B: arc %#x %#x %d" % struct.unpack("<QQI", b))
    return 0 if all(s for _, s in parts) else 1


sys.exit(main())
