#!/usr/bin/env bash
# "Probably inlined into" from the evidence both sides have (issue 24 item
# 6), on two builds of testsuite/fixtures/inlining/inlining.c (-O2, and
# -DINLINED) and exact samples (mkgmon.py):
#  - helper is tail-called by mid: -pg records the calls from main (mid's
#    caller), so no arc names mid; mid's code grew by helper's and its time
#    with it: helper was inlined into mid;
#  - tiny has no sample at all (too cheap): its only caller, caller2;
#  - shared is still a function in the second build (b_user calls it) but
#    its calls from a_user went, and a_user's code grew: inlined there.
# The old rule needed an arc from the caller and opposite self times, and
# explained none of them.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
MKGMON=$SRCDIR/testsuite/fixtures/fig1/mkgmon.py
cd "$WORKDIR" || exit 1
src=$SRCDIR/testsuite/fixtures/inlining/inlining.c
gcc -O2 -pg -o inl "$src" && gcc -O2 -pg -DINLINED -o inl2 "$src" 2> build.log ||
	{ echo "not ok 1 - build"; cat build.log; echo "1..1"; exit 1; }
check "the second build inlined helper and tiny, kept shared" \
	bash -c "! nm inl2 | grep -Eq ' (helper|tiny)\$' && nm inl2 | grep -q ' shared\$'"
check "mid tail-calls helper in the first build" \
	bash -c "objdump -d --no-show-raw-insn inl | sed -n '/<mid>:/,/^\$/p' | grep -Eq 'jmp +[0-9a-f]+ <helper>'"
python3 "$MKGMON" inl a.gmon main=5 helper=300 mid=10 caller2=50 shared=200 a_user=20 b_user=20 \
	main\>mid=100 main\>helper=100 main\>caller2=100 caller2\>tiny=200 main\>a_user=100 \
	main\>b_user=100 a_user\>shared=100 b_user\>shared=100 &&
python3 "$MKGMON" inl2 b.gmon main=5 mid=305 caller2=51 shared=100 a_user=120 b_user=20 \
	main\>mid=100 main\>caller2=100 main\>a_user=100 main\>b_user=100 b_user\>shared=100 ||
	{ echo "not ok - gmon files"; exit 1; }
"$EGPROF" -b -p --diff inl a.gmon inl2 b.gmon > d.txt 2> err.txt
check "helper: inlined into mid, which tail-called it" grep -Eq \
	"^  helper: .*only in the baseline: probably inlined into mid \(which tail-called it: gprof saw the calls from its caller; its code [0-9]+ -> [0-9]+ bytes\), whose self\+children changed by" d.txt
check "mid points back at helper" grep -Eq "^  mid: .*probably took in helper \(only in the baseline, which it tail-called\)" d.txt
check "tiny (no samples): inlined into its only caller, caller2" \
	grep -Eq "^  tiny: calls gone \(200 -> 0\); only in the baseline: probably inlined into its only caller caller2," d.txt
check "shared: its calls from a_user went, inlined there" \
	grep -Eq "^  shared: .*its calls from a_user went: probably inlined there; the caller's self\+children changed by" d.txt
check "a_user took in its calls of shared" grep -Eq "^  a_user: .*probably took in its calls of shared" d.txt
"$EGPROF" --format json --diff inl a.gmon inl2 b.gmon > d.json 2>> err.txt
check "the JSON says the same (moved_peer, moved_why)" python3 - d.json <<'PY'
import json, sys
fn = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
assert (fn["helper"]["moved_peer"], fn["helper"]["moved_why"]) == ("mid", "tail call"), fn["helper"]
assert (fn["tiny"]["moved_peer"], fn["tiny"]["moved_why"]) == ("caller2", "only caller")
assert (fn["shared"]["moved_peer"], fn["shared"]["moved_why"]) == ("a_user", "calls from one caller went")
assert fn["b_user"]["moved_peer"] is None
PY
check "the JSON validates against its schema" python3 "$SRCDIR/scripts/json_schema.py" validate d.json
check "nothing on stderr" test ! -s err.txt
dl_done
