#!/usr/bin/env bash
# Names of functions gprof leaves out of its table (issue 24 item 10): GCC
# clones such as use.isra.0 or use2.constprop.0.isra.0, which gprof
# attributes to the function before them, are named in --callpath,
# --folded and --folded-calls by their own symbols, and those were printed
# mangled (_ZL3useRK3Big.isra.0).  They are demangled now as gprof
# demangles its own names, exactly as c++filt writes them
# ("use(Big const&) [clone .isra.0]"), and kept mangled with --no-demangle
# as gprof's are.  --short-names leaves C++ template arguments out
# (std::vector<…>), as pprof and perf show them.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > isra.cc <<'CC'
#include <map>
#include <string>
#include <vector>
struct Big { int v[64]; };
static volatile int sink;
/* only one field read: GCC's IPA-SRA passes it alone, as use.isra.0 */
__attribute__((noinline)) static int use(const Big &b) { return b.v[3] * 2 + sink; }
/* called with the constant 3 only, one field read: use2.constprop.0.isra.0 */
__attribute__((noinline)) static int use2(const Big &b, int k) { return b.v[5] * k + sink; }
template <typename K, typename V>
__attribute__((noinline)) V first(const std::map<K, std::vector<V> > &m, const K &k)
{
	typename std::map<K, std::vector<V> >::const_iterator it = m.find(k);
	return it == m.end() ? V() : it->second.front();
}
int main(int argc, char **argv)
{
	Big b = {};
	long t = 0;
	std::map<std::string, std::vector<int> > m;
	m["a"] = std::vector<int>(2, argc);
	b.v[3] = argc;
	(void)argv;
	for (int i = 0; i < 1000; i++)
		t += use(b) + use2(b, 3) + first(m, std::string("a"));
	return t == 7;
}
CC
g++ -pg -O2 -o isra isra.cc || exit 1
# a tick the short run never reaches: its headings have no seconds
CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" ./isra
use=$(nm isra | awk '$3 ~ /^_ZL3use.*isra/ { print $3 }')
use2=$(nm isra | awk '$3 ~ /^_ZL4use2.*isra/ { print $3 }')
cp_check "GCC made the clones ($use, $use2)" test -n "$use" -a -n "$use2"
d_use=$(c++filt "$use")
d_use2=$(c++filt "$use2")

"$EGPROF" -b --folded-calls calls.folded --callpath ./isra gmon.out > report.txt
cp_check "--folded-calls: main;$d_use 1000" grep -qxF "main;$d_use 1000" calls.folded
cp_check "--folded-calls: main;$d_use2 1000" grep -qxF "main;$d_use2 1000" calls.folded
cp_check "--folded-calls: no mangled name" bash -c "! grep -q '_Z' calls.folded"
cp_check "--callpath: the clone's paths are headed by its demangled name" \
	grep -qxF "$d_use: 1000 calls, 1 path" report.txt
cp_check "--callpath: its call sites too" grep -qF "$d_use (main+0x" report.txt
cp_check "--callpath: no mangled name" bash -c "! grep -q '_Z' <(sed -n '/Call-path profile/,\$p' report.txt)"
"$EGPROF" -b --no-demangle --folded-calls raw.folded ./isra gmon.out > /dev/null
cp_check "--no-demangle: the clones keep their symbol names, as gprof's do" \
	bash -c "grep -qxF 'main;$use 1000' raw.folded && grep -qxF 'main;$use2 1000' raw.folded"

# --short-names: template arguments left out
"$EGPROF" -b --short-names --folded-calls short.folded --callpath ./isra gmon.out > short.txt
cp_check "--short-names: int first<…>(std::map<…> const&, std::__cxx11::basic_string<…> const&)" \
	grep -qxF "main;int first<…>(std::map<…> const&, std::__cxx11::basic_string<…> const&) 1000" short.folded
cp_check "--short-names: the clones' names are unchanged (no template)" \
	grep -qxF "main;$d_use 1000" short.folded
cp_check "--short-names: no '<' but in '<…>' in the folded stacks" \
	bash -c "! sed 's/<…>//g' short.folded | grep -q '[<>]'"
long=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' calls.folded)
short=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' short.folded)
cp_check "--short-names: the longest line $short characters, from $long" test "$short" -lt 150 -a "$long" -gt 300
cp_check "--short-names: the report's paths are short too" \
	grep -qF "main -> int first<…>(std::map<…> const&, std::__cxx11::basic_string<…> const&) (main+0x" short.txt
cp_check "--short-names: calls are the same in all" \
	test "$(awk '{ s += $NF } END { print s }' short.folded)" = "$(awk '{ s += $NF } END { print s }' calls.folded)"
"$EGPROF" -b --short-names ./isra gmon.out > /dev/null 2> err.txt; rc=$?
cp_check "--short-names without a call-path output: refused (exit $rc)" \
	bash -c "[ $rc = 1 ] && grep -qF -- '--short-names shortens the names of egprof' err.txt"
cp_done
