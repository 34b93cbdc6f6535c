#!/usr/bin/env bash
# Scaling benchmark (issue 15): CPU time (user + system) of gprof's analysis
# on generated -pg programs of growing size, ours against /usr/bin/gprof.
#
#   bench/scale/run.sh [EGPROF] [SIZES...]     (default: 2000 5000 20000 50000)
#
# For each size: bench/scale/gen.py writes the program; it is compiled once
# with -pg -O0 -g -fpie into a PIE, `prog-g`, and `prog` is the same with its
# debug info stripped (the slow case for BFD's function lookup: no line
# information).  It runs once for gmon.out, once for gmon.2 and 64 times
# (GMON_OUT_PREFIX) for the rank files.  (gmon.out: 10 rounds, so that it
# holds samples.)  Then, R times, interleaved (one
# round runs each command once, the order rotating from round to round):
#   stock    /usr/bin/gprof -b prog gmon.out
#   egprof   EGPROF -b prog gmon.out          (output compared with stock)
#   diff1    EGPROF --diff prog gmon.out gmon.2            (one binary)
#   diff2    EGPROF --diff prog gmon.out prog-g gmon.2     (two binaries)
#   ranks    EGPROF --rank-stats prog ranks/               (64 rank files)
#   dot      EGPROF prog gmon.out --dot cg.dot
#   nm       nm prog                           (the floor: reading symbols)
#   sumstock /usr/bin/gprof -s prog sranks/*   (1,024 rank files; sizes in
#   sum      EGPROF -s prog sranks/*            SUM_SIZES, default 2000 only:
#                                               the issue's case; gmon.sum,
#                                               stdout and stderr compared,
#                                               bytes 8..19 of gmon.sum aside)
# Prints the load average before each size's rounds, each command's median
# CPU seconds, the medians of the per-round ratios stock/egprof,
# diff1/egprof, diff2/egprof, sumstock/sum and egprof/nm, and the growth
# exponent of each command (least-squares slope of log time on log size).
# The machine may be shared: only paired ratios mean much.
# R is 5 (env R=...).  Work files go to a temporary directory (env KEEP=dir
# to keep them there; a size's programs and profiles are reused from it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
G=${1:-$top/gprof-ext/gprof}
shift || true
sizes=${*:-2000 5000 20000 50000}
R=${R:-5}
W=${KEEP:-$(mktemp -d)}
mkdir -p "$W"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
SUM_SIZES=${SUM_SIZES:-2000}
NSUM=1024
allcmds="stock egprof diff1 diff2 ranks dot nm sumstock sum"

run() {	# run NAME: the command line of NAME, in the size's directory
	case $1 in
	stock)  /usr/bin/gprof -b prog gmon.out ;;
	egprof) "$G" -b prog gmon.out ;;
	diff1)  "$G" --diff prog gmon.out gmon.2 ;;
	diff2)  "$G" --diff prog gmon.out prog-g gmon.2 ;;
	ranks)  "$G" --rank-stats prog ranks ;;
	dot)    "$G" prog gmon.out --dot cg.dot ;;
	nm)     nm prog ;;
	sumstock) cd sum.stock && /usr/bin/gprof -s ../prog ../sranks/* ;;
	sum)    cd sum.ours && "$G" -s ../prog ../sranks/* ;;
	esac
}

# cpu NAME: CPU seconds of one run (its output goes to out.NAME): bash's
# `time` of a subshell, to the millisecond (/usr/bin/time gives hundredths,
# a sixth of a 5,000-function run, and timed a bash started for each run)
cpu() {
	local TIMEFORMAT='%3U %3S' t
	t=$( { time (run "$1" >"out.$1" 2>&1); } 2>&1 )
	echo "$t" | awk '{ printf "%.3f\n", $1 + $2 }'
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# same_sum A B: whether two gmon.sum files are equal apart from bytes 8..19
# (upstream leaves them uninitialised)
same_sum() {
	cmp -s <(head -c 8 "$1") <(head -c 8 "$2") &&
		cmp -s <(tail -c +21 "$1") <(tail -c +21 "$2")
}

rm -f "$W"/fit.* # the exponents are this run's (KEEP reuses a directory)
printf '%7s' functions
for c in $allcmds; do printf ' %8s' "$c"; done
printf '  %8s %8s %8s %9s %8s %s\n' stock/eg diff1/eg diff2/eg sumstk/sum eg/nm output
for n in $sizes; do
	d="$W/$n"
	mkdir -p "$d/ranks"
	cd "$d"
	if [ ! -x prog ]; then
		python3 "$here/gen.py" . "$n"
		for f in $(cat files); do gcc -pg -O0 -g -fpie -c "$f" -o "${f%.c}.o" & done; wait
		gcc -pg -pie ./*.o -o prog-g
		objcopy --strip-debug prog-g prog
		./prog 1 && mv gmon.out gmon.2
		for i in $(seq 64); do GMON_OUT_PREFIX=ranks/gmon.out ./prog 1; done
		./prog 10
	fi
	cmds="stock egprof diff1 diff2 ranks dot nm"
	case " $SUM_SIZES " in
	*" $n "*)
		cmds="$cmds sumstock sum"
		mkdir -p sranks sum.stock sum.ours
		if [ "$(ls sranks | wc -l)" -ne "$NSUM" ]; then
			rm -f sranks/*
			for i in $(seq "$NSUM"); do GMON_OUT_PREFIX=sranks/gmon.out ./prog 1; done
		fi ;;
	esac
	echo "# $n functions: load average $(cut -d' ' -f1-3 /proc/loadavg) before the rounds"
	for c in $allcmds; do : >"t.$c"; done
	: >r.stock; : >r.diff1; : >r.diff2; : >r.nm; : >r.sum
	order=$cmds
	for ((r = 0; r < R; r++)); do
		for c in $order; do cpu "$c" >>"t.$c"; done
		order="$(echo "$order" | cut -d' ' -f2-) $(echo "$order" | cut -d' ' -f1)"
		paste -d' ' <(tail -n1 t.stock) <(tail -n1 t.egprof) <(tail -n1 t.diff1) \
			<(tail -n1 t.diff2) <(tail -n1 t.nm) |
		awk -v f="$d/r" '{ e = ($2 > 0 ? $2 : 0.001)
			print $1 / e >> (f ".stock"); print $3 / e >> (f ".diff1")
			print $4 / e >> (f ".diff2"); print e / ($5 > 0 ? $5 : 0.001) >> (f ".nm") }'
		[ ! -s t.sum ] || paste -d' ' <(tail -n1 t.sumstock) <(tail -n1 t.sum) |
			awk '{ print $1 / ($2 > 0 ? $2 : 0.001) }' >>r.sum
	done
	same=identical
	cmp -s out.stock out.egprof || same=DIFFERENT
	if [ -s t.sum ]; then
		cmp -s out.sumstock out.sum && same_sum "sum.stock/gmon.sum" "sum.ours/gmon.sum" ||
			same="$same, -s DIFFERENT"
	fi
	printf '%7s' "$n"
	for c in $allcmds; do
		if [ -s "t.$c" ]; then printf ' %8s' "$(median <"t.$c")"; else printf ' %8s' -; fi
	done
	printf '  %8.1f %8.2f %8.2f %9s %8.1f %s\n' "$(median <r.stock)" "$(median <r.diff1)" \
		"$(median <r.diff2)" "$([ -s r.sum ] && printf '%.1f' "$(median <r.sum)" || echo -)" \
		"$(median <r.nm)" "$same"
	for c in $cmds; do echo "$n $(median <"t.$c")" >>"$W/fit.$c"; done
done
printf '%7s' exponent
for c in $allcmds; do
	[ -f "$W/fit.$c" ] || { printf ' %8s' -; continue; }
	printf ' %8s' "$(awk '$2 > 0 { x = log($1); y = log($2); n++; sx += x; sy += y
		sxx += x * x; sxy += x * y }
		END { if (n < 2 || n * sxx == sx * sx) print "-"
		      else printf "%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$W/fit.$c")"
done
echo
