// exception.cc - a C++ exception through instrumented frames:
//
//   main ─┬─ t1 ── t2 ── t3 (throws)    x6, caught in main
//         └─ after ── leaf              x6, called right after each catch
#include <cstdio>
#include <stdexcept>

volatile int sink;

__attribute__((noinline)) void leaf() { sink++; }
__attribute__((noinline)) void after() { leaf(); sink++; }
__attribute__((noinline)) void t3() { throw std::runtime_error("x"); }
__attribute__((noinline)) void t2() { t3(); sink++; }
__attribute__((noinline)) void t1() { t2(); sink++; }

int main()
{
	for (int i = 0; i < 6; i++) {
		try {
			t1();
		} catch (const std::exception &) {
			sink++;
		}
		after();
	}
	return 0;
}
