#!/bin/bash
# Parity of `gprof -s` over many rank files (issue 15): upstream reads each
# arc once per file, and ours remembers, per (from_pc, self_pc) pair, the
# symbols and the arc it found (gprof-ext/upstream.patch, cg_tally), reads
# arc records and histogram bins in blocks, and pre-checks files through a
# window (gprof-ext/gmon_check.c).  Every byte must stay /usr/bin/gprof's:
#  - 96 real rank files of a 2,000-function program (the same arcs in the
#    same order in each: the memo's guess of the next pair is right);
#  - 40 made from them: arcs dropped, shuffled, repeated within a file, and
#    new arcs of a parent arriving after its first ones were remembered (the
#    memo's arc must be looked up again once the parent's list has grown);
#  - arc selection (-k), line mode (-l), -q, the debug path (-d16);
#  - errors part-way: a file whose histogram range differs, a file cut in
#    an arc record, a file cut in the histogram, with good files after.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"
# shellcheck source=scale_lib.sh
. "$SRCDIR/testsuite/e2e/scale_lib.sh"

export E2E_TIMEOUT=60

e2e_build_scale s2k 2000
e2e_check_builds s2k

# mkranks DIR: DIR/ranks/ (real runs), DIR/mixed/ (edited copies) and the
# damaged files DIR/bad.*; all written before the cases run.
mkranks() (
	cd "$1" || exit 1
	mkdir -p ranks mixed
	for i in $(seq 96); do GMON_OUT_PREFIX=ranks/gmon.out ./prog 1 || exit 1; done
	python3 - <<'EOF'
import glob, random, struct

def parse(path):
    d = open(path, 'rb').read()
    p, recs = 20, []
    while p < len(d):
        t = d[p]
        if t == 0:
            n = struct.unpack_from('<I', d, p + 17)[0]
            q = p + 1 + 40 + 2 * n
        elif t == 1:
            q = p + 21
        else:
            raise SystemExit('unexpected tag %d in %s' % (t, path))
        recs.append(d[p:q])
        p = q
    return d[:20], recs

rnd = random.Random(15)
head, recs = parse('gmon.out')
hists = [r for r in recs if r[0] == 0]
arcs = [r for r in recs if r[0] == 1]
by_parent = {}
for a in arcs:
    by_parent.setdefault(a[1:9], []).append(a)
for k in range(40):
    if k % 4 == 0:
        # one child per parent first, the parents' other arcs at the end
        first = [v[0] for v in by_parent.values()]
        rest = [a for v in by_parent.values() for a in v[1:]]
        rnd.shuffle(rest)
        body = first + rest
    else:
        body = [a for a in arcs if rnd.random() < 0.7]
        body += rnd.sample(body, len(body) // 10)   # repeated within a file
        rnd.shuffle(body)
    body = [a[:17] + struct.pack('<I', rnd.randrange(1, 1000)) for a in body]
    recs2 = hists + body if k % 2 else body + hists
    open('mixed/gmon.%02d' % k, 'wb').write(head + b''.join(recs2))
# a histogram over another range: upstream refuses it part-way
h = bytearray(hists[0])
lo, hi = struct.unpack_from('<QQ', h, 1)
struct.pack_into('<QQ', h, 1, lo + 0x100, hi + 0x100)
open('bad.range', 'wb').write(head + bytes(h) + b''.join(arcs))
cut = len(head) + sum(len(r) for r in hists) + 21 * 7 + 9
open('bad.arc', 'wb').write((head + b''.join(hists + arcs))[:cut])
open('bad.hist', 'wb').write((head + b''.join(hists))[:len(head) + 41 + 1001])
EOF
)

vs=(s2k-pie s2k-nopie-g)
for v in "${vs[@]}"; do
	mkranks "$WORKDIR/p/$v" >"$WORKDIR/p/$v.ranks.log" 2>&1 ||
		{ not_ok "rank files for $v"; diag <"$WORKDIR/p/$v.ranks.log"; e2e_done; }
done

for v in "${vs[@]}"; do
	e2e_case "$v" "gprof -s prog ranks/*"
	e2e_case "$v" "gprof -s prog ranks/* && gprof -b prog gmon.sum"
	e2e_case "$v" "gprof -s prog mixed/*"
	e2e_case "$v" "gprof -s prog mixed/* ranks/* && gprof -b -q prog gmon.sum"
	e2e_case "$v" "gprof -b prog mixed/* gmon.out"
	e2e_case "$v" "gprof -s -q -b prog gmon.out mixed/*"
	e2e_case "$v" "gprof -s -b -k f0/f1 -k f500/f502 prog mixed/*"
	e2e_case "$v" "gprof -s -l -b prog ranks/gmon.out.1* mixed/*"
	e2e_case "$v" "gprof -s -d16 prog mixed/gmon.00 mixed/gmon.01"
	e2e_case "$v" "gprof -s prog mixed/* bad.range ranks/*" foreign
	e2e_case "$v" "gprof -s prog ranks/gmon.out.1* bad.arc mixed/*"
	e2e_case "$v" "gprof -s prog mixed/* bad.hist"
	e2e_case "$v" "gprof -b prog bad.arc"
done

e2e_run_cases
e2e_done
