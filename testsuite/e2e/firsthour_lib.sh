# firsthour_lib.sh - helpers of the t86N_firsthour_* scripts (source it):
# TAP checks, and the first-hour program (testsuite/fixtures/firsthour/app.c)
# built as a baseline and as its changed version.
set -u
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
done_testing() { [ "$n" -gt 0 ] || not_ok "the script ran no test"; echo "1..$n"; [ "$fails" = 0 ]; exit; }
bail() { echo "Bail out! $*"; exit 1; }
# diag FILE: up to 15 lines of FILE as TAP comments
diag() { head -n 15 "$1" | sed 's/^/# /'; }
APP_C="$SRCDIR/testsuite/fixtures/firsthour/app.c"
cd "$WORKDIR" || exit 1

# one_line FILE: FILE holds exactly one line
one_line() { [ "$(wc -l <"$1")" = 1 ]; }

# build_app DIR [CFLAGS...]: DIR/app from app.c with -pg
build_app() {
	local d=$1
	shift
	mkdir -p "$d" && gcc -pg -O2 -g "$@" -o "$d/app" "$APP_C" ||
		bail "cannot build $d/app"
}
