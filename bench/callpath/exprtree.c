/*
 * exprtree.c - an expression tree evaluated through function pointers, N
 * times: an interpreter's shape, the many-context worst case.
 *
 * A complete binary tree of 4,095 nodes (depth 12): internal nodes are one
 * of four operators, leaves a constant; each node holds the function that
 * evaluates it, and each operator calls its two operands through that
 * pointer.  So each of the operators' two call sites calls one of five
 * functions, chosen by the tree's shape (a fixed pseudo-random draw), and
 * the calling-context tree has thousands of nodes (recursion folded into
 * the first frame of each function on the path), each with several
 * callees per call site: the caller's node's two kids rarely hold the
 * child, and the edge lookup carries the cost.
 */
#include <stdio.h>
#include <stdlib.h>

struct expr;
typedef long (*eval_fn)(const struct expr *);

struct expr {
	eval_fn eval;
	const struct expr *l, *r;
	long value;
};

#define DEPTH 12
#define NODES ((1 << DEPTH) - 1)

static struct expr tree[NODES];

__attribute__((noinline)) long op_add(const struct expr *e)
{
	return e->l->eval(e->l) + e->r->eval(e->r);
}

__attribute__((noinline)) long op_sub(const struct expr *e)
{
	return e->l->eval(e->l) - e->r->eval(e->r);
}

__attribute__((noinline)) long op_xor(const struct expr *e)
{
	return e->l->eval(e->l) ^ e->r->eval(e->r);
}

__attribute__((noinline)) long op_max(const struct expr *e)
{
	long a = e->l->eval(e->l), b = e->r->eval(e->r);

	return a > b ? a : b;
}

__attribute__((noinline)) long leaf(const struct expr *e)
{
	return e->value;
}

static const eval_fn ops[4] = { op_add, op_sub, op_xor, op_max };

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000, sum = 0;
	unsigned long seed = 12345;

	/* heap order: node i's operands are 2i + 1 and 2i + 2 */
	for (int i = 0; i < NODES; i++) {
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		if (2 * i + 1 < NODES) {
			tree[i].eval = ops[(seed >> 33) & 3];
			tree[i].l = &tree[2 * i + 1];
			tree[i].r = &tree[2 * i + 2];
		} else {
			tree[i].eval = leaf;
			tree[i].value = (long)(seed >> 40) & 1023;
		}
	}
	for (long k = 0; k < n; k++)
		sum += tree[0].eval(&tree[0]) + k;
	printf("%ld\n", sum);
	return 0;
}
