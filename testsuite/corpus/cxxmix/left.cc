#include "cxxmix.h"

namespace {
// Same name as the helper in right.cc; both have internal linkage.
long helper(int n) { return static_cast<long>(c_linkage_spin(30) & 7) + n; }
} // namespace

long use_left(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}
