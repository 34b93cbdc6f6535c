#!/usr/bin/env bash
# Set-up and documentation as a newcomer meets them: scripts/install-deps
# installs what building and using need, --test adds the test suite's
# tools; .ci/run runs the README's test command, whose duration the README
# states; the user pages (doc/*.md, installed) carry no test or issue
# numbers and no developer pages (doc/dev/, not installed); pprof is
# `go tool pprof` (Debian has no pprof command); a tool Debian lacks is
# named with where to get it; make install puts the quickstart, the JSON
# schemas, five man pages and the bash completion in place, and make
# uninstall takes them away.
. "$SRCDIR/testsuite/e2e/firsthour_lib.sh"
S=$SRCDIR

# --- install-deps ------------------------------------------------------------
"$S/scripts/install-deps" --list >base.txt 2>&1; rb=$?
"$S/scripts/install-deps" --list --test >test.txt 2>&1; rt=$?
check "install-deps --list and --list --test print packages" \
	bash -c "[ $rb = 0 ] && [ $rt = 0 ] && [ -s base.txt ] && [ \$(wc -l <test.txt) -gt \$(wc -l <base.txt) ]"
check "building needs binutils-source, graphviz, cmocka" \
	bash -c "grep -qx binutils-source base.txt && grep -qx libgraphviz-dev base.txt && grep -qx libcmocka-dev base.txt"
only_tests=
for p in valgrind chromium uftrace clang libfuzzer-14-dev golang-go openmpi-bin python3-networkx gdb; do
	grep -qx "$p" base.txt && only_tests="$only_tests $p"
	grep -qx "$p" test.txt || only_tests="$only_tests (not in --test: $p)"
done
check "the test suite's tools come only with --test" [ -z "$only_tests" ] || echo "#$only_tests"
check "--test adds to the base list" bash -c "[ -z \"\$(comm -23 <(sort base.txt) <(sort test.txt))\" ]"
"$S/scripts/install-deps" --bogus >/dev/null 2>err.txt; rc=$?
check "install-deps refuses an unknown argument" bash -c "[ $rc = 2 ] && grep -q \"unknown argument '--bogus'\" err.txt"

# --- the README's commands and .ci/run --------------------------------------------
readme_test=$(grep -x '    scripts/install-deps --test && .*make check.*' "$S/README.md" | sed 's/^    //')
ci_test=$(grep -x 'scripts/install-deps --test && .*make check.*' "$S/.ci/run")
check "the README has the test command, with install-deps --test" [ -n "$readme_test" ]
check ".ci/run runs the README's test command" [ "$readme_test" = "$ci_test" ]
check "the README says how long it takes on 2 cores" \
	grep -Eq 'takes about [0-9]+ minutes on 2' "$S/README.md"
check "the README points to the quickstart before any other page" \
	bash -c "[ \"\$(grep -o 'doc/[a-z/-]*\\.md' '$S/README.md' | head -n 1)\" = doc/quickstart.md ]"
check "the README's paragraphs (and list items) are short (10 lines at most)" \
	bash -c "! awk '/^\$/ { n = 0; next } /^    / { next } /^- / { n = 0 } { if (++n > 10) { print NR; bad = 1 } } END { exit !bad }' '$S/README.md'"

# --- the pages ---------------------------------------------------------------
check "user pages cite no test or issue numbers" \
	bash -c "! grep -nE 't[0-9]{3}|issue [0-9]+' '$S'/doc/*.md '$S/README.md'" ||
	grep -nE 't[0-9]{3}|issue [0-9]+' "$S"/doc/*.md "$S/README.md" | sed 's/^/# /' | head -5
check "the developer pages are in doc/dev/" \
	bash -c "for p in HACKING runtime scaling reliability sidecar-format; do
		[ -f '$S/doc/dev/'\$p.md ] && [ ! -e '$S/doc/'\$p.md ] || exit 1; done"
check "pprof is 'go tool pprof' in every page and in the README" \
	bash -c "! grep -nE '(^|[\` ])pprof -(top|http|diff_base|raw|traces|list)' '$S'/doc/*.md '$S/README.md' '$S/doc/egprof.1' | grep -v 'go tool pprof'"
check "flamegraph.pl is named with where to get it" \
	grep -q 'https://github.com/brendangregg/FlameGraph' "$S/doc/callpath-report.md"
check "the quickstart fits a screen (60 lines)" [ "$(wc -l <"$S/doc/quickstart.md")" -le 60 ]
check "callpath-report.md's path changes are A - B, as the tool prints them" \
	bash -c "grep -q '          7           4          +3  main;b;c' '$S/doc/callpath-report.md' &&
		 grep -q '      1.09       1.91      -0.82    main;b;c' '$S/doc/callpath-report.md'"

# --- make install / uninstall ---------------------------------------------------
inst="$WORKDIR/inst"
vars=(prefix=/opt/eg bindir=/opt/eg/bin libdir=/opt/eg/lib mandir=/opt/eg/man
      datarootdir=/opt/eg/share docdir=/opt/eg/doc)
make -s -C "$BUILDDIR" install DESTDIR="$inst" "${vars[@]}" >install.log 2>&1; rc=$?
check "make install succeeds" [ $rc = 0 ] || diag install.log
d="$inst/opt/eg/doc"
check "the quickstart and the user pages are installed" \
	bash -c "[ -f $d/quickstart.md ] && [ -f $d/diff.md ] && [ -f $d/README.md ]"
check "the JSON schemas are installed" \
	bash -c "for s in '$S'/doc/schema/*.json; do cmp -s \"\$s\" '$d/schema/'\$(basename \"\$s\") || exit 1; done"
check "doc/dev/ is not installed" bash -c "[ ! -e $d/dev ] && [ ! -e $d/HACKING.md ] && [ ! -e $d/runtime.md ]"
men=$(cd "$inst/opt/eg/man/man1" && ls | sort | tr '\n' ' ')
want_men="cpdump.1 egprof-record.1 egprof.1 gprof.1 "
[ -x "$BUILDDIR/mpi/egprof-sum" ] && want_men="cpdump.1 egprof-record.1 egprof-sum.1 egprof.1 gprof.1 "
[ -x "$BUILDDIR/mpi/egprof-rankstats" ] && want_men="cpdump.1 egprof-rankstats.1 egprof-record.1 egprof-sum.1 egprof.1 gprof.1 "
check "the man pages ($men)" [ "$men" = "$want_men" ]
c="$inst/opt/eg/share/bash-completion/completions"
check "bash completion for every program" \
	bash -c "[ -f $c/gprof ] && for p in egprof cpdump egprof-sum egprof-rankstats; do [ -L $c/\$p ] || exit 1; done"
check "the installed completion is valid bash" bash -n "$c/gprof"
make -s -C "$BUILDDIR" uninstall DESTDIR="$inst" "${vars[@]}" >uninstall.log 2>&1; rc=$?
check "make uninstall leaves no file" bash -c "[ $rc = 0 ] && [ -z \"\$(find '$inst' -type f -o -type l)\" ]"
done_testing
