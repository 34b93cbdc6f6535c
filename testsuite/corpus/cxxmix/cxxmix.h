// cxxmix: a small C++ program for gprof parity tests (demangling, cycles
// through virtual calls, templates, overloads, namespaces).
//
// Call graph (per round of main's loop):
//
//   main -> geo::total_area -> geo::Circle::area / geo::Square::area (virtual)
//        -> calc::compute(int) / compute(double) / compute(char const*)
//        -> algo::sum_of<int> / algo::sum_of<double>, algo::Ring<long, 8>::push
//        -> algo::power<long> (template recursion)
//        -> outer::inner::deep -> outer::inner::deeper -> outer::inner::deep (cycle)
//        -> use_left -> (anonymous namespace)::helper   (left.cc)
//        -> use_right -> (anonymous namespace)::helper  (right.cc)
//        -> c_linkage_spin (extern "C", the leaf burning most samples)
#ifndef CXXMIX_H
#define CXXMIX_H

extern "C" unsigned long c_linkage_spin(unsigned long units);

namespace geo {
struct Shape {
	virtual ~Shape();
	virtual double area() const = 0;
	virtual const char *name() const;
};

struct Circle : Shape {
	explicit Circle(double r) : r_(r) {}
	double area() const override;
	const char *name() const override;
private:
	double r_;
};

struct Square : Shape {
	explicit Square(double s) : s_(s) {}
	double area() const override;
private:
	double s_;
};

double total_area(const Shape *const *shapes, int n);
} // namespace geo

namespace calc {
long compute(int x);
double compute(double x);
long compute(const char *s);
} // namespace calc

namespace outer {
namespace inner {
long deep(int n);
long deeper(int n);
} // namespace inner
} // namespace outer

long use_left(int n);
long use_right(int n);

#endif
