#!/usr/bin/env bash
# A newcomer's mistakes, each answered before any analysis, on stderr, with
# the problem and the fix, exit 1 and nothing on stdout:
#  - an output in a folder that does not exist, or a folder as the output
#    (they failed only after the whole analysis and its 43 lines of text);
#  - --diff's operands swapped ("not a gmon file (... as an old BSD-style
#    file it would need 4063235 bytes ...)" before);
#  - --callpath without a sidecar (the hint came after the whole profile);
#  - --fail-on and --format markdown without --diff, a bad gate.
# And plain gprof with a gmon file that does not belong to the program
# (another program, another build of it, a build told apart only by its
# sidecar's build-id): GNU gprof's output byte for byte, and one warning
# line on stderr; a gmon file of the program gets none.
. "$SRCDIR/testsuite/e2e/firsthour_lib.sh"
CP=$BUILDDIR/callpath

build_app a
(cd a && ./app >/dev/null) || bail "cannot run a/app"
G=$EGPROF

# refused NAME REGEX CMD...: exit 1, stdout empty, stderr one line matching
refused() {
	local name=$1 re=$2
	shift 2
	"$@" >out.txt 2>err.txt
	local rc=$?
	check "$name: exit 1, nothing on stdout, one line" \
		bash -c "[ $rc = 1 ] && [ ! -s out.txt ] && [ \$(wc -l <err.txt) = 1 ]" || diag err.txt
	check "$name: names the problem and the fix" grep -Eq -- "$re" err.txt || diag err.txt
}

# --- outputs checked first -------------------------------------------------
refused "--pprof in a missing folder" \
	"^.*gprof: /nonexistent/dir/x.pb.gz: cannot write \\(--pprof\\): no folder '/nonexistent/dir' \\(create it first, or name another\\)$" \
	"$G" -b a/app a/gmon.out --pprof /nonexistent/dir/x.pb.gz
refused "--diff --html in a missing folder" "out/d.html: cannot write \\(--html\\): no folder 'out'" \
	"$G" -b --diff a/app a/gmon.out a/gmon.out --gml ok.gml --html out/d.html
check "... and no other output was written" [ ! -e ok.gml ]
mkdir -p adir
refused "--html naming a folder" "adir: is a directory \\(--html needs a file name, e.g. 'adir/out'\\)" \
	"$G" -b a/app a/gmon.out --html adir
touch afile
refused "--folded under a file, not a folder" "afile/f.txt: cannot write \\(--folded\\): 'afile' is not a folder" \
	"$G" -b a/app a/gmon.out --folded afile/f.txt
"$G" -b a/app a/gmon.out --pprof - >/dev/null 2>err.txt
check "--pprof - (standard output) is not a path to check" [ ! -s err.txt ]

# --- swapped operands ----------------------------------------------------------
build_app b -DNEW
(cd b && ./app >/dev/null) || bail "cannot run b/app"
refused "--diff GMON APP GMON APP" \
	"did you swap APP and GMON\\? 'a/gmon.out' and 'b/gmon.out' are gmon files, 'a/app' and 'b/app' programs: --diff takes APP1 GMON1 APP2 GMON2, or APP GMON1 GMON2 \\(.*gprof --diff a/app a/gmon.out b/app b/gmon.out\\)$" \
	"$G" --diff a/gmon.out a/app b/gmon.out b/app
refused "--diff APP APP GMON GMON" \
	"both programs come first here: .*\\(.*gprof --diff a/app a/gmon.out b/app b/gmon.out\\)$" \
	"$G" --diff a/app b/app a/gmon.out b/gmon.out
refused "--diff GMON APP GMON" "did you swap APP and GMON\\? 'a/gmon.out' is a gmon file and 'a/app' a program: .*\\(.*gprof --diff a/app a/gmon.out b/gmon.out\\)$" \
	"$G" --diff a/gmon.out a/app b/gmon.out
refused "--diff GMON GMON APP" "the program comes first: .*\\(.*gprof --diff a/app a/gmon.out b/gmon.out\\)$" \
	"$G" --diff a/gmon.out b/gmon.out a/app
refused "--diff with a program for the second gmon file" \
	"'b/app' is a program where --diff expects a gmon file: --diff takes APP1 GMON1 APP2 GMON2, or APP GMON1 GMON2$" \
	"$G" --diff a/app a/gmon.out b/app b/app
mkdir -p runs && cp a/gmon.out runs/gmon.1
refused "--diff with a directory of runs where the program goes" \
	"'runs' is a folder of gmon files where --diff expects a program" "$G" --diff runs a/gmon.out b/app b/gmon.out

# --- a missing sidecar, before any output ----------------------------------------
refused "--callpath without a sidecar" \
	"a/gmon.out.callpath: No such file or directory \\(run the program with libcallpath to record call paths: LD_PRELOAD=libcallpath.so.1 ./PROGRAM, or link with -lcallpath\\)$" \
	"$G" -b --callpath a/app a/gmon.out
refused "--folded without a sidecar" "a/gmon.out.callpath: No such file or directory \\(run the program with libcallpath" \
	"$G" -b a/app a/gmon.out --folded f.txt
refused "--diff --callpath without sidecars" "a/gmon.out.callpath: No such file" \
	"$G" -b --diff --callpath a/app a/gmon.out b/app b/gmon.out

# --- the gate and the summary need --diff ---------------------------------------
refused "--fail-on without --diff" "--fail-on gates the differences of a --diff \\(gprof --diff --fail-on slowdown APP1 GMON1 APP2 GMON2\\)" \
	"$G" --fail-on slowdown a/app a/gmon.out
refused "--format markdown without --diff" "--format markdown summarises a --diff" \
	"$G" --format markdown --callpath a/app a/gmon.out
refused "a bad --fail-on term" "--fail-on: 'slowdwon' is not a term; a term is slowdown, any, function>10%, function>0.5s, function:NAME>5%, total>2% or total>1s$" \
	"$G" --diff --fail-on slowdwon a/app a/gmon.out b/gmon.out

# --- plain gprof: one warning, GNU gprof's output --------------------------------
# plain NAME APP GMON [WARN-REGEX]: stdout and status GNU gprof's; stderr
# GNU gprof's after exactly one warning matching, or GNU gprof's alone
plain() {
	local name=$1 app=$2 gmon=$3 re=${4:-}
	(exec -a gprof "$G" -b "$app" "$gmon") >ours.out 2>ours.err; local ra=$?
	(exec -a gprof "$SYSGPROF" -b "$app" "$gmon") >sys.out 2>sys.err; local rb=$?
	check "$name: stdout and status are GNU gprof's" bash -c "[ $ra = $rb ] && cmp -s ours.out sys.out"
	if [ -n "$re" ]; then
		check "$name: one warning line, then GNU gprof's stderr" \
			bash -c "head -n 1 ours.err | grep -Eq -- \"$re\" && cmp -s <(tail -n +2 ours.err) sys.err" ||
			diag ours.err
	else
		check "$name: no warning" cmp -s ours.err sys.err || diag ours.err
	fi
}
cat > other.cc <<'CC'
#include <string>
#include <iostream>
int main() { std::string s; for (int i = 0; i < 3000000; i++) s += "x"; std::cout << s.size() << "\n"; }
CC
g++ -pg -O1 -o other other.cc && mkdir -p r-other && (cd r-other && ../other >/dev/null) ||
	bail "cannot build and run other"
plain "a program's own gmon file" a/app a/gmon.out
plain "another program's gmon file" a/app r-other/gmon.out \
	"^gprof: warning: r-other/gmon.out: does not belong to 'a/app': .*; the profile below is probably wrong \\(a gmon file of another program or build\\)$"
plain "the program read with another program's gmon file" other a/gmon.out \
	"^gprof: warning: a/gmon.out: does not belong to 'other': "
build_app o1 -O1
(cd o1 && ./app >/dev/null) || bail "cannot run o1/app"
plain "another build (-O1) of the same program" a/app o1/gmon.out \
	"^gprof: warning: o1/gmon.out: does not belong to 'a/app': its (histogram covers|.* calls do not enter)"
# two builds whose text is identical (only a string differs): the
# sidecar's build-id tells them apart
for v in 1 2; do
	sed "s/int main(void)/const char *tag = \"build $v\";\nint main(void)/" "$APP_C" > tag$v.c
	gcc -pg -O2 -g -Wl,--build-id -o tag$v tag$v.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" &&
		mkdir -p r-tag$v && (cd r-tag$v && "../tag$v" >/dev/null) || bail "cannot build and run tag$v"
done
check "the two tagged builds have the same text" \
	bash -c "cmp -s <(objdump -d tag1 | tail -n +3) <(objdump -d tag2 | tail -n +3)"
plain "a build told apart by its sidecar's build-id" tag1 r-tag2/gmon.out \
	"^gprof: warning: r-tag2/gmon.out: does not belong to 'tag1': its sidecar records another build-id"
plain "the build that wrote it (and its sidecar)" tag2 r-tag2/gmon.out
# a sidecar left from another run says nothing of this gmon file
cp r-tag1/gmon.out.callpath r-tag2/gmon.out.callpath
plain "a stale sidecar of another build beside it: no verdict" tag2 r-tag2/gmon.out
done_testing
