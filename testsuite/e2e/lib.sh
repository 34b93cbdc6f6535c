# lib.sh - helpers shared by the end-to-end scripts (source it, don't run it).
#
# Environment (set by testsuite/run): EGPROF (our gprof), SYSGPROF (Debian's
# /usr/bin/gprof), SRCDIR (repo top), BUILDDIR, WORKDIR (fresh scratch dir).
#
# Calling sequence of a parity script:
#
#   . "$SRCDIR/testsuite/e2e/lib.sh"
#   e2e_build_std cmix-O0g-nopie cxx-O2-nopie    # build, run; stop if one fails
#   (or e2e_build ID ... & for other flags; wait; e2e_check_builds ID...)
#   e2e_case cmix-O0g-nopie 'gprof -b prog gmon.out'   # queue cases
#   e2e_run_cases                                      # run them, print TAP
#   e2e_done                                           # plan line, exit status
#
# Set E2E_KEEP=1 to keep the directories of passing cases ($WORKDIR/c/N/),
# E2E_JOBS to change the number of cases run at once (default 2) and
# E2E_TIMEOUT the seconds a side may take (default 10; scripts on big
# programs raise it, as the reference gprof is slow there).
#
# A case is a bash snippet run twice: once with `gprof` on PATH meaning
# $EGPROF, once meaning $SYSGPROF. Both runs get argv[0] = "gprof" (bash runs
# a PATH command under the name it was typed as), so stderr needs no editing.
# Each run starts in a directory of its own holding symlinks to the files of
# a program's directory ("template"), so files a run writes (gmon.sum, *-ann)
# are compared too and the runs cannot see each other. Snippets must only
# create new files, never write to a template's files; e2e_run_cases checks
# afterwards that the templates are unchanged. The comparison covers stdout,
# stderr, the exit status and every file in the directory afterwards; in
# gmon.sum, bytes 8..19 (the spare header bytes upstream leaves
# uninitialised) are zeroed first.
#
# Template layout, $WORKDIR/p/<id>/ (see e2e_build):
#   prog         the program, built with -pg
#   gmon.out     profile of `prog 2`;  gmon.2: `prog 1`;  gmon.3: `prog 3`
#                (gmon.3 is written through GMON_OUT_PREFIX)
#   mapfile      `nm -A --extern-only --defined-only` of the objects (for -R)
#   syms.nm      `nm prog` (for -S)
#   sources      copied from testsuite/corpus/<dir>/, compiled from here
# The template "empty" is an empty directory.

set -u

: "${EGPROF:?EGPROF must name our gprof}"
: "${SYSGPROF:?SYSGPROF must name /usr/bin/gprof}"
: "${SRCDIR:?SRCDIR must name the repository top}"
: "${WORKDIR:?WORKDIR must name a scratch directory}"

# Workers change directory: make every path absolute first.
e2e__abs() {
	case $1 in
	/*) echo "$1" ;;
	*/*) echo "$PWD/$1" ;;
	*) command -v "$1" ;;
	esac
}
WORKDIR=$(cd "$WORKDIR" && pwd) || exit 1
SRCDIR=$(cd "$SRCDIR" && pwd) || exit 1
EGPROF=$(e2e__abs "$EGPROF")
SYSGPROF=$(e2e__abs "$SYSGPROF")
for f in "$EGPROF" "$SYSGPROF"; do
	[ -x "$f" ] || { printf 'not ok 1 - %s is an executable gprof\n1..1\n' "$f"; exit 1; }
done
CORPUS="$SRCDIR/testsuite/corpus"
E2E_LIB="$SRCDIR/testsuite/e2e/lib.sh"

# Translations and search paths must not leak in from the caller; scripts
# that test them set them per case.
export LC_ALL=C
unset LANGUAGE LANG GPROF_PATH LOCPATH
export WORKDIR EGPROF SYSGPROF SRCDIR E2E_LIB

E2E_N=0
E2E_FAILED=0

# --- TAP -------------------------------------------------------------------

ok() {
	E2E_N=$((E2E_N + 1))
	echo "ok $E2E_N - $*"
}

not_ok() {
	E2E_N=$((E2E_N + 1))
	E2E_FAILED=$((E2E_FAILED + 1))
	echo "not ok $E2E_N - $*"
}

# Print stdin as TAP comments, at most 20 lines.
diag() {
	head -n 20 | sed 's/^/# /'
}

e2e_done() {
	[ "$E2E_N" -gt 0 ] || not_ok "the script ran no test"
	echo "1..$E2E_N"
	[ "$E2E_FAILED" -eq 0 ]
	exit
}

# --- building and running corpus programs ----------------------------------

# e2e_build ID DIR LANG CFLAGS LDFLAGS
#   Build testsuite/corpus/DIR with -pg into template $WORKDIR/p/ID and run it
#   to produce gmon.out, gmon.2 and gmon.3. LANG is cc, c++, clang or
#   clang++. Sources are compiled by relative name from inside the template
#   directory, so the debug info names $WORKDIR/p/ID as compilation
#   directory; add -fdebug-prefix-map=@P@=. to CFLAGS to get relative names
#   instead (@P@ is replaced by the template path). Prints nothing; the log
#   is $WORKDIR/p/ID.log and success leaves $WORKDIR/p/ID.ok.
# shellcheck disable=SC2086 # the flag lists are word-split on purpose
e2e_build() (
	local id=$1 dir=$2 lang=$3 cflags=$4 ldflags=$5
	local p="$WORKDIR/p/$id" o="$WORKDIR/o/$id" f objs=() cc=gcc
	case $lang in
	c++) cc=g++ ;;
	clang) cc=clang ;;
	clang++) cc=clang++ ;;
	esac
	cflags=${cflags//@P@/$p}
	rm -f "$p.ok"
	mkdir -p "$p" "$o"
	{
		cp "$CORPUS/$dir"/* "$p/" &&
		cd "$p" &&
		for f in *.c *.cc; do
			[ -e "$f" ] || continue
			$cc -pg $cflags -c "$f" -o "$o/${f%.*}.o" || exit 1
			objs+=("$o/${f%.*}.o")
		done &&
		$cc -pg $ldflags "${objs[@]}" -o prog &&
		(cd "$o" && nm -A --extern-only --defined-only -- *.o) >mapfile &&
		nm prog >syms.nm &&
		./prog 1 >/dev/null && mv gmon.out gmon.2 &&
		GMON_OUT_PREFIX=gmon.pfx ./prog 3 >/dev/null && mv gmon.pfx.* gmon.3 &&
		./prog 2 >/dev/null &&
		[ -s gmon.out ] && [ -s gmon.2 ] && [ -s gmon.3 ] &&
		touch "$p.ok"
	} >"$p.log" 2>&1
)

# e2e_check_builds ID...: stop the script, failing, unless all were built.
e2e_check_builds() {
	local id bad=0
	for id in "$@"; do
		if [ ! -e "$WORKDIR/p/$id.ok" ]; then
			not_ok "build and run corpus program $id"
			diag <"$WORKDIR/p/$id.log"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ] || e2e_done
}

# The standard corpus variants: C and C++, -O0 and -O2, PIE and not, with
# and without -g. csmall-rel has relative source names in its debug info
# (compiled with -fdebug-prefix-map), so annotation must search for them.
# shellcheck disable=SC2034 # used by the scripts
E2E_STD_VARIANTS="cmix-O0g-nopie cmix-O2-pie cmix-O2g-nopie cmix-O0-pie
	cxx-O0g-pie cxx-O2-nopie cxx-O2g-pie csmall-O0g-pie csmall-rel"

# Programs built by clang, whose DWARF differs from GCC's, when clang is
# installed.
# shellcheck disable=SC2034 # used by the scripts
E2E_CLANG_VARIANTS=
if command -v clang >/dev/null && command -v clang++ >/dev/null; then
	# shellcheck disable=SC2034
	E2E_CLANG_VARIANTS="cmix-clang-O2g cxx-clang-O0g"
fi

# e2e_build_std ID...: build standard variants in parallel; if one fails,
# report it and stop the script.
e2e_build_std() {
	local id
	for id in "$@"; do
		case $id in
		cmix-O0g-nopie) e2e_build "$id" cmix cc "-O0 -g -fno-pie" "-no-pie" & ;;
		cmix-O2-pie)    e2e_build "$id" cmix cc "-O2 -fpie" "-pie" & ;;
		cmix-O2g-nopie) e2e_build "$id" cmix cc "-O2 -g -fno-pie" "-no-pie" & ;;
		cmix-O0-pie)    e2e_build "$id" cmix cc "-O0 -fpie" "-pie" & ;;
		cxx-O0g-pie)    e2e_build "$id" cxxmix c++ "-O0 -g -fpie" "-pie" & ;;
		cxx-O2-nopie)   e2e_build "$id" cxxmix c++ "-O2 -fno-pie" "-no-pie" & ;;
		cxx-O2g-pie)    e2e_build "$id" cxxmix c++ "-O2 -g -fpie" "-pie" & ;;
		csmall-O0g-pie) e2e_build "$id" csmall cc "-O0 -g -fpie" "-pie" & ;;
		csmall-rel)     e2e_build "$id" csmall cc "-O0 -g -fdebug-prefix-map=@P@=." "" & ;;
		cmix-clang-O2g) e2e_build "$id" cmix clang "-O2 -g" "" & ;;
		cxx-clang-O0g)  e2e_build "$id" cxxmix clang++ "-O0 -g" "" & ;;
		*) not_ok "e2e_build_std: unknown variant $id"; e2e_done ;;
		esac
	done
	wait
	e2e_check_builds "$@"
}

# e2e_template_copy FROM TO: a new template starting as a copy of FROM.
e2e_template_copy() {
	rm -rf "$WORKDIR/p/$2"
	cp -a "$WORKDIR/p/$1" "$WORKDIR/p/$2"
}

# e2e_line FILE TAG: the line number of the "LINE:TAG" marker in a corpus
# source file (for file:line symbol specs).
e2e_line() {
	grep -n "LINE:$2 " "$CORPUS/$1" | cut -d: -f1
}

# le64 V / le32 V: write V as a little-endian 64-bit / 32-bit integer.
le64() { le__bytes "$1" 8; }
le32() { le__bytes "$1" 4; }
le__bytes() {
	local v=$1 i s=
	for ((i = 0; i < $2; i++)); do
		s+=$(printf '\\x%02x' $(((v >> (8 * i)) & 255)))
	done
	printf '%b' "$s"
}

# e2e_bad_gmons ID: add broken profiles derived from ID's gmon.out to its
# template: empty, truncated at several points, bad version, bad record tag,
# short text, and BSD-format headers that are inconsistent.
# (Long text or zero-filled files make upstream allocate gigabytes: BSD
# headers read from them claim huge histograms. Not useful here.)
e2e_bad_gmons() {
	local p="$WORKDIR/p/$1" size
	size=$(stat -c %s "$p/gmon.out")
	: >"$p/gmon.empty"
	head -c 3 "$p/gmon.out" >"$p/gmon.t3"
	head -c 19 "$p/gmon.out" >"$p/gmon.t19"
	head -c 21 "$p/gmon.out" >"$p/gmon.t21"
	head -c 40 "$p/gmon.out" >"$p/gmon.t40"
	head -c $((size / 2)) "$p/gmon.out" >"$p/gmon.half"
	head -c $((size - 1)) "$p/gmon.out" >"$p/gmon.short1"
	cp "$p/gmon.out" "$p/gmon.badver"
	printf '\x07' | dd of="$p/gmon.badver" bs=1 seek=4 conv=notrunc status=none
	cp "$p/gmon.out" "$p/gmon.badtag"
	printf '\x09' | dd of="$p/gmon.badtag" bs=1 seek=20 conv=notrunc status=none
	printf 'not a gmon file\n' >"$p/gmon.text"
	# 4.4BSD headers (low pc, high pc, byte count, version, profrate, spare[3]):
	# low pc above high pc; more bins than the file holds.
	{ le64 8192; le64 4096; le32 40; le32 0x00051879; le32 100; head -c 12 /dev/zero; } \
		>"$p/gmon.bsdlohi"
	{ le64 4096; le64 8192; le32 100000; le32 0x00051879; le32 100; head -c 52 /dev/zero; } \
		>"$p/gmon.bsdbig"
	# old BSD header (low pc, high pc, byte count) with a short histogram
	{ le64 4096; le64 8192; le32 100; head -c 30 /dev/zero; } >"$p/gmon.oldbsd"
}

# e2e_gmon_to_bsd IN OUT [old]: rewrite a gmon.out written by glibc (one
# histogram record, then call-graph records) in the 4.4BSD format, or with
# "old" in the old BSD format, so the -Ob/-O4 readers get valid input.
e2e_gmon_to_bsd() {
	local in=$1 out=$2 nbins rate hex
	read -r nbins rate < <(od -An -tu4 -j37 -N8 "$in")
	{
		dd if="$in" bs=1 skip=21 count=16 status=none	# low pc, high pc
		if [ "${3:-}" = old ]; then
			le32 $((20 + 2 * nbins))
		else
			le32 $((40 + 2 * nbins)); le32 0x00051879; le32 "$rate"
			head -c 12 /dev/zero
		fi
		tail -c +62 "$in" | head -c $((2 * nbins))	# the bins
		# arcs: tag(1) from(8) self(8) count(4) -> from(8) self(8) count(8)
		tail -c +$((62 + 2 * nbins)) "$in" | od -An -v -tx1 -w21 |
		while read -r -a hex; do
			[ "${hex[0]}" = 01 ] || continue
			printf '%b' "$(printf '\\x%s' "${hex[@]:1:20}" 00 00 00 00)"
		done
	} >"$out"
}

# --- cases -----------------------------------------------------------------

E2E_CASES="$WORKDIR/cases.list"

# e2e_case TEMPLATE SNIPPET [MODE]
#   Queue a case. MODE is
#     exact    (default) stdout, stderr, status and files all identical;
#     version  like exact, but only the first 3 lines of stdout must match and
#              ours may print one more line (it names egprof);
#     help     upstream's stdout must be a prefix of ours (ours appends a
#              section about its own options); rest exact;
#     foreign  a gmon file does not belong to the program: ours' stderr
#              starts with exactly one warning that says so (removed before
#              the comparison); rest exact;
#     badopt   an option neither table knows: ours' stderr is one line
#              naming it ("unknown option '--x'", with the nearest names, or
#              "ambiguous") instead of upstream's usage; stdout, status and
#              files exact.
e2e_case() {
	local tpl=$1 snip=$2 mode=${3:-exact}
	case $snip in *$'\n'*) echo "e2e_case: snippet has a newline: $snip" >&2; exit 2 ;; esac
	printf '%s\0%s\0%s\0' "$tpl" "$mode" "$snip" >>"$E2E_CASES"
}

# Run one side of a case in $d/SIDE: e2e__side SIDE TEMPLATE SNIPPET
# leaves out, err, rc and the directory run/ the snippet ran in.
e2e__side() {
	local side=$1 tpl=$2 snip=$3 s="$d/$1" magic size
	shopt -s dotglob	# templates may hold .debug/
	[ "$tpl" = empty ] || ln -s "$WORKDIR/p/$tpl"/* "$s/run/"
	shopt -u dotglob
	# The subshell keeps bash's "Segmentation fault" notices (upstream
	# crashes on some inputs) out of the test output; the status keeps them.
	(cd "$s/run" &&
	 PATH="$WORKDIR/bin.$side:$PATH" timeout "${E2E_TIMEOUT:-10}" "$BASH" -c "$snip" \
		</dev/null >"$s/out" 2>"$s/err"
	 echo $? >"$s/rc") 2>/dev/null
	# Upstream leaves the spare bytes 8..19 of a gmon.sum header
	# uninitialised. Only the "gmon" format has them: BSD-format sums
	# (-Ob/-O4) are compared whole.
	if [ -f "$s/run/gmon.sum" ]; then
		read -r -N 4 magic <"$s/run/gmon.sum"
		size=$(stat -c %s "$s/run/gmon.sum")
		if [ "$magic" = gmon ] && [ "$size" -ge 20 ]; then
			head -c 12 /dev/zero |
				dd of="$s/run/gmon.sum" bs=1 seek=8 conv=notrunc status=none
		fi
	fi
}

# Explain why the two sides of a case differ (runs only on failure).
e2e__explain() {
	local f
	cmp -s sys/out ours/out ||
		diff -u --label sys.stdout --label ours.stdout sys/out ours/out | head -n 12
	cmp -s sys/err ours/err ||
		diff -u --label sys.stderr --label ours.stderr sys/err ours/err | head -n 8
	cmp -s sys/rc ours/rc ||
		echo "exit status: sys $(cat sys/rc), ours $(cat ours/rc)"
	diff -rq sys/run ours/run 2>&1 | head -n 4
	# shellcheck disable=SC2013 # names of files written by gprof: no blanks
	for f in $(diff -rq sys/run ours/run 2>/dev/null |
		   sed -n 's/^Files sys\/run\/\(.*\) and .* differ$/\1/p' | head -n 2); do
		cmp -l "sys/run/$f" "ours/run/$f" 2>&1 | head -n 3 | sed "s|^|$f: |"
	done
}

# e2e__run_one N TEMPLATE MODE SNIPPET: run case N on both sides, compare,
# and write "ok" or "not ok" plus diagnostics to $WORKDIR/c/N/result.
# Upstream code paths whose output depends on the memory allocator, which
# ASan replaces: -R (its file order comes out differently with upstream's own
# gprof linked with libasan).  The plain build compares it byte for byte; the
# sanitizer build skips it.  (-c was skipped too until the adapter gave
# upstream's text buffer and symbol table the slack -c reads: t631.)
e2e__allocator_dependent() {
	local w
	[ "${E2E_ASAN:-}" = yes ] || return 1
	for w in $1; do
		case $w in -R|-R*|--file-ordering*) return 0 ;; esac
	done
	return 1
}

e2e__run_one() {
	local n=$1 tpl=$2 mode=$3 snip=$4
	local d="$WORKDIR/c/$n" why=
	mkdir -p "$d/ours/run" "$d/sys/run"
	if e2e__allocator_dependent "$snip"; then
		echo skip >"$d/result"
		return
	fi
	e2e__side ours "$tpl" "$snip"
	e2e__side sys "$tpl" "$snip"
	cd "$d" || return
	# A case where the reference hangs proves nothing and costs 10 s.
	[ "$(cat sys/rc)" = 124 ] && why="the reference gprof timed out"
	case $mode in
	version)
		# ours may add one line naming egprof after upstream's three
		[ "$(wc -l <ours/out)" -le 4 ] || why="ours prints more than 4 lines"
		if [ "$(wc -l <ours/out)" -eq 4 ] && ! sed -n 4p ours/out | grep -q egprof; then
			why="the 4th line of ours does not name egprof"
		fi
		mv sys/out sys.out.full
		mv ours/out ours.out.full
		head -n 3 sys.out.full >sys/out
		head -n 3 ours.out.full >ours/out ;;
	help)
		# ours appends a section about its own options to upstream's help
		mv ours/out ours.out.full
		head -c "$(stat -c %s sys/out)" ours.out.full >ours/out ;;
	foreign)
		# one warning line, then upstream's stderr as it is
		if head -n 1 ours/err | grep -Eq "^gprof: warning: .*: does not belong to '.*': .*; the profile below is probably wrong \(a gmon file of another program or build\)\$"; then
			mv ours/err ours.err.full
			tail -n +2 ours.err.full >ours/err
		else
			why="ours does not start its stderr with the warning that the gmon file does not belong"
		fi ;;
	badopt)
		# our one line instead of upstream's message and usage
		if [ "$(wc -l <ours/err)" = 1 ] &&
		   grep -Eq "^gprof: (unknown option '--[^']*'|option '--[^']*' is ambiguous: )" ours/err; then
			mv ours/err ours.err.full
			mv sys/err sys.err.full
			: >ours/err
			: >sys/err
		else
			why="ours' stderr is not one line naming the unknown option"
		fi ;;
	esac
	if [ -z "$why" ] && diff -r sys ours >/dev/null 2>&1; then
		echo ok >result
		[ -n "${E2E_KEEP:-}" ] || rm -rf ours sys ./*.full
	else
		{ echo "not ok"; echo "$why"; e2e__explain; } >result 2>&1
	fi
	cd "$WORKDIR" || return
}

# Worker: e2e__run_many N TPL MODE SNIPPET [N TPL MODE SNIPPET]...
e2e__run_many() {
	while [ $# -ge 4 ]; do
		e2e__run_one "$1" "$2" "$3" "$4"
		shift 4
	done
}

# Run every queued case, two at a time, then print one TAP line per case.
e2e_run_cases() {
	local side bin tpl mode snip n=0 first
	E2E_ASAN=no
	nm "$EGPROF" 2>/dev/null | grep -q __asan_init && E2E_ASAN=yes
	export E2E_ASAN
	for side in ours sys; do
		bin=$EGPROF
		[ "$side" = sys ] && bin=$SYSGPROF
		mkdir -p "$WORKDIR/bin.$side"
		ln -sf "$bin" "$WORKDIR/bin.$side/gprof"
	done
	[ -s "$E2E_CASES" ] || { not_ok "no cases queued"; return; }
	# Number the cases: feed "N TPL MODE SNIPPET" quadruples to the workers.
	while IFS= read -r -d '' tpl && IFS= read -r -d '' mode && IFS= read -r -d '' snip; do
		n=$((n + 1))
		printf '%s\0%s\0%s\0%s\0' "$n" "$tpl" "$mode" "$snip"
	done <"$E2E_CASES" >"$E2E_CASES.numbered"
	[ -s "$E2E_CASES.numbered" ] || { not_ok "cannot number the cases"; return; }
	e2e__template_sums >"$WORKDIR/templates.before"
	# shellcheck disable=SC2016 # expanded by the worker shell
	xargs -0 -n 32 -P "${E2E_JOBS:-2}" bash -c '. "$E2E_LIB"; e2e__run_many "$@"' e2e \
		<"$E2E_CASES.numbered"
	e2e__template_sums >"$WORKDIR/templates.after"
	while IFS= read -r -d '' n && IFS= read -r -d '' tpl &&
	      IFS= read -r -d '' mode && IFS= read -r -d '' snip; do
		snip=${snip//#/\\#}	# a bare # would start a TAP directive
		first=
		[ -e "$WORKDIR/c/$n/result" ] && read -r first <"$WORKDIR/c/$n/result"
		if [ "$first" = ok ]; then
			ok "$tpl: $snip"
		elif [ "$first" = skip ]; then
			ok "$tpl: $snip # SKIP allocator-dependent upstream path under ASan"
		else
			not_ok "$tpl: $snip"
			tail -n +2 "$WORKDIR/c/$n/result" 2>/dev/null | grep -v '^$' | diag
		fi
	done <"$E2E_CASES.numbered"
	if cmp -s "$WORKDIR/templates.before" "$WORKDIR/templates.after"; then
		ok "no case wrote to its input files"
	else
		not_ok "no case wrote to its input files"
		diff "$WORKDIR/templates.before" "$WORKDIR/templates.after" | diag
	fi
	: >"$E2E_CASES"
}

# Checksums of every template file, to catch a gprof writing to its inputs.
e2e__template_sums() {
	[ -d "$WORKDIR/p" ] || return 0
	(cd "$WORKDIR/p" && find . -type f -print0 | sort -z | xargs -0 -r md5sum)
}

# --- MPI (testsuite/e2e/t3NN_mpi_*) -----------------------------------------

# e2e_mpi_setup: MPIRUN=(mpirun ...) as this machine needs it (root,
# more ranks than CPUs, containers without cross-memory attach); returns 1
# when mpirun is not installed.
e2e_mpi_setup() {
	command -v mpirun >/dev/null || return 1
	MPIRUN=(mpirun --oversubscribe)
	[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
	export OMPI_MCA_btl_vader_single_copy_mechanism=none
	return 0
}

# e2e_relax_halo: build testsuite/mpi/relax_halo.c with -pg as ./prog and
# run it once (./gmon.out); 1 on failure (log in build.log).
e2e_relax_halo() {
	gcc -pg -O1 -o prog "$SRCDIR/testsuite/mpi/relax_halo.c" >build.log 2>&1 &&
		./prog >>build.log 2>&1 && [ -s gmon.out ]
}
