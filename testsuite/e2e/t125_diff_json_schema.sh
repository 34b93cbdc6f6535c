#!/usr/bin/env bash
# The JSON documents and their schemas (issue 24 item 13): doc/formats.md's
# field lists are what doc/schema/*.schema.json say (generated from them);
# the JSON of --diff (one run per side, directories of ranks), --rank-stats
# and --callpath validates against them; a field the schema does not
# document, or one it requires and the document lacks, is refused (the
# schemas are strict, so a new field must be documented to pass).
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
JS=$SRCDIR/scripts/json_schema.py
CP_SO="$BUILDDIR/callpath/libcallpath.so"
cd "$WORKDIR" || exit 1
check "doc/formats.md's field lists are the schemas'" python3 "$JS" doc --check
dl_fig1 > build.log 2>&1 || { echo "not ok - fig1"; exit 1; }
F=$WORKDIR/fig1
"$EGPROF" --diff --format json "$F/demo" "$F/fig1-a.gmon" "$F/fig1-b.gmon" > diff.json
"$EGPROF" --rank-stats --format json "$F/demo" "$F/fig1-a.gmon" "$F/fig1-b.gmon" > ranks.json
# ranks with sidecars, and a call-path tree
cat > two.c <<'C'
__attribute__((noinline)) void f(void) { for (volatile int i = 0; i < 1000; i++); }
int main(void) { f(); f(); return 0; }
C
gcc -pg -O1 -o two two.c || { echo "not ok - build"; exit 1; }
for side in a b; do
	for r in 0 1; do
		mkdir -p $side
		OMPI_COMM_WORLD_RANK=$r GMON_OUT_PREFIX="$WORKDIR/$side/gmon" LD_PRELOAD="$CP_SO" ./two
	done
done
"$EGPROF" --diff --format json two a two b > ranksdiff.json
one=$(ls a/gmon.* | grep -v callpath | head -1)
"$EGPROF" --callpath --format json two "$one" > callpath.json
check "every document validates (diff, diff of rank directories, rank-stats, callpath)" \
	python3 "$JS" validate diff.json ranksdiff.json ranks.json callpath.json
check "the diff of rank directories measured its noise on the ranks" \
	python3 -c "import json, sys; assert json.load(open(sys.argv[1]))['significance']['jitter_from'] == 'ranks'" ranksdiff.json
python3 - diff.json extra.json missing.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["functions"][0]["undocumented"] = 1
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
del d["arcs"][0]["verdict"]
json.dump(d, open(sys.argv[3], "w"))
PY
check "an undocumented field is refused" bash -c "! python3 '$JS' validate extra.json 2>/dev/null"
check "a missing field is refused" bash -c "! python3 '$JS' validate missing.json 2>/dev/null"
dl_done
