#!/usr/bin/env bash
# Bad call-path input: a clear message naming the file, a non-zero exit, no
# crash and no --folded file (not even half of one).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
EG=$EGPROF
d="$WORKDIR"

gcc -pg -O1 -o "$d/prog" "$CP_EX/acceptance.c" &&
gcc -pg -O1 -DOTHER -o "$d/other" "$CP_EX/acceptance.c" -Wl,--build-id=sha1 -Wl,-z,norelro &&
(cd "$d" && LD_PRELOAD="$CP_SO" ./prog && cp gmon.out.callpath good.callpath) ||
	{ echo "Bail out! cannot build or run the acceptance program"; exit 1; }

# case NAME EXPECTED_MESSAGE_REGEX ARGS...: runs in $d, --folded-calls out.folded
case_bad() {
	local name=$1 re=$2 rc
	shift 2
	rm -f "$d"/out.folded*
	(cd "$d" && "$EG" -b --folded-calls out.folded "$@" >out.txt 2>err.txt)
	rc=$?
	cp_check "$name: non-zero exit (not a crash)" test "$rc" -eq 1
	cp_check "$name: message names the file" grep -Eq "$re" "$d/err.txt" ||
		sed 's/^/# /' "$d/err.txt"
	cp_check "$name: no folded file, no temporary left" \
		test -z "$(ls "$d" | grep '^out\.folded')"
}

head -c 60 "$d/good.callpath" >"$d/gmon.out.callpath"
case_bad truncated "gmon.out.callpath: truncated" --callpath prog gmon.out
head -c "$(($(stat -c %s "$d/good.callpath") - 3))" "$d/good.callpath" >"$d/gmon.out.callpath"
case_bad "truncated node table" "gmon.out.callpath: " prog gmon.out
cp "$d/gmon.out" "$d/gmon.out.callpath"
case_bad "a gmon file as sidecar" "gmon.out.callpath: bad magic" prog gmon.out
rm -f "$d/gmon.out.callpath"
case_bad missing "gmon.out.callpath: No such file" prog gmon.out
case_bad "--callpath=FILE missing" "nothere.cp: " --callpath=nothere.cp prog gmon.out
cp "$d/good.callpath" "$d/gmon.out.callpath"
case_bad "another binary" "gmon.out.callpath: recorded from another binary than 'other'" \
	other gmon.out
cp "$d/gmon.out" "$d/gmon.2"
case_bad "one of two gmon files without sidecar" "gmon.2.callpath: " \
	prog gmon.out gmon.2

# A folded file that exists is left alone on failure.
echo keep >"$d/kept.folded"
rm -f "$d/gmon.out.callpath"
(cd "$d" && "$EG" -b --folded-calls kept.folded prog gmon.out >/dev/null 2>&1)
cp_check "failure leaves an existing --folded file as it was" \
	test "$(cat "$d/kept.folded")" = keep
cp_done
