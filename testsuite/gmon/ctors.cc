// C++ static initialisers (before main, counted by glibc: __monstartup
// runs from _init, before .init_array), virtual calls, a destructor at exit.
#include <cstdio>

namespace {
int counter;
int bump(int by) { return counter += by; }

struct Shape {
	virtual ~Shape() {}
	virtual int area() const = 0;
};
struct Square : Shape {
	int s;
	explicit Square(int side) : s(side) { bump(1); }
	int area() const override { return s * s; }
};
struct Rect : Shape {
	int w, h;
	Rect(int a, int b) : w(a), h(b) { bump(2); }
	int area() const override { return w * h; }
};

Square sq(3);
Rect rc(2, 5);
int early = bump(10);

struct AtExit {
	~AtExit() { bump(100); }
} at_exit;
}

int total(const Shape *const *v, int n)
{
	int t = 0;

	for (int i = 0; i < n; i++)
		t += v[i]->area();
	return t;
}

int main()
{
	const Shape *v[] = { &sq, &rc, &sq, &rc, &rc };
	int t = 0;

	for (int i = 0; i < 100; i++)
		t += total(v, 5);
	std::printf("%d %d %d\n", t, counter, early);
	return 0;
}
