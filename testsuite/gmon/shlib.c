/* A -pg shared library: its own calls, and a callback into the program. */
static int lib_leaf(int x) { return x * 3 + 1; }

int lib_work(int n, int (*cb)(int))
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += lib_leaf(i) + cb(i);
	return s;
}

int lib_twice(int x) { return lib_leaf(x) + lib_leaf(x + 1); }
