# testlib.sh - helpers for the callpath end-to-end scripts (source it).
#
#   . "$SRCDIR/callpath/examples/testlib.sh"
#   cp_cc prog acceptance.c -O1            # gcc -pg, from callpath/examples
#   (cd dir && LD_PRELOAD=$CP_SO ./prog)
#   cp_folded prog gmon.out.callpath       # "main;a;c 3" lines, summed, sorted
#   cp_acceptance_expected > expected      # what acceptance.c must give
#   cp_check "name" test "$a" = "$b"       # one TAP line
#   cp_done                                # plan line, exit status
set -u
: "${SRCDIR:?}" "${BUILDDIR:?}" "${WORKDIR:?}"
export LC_ALL=C
unset GMON_OUT_PREFIX CALLPATH_DEPTH CALLPATH_MAX_NODES CALLPATH_MAX_DEPTH CALLPATH_RECURSION LD_PRELOAD \
	CALLPATH_ENDS CALLPATH_SNAPSHOT CALLPATH_SNAPSHOT_SIGNAL
CP_EX="$SRCDIR/callpath/examples"
CP_LIB="$BUILDDIR/callpath"
CP_SO="$CP_LIB/libcallpath.so"
CP_A="$CP_LIB/libcallpath.a"
CP_NOOP="$CP_LIB/libcallpath-noop.so"
CP_DUMP="$CP_LIB/cpdump"
CP_N=0
CP_FAILED=0

# cp_cc OUT SRC [FLAGS...]: build $WORKDIR/OUT with -pg (g++ for .cc).
cp_cc() {
	local out=$1 src=$2 cc=gcc
	shift 2
	case $src in *.cc) cc=g++ ;; esac
	$cc -pg "$@" -o "$WORKDIR/$out" "$CP_EX/$src" -lpthread
}

# cp_folded PROG SIDECAR...: folded paths of the summed sidecars, named with
# nm, identical paths summed (one line per path), sorted.
cp_folded() {
	local prog=$1
	shift
	nm -nS "$prog" > "$prog.nm" &&
	"$CP_DUMP" -f -s "$prog.nm" "$@" |
		awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' | sort
}

# cp_acceptance_expected: the folded stacks of one run of acceptance.c, as
# drawn in its comment.
cp_acceptance_expected() {
	cat <<'END'
main 1
main;a 3
main;a;c 3
main;b 9
main;b;c 7
main;b;d 2
main;b;d;c 2
main;op 7
main;r 1
main;r;leaf 1
main;r;r 3
END
}

# cp_acceptance_expected_full: the same with CALLPATH_RECURSION=full.
cp_acceptance_expected_full() {
	cp_acceptance_expected | grep -v "^main;r;"
	cat <<'END'
main;r;r 1
main;r;r;r 1
main;r;r;r;r 1
main;r;r;r;r;leaf 1
END
}

# cp_header SIDECAR KEY: one header field as printed by cpdump -H.
cp_header() {
	"$CP_DUMP" -H "$1" | awk -v k="$2" '$1 == k { print $2 }'
}

# cp_call_nodes SIDECAR: its nodes of calls (the time samples' leaf nodes,
# as many as the program counters sampled, left out: issue 22).
cp_call_nodes() {
	"$CP_DUMP" -H "$1" | awk '$1 == "nodes" { n = $2 } $1 == "leaves" { l = $2 } END { print n - l }'
}

# cp_calls_of GPROF_BIN PROG GMON NAME: calls of NAME in the flat profile.
cp_calls_of() {
	"$1" -b -p "$2" "$3" | awk -v n="$4" '$NF == n && NF == 7 { print $4 }'
}

# cp_graph_counts GPROF_BIN PROG GMON: the call graph without time columns
# and index numbers (those depend on the symbol table).
cp_graph_counts() {
	"$1" -b -q "$2" "$3" | sed -E 's/[0-9]+\.[0-9]+//g; s/\[[0-9]+\]//g; s/[[:space:]]+/ /g'
}

cp_check() {
	local name=$1
	shift
	CP_N=$((CP_N + 1))
	if "$@"; then
		echo "ok $CP_N - $name"
	else
		echo "not ok $CP_N - $name"
		CP_FAILED=$((CP_FAILED + 1))
	fi
}

# cp_same NAME EXPECTED_FILE ACTUAL_FILE: TAP line, diff on failure.
cp_same() {
	CP_N=$((CP_N + 1))
	if diff -u "$2" "$3" > "$WORKDIR/diff.$CP_N"; then
		echo "ok $CP_N - $1"
	else
		echo "not ok $CP_N - $1"
		sed 's/^/# /' "$WORKDIR/diff.$CP_N"
		CP_FAILED=$((CP_FAILED + 1))
	fi
}

cp_done() {
	echo "1..$CP_N"
	[ "$CP_FAILED" -eq 0 ]
	exit $?
}

# cp_uftrace_pairs PROG [ARGS...]: run PROG under `uftrace record
# --no-libcall` (without our runtime) and print "caller callee calls" for
# every pair of instrumented functions, caller "-" for a root frame (a
# function entered with no instrumented function under it on its thread),
# mangled names, sorted.  The independent count the call paths must match.
cp_uftrace_pairs() {
	local data="$WORKDIR/uftrace.data.$(basename "$1")"
	rm -rf "$data"
	env -u LD_PRELOAD uftrace record --no-libcall -d "$data" "$@" > /dev/null 2>&1 || return 1
	uftrace replay -d "$data" -f tid --demangle=no 2>/dev/null |
	awk '
	/^#/ { next }
	{
		if (!match($0, /\] \| /)) next
		tid = substr($0, 1, RSTART)
		line = substr($0, RSTART + RLENGTH)
		match(line, /^ */)
		d = RLENGTH / 2
		line = substr(line, RLENGTH + 1)
		if (line ~ /^}/ || line ~ /^\/\*/) next	# returns, events
		name = line
		sub(/\(\).*$/, "", name)
		caller = d > 0 ? st[tid, d - 1] : "-"
		c[caller " " name]++
		if (line ~ /\{ *$/) st[tid, d] = name
	}
	END { for (k in c) print k, c[k] }' | sort
}

# cp_folded_pairs: "caller callee calls" summed from folded stacks on
# stdin ("a;b;c N" lines): the last two frames of each line, "-" for a
# one-frame line, sorted.  Folded recursion (one line per call site, "a;b;a
# N") counts like any other line.
cp_folded_pairs() {
	awk '{
		n = split($1, f, ";")
		c[(n > 1 ? f[n - 1] : "-") " " f[n]] += $2
	} END { for (k in c) print k, c[k] }' | sort
}

# ---- time per calling context (t46x) ----

# cp_hist GMON: "SAMPLES HZ": the sum of gmon.out's histogram bins and its
# sampling rate, read from the file itself (an independent check on what
# the runtime credited).
cp_hist() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
assert d[:4] == b'gmon', 'not a gmon file'
p, total, hz = 20, 0, 0
while p < len(d):
    tag = d[p]; p += 1
    if tag == 0:
        lo, hi, n, rate = struct.unpack_from('<QQII', d, p); p += 24 + 16
        total += sum(struct.unpack_from('<%dH' % n, d, p)); p += 2 * n; hz = rate
    elif tag == 1:
        p += 20
    elif tag == 2:
        n = struct.unpack_from('<I', d, p)[0]; p += 4 + 16 * n
    else:
        sys.exit('bad tag %d' % tag)
print(total, hz)
PY
}

# cp_func_samples FOLDED NAME: samples of a time folded file (--folded)
# whose innermost function is NAME.
cp_func_samples() {
	awk -v n="$2" '{ k = $1; sub(/.*;/, "", k); if (k == n) s += $NF } END { print s + 0 }' "$1"
}

# cp_path_samples FOLDED STACK: the samples of one folded line.
cp_path_samples() {
	awk -v k="$2" '$1 == k { s += $NF } END { print s + 0 }' "$1"
}

# cp_flat_self GPROF PROG GMON NAME: NAME's self seconds in gprof's flat
# profile (from the histogram, by program counter).
cp_flat_self() {
	"$1" -b -p "$2" "$3" | awk -v n="$4" '$NF == n { print $3; exit }'
}

# cp_within GOT WANT PCT [SLACK]: |GOT - WANT| <= PCT% of WANT + SLACK.
cp_within() {
	awk -v g="$1" -v w="$2" -v p="$3" -v s="${4:-0}" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= p * w / 100 + s) }'
}

# Sampling noise.  A time sample lands on a path with some probability, so
# a path's count of N samples varies by about sqrt(N) between runs, and a
# share p of N samples by sqrt(p (1 - p) / N).  Checks of measured time
# compare within K (4) such standard deviations of the actual counts plus a
# small floor, so that they hold on a loaded machine at any run length and
# still fail when the runtime credits the wrong context (a 50/50 split
# where 90/10 is measured, a thread's time on the other thread) or none.

# cp_share_within HITS TOTAL WANT [K] [FLOOR]: HITS of TOTAL samples is
# the share WANT (0..1) within K binomial standard deviations + FLOOR.
cp_share_within() {
	awk -v h="$1" -v n="$2" -v w="$3" -v k="${4:-4}" -v f="${5:-0.02}" 'BEGIN {
		if (n <= 0) exit 1
		d = h / n - w; if (d < 0) d = -d
		exit !(d <= k * sqrt(w * (1 - w) / n) + f) }'
}

# cp_rates_within S1 T1 S2 T2 [K] [FLOOR]: the rates S1/T1 and S2/T2 (S
# samples in T units of time) are equal within K Poisson standard
# deviations of their difference + FLOOR (a fraction of the rate).
cp_rates_within() {
	awk -v s1="$1" -v t1="$2" -v s2="$3" -v t2="$4" -v k="${5:-4}" -v f="${6:-0.02}" 'BEGIN {
		if (t1 <= 0 || t2 <= 0 || s1 + s2 <= 0) exit 1
		r1 = s1 / t1; r2 = s2 / t2; d = r1 - r2; if (d < 0) d = -d
		exit !(d <= k * sqrt(s1 / (t1 * t1) + s2 / (t2 * t2)) + f * (r1 > r2 ? r1 : r2)) }'
}

# ---- sidecar bytes (doc/dev/sidecar-format.md) ----

# cp_v3_of V4 V3: the version-4 sidecar V4 rewritten as version 3 wrote it
# (what an older runtime left behind: no identity, no objects), to check
# what readers do with old sidecars.  Needs one node table and the time
# metric only, as the runtime writes them.
cp_v3_of() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'EGPROFCP' and struct.unpack_from('<I', b, 8)[0] == 4
hsize, flags, nsect = struct.unpack_from('<III', b, 12)
at, proc, nodes, unplaced, sampling = hsize, None, None, 0, 0
for _ in range(nsect):
    tag, sflags, ln = struct.unpack_from('<IIQ', b, at)
    p = b[at + 16:at + 16 + ln]
    if tag == 1:
        proc = p
    elif tag == 3:
        kind, mflags, period, unplaced = struct.unpack_from('<IIQQ', p, 8)
        sampling = (0 if mflags & 8 else 1) | (2 if mflags & 4 else 0)
    elif tag == 5:
        assert nodes is None, 'one node table'
        nodes = p
    at += 16 + ln
pid, ppid, rank, depth, failure, threads, load, pstart, pend, ndrop, hl, el, bl = \
    struct.unpack_from('<QQiIIIQQQIHHH', proc, 0)
drops = struct.unpack_from('<%dQ' % ndrop, proc, 72)[:4]
strings = proc[72 + 8 * ndrop:72 + 8 * ndrop + hl + el + bl]
nsize, nm, count = struct.unpack_from('<IIQ', nodes, 0)
h3 = (136 + len(strings) + 7) & ~7
out = bytearray(h3)
struct.pack_into('<8sIIIIQQQiIIIQ4QHHHH QQII', out, 0, b'EGPROFCP', 3, h3, 48, flags, count,
                 pid, ppid, rank, depth, failure, threads, load, *drops, hl, el, bl, 0,
                 pstart, pend, sampling, min(unplaced, 0xffffffff))
out[136:136 + len(strings)] = strings
for i in range(count):
    out += nodes[32 + i * nsize:32 + i * nsize + 48]
open(sys.argv[2], 'wb').write(out)
PY
}

# cp_hash FILE: the 64-bit hash a version-4 identity records of a gmon
# file, computed here from its definition in doc/dev/sidecar-format.md (an
# independent check of the runtime's and the readers' code).
cp_hash() {
	python3 - "$1" <<'PY'
import struct, sys
M = (1 << 64) - 1
def rotl(x, r): return ((x << r) | (x >> (64 - r))) & M
def word(h, w):
    w = (w * 0x87c37b91114253d5) & M; w = rotl(w, 31); w = (w * 0x4cf5ad432745937f) & M
    h ^= w; h = rotl(h, 27); return (h * 5 + 0x52dce729) & M
b = open(sys.argv[1], 'rb').read()
h, n = 0x9e3779b97f4a7c15, len(b)
for i in range(0, n // 8 * 8, 8):
    h = word(h, struct.unpack_from('<Q', b, i)[0])
if n % 8:
    h = word(h, int.from_bytes(b[n // 8 * 8:] + bytes(8 - n % 8), 'little'))
h ^= n
h ^= h >> 33; h = (h * 0xff51afd7ed558ccd) & M
h ^= h >> 33; h = (h * 0xc4ceb9fe1a85ec53) & M
h ^= h >> 33
print('0x%016x' % h)
PY
}

# cp_counts PROG GMON SIDECAR: "function sidecar_calls gmon_calls" for
# every function either counts, sorted: the sidecar's calls from call sites
# inside the program (count + folded recursion; cpdump's tree) against the
# arcs of the gmon file into it (read from the file itself).
cp_counts() {
	local prog=$1 gmon=$2 side=$3
	nm -nS "$prog" > "$prog.nm" &&
	"$CP_DUMP" -s "$prog.nm" "$side" | sed -n '/^dropped-stopped/,$p' | sed 1d > "$side.tree" &&
	python3 - "$prog.nm" "$gmon" "$side.tree" <<'PY'
import bisect, re, struct, sys
syms = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 3 and f[-2] in 'tTwW':
        syms.append((int(f[0], 16), f[-1]))
syms.sort()
addrs = [a for a, _ in syms]
d = open(sys.argv[2], 'rb').read()
theirs, ours, p = {}, {}, 20
# PIE: arcs are link-time addresses once the load bias is taken off; gmon
# histogram records say where the text was at run time
lowpc = None
while p < len(d):
    tag = d[p]; p += 1
    if tag == 0:
        lo, hi, n, rate = struct.unpack_from('<QQII', d, p); p += 40
        lowpc = lo if lowpc is None else lowpc
        p += 2 * n
    elif tag == 1:
        frm, self, count = struct.unpack_from('<QQI', d, p); p += 20
        i = bisect.bisect_right(addrs, self) - 1
        name = syms[i][1] if i >= 0 else '?'
        theirs[name] = theirs.get(name, 0) + count
    elif tag == 2:
        n = struct.unpack_from('<I', d, p)[0]; p += 4 + 16 * n
    else:
        sys.exit('bad tag')
for line in open(sys.argv[3]):
    m = re.match(r'\s*(\d*)(?:\+(\d+))?\s+(\S+) <- (\S+)', line)
    # a folded node's calls are shown on its parent too ("1+3 r")
    if not m or m.group(4) == '[external]' or 'recursion folded' in line:
        continue
    c = int(m.group(1) or 0) + int(m.group(2) or 0)
    ours[m.group(3)] = ours.get(m.group(3), 0) + c
for k in sorted(set(ours) | set(theirs)):
    print(k, ours.get(k, 0), theirs.get(k, 0))
PY
}

# cp_counts_consistent PROG GMON SIDECAR [exact]: every function the gmon
# file counts has at least as many calls in the sidecar (glibc loses calls
# the runtime keeps: signal handlers interrupting its counter, threads,
# moncontrol), or exactly as many with `exact`; fewer only by the calls the
# sidecar says the runtime dropped (a handler interrupting the runtime),
# in all.  Prints the disagreements.
cp_counts_consistent() {
	local dropped
	dropped=$(( $(cp_header "$3" dropped-reentry) + $(cp_header "$3" dropped-node-limit) +
		    $(cp_header "$3" dropped-depth-limit) + $(cp_header "$3" dropped-stopped) ))
	cp_counts "$1" "$2" "$3" | awk -v exact="${4:-}" -v dropped="$dropped" '
		$2 < $3 { short += $3 - $2 }
		$2 < $3 || (exact != "" && $2 != $3) { print "# " $0; if (exact != "") bad = 1 }
		END { if (short > dropped) { print "# fewer by " short ", dropped " dropped; bad = 1 }
		      exit bad }'
}

# ---- every sample placed (issue 22) ----

# cp_incl_samples FOLDED NAME: samples of the folded lines whose path holds
# a frame NAME (its inclusive samples; a name repeated on a line counts once).
cp_incl_samples() {
	awk -v n="$2" '{
		v = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";"); hit = 0
		for (i = 1; i <= k; i++) if (fr[i] == n) hit = 1
		if (hit) s += v } END { print s + 0 }' "$1"
}

# cp_secs_within SAMPLES HZ WANT_SECONDS PCT [K]: SAMPLES at HZ are WANT
# seconds within PCT% plus K (3) Poisson standard deviations of the count.
cp_secs_within() {
	awk -v s="$1" -v hz="$2" -v w="$3" -v p="$4" -v k="${5:-3}" 'BEGIN {
		if (hz <= 0) exit 1
		d = s / hz - w; if (d < 0) d = -d
		exit !(d <= p * w / 100 + k * sqrt(s) / hz) }'
}
