#!/usr/bin/env bash
# egprof(1) has EXIT STATUS, ENVIRONMENT (every variable the runtime
# reads), FILES, EXAMPLES and a SEE ALSO naming the installed pages; `make
# install` puts doc/ in docdir and `make uninstall` takes it away (issue 13
# item 12).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
MAN="$SRCDIR/doc/egprof.1"

for sec in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
	check "egprof(1) has $sec" grep -q "^\.SH $sec\$" "$MAN"
done
check "groff formats egprof(1) without a warning" \
	bash -c "groff -man -ww -Tutf8 '$MAN' 2>&1 >/dev/null | (! grep -q .)"
# every environment variable the runtime reads, by the source's own getenv calls
vars=$(grep -ho 'getenv("[A-Z_]*")\|env_u32("[A-Z_]*"\|"[A-Z_]*_RANK"\|"SLURM_PROCID"' \
	"$SRCDIR"/runtime/*.c | grep -o '[A-Z][A-Z_]*' | sort -u)
check "the runtime reads CALLPATH_* and GMON_OUT_PREFIX" \
	bash -c "echo '$vars' | grep -q CALLPATH_DEPTH && echo '$vars' | grep -q GMON_OUT_PREFIX"
for v in $vars; do
	check "ENVIRONMENT names $v" bash -c "sed -n '/^\.SH ENVIRONMENT/,/^\.SH FILES/p' '$MAN' | grep -q '$v'"
done

inst="$WORKDIR/inst"
make -s -C "$BUILDDIR" install DESTDIR="$inst" prefix=/opt/eg bindir=/opt/eg/bin \
	mandir=/opt/eg/man docdir=/opt/eg/doc >install.log 2>&1; rc=$?
check "make install succeeds" [ $rc = 0 ]
for page in quickstart.md diff.md graphs.md formats.md callpath.md callpath-report.md mpi.md README.md; do
	check "docdir has $page" [ -f "$inst/opt/eg/doc/$page" ]
	check "SEE ALSO names $page" bash -c "sed -n '/^\.SH SEE ALSO/,\$p' '$MAN' | grep -q '$page'"
done
check "docdir has the pictures the pages show" [ -f "$inst/opt/eg/doc/fig1-diff.png" ]
check "doc/dev/ (for developers) is not installed" \
	bash -c "[ ! -e '$inst/opt/eg/doc/HACKING.md' ] && [ ! -e '$inst/opt/eg/doc/dev' ] &&
		 [ ! -e '$inst/opt/eg/doc/sidecar-format.md' ]"
make -s -C "$BUILDDIR" uninstall DESTDIR="$inst" prefix=/opt/eg bindir=/opt/eg/bin \
	mandir=/opt/eg/man docdir=/opt/eg/doc >uninstall.log 2>&1; rc=$?
check "make uninstall succeeds" [ $rc = 0 ]
check "make uninstall removes docdir" [ ! -e "$inst/opt/eg/doc" ]
check "make uninstall leaves no file" [ -z "$(find "$inst" -type f)" ]
(cd "$WORKDIR" && mkdir -p cfg && cd cfg && "$SRCDIR/configure" --docdir=/srv/d >/dev/null 2>&1)
check "configure --docdir reaches the Makefile" grep -q '^docdir = /srv/d$' cfg/Makefile
done_testing
