#!/usr/bin/env bash
# egprof-sum's memory on one large histogram (issue 28 item 9: 5.2 GB of
# RSS for a 1 GB histogram, "out of memory" with two processes).
#
#   bench/mpi/sum_rss.sh [--sum BINARY] [--base BINARY] [--mb M] [--rounds R]
#
# Writes two gmon files of one histogram of M MB each (default 1024;
# testsuite/mpi/gen_big_hist.py), then sums the first with one process and
# both with two, with the new build and (--base) the base build, runs
# interleaved.  Prints per run the wall seconds and the peak RSS of the
# largest process (/usr/bin/time on mpirun: the largest of mpirun and its
# children) and the RSS over the size of one file; says whether both
# builds wrote the same sums.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
new=$srcdir/mpi/egprof-sum base= mb=1024 rounds=1
while [ $# -gt 0 ]; do
	case $1 in
	--sum) new=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	--mb) mb=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) sed -n '2,15p' "$0"; exit 2 ;;
	esac
done
W=$(mktemp -d /tmp/bench-sumrss.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W"
nbins=$((mb * 1024 * 1024 / 2))
python3 "$srcdir/testsuite/mpi/gen_big_hist.py" a.gmon $nbins 1
python3 "$srcdir/testsuite/mpi/gen_big_hist.py" b.gmon $nbins 2
size=$(stat -c %s a.gmon)
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "# two gmon files of $((size / 1048576)) MB (one histogram of $nbins bins), $(nproc) CPUs, $(free -g | awk '/^Mem/ { print $2 }') GB, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%5s %-4s %-18s %8s %9s %8s\n' round run case "wall s" "RSS MB" "x file"
variants=new
[ -n "$base" ] && variants="new base"
for r in $(seq "$rounds"); do
	vs=$variants
	[ $((r % 2)) = 0 ] && [ -n "$base" ] && vs="base new"
	for v in $vs; do
		bin=$new
		[ "$v" = base ] && bin=$base
		for c in "np1 a.gmon" "np2 a.gmon b.gmon"; do
			set -- $c
			np=${1#np}
			shift
			if /usr/bin/time -f "%e %M" -o t.out "${MPIRUN[@]}" -np "$np" "$bin" \
				-o "sum.$v.$np" "$@" > out.txt 2> err.txt; then
				read -r wall rss < t.out
				printf '%5s %-4s %-18s %8.2f %9.1f %8.2f\n' "$r" "$v" "-np $np, $# file(s)" \
					"$wall" "$(echo "$rss / 1024" | bc -l)" "$(echo "$rss * 1024 / $size" | bc -l)"
			else
				printf '%5s %-4s %-18s failed: %s\n' "$r" "$v" "-np $np, $# file(s)" \
					"$(grep -v '^$' err.txt | head -n 1)"
			fi
		done
	done
done
if [ -n "$base" ]; then
	for np in 1 2; do
		if [ -f "sum.new.$np" ] && [ -f "sum.base.$np" ]; then
			cmp -s "sum.new.$np" "sum.base.$np" && echo "# -np $np: both builds wrote the same sum" ||
				echo "# -np $np: the sums DIFFER"
		fi
	done
fi
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
