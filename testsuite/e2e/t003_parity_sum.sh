#!/bin/bash
# Parity of -s (writing gmon.sum) and of reading sums back, of the -O file
# formats (gmon, old BSD, 4.4BSD, prof, unknown) and of reading a profile
# from stdin. gmon.sum is compared byte for byte except its spare header
# bytes 8..19 in the gmon format (uninitialised upstream).
# shellcheck source=lib.sh
. "$SRCDIR/testsuite/e2e/lib.sh"

vs=(cmix-O0g-nopie cmix-O2-pie cxx-O2-nopie cxx-O0g-pie csmall-O0g-pie)
e2e_build_std "${vs[@]}"

# Inputs made once per template: a sum written by the reference gprof, the
# profile in both BSD formats, a profile of another program, and a copy of
# the template where gmon.sum is a directory (so -s cannot write it).
for v in "${vs[@]}"; do
	p="$WORKDIR/p/$v"
	(cd "$p" && "$SYSGPROF" -s prog gmon.out gmon.2 && mv gmon.sum gmon.fixsum) ||
		{ not_ok "make gmon.fixsum for $v"; e2e_done; }
	e2e_gmon_to_bsd "$p/gmon.out" "$p/gmon.bsd44"
	e2e_gmon_to_bsd "$p/gmon.2" "$p/gmon.bsd44.2"
	e2e_gmon_to_bsd "$p/gmon.out" "$p/gmon.oldbsd" old
	e2e_gmon_to_bsd "$p/gmon.2" "$p/gmon.oldbsd.2" old
done
cp "$WORKDIR/p/csmall-O0g-pie/gmon.out" "$WORKDIR/p/cmix-O0g-nopie/gmon.foreign"
cp "$WORKDIR/p/cmix-O2-pie/gmon.out" "$WORKDIR/p/cxx-O2-nopie/gmon.foreign"
e2e_template_copy cmix-O0g-nopie sumdir
mkdir "$WORKDIR/p/sumdir/gmon.sum"

for v in "${vs[@]}"; do
	# writing
	for o in "" -b -p -q -i -c -z -l -a -T -x "-b -Pspin" "-b -qmain" -r; do
		e2e_case "$v" "gprof -s ${o:+$o }prog gmon.out gmon.2"
	done
	e2e_case "$v" "gprof -s prog gmon.out"
	e2e_case "$v" "gprof --sum prog gmon.out gmon.2 gmon.3"
	e2e_case "$v" "gprof -s -b prog gmon.3 gmon.2 gmon.out"
	e2e_case "$v" "gprof -s prog - <gmon.out"
	e2e_case "$v" "gprof -b prog - <gmon.2"
	e2e_case "$v" "gprof -b prog gmon.out - <gmon.2"
	# writing, then reading back what this gprof wrote
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 && gprof -b prog gmon.sum"
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 && gprof -i prog gmon.sum"
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 && gprof -b -l prog gmon.sum gmon.3"
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 && gprof -q -z prog gmon.sum"
	e2e_case "$v" "gprof -s prog gmon.out && gprof -s prog gmon.sum gmon.2 && gprof -s prog gmon.sum gmon.3 && gprof -b prog gmon.sum"
	e2e_case "$v" "gprof -s prog gmon.out gmon.2 && gprof -s prog gmon.sum gmon.sum && gprof -b -p prog gmon.sum"
	# reading a sum written by the reference
	e2e_case "$v" "gprof -b prog gmon.fixsum"
	e2e_case "$v" "gprof -i prog gmon.fixsum gmon.3"
	e2e_case "$v" "gprof -s prog gmon.fixsum gmon.3"
	e2e_case "$v" "gprof -b prog gmon.fixsum gmon.fixsum"
	e2e_case "$v" "gprof -b -q prog gmon.out gmon.fixsum"
	e2e_case "$v" "gprof -l -b prog gmon.fixsum"
	# file formats
	for o in "" -Oa -Ob -O4 -Om -Op -Ox --file-format=bsd --file-format=4.4bsd --file-format=magic; do
		e2e_case "$v" "gprof -b ${o:+$o }prog gmon.bsd44"
		e2e_case "$v" "gprof -b ${o:+$o }prog gmon.oldbsd"
	done
	e2e_case "$v" "gprof -b -Om prog gmon.out"
	e2e_case "$v" "gprof -b -Oa prog gmon.out gmon.2"
	e2e_case "$v" "gprof -b -Op prog gmon.out"
	e2e_case "$v" "gprof -b prog gmon.bsd44 gmon.bsd44.2"
	e2e_case "$v" "gprof -b prog gmon.oldbsd gmon.oldbsd.2"
	e2e_case "$v" "gprof -i prog gmon.bsd44 gmon.oldbsd"
	e2e_case "$v" "gprof -b prog gmon.out gmon.bsd44"
	e2e_case "$v" "gprof -b prog gmon.bsd44 gmon.out"
	e2e_case "$v" "gprof -O4 -b prog gmon.bsd44 gmon.oldbsd"
	# BSD sums: the header has no uninitialised bytes, compared whole
	for o in -Ob -O4; do
		e2e_case "$v" "gprof $o -s prog gmon.bsd44 gmon.bsd44.2"
		e2e_case "$v" "gprof -s $o prog gmon.oldbsd gmon.oldbsd.2 && gprof -b prog gmon.sum"
		e2e_case "$v" "gprof $o -s -q prog gmon.bsd44 && gprof -i -p prog gmon.sum"
	done
	e2e_case "$v" "gprof -Ob -s prog gmon.oldbsd && gprof -O4 -b prog gmon.sum"
	e2e_case "$v" "gprof -O4 -s prog gmon.bsd44 && gprof -Ob -b prog gmon.sum"
	e2e_case "$v" "gprof -Om -s prog gmon.out && gprof -Om -b prog gmon.sum"
done

# Sums that cannot be made.
e2e_case sumdir "gprof -s prog gmon.out"
e2e_case sumdir "gprof -s -b prog gmon.out gmon.2"
e2e_case cmix-O0g-nopie "gprof -s prog gmon.out gmon.foreign" foreign
e2e_case cmix-O0g-nopie "gprof -s prog gmon.foreign" foreign
e2e_case cmix-O0g-nopie "gprof -b prog gmon.foreign gmon.out" foreign
e2e_case cxx-O2-nopie "gprof -s prog gmon.out gmon.foreign" foreign
e2e_case cxx-O2-nopie "gprof -b prog gmon.foreign" foreign
e2e_case cmix-O0g-nopie "gprof -s prog nosuch"
e2e_case cmix-O0g-nopie "gprof -s prog gmon.out nosuch"
e2e_case cmix-O0g-nopie "gprof -s -Op prog gmon.out"
e2e_case cmix-O0g-nopie "gprof -s prog gmon.out gmon.bsd44"

e2e_run_cases
e2e_done
