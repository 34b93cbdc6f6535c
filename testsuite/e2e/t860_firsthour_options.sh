#!/usr/bin/env bash
# Our long options as upstream's are: abbreviations work when unambiguous
# (--extend, --rank), a name upstream knows keeps its meaning (--gr is
# --graph, --bri --brief), an ambiguous one names its candidates, an
# unknown one gets "did you mean" in one line instead of upstream's 20-line
# usage (which does not list ours).  --help stays within 80 columns, with
# examples and the installed documentation's folder.  --list-options lists
# both tables, the words each argument may be are accepted, and the bash
# completion generated from it completes them.
. "$SRCDIR/testsuite/e2e/firsthour_lib.sh"

build_app a
(cd a && ./app >/dev/null) || bail "cannot run a/app"
G=$EGPROF

# --- abbreviations of ours ------------------------------------------------
"$G" -b --extended --diff a/app a/gmon.out a/gmon.out >full.txt 2>&1
"$G" -b --extend --diff a/app a/gmon.out a/gmon.out >abbr.txt 2>&1; rc=$?
check "--extend is --extended" bash -c "[ $rc = 0 ] && cmp -s full.txt abbr.txt && grep -q '+self' abbr.txt"
"$G" --rank-stats a/app a/gmon.out >full.txt 2>&1
"$G" --rank a/app a/gmon.out >abbr.txt 2>&1; rc=$?
check "--rank is --rank-stats" bash -c "[ $rc = 0 ] && cmp -s full.txt abbr.txt"
"$G" -b a/app a/gmon.out --gm=x.gml >/dev/null 2>&1; rc=$?
check "--gm=FILE is --gml FILE" bash -c "[ $rc = 0 ] && grep -q '^graph' x.gml"
"$G" -b a/app a/gmon.out --pp y.pb.gz >/dev/null 2>&1; rc=$?
check "--pp FILE (a separate argument) is --pprof FILE" bash -c "[ $rc = 0 ] && gzip -t y.pb.gz"

# --- upstream's abbreviations keep their meaning ------------------------------
for o in --bri --gr --fl --dem --ex --no-d; do
	(exec -a gprof "$G" -b $o a/app a/gmon.out) >ours.txt 2>&1; ra=$?
	(exec -a gprof "$SYSGPROF" -b $o a/app a/gmon.out) >sys.txt 2>&1; rb=$?
	check "$o means what it means to GNU gprof" bash -c "[ $ra = $rb ] && cmp -s ours.txt sys.txt"
done

# --- ambiguous and unknown: one line that says what to do --------------------
err_case() { # NAME EXPECTED-REGEX ARGS...
	local name=$1 re=$2
	shift 2
	"$G" "$@" >out.txt 2>err.txt
	local rc=$?
	check "$name: exit 1, nothing on stdout, one line on stderr" \
		bash -c "[ $rc = 1 ] && [ ! -s out.txt ] && [ \$(wc -l <err.txt) = 1 ]"
	check "$name: the line names the problem and the fix" grep -Eq -- "$re" err.txt || diag err.txt
}
err_case "--fold" "option '--fold' is ambiguous: '--folded' or '--folded-calls'\\?$" \
	-b --fold x a/app a/gmon.out
err_case "--foldd" "unknown option '--foldd'; did you mean '--folded'\\? \\('.*gprof --help' lists the options\\)$" \
	-b --foldd x a/app a/gmon.out
err_case "--fail-onn" "unknown option '--fail-onn'; did you mean '--fail-on'\\?" \
	--diff --fail-onn=slowdown a/app a/gmon.out a/gmon.out
err_case "--brieff (upstream's --brief)" "unknown option '--brieff'; did you mean '--brief'\\?" \
	--brieff a/app a/gmon.out
err_case "--bogus" "unknown option '--bogus' \\('.*gprof --help' lists the options\\)$" --bogus
err_case "--fo" "option '--fo' is ambiguous: '--focus', '--folded', '--folded-calls', '--follow', '--force' or '--format'\\?" --fo
"$SYSGPROF" --foldd a/app a/gmon.out >/dev/null 2>sys.err
check "(GNU gprof's own answer is its usage, $(wc -l <sys.err) lines)" [ "$(wc -l <sys.err)" -gt 10 ]

# --- --help -------------------------------------------------------------------
(exec -a gprof "$G" --help) >help.txt 2>&1; rc=$?
check "--help exits 0" [ $rc = 0 ]
check "--help is within 80 columns" bash -c "! awk 'length > 80 { print; bad = 1 } END { exit !bad }' help.txt"
check "--help has examples" bash -c "grep -q '^Examples:' help.txt && grep -q -- '--diff --fail-on' help.txt"
check "--help names the documentation and the exit statuses" \
	bash -c "grep -q '^Documentation: .*egprof (quickstart.md first)' help.txt && grep -q '3 when --fail-on fails' help.txt"
inst="$WORKDIR/inst"
make -s -C "$BUILDDIR" install prefix="$inst" bindir="$inst/bin" libdir="$inst/lib" \
	mandir="$inst/man" datarootdir="$inst/share" docdir="$inst/share/doc/egprof" \
	>install.log 2>&1 || { diag install.log; bail "make install failed"; }
"$inst/bin/gprof" --help >ihelp.txt 2>&1
check "the installed gprof's --help names the installed doc folder" \
	grep -q "^Documentation: $inst/share/doc/egprof (quickstart.md first)" ihelp.txt
check "... which holds quickstart.md" [ -f "$inst/share/doc/egprof/quickstart.md" ]

# --- --list-options and completion --------------------------------------------
"$G" --list-options >list.txt; rc=$?
check "--list-options exits 0" [ $rc = 0 ]
ours=$(sed -n '/^egprof .* extensions:$/,$p' help.txt | grep -o '^  --[a-z-]*' | sed 's/^  //')
missing=$(for o in $ours; do grep -q -- "^$o\\([=[ ]\\|$\\)" list.txt || echo "$o"; done)
check "--list-options has every option of --help's section" [ -z "$missing" ]
check "--list-options has upstream's long options" \
	bash -c "grep -qx -- '--brief' list.txt && grep -qx -- '--flat-profile\\[=ARG\\]' list.txt && grep -qx -- '--file-ordering=ARG' list.txt"
# every word listed for an argument is one the option takes
bad=
while read -r opt words; do
	for w in $words; do
		case $opt in
		--format) "$G" --diff --format "$w" a/app a/gmon.out a/gmon.out >/dev/null 2>e.txt ;;
		--sort) "$G" -b --diff --sort "$w" a/app a/gmon.out a/gmon.out >/dev/null 2>e.txt ;;
		--fail-on) "$G" -b --diff --fail-on "$w" a/app a/gmon.out a/gmon.out >/dev/null 2>e.txt ;;
		*) bad="$bad $opt(untested)"; continue ;;
		esac || bad="$bad $opt=$w"
	done
done < <(sed -n 's/^\(--[a-z-]*\)=[A-Z]* (\(.*\))$/\1 \2/p' list.txt)
check "each word --list-options gives for an argument is accepted" [ -z "$bad" ] || echo "#$bad"

comp="$BUILDDIR/egprof-completion.bash"
check "make built the completion" [ -s "$comp" ]
check "the installed completion answers for gprof, egprof, cpdump, egprof-sum, egprof-rankstats" \
	bash -c "for c in gprof egprof cpdump egprof-sum egprof-rankstats; do
		[ -e '$inst/share/bash-completion/completions/'\$c ] || exit 1; done
		grep -q '^complete .* gprof egprof\$' '$inst/share/bash-completion/completions/gprof'"
# complete WORDS...: what the completion offers for the last word
complete_words() {
	bash -c '
		sed "s|@GPROF_NAMES@|gprof egprof|" "$0" > comp.sh && . ./comp.sh
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		fn=$(complete -p "$1" | sed "s/.* -F \([^ ]*\) .*/\1/")
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' "$comp" "$@"
}
export -f complete_words
export comp
check "gprof --fol<TAB>: --folded --folded-calls --follow" \
	bash -c "[ \"\$(complete_words gprof --fol | sort | tr '\n' ' ')\" = '--folded-calls= --folded= --follow ' ]"
check "gprof --format <TAB>: the formats" \
	bash -c "[ \"\$(complete_words gprof --format '' | tr '\n' ' ')\" = 'text json csv markdown ' ]"
touch report.html
check "gprof --html <TAB>: files" bash -c "complete_words gprof --html rep | grep -qx report.html"
check "gprof --ext<TAB>: ours and upstream's" \
	bash -c "[ \"\$(complete_words gprof --ext | sort | tr '\n' ' ')\" = '--extended --external-symbol-table= ' ]"
check "cpdump -<TAB>: its options" bash -c "complete_words cpdump - | grep -qx -- -f && complete_words cpdump - | grep -qx -- --version"
check "every --list-options name completes" bash -c '
	for o in $(sed "s/[=[ ].*//" list.txt); do
		complete_words gprof "$o" | grep -q -- "^$o=\\{0,1\\}\$" || { echo "# $o"; exit 1; }
	done'
done_testing
