#!/bin/bash
# Parity under a non-C locale. Upstream gprof 2.40 only calls
# setlocale(LC_CTYPE, "") (LC_MESSAGES is not set up, so nothing is
# translated, and LC_NUMERIC stays "C"). A front end that calls
# setlocale(LC_ALL, "") would print "0,13" for "0.13" under de_DE: these
# cases catch that and any difference in message catalogues.
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

e2e_build_std cmix-O0g-nopie csmall-O0g-pie cxx-O2-nopie

# A German locale compiled into the scratch directory (no root needed).
mkdir -p "$WORKDIR/locale"
if ! localedef -i de_DE -f UTF-8 "$WORKDIR/locale/de_DE.utf8" >"$WORKDIR/localedef.log" 2>&1 &&
   [ ! -e "$WORKDIR/locale/de_DE.utf8/LC_NUMERIC" ]; then
	ok "locale cases # SKIP cannot compile de_DE.UTF-8 with localedef"
	e2e_done
fi

# (WORKDIR is exported; the snippets expand it so test names stay stable.)
# shellcheck disable=SC2016
de='LOCPATH=$WORKDIR/locale LC_ALL=de_DE.UTF-8'
# shellcheck disable=SC2016
deenv='env -u LC_ALL LOCPATH=$WORKDIR/locale'
if [ "$(LOCPATH=$WORKDIR/locale LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.2f' 0.5)" = "0,50" ]; then
	ok "the de_DE.UTF-8 locale is in effect"
else
	not_ok "the de_DE.UTF-8 locale is in effect"
fi
for v in cmix-O0g-nopie csmall-O0g-pie cxx-O2-nopie; do
	for o in "" -b "-b -l" -q "-T -b" -i "-z -p" "-A" "-C" "-s" "-r" "-c -b"; do
		e2e_case "$v" "$de gprof ${o:+$o }prog gmon.out gmon.2"
	done
	e2e_case "$v" "$deenv LANG=de_DE.UTF-8 gprof -b prog gmon.out"
	e2e_case "$v" "$deenv LC_NUMERIC=de_DE.UTF-8 gprof -b prog gmon.out"
	e2e_case "$v" "$deenv LC_MESSAGES=de_DE.UTF-8 gprof -b prog gmon.out"
	e2e_case "$v" "LC_ALL=C.UTF-8 LANGUAGE=de gprof -b prog gmon.out"
done
for c in "-b prog nosuch" "nosuch gmon.out" "-w" "--demangle=bogus" "-R nosuch prog gmon.out" \
	 "-b prog gmon.out ../csmall-O0g-pie/gmon.out" "--de"; do
	e2e_case cmix-O0g-nopie "$de gprof $c"
	e2e_case cmix-O0g-nopie "LC_ALL=C.UTF-8 LANGUAGE=de gprof $c"
done
# an option neither table knows: our message (in English) for upstream's
e2e_case cmix-O0g-nopie "$de gprof --bogus" badopt
e2e_case cmix-O0g-nopie "LC_ALL=C.UTF-8 LANGUAGE=de gprof --bogus" badopt
e2e_case cmix-O0g-nopie "$de gprof --help" help
e2e_case cmix-O0g-nopie "$de gprof -v" version
e2e_case cmix-O0g-nopie "$deenv LANG=de_DE.UTF-8 gprof --bogus" badopt
e2e_case cmix-O0g-nopie "$deenv LANG=de_DE.UTF-8 gprof --help" help

e2e_run_cases
e2e_done
