#!/usr/bin/env bash
# The fuzz campaign's smoke run (doc/dev/reliability.md): every libFuzzer harness
# of testsuite/fuzz/ for a few seconds (FUZZ_SMOKE_SECONDS, default 3), its
# seed corpus and the reproducers of past findings run first.  One TAP line
# per harness.  Skipped when clang's libFuzzer runtime is not installed, and
# in the sanitizer build (the harnesses are ASan builds of their own).
set -u
secs=${FUZZ_SMOKE_SECONDS:-3}
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
	clang -x c -fsanitize=fuzzer,address,undefined -o "$WORKDIR/probe" - 2> /dev/null; then
	echo "ok 1 - # SKIP clang with libFuzzer (libfuzzer-14-dev) not installed"
	echo "1..1"
	exit 0
fi
case $(nm "$EGPROF" 2>/dev/null | grep -c __asan_init) in
	0) ;; *) echo "ok 1 - # SKIP the sanitizer build"; echo "1..1"; exit 0 ;;
esac
if ! make -s -C "$BUILDDIR" fuzz-build > "$WORKDIR/build.log" 2>&1; then
	echo "not ok 1 - make fuzz-build"
	tail -n 20 "$WORKDIR/build.log" | sed 's/^/# /'
	echo "1..1"
	exit 1
fi
exec "$SRCDIR/testsuite/fuzz/run" --builddir "$BUILDDIR" --srcdir "$SRCDIR" \
	--seconds "$secs" sidecar reports pathdiff profile_io gmonsum operands options writers names views
