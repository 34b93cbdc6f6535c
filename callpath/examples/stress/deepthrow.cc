// deepthrow.cc - C++ exceptions thrown from 2,000 frames deep and caught
// at the top, 20 times, with calls after each catch; prints what it
// computed.
#include <cstdio>
#include <stdexcept>

static volatile unsigned long sink;

__attribute__((noinline)) static void after(int k) { sink += (unsigned long)k; }

__attribute__((noinline)) static void down(int n)
{
	sink++;
	if (n == 0)
		throw std::runtime_error("bottom");
	down(n - 1);
	sink++;
}

int main()
{
	int caught = 0;

	for (int r = 0; r < 20; r++) {
		try {
			down(2000);
		} catch (const std::exception &) {
			caught++;
		}
		after(r);
	}
	std::printf("deepthrow: %d caught, %lu\n", caught, sink);
	return 0;
}
