// C++ corpus program: static initialisers, templates, exceptions and
// virtual calls.  The constructors of the globals run before main, called
// by the C library; main must still be a root of its own.
#include <iostream>
#include <stdexcept>

int counter;

int init_helper(int v) { return counter += v; }

struct Registry {
	Registry() { init_helper(1); init_helper(2); }
};
Registry registry;	// constructed before main
static int early = init_helper(3);

template <class T> T twice(T v) { return v + v; }

struct Shape {
	virtual ~Shape() {}
	virtual int area() const = 0;
};
struct Square : Shape {
	int s;
	explicit Square(int v) : s(v) {}
	int area() const override { return twice(s) * s / 2; }
};
struct Rect : Shape {
	int w, h;
	Rect(int a, int b) : w(a), h(b) {}
	int area() const override { return w * h; }
};

int thrower(int i)
{
	if (i % 2)
		throw std::runtime_error("odd");
	return i;
}

int checked(int i)
{
	try {
		return thrower(i);
	} catch (const std::exception &) {
		return -1;
	}
}

int main()
{
	Square sq(3);
	Rect rc(2, 5);
	const Shape *shapes[] = { &sq, &rc, &sq };
	long sum = early;

	for (int i = 0; i < 12; i++)
		sum += shapes[i % 3]->area();
	for (int i = 0; i < 6; i++)
		sum += checked(i);
	sum += twice(2.5) > 4 ? twice(7) : 0;
	std::cout << sum << "\n";
	return 0;
}
