#!/usr/bin/env bash
# doc/quickstart.md, followed literally on an installed tree: `make install`
# into this script's WORKDIR, then every command of the page's code blocks,
# in order, with that tree's bin first on PATH and its prefix for the
# page's /usr/local (the only substitution); `xdg-open`, which needs a
# desktop, is not run.  app.c is the first-hour program
# (testsuite/fixtures/firsthour/app.c: -DNEW makes solve three times the
# work).  Each step's output is checked.
# testsuite: alone (measures CPU time: see testsuite/run)
#
# False-failure bounds: step 4 asserts only that solve's difference is
# negative (48 samples against some 144: a chance below 1e-12 of the
# reverse), not its verdict; step 6 (three runs a side, --noise 4) that the
# gate fails on solve, whose difference (3.0 s summed) is some 9 of its
# standard deviations against a cut near 4.4: missed with a chance below
# 1e-5.
. "$SRCDIR/testsuite/e2e/firsthour_lib.sh"
QS="$SRCDIR/doc/quickstart.md"

inst="$WORKDIR/inst"
make -s -C "$BUILDDIR" install prefix="$inst" bindir="$inst/bin" libdir="$inst/lib" \
	mandir="$inst/share/man" datarootdir="$inst/share" docdir="$inst/share/doc/egprof" \
	>install.log 2>&1 || { diag install.log; bail "make install failed"; }
check "make install into WORKDIR" [ -x "$inst/bin/gprof" ] && [ -f "$inst/lib/libcallpath.so.1" ]

# The page's commands: "STEP<TAB>COMMAND" for every 4-space-indented line
# under a "## N." heading.
awk '/^## [0-9]+\./ { step = $2; sub(/\.$/, "", step); next }
     /^## / { step = "" }
     step != "" && /^    [^ ]/ { sub(/^    /, ""); print step "\t" $0 }' "$QS" >commands.tsv
check "the quickstart has six steps of commands" \
	[ "$(cut -f1 commands.tsv | sort -u | tr '\n' ' ')" = "1 2 3 4 5 6 " ]

mkdir -p qs && cp "$APP_C" qs/app.c
export PATH="$inst/bin:$PATH"
i=0
while IFS=$'\t' read -r step cmd; do
	i=$((i + 1))
	cmd=${cmd//\/usr\/local/$inst}
	echo "$cmd" >"cmd.$i"
	case $cmd in
	xdg-open\ *) echo "$step $i skipped" >>ran.txt; continue ;;
	esac
	(cd qs && bash -c "$cmd") >"out.$i" 2>"err.$i" </dev/null
	echo "$step $i $?" >>ran.txt
	# GNU gprof on the same files, before the next step's run replaces them
	[ "$step" = 2 ] && (cd qs && /usr/bin/gprof -b app gmon.out | head -30) >sys.2
done <commands.tsv
# out STEP K: the output of the K-th command of a step; rc STEP K its status
nth() { awk -v s="$1" -v k="$2" '$1 == s { if (++n == k) print $2 }' ran.txt; }
out() { cat "out.$(nth "$1" "$2")"; }
rc() { awk -v s="$1" -v k="$2" '$1 == s { if (++n == k) print $3 }' ran.txt; }

# 1. build with -pg and run
check "1. the build and the run succeed, gmon.out is written" \
	bash -c "[ $(rc 1 1) = 0 ] && [ $(rc 1 2) = 0 ] && [ -s qs/gmon.out ]"
# 2. read the profile: GNU gprof's, byte for byte
check "2. the profile is GNU gprof's, byte for byte" \
	bash -c "[ $(rc 2 1) = 0 ] && cmp -s out.$(nth 2 1) sys.2 && grep -q '^ *[0-9.]* *[0-9.]* *[0-9.]* *40 .* solve$' sys.2"
# 3. call paths
check "3. egprof-record writes the pair into cp/" \
	bash -c "[ $(rc 3 1) = 0 ] && ls qs/cp/gmon.*[0-9] > /dev/null && [ -s \"\$(ls qs/cp/gmon.*.callpath)\" ]"
check "3. --callpath prints the calling-context tree with its time" \
	bash -c "[ $(rc 3 2) = 0 ] && grep -Eq '^ +40 +[0-9.]+ +[0-9.]+ +solve' out.$(nth 3 2)" || diag "out.$(nth 3 2)"
# 4. two builds
check "4. both builds run" bash -c "[ $(rc 4 1) = 0 ] && [ $(rc 4 2) = 0 ] && [ $(rc 4 3) = 0 ] && [ -s qs/new/gmon.out ]"
check "4. the diff: solve's row negative (the new build spends more)" \
	bash -c "[ $(rc 4 4) = 0 ] && grep -Eq '^ *-[0-9.]+ +[0-9.]+ +-[0-9.]+ .* solve\$' out.$(nth 4 4)" || diag "out.$(nth 4 4)"
check "4. the diff has its evidence list" grep -q '^Evidence for the significant rows' "out.$(nth 4 4)"
# 5. the HTML report
check "5. the HTML report is one self-contained file" \
	bash -c "[ $(rc 5 1) = 0 ] && grep -q egprof-data qs/diff.html && ! grep -Eq '<script[^>]* src=|<link[^>]* href=\"http' qs/diff.html"
check "5. xdg-open is the only command not run" [ "$(grep -c skipped ran.txt)" = 1 ]
# 6. the gate
check "6. three runs a side" bash -c "[ \$(ls qs/old/runs | wc -l) = 3 ] && [ \$(ls qs/new/runs | wc -l) = 3 ]"
check "6. the gate fails: exit 3" [ "$(rc 6 4)" = 3 ]
check "6. the markdown summary names solve first" \
	bash -c "grep -A2 -x '| Function | Baseline | Second run | Change | Evidence |' out.$(nth 6 4) | tail -n 1 | grep -q '^| solve | '" ||
	diag "out.$(nth 6 4)"
check "6. and the failed gate" grep -qx '\*\*Regression gate `slowdown`: failed\*\* (1 finding)' "out.$(nth 6 4)"
check "every command ran without a message from the shell" \
	bash -c "! grep -l 'command not found\|No such file' err.* >/dev/null 2>&1"
done_testing
