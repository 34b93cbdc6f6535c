/*
 * acceptance.c - the call paths the runtime must record, drawn:
 *
 *   main ─┬─ a ── c                 3 calls of a, 3 of c
 *         ├─ b ─┬─ c                9 calls of b, 7 of c
 *         │     └─ d ── c           2 calls of d, 2 of c
 *         ├─ r ── r ── r ── r ── leaf   recursion 4 deep, once
 *         └─ op (through a pointer) 7 calls
 *
 * Built with -pg; `noinline` and the volatile sink after each call keep
 * every call a real call (no inlining, no tail calls).
 */
volatile int sink;

__attribute__((noinline)) void c(void) { sink++; }
__attribute__((noinline)) void d(void) { c(); sink++; }
__attribute__((noinline)) void a(void) { c(); sink++; }
__attribute__((noinline)) void b(int via_d)
{
	if (via_d)
		d();
	else
		c();
	sink++;
}
__attribute__((noinline)) void leaf(void) { sink++; }
__attribute__((noinline)) void r(int n)
{
	if (n > 1)
		r(n - 1);
	else
		leaf();
	sink++;
}
__attribute__((noinline)) void op(void) { sink++; }

void (*volatile fp)(void) = op;

int main(void)
{
	for (int i = 0; i < 3; i++)
		a();
	for (int i = 0; i < 9; i++)
		b(i < 2);
	r(4);
	for (int i = 0; i < 7; i++)
		fp();
	return 0;
}
