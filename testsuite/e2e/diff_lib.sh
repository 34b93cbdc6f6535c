# diff_lib.sh - helpers for the --diff end-to-end scripts (t1NN_diff_*).
# Source it; it needs EGPROF, SYSGPROF, SRCDIR, WORKDIR (see testsuite/run).
#
#   . "$SRCDIR/testsuite/e2e/diff_lib.sh"
#   check "name" test-command...     one TAP line
#   squeeze FILE                     whitespace runs to one space, trimmed,
#                                    without the trailing verdict marker ("~" within
#                                    noise, "=" equal)
#   dl_done                          plan line; exit 1 if anything failed

dl_n=0
dl_failed=0

check() {
	local name=$1
	shift
	dl_n=$((dl_n + 1))
	if "$@"; then
		echo "ok $dl_n - $name"
	else
		echo "not ok $dl_n - $name"
		dl_failed=$((dl_failed + 1))
	fi
}

squeeze() {
	sed -e 's/[[:space:]]\+/ /g' -e 's/^ //' -e 's/ $//' -e 's/ [~=]$//' "$@"
}

# contains FILE TEXT: TEXT is a line of FILE after squeezing both.
contains() {
	squeeze "$1" | grep -qxF -- "$(echo "$2" | squeeze)"
}

dl_done() {
	echo "1..$dl_n"
	[ "$dl_failed" -eq 0 ]
}

# The Figure 1 demo and its gmon files, in $WORKDIR/fig1.
dl_fig1() {
	sh "$SRCDIR/testsuite/fixtures/fig1/fig1.sh" "$WORKDIR/fig1"
}
