#include <cstdio>
#include <cstdlib>
#include "cxxmix.h"
#include "algo.h"

// Usage: cxxmix [rounds]. Output depends on rounds only, never on timing.
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
	geo::Circle c1(1.5), c2(2.0);
	geo::Square s1(3.0);
	const geo::Shape *shapes[] = { &c1, &s1, &c2, &s1 };
	double dv[] = { 0.5, 1.5, 2.5 };
	int iv[] = { 1, 2, 3, 4 };
	algo::Ring<long, 8> ring;
	double acc = 0;

	for (int i = 0; i < rounds; i++) {
		acc += geo::total_area(shapes, 4);
		acc += static_cast<double>(calc::compute(i)) + calc::compute(0.25 * i);
		acc += static_cast<double>(calc::compute("gprof"));
		acc += algo::sum_of(iv, 4) + algo::sum_of(dv, 3);
		for (int k = 0; k < 10; k++)
			ring.push(k * i);
		acc += static_cast<double>(ring.total() + algo::power(3L, 12));
		acc += static_cast<double>(outer::inner::deep(9));
		acc += static_cast<double>(use_left(4) + use_right(6));
		acc += static_cast<double>(c_linkage_spin(1500) & 0xff);
	}
	std::printf("%.1f %s\n", acc, shapes[0]->name());
	return 0;
}
