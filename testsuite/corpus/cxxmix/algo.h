// Templates instantiated from main.cc.
#ifndef ALGO_H
#define ALGO_H

extern "C" unsigned long c_linkage_spin(unsigned long units);

namespace algo {
template <typename T>
T sum_of(const T *v, int n)
{
	T s = T();
	for (int i = 0; i < n; i++)
		s += v[i];
	return s + static_cast<T>(c_linkage_spin(30) & 1);
}

template <typename T>
T power(T base, int e)
{
	return e == 0 ? T(1) : base * power(base, e - 1);
}

template <typename T, int N>
struct Ring {
	T buf[N] = {};
	int at = 0;
	void push(T v)
	{
		buf[at] = v;
		at = (at + 1) % N;
	}
	T total() const
	{
		return sum_of(buf, N);
	}
};
} // namespace algo

#endif
