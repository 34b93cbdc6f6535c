// templates.cc - a template-heavy C++ program for bench/sampler: generic
// containers and algorithms instantiated for two element types, lambdas,
// std::sort and std::map, most of it inlined at -O2 (the case inline
// frames are for).  Prints a checksum.
//
//   templates N     N rounds (about 0.3 s of CPU each)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <vector>

template <typename T> struct Point {
	T x, y, z;
};

template <typename T> static T norm2(const Point<T> &p)
{
	return p.x * p.x + p.y * p.y + p.z * p.z;
}

template <typename T> static std::vector<Point<T>> make_points(size_t n, unsigned seed)
{
	std::vector<Point<T>> v(n);
	for (auto &p : v) {
		seed = seed * 1103515245u + 12345u;
		p.x = T(seed % 1000) / T(7);
		seed = seed * 1103515245u + 12345u;
		p.y = T(seed % 1000) / T(11);
		seed = seed * 1103515245u + 12345u;
		p.z = T(seed % 1000) / T(13);
	}
	return v;
}

template <typename T> static void sort_points(std::vector<Point<T>> &v)
{
	std::sort(v.begin(), v.end(),
		  [](const Point<T> &a, const Point<T> &b) { return norm2(a) < norm2(b); });
}

template <typename T> static T smooth(const std::vector<Point<T>> &v)
{
	T acc = 0;
	for (size_t i = 1; i + 1 < v.size(); i++)
		acc += std::sqrt(norm2(v[i])) * T(0.5) + (norm2(v[i - 1]) + norm2(v[i + 1])) * T(0.25);
	return acc;
}

static size_t histogram(const std::vector<Point<double>> &v)
{
	std::map<long, size_t> h;
	for (const auto &p : v)
		h[std::lround(norm2(p)) / 1000]++;
	return h.size();
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 5;
	double sum = 0;

	for (int r = 0; r < n; r++) {
		auto d = make_points<double>(300000, 1u + r);
		auto f = make_points<float>(300000, 7u + r);
		sort_points(d);
		sort_points(f);
		sum += smooth(d) + smooth(f) + double(histogram(d));
	}
	std::printf("%.6g\n", sum);
	return 0;
}
