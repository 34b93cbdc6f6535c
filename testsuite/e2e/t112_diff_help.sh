#!/usr/bin/env bash
# `gprof --diff --help` prints the help, as `gprof --help` does (issue 13
# item 8), with our options, and exits 0.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
"$EGPROF" --help > plain.txt 2>&1
prc=$?
for args in "--diff --help" "--help --diff" "--diff -h" "--rank-stats --help" "--diff app a b --help"; do
	# shellcheck disable=SC2086
	"$EGPROF" $args > out.txt 2> err.txt
	rc=$?
	check "'$args' exits as --help does ($prc)" test $rc -eq $prc
	check "'$args' prints the help, with --sort" bash -c "grep -q -- '--sort KEY' out.txt && grep -q '^Usage: ' out.txt"
	check "'$args' prints what --help prints" cmp -s out.txt plain.txt
done
dl_done
