#!/usr/bin/env bash
# Loader pipes (issue 12 item 5): a valid binary whose one function has a
# 2 MiB name makes each loader's profile bigger than the 1 MiB the pipe
# reader once capped, and with two loaders (--diff) the first one blocked
# forever on a pipe whose read end the second had inherited at fork.  Both
# --diff and --rank-stats must now finish, with gprof's numbers; a loader
# that is stopped or killed must be named, never waited on forever.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1

name="f_$(head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' x)"
cat > big.c <<EOC
#include <stdlib.h>
__attribute__((noinline)) int $name(int n)
{ volatile int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int main(int argc, char **argv)
{ int k = atoi(argv[1]); long t = 0; for (int i = 0; i < k; i++) t += $name(1000); return t == 1; }
EOC
cc -pg -O1 -no-pie -o big big.c || { echo "not ok 1 - build big.c"; echo "1..1"; exit 1; }
./big 3 && mv gmon.out g3 && ./big 5 && mv gmon.out g5 ||
	{ echo "not ok 1 - run big"; echo "1..1"; exit 1; }

# calls FILE: the call count gprof's flat profile gives the long function
# (matched by its length: a 2 MiB argument exceeds the kernel's limit)
len=${#name}
calls() { awk -v len=$len '$NF ~ /^f_x+$/ && length($NF) == len { print $(NF-3) }' "$1"; }
"$SYSGPROF" -b -p big g3 > sys3.txt && "$SYSGPROF" -b -p big g5 > sys5.txt
c3=$(calls sys3.txt) c5=$(calls sys5.txt)
check "gprof counts 3 and 5 calls" test "$c3:$c5" = "3:5"

timeout 120 "$EGPROF" --diff -b -p big g3 big g5 > diff.txt 2> diff.err
rc=$?
check "--diff finishes (exit $rc, 124 is a hang)" test $rc -eq 0
check "--diff: the 2 MiB name is printed whole, calls $c3 - $c5" \
	test "$(calls diff.txt)" = "$((c3 - c5))"

timeout 120 "$EGPROF" --rank-stats big g3 g5 > ranks.txt 2> ranks.err
rc=$?
check "--rank-stats finishes (exit $rc)" test $rc -eq 0
check "--rank-stats: calls min $c3 max $c5 on the long function" \
	bash -c "awk -v len=$len '\$NF ~ /^f_x+\$/ && length(\$NF) == len { print \$(NF-3), \$(NF-2) }' ranks.txt | grep -qx '$c3 $c5'"

# A loader that never finishes: a rank file is a FIFO nobody writes, so the
# loader blocks opening it (a FIFO binary is refused before any loader
# starts).  Stopped, it is named and ended; killed, its signal is named.
mkfifo g.fifo
# stop_loader SIGNAL: run --rank-stats on the FIFO, send SIGNAL to its loader
loader_gets() {
	local sig=$1 pid child i
	timeout 60 "$EGPROF" --rank-stats big g3 g.fifo > sig.out 2> sig.err &
	pid=$!
	for i in $(seq 200); do
		child=$(pgrep -P "$(pgrep -P $pid)" 2>/dev/null | head -n 1)
		[ -n "$child" ] && break
		sleep 0.05
	done
	[ -n "$child" ] && kill -"$sig" "$child"
	wait $pid
}
loader_gets STOP
rc=$?
check "a stopped loader: exit 1, not a hang (exit $rc)" test $rc -eq 1
check "... named with its signal" grep -q "loader was stopped by signal 19" sig.err
loader_gets KILL
rc=$?
check "a killed loader: exit 1 (exit $rc)" test $rc -eq 1
check "... named with its signal" grep -q "loader was killed by signal 9 (Killed)" sig.err
dl_done
