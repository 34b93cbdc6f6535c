"""pprof_check.py - read pprof's own reports of a profile, for the tests.

    import pprof_check as pc
    top = pc.top(PPROF, "p.pb.gz", "-sample_index=samples")  {name: Row}
    raw = pc.raw(PPROF, "p.pb.gz")                           Raw
    tr = pc.traces(PPROF, "p.pb.gz", "-sample_index=calls")  [(value, [leaf..root])]
    pc.gprof_flat(text)                                      {name: (pct, self_s, calls)}

Everything goes through the pprof binary itself (never our own reading of
the file), so what the tests compare is what pprof shows a user.
"""
import re
import subprocess

UNITS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0,
         "hrs": 3600.0, "h": 3600.0}


def run(pprof, *args):
    p = subprocess.run([pprof] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("pprof %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def value(text):
    """A value as pprof prints it: a count, or a time with its unit, in
    seconds."""
    m = re.fullmatch(r"(-?[0-9.e+]+)([a-z\u00b5]*)", text)
    if not m:
        raise ValueError("not a pprof value: %r" % text)
    v = float(m.group(1))
    return v * UNITS[m.group(2)] if m.group(2) else v


class Row:
    def __init__(self, flat, flat_pct, cum, cum_pct):
        self.flat, self.flat_pct, self.cum, self.cum_pct = flat, flat_pct, cum, cum_pct

    def __repr__(self):
        return "Row(%r, %r%%, %r, %r%%)" % (self.flat, self.flat_pct, self.cum, self.cum_pct)


def top(pprof, path, *opts):
    """pprof -top: {function: Row}, every function: no node count, no node
    or edge fraction (pprof's defaults leave out a node under 0.5% of the
    total, a function whose difference is small in a diff)."""
    out = run(pprof, "-top", "-nodecount=1000000", "-nodefraction=0", "-edgefraction=0",
              *opts, path)
    rows, started = {}, False
    for line in out.splitlines():
        if re.match(r"\s*flat\s+flat%\s+sum%\s+cum\s+cum%", line):
            started = True
            continue
        if not started or not line.strip():
            continue
        parts = line.split(None, 5)
        if len(parts) < 6:
            continue
        rows[parts[5]] = Row(value(parts[0]), float(parts[1].rstrip("%")),
                             value(parts[3]), float(parts[4].rstrip("%")))
    if not started:
        raise RuntimeError("no table in pprof -top's output:\n" + out)
    return rows


def traces(pprof, path, *opts):
    """pprof -traces: [(value, [frames leaf first], {label: value})]."""
    out = run(pprof, "-traces", "-nodefraction=0", "-edgefraction=0", *opts, path)
    result, cur = [], None
    for line in out.splitlines():
        if line.startswith("-----------+"):
            if cur:
                result.append(cur)
            cur = None
            continue
        m = re.match(r"\s*(\S+)\s{3}(\S.*)$", line)
        if cur is None and m and not line.startswith(" " * 12):
            cur = (value(m.group(1)), [m.group(2).strip()], {})
        elif cur is not None and re.match(r"\s+[^ :]+:\s", line) and not line.startswith(" " * 13):
            k, v = line.strip().split(":", 1)
            cur[2][k] = v.strip()
        elif cur is not None and line.startswith(" " * 13):
            cur[1].append(line.strip())
    if cur:
        result.append(cur)
    return result


class Raw:
    """pprof -raw: sample types, samples (values, location ids, labels),
    locations (id -> (function, file, line)), mappings."""

    def __init__(self, text):
        self.types, self.samples, self.locations, self.mappings = [], [], {}, []
        self.comments, section = [], None
        for line in text.splitlines():
            if line.startswith("Comment: "):
                self.comments.append(line[len("Comment: "):])
            elif line in ("Samples:", "Locations", "Mappings"):
                section = line
            elif section == "Samples:" and not self.types:
                self.types = [t.split("/")[0] for t in line.split()]
            elif section == "Samples:" and ":" in line and not line.strip().startswith("pprof::") \
                    and re.match(r"\s*-?\d", line):
                vals, locs = line.split(":", 1)
                self.samples.append(([int(v) for v in vals.split()],
                                     [int(x) for x in locs.split()], {}))
            elif section == "Samples:" and line.strip() and self.samples:
                k, _, v = line.strip().rpartition(":")
                self.samples[-1][2][k] = v.strip().strip("[]")
            elif section == "Locations":
                m = re.match(r"\s*(\d+): (0x[0-9a-f]+) M=(\d+) (.*?) (\S*):(\d+) s=(\d+)$", line)
                if m:
                    self.locations[int(m.group(1))] = (m.group(4), m.group(5), int(m.group(6)),
                                                       int(m.group(2), 16), int(m.group(3)))
            elif section == "Mappings" and line.strip():
                self.mappings.append(line.strip())

    def index(self, sample_type):
        return self.types.index(sample_type)


def raw(pprof, path):
    return Raw(run(pprof, "-raw", path))


def gprof_flat(text):
    """gprof -b -p: {name: (pct, self seconds, calls)}; calls 0 when blank."""
    rows = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and re.fullmatch(r"-?[0-9.]+", f[0]) and re.fullmatch(r"-?[0-9.]+", f[1]):
            try:
                pct, self_s = float(f[0]), float(f[2])
            except ValueError:
                continue
            calls = 0
            if len(f) >= 7 and re.fullmatch(r"[0-9]+(\+[0-9]+)?", f[3]):
                calls = sum(int(x) for x in f[3].split("+"))
                name = " ".join(f[6:])
            else:
                name = " ".join(f[3:])
            rows[name] = (pct, self_s, calls)
    return rows
