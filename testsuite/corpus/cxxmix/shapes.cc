#include "cxxmix.h"

extern "C" unsigned long c_linkage_spin(unsigned long units)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < units * 30000; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

namespace geo {
Shape::~Shape() {}
const char *Shape::name() const { return "shape"; }

double Circle::area() const
{
	return 3.14159 * r_ * r_ + static_cast<double>(c_linkage_spin(60) & 1);
}

const char *Circle::name() const { return "circle"; }

double Square::area() const
{
	return s_ * s_ + static_cast<double>(c_linkage_spin(20) & 1);
}

double total_area(const Shape *const *shapes, int n)
{
	double t = 0;
	for (int i = 0; i < n; i++)
		t += shapes[i]->area();
	return t;
}
} // namespace geo

namespace calc {
long compute(int x) { return x * 7L + static_cast<long>(c_linkage_spin(10) & 1); }
double compute(double x) { return x * 0.5; }
long compute(const char *s)
{
	long h = 0;
	while (*s)
		h = h * 31 + *s++;
	return h + static_cast<long>(c_linkage_spin(15) & 1);
}
} // namespace calc

namespace outer {
namespace inner {
long deep(int n) { return n <= 0 ? 1 : 1 + deeper(n - 1); }
long deeper(int n) { return n <= 0 ? 2 : 2 + deep(n - 1); }
} // namespace inner
} // namespace outer
