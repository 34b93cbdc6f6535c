#!/usr/bin/env bash
# --diff benchmark: two large generated profiles (thousands of functions,
# tens of thousands of arcs) of one generated binary.  Prints the wall time
# and peak RSS of one plain `gprof` run on one side and of `gprof --diff`,
# and their ratio (the target is at most 1.2).
#
#   bench/diff/run.sh [EGPROF] [NFUNCS] [NARCS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
G=${1:-$top/gprof-ext/gprof}
NF=${2:-4000}
NA=${3:-40000}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 "$here/gen.py" "$W" "$NF" "$NA"
cc -O0 -o "$W/big" "$W/big.c"
python3 "$top/testsuite/fixtures/fig1/mkgmon.py" "$W/big" "$W/a.gmon" --spec "$W/a.spec"
python3 "$top/testsuite/fixtures/fig1/mkgmon.py" "$W/big" "$W/b.gmon" --spec "$W/b.spec"

# best of 3: wall seconds and max RSS (KiB, largest process: /usr/bin/time
# reports the maximum over the process and its waited-for children)
measure() {
	local best=999999 rss=0 i t r
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$W/t" "$@" > /dev/null
		read -r t r < "$W/t"
		best=$(python3 -c "print(min($best, $t))")
		rss=$r
	done
	echo "$best $rss"
}
read -r t1 r1 < <(measure "$G" "$W/big" "$W/a.gmon")
read -r t2 r2 < <(measure "$G" --diff "$W/big" "$W/a.gmon" "$W/b.gmon")
read -r t3 r3 < <(measure "$G" --extended --diff "$W/big" "$W/a.gmon" "$W/b.gmon")
echo "functions $NF, arcs $NA"
echo "gprof one side:    ${t1}s  peak RSS ${r1} KiB"
echo "gprof --diff:      ${t2}s  peak RSS ${r2} KiB  ratio $(python3 -c "print(round($t2 / $t1, 2))")"
echo "--diff --extended: ${t3}s  peak RSS ${r3} KiB  ratio $(python3 -c "print(round($t3 / $t1, 2))")"
