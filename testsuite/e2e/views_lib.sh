# views_lib.sh - helpers of the tests of egprof's views (--pprof, --html,
# the filters, the heat map's SVG, speedscope): t216..t239.  Source it
# after graph_lib.sh (check, ok, not_ok, done_testing).
#
#   pprof_find || skip "..."          PPROF: pprof, built once from Debian's
#                                     source package (offline) if need be
#   chromium_find || skip "..."       CHROMIUM: Debian's chromium
#   views_build DIR [CFLAGS]          testsuite/fixtures/views/views.c, run
#                                     with libcallpath: DIR/base/{views,
#                                     gmon.out,gmon.out.callpath} and the
#                                     -DCHANGED build in DIR/changed
#   browser PAGE ARGS...              testsuite/e2e/browser.py
set -u
VIEWS_SRC="$SRCDIR/testsuite/fixtures/views/views.c"
CALLPATH_SO="$BUILDDIR/callpath/libcallpath.so"

# A skipped script still reports one case, so that testsuite/run counts it
# as skipped rather than as a script that ran nothing.
skip_all() { echo "1..1"; echo "ok 1 # SKIP $*"; exit 0; }

# pprof: $PPROF, a `pprof` on PATH, one built earlier into this build
# directory (or, for the sanitizer build, the one above it), or one built
# now from golang-github-google-pprof-dev's sources with golang-go, offline
# (GOPATH mode; about 15 s the first time, then cached in tools/).
pprof_find() {
	local d
	if [ -n "${PPROF:-}" ] && [ -x "$PPROF" ]; then return 0; fi
	for d in "$BUILDDIR/tools" "$BUILDDIR/../tools"; do
		if [ -x "$d/pprof" ]; then PPROF="$d/pprof"; return 0; fi
	done
	if command -v pprof >/dev/null 2>&1; then PPROF=$(command -v pprof); return 0; fi
	command -v go >/dev/null 2>&1 || return 1
	[ -d /usr/share/gocode/src/github.com/google/pprof ] || return 1
	mkdir -p "$BUILDDIR/tools"
	(
		flock 9
		[ -x "$BUILDDIR/tools/pprof" ] && exit 0
		cd "$BUILDDIR/tools" &&
		GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$BUILDDIR/tools/gocache" \
			GOFLAGS= go build -o pprof.tmp github.com/google/pprof >build.log 2>&1 &&
		mv pprof.tmp pprof
	) 9>"$BUILDDIR/tools/.lock" || return 1
	PPROF="$BUILDDIR/tools/pprof"
	[ -x "$PPROF" ]
}

chromium_find() {
	CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
	[ -n "$CHROMIUM" ] && [ -x "$CHROMIUM" ] || return 1
	export CHROMIUM
}

browser() {
	python3 "$SRCDIR/testsuite/e2e/browser.py" "$@"
}

# views_build DIR [CFLAGS...]: both builds of views.c, each run once with
# the call-path runtime (ARGS in VIEWS_ARGS, default "20").
views_build() {
	local dir=$1
	shift
	mkdir -p "$dir/base" "$dir/changed" &&
	gcc -pg -O1 -g "$@" -o "$dir/base/views" "$VIEWS_SRC" -lpthread &&
	gcc -pg -O1 -g -DCHANGED "$@" -o "$dir/changed/views" "$VIEWS_SRC" -lpthread &&
	# shellcheck disable=SC2086
	(cd "$dir/base" && LD_PRELOAD="$CALLPATH_SO" ./views ${VIEWS_ARGS:-20} >/dev/null) &&
	# shellcheck disable=SC2086
	(cd "$dir/changed" && LD_PRELOAD="$CALLPATH_SO" ./views ${VIEWS_ARGS:-20} >/dev/null) &&
	[ -s "$dir/base/gmon.out.callpath" ] && [ -s "$dir/changed/gmon.out.callpath" ]
}

# hub_build: testsuite/fixtures/htmlviews/hub.c (a hub with three callers
# and a callee, a libm loop, a recursion) built with -pg into ./hub and run
# once here with libcallpath (gmon.out and its sidecar); bails out when it
# cannot.
hub_build() {
	gcc -pg -O1 -g -o hub "$SRCDIR/testsuite/fixtures/htmlviews/hub.c" -lm >build.log 2>&1 &&
		LD_PRELOAD="$CALLPATH_SO" ./hub >/dev/null ||
		{ cat build.log; echo "Bail out! cannot build and run hub.c"; exit 1; }
}
