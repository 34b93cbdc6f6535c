# outputs_lib.sh - helpers of the t6NN_outputs_* / t6NN_inputs_* scripts
# (issue 12: outputs that never destroy anything, inputs read safely).
#
#   . "$SRCDIR/testsuite/e2e/outputs_lib.sh"
#   out_build            # $WORKDIR/app, gmon.out (app 3), gmon.2 (app 1)
#   out_sidecars         # the same run again under libcallpath: *.callpath
#   check "name" CMD...  # one TAP line (graph_lib.sh)
#   unchanged FILE...    # after `snap FILE...`: same bytes, same inode
#   done_testing
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
export LC_ALL=C
unset GMON_OUT_PREFIX LD_PRELOAD
OUT_FIX="$SRCDIR/testsuite/fixtures/outputs"
CP_SO="$BUILDDIR/callpath/libcallpath.so"
CPDUMP="$BUILDDIR/tools/cpdump/cpdump"
EGSUM="$BUILDDIR/mpi/egprof-sum"
cd "$WORKDIR" || exit 1

out_build() {
	gcc -pg -O1 -no-pie -o app "$OUT_FIX/app.c" &&
		./app 1 && mv gmon.out gmon.2 && ./app 3 ||
		{ echo "Bail out! cannot build and run app.c"; exit 1; }
}

# Both runs again, each leaving its call-path sidecar too.
out_sidecars() {
	LD_PRELOAD="$CP_SO" ./app 1 && mv gmon.out gmon.2 &&
		mv gmon.out.callpath gmon.2.callpath && LD_PRELOAD="$CP_SO" ./app 3 ||
		{ echo "Bail out! cannot run app.c under libcallpath"; exit 1; }
}

# snap FILE...: remember content and inode; unchanged FILE...: compare.
snap() {
	local f
	for f in "$@"; do
		stat -c '%i %F' -- "$f" >"$f.snap-stat" 2>/dev/null || echo missing >"$f.snap-stat"
		{ [ -f "$f" ] && md5sum <"$f"; } >"$f.snap-sum" 2>/dev/null
	done
}
unchanged() {
	local f
	for f in "$@"; do
		local st sum
		st=$(stat -c '%i %F' -- "$f" 2>/dev/null || echo missing)
		sum=$({ [ -f "$f" ] && md5sum <"$f"; } 2>/dev/null)
		[ "$st" = "$(cat "$f.snap-stat")" ] && [ "$sum" = "$(cat "$f.snap-sum")" ] ||
			{ echo "# $f changed: $st"; return 1; }
	done
}

# has_err FILE TEXT: stderr FILE says TEXT (fixed string).
has_err() { grep -qF -- "$2" "$1" || { sed 's/^/# /' "$1" | head -5; return 1; }; }

# no_temps: no temporary file of ours left in the working directory.
no_temps() { [ -z "$(find . -name '*.tmp.*' | head -1)" ]; }
