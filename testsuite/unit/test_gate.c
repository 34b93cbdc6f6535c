/* Unit tests for the regression gate (diff/gate.h) and the diff's markdown
 * summary (export/diff_summary.h), on rows built here: the gate reads the
 * diff's verdicts through gate_row only. */
#define _GNU_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include "diff/gate.h"
#include "export/diff_summary.h"
#include "utils/banned.h"

/*
 * Four rows of a diff, baseline 10 s in all:
 *   solve    4.00 -> 5.00 s  significant, 1.00 s slower (+25%)
 *   init     2.00 -> 1.50 s  significant, 0.50 s faster
 *   parse    2.00 -> 2.60 s  within noise (never gated, however large)
 *   io       2.00 -> 2.10 s  significant, 0.10 s slower (+5%)
 */
static struct gate_row rows4[] = {
	{ "solve", "_Z5solvev", 4.0, 5.0, 4.0, 1.0, 1, "time" },
	{ "init", "init", 2.0, 1.5, 2.0, -0.5, 1, "time" },
	{ "parse", "parse", 2.0, 2.6, 2.0, 0.6, 0, "within noise" },
	{ "io", "io", 2.0, 2.1, 2.0, 0.1, 1, "calls x2" },
};

static struct gate_input input4(void)
{
	struct gate_input in;

	memset(&in, 0, sizeof(in));
	in.rows = rows4;
	in.nrows = 4;
	in.base_total_sec = in.ref_total_sec = 10;
	in.second_total_sec = 11.2;
	in.speed = 1;
	in.noise_sigmas = 2;
	in.alpha = 0.0455;
	in.runs = 1;
	in.nfunctions = 4;
	return in;
}

/* Judge rows4 against expr: whether it fails, and how many hits. */
static int judge(const char *expr, size_t *nhits)
{
	struct gate *g;
	struct gate_input in = input4();
	struct gate_result r;
	int failed;

	assert_int_equal(gate_parse(expr, &g), 0);
	assert_int_equal(gate_judge(g, &in, &r), 0);
	failed = r.failed;
	if (nhits)
		*nhits = r.nhits;
	gate_result_release(&r);
	gate_free(g);
	return failed;
}

static void test_gate__parses_every_form(void **state)
{
	struct gate *g;

	(void)state;
	assert_int_equal(gate_parse("slowdown, any,function>10%,function>0.5s,"
				    "function >= 250ms,total>2%,total>1s,function:solve>5%", &g), 0);
	assert_int_equal(g->nterms, 8);
	assert_int_equal(g->terms[0].scope, GATE_SLOWDOWN);
	assert_int_equal(g->terms[1].scope, GATE_ANY);
	assert_int_equal(g->terms[2].scope, GATE_FUNCTION);
	assert_int_equal(g->terms[2].unit, GATE_PERCENT);
	assert_float_equal(g->terms[2].amount, 10, 0);
	assert_int_equal(g->terms[3].unit, GATE_SECONDS);
	assert_float_equal(g->terms[3].amount, 0.5, 0);
	assert_float_equal(g->terms[4].amount, 0.25, 1e-12);
	assert_int_equal(g->terms[5].scope, GATE_TOTAL);
	assert_int_equal(g->terms[7].scope, GATE_FUNCTION);
	assert_string_equal(g->terms[7].name, "solve");
	gate_free(g);
}

/* C++ names hold '>' and ',': a term splits at its last '>', the
 * expression at commas outside brackets. */
static void test_gate__names_may_hold_brackets_and_commas(void **state)
{
	struct gate *g;

	(void)state;
	assert_int_equal(gate_parse("function:std::map<int, int>::find>5%,slowdown", &g), 0);
	assert_int_equal(g->nterms, 2);
	assert_string_equal(g->terms[0].name, "std::map<int, int>::find");
	assert_float_equal(g->terms[0].amount, 5, 0);
	assert_int_equal(g->terms[1].scope, GATE_SLOWDOWN);
	gate_free(g);
}

static void test_gate__refuses_what_is_no_term(void **state)
{
	struct gate *g = (struct gate *)1;

	(void)state;
	assert_int_equal(gate_parse("slowdwon", &g), -1);
	assert_null(g);
	assert_int_equal(gate_parse("function>10", &g), -1);     /* no unit */
	assert_int_equal(gate_parse("function>-1%", &g), -1);
	assert_int_equal(gate_parse("everything>1s", &g), -1);
	assert_int_equal(gate_parse("slowdown,,any", &g), -1);
	assert_int_equal(gate_parse("", &g), -1);
}

static void test_gate__slowdown_fails_on_a_significant_slower_row(void **state)
{
	size_t n;

	(void)state;
	assert_true(judge("slowdown", &n));
	assert_int_equal(n, 2); /* solve, io; parse is within noise */
	assert_true(judge("any", &n));
	assert_int_equal(n, 3); /* init too */
}

/* parse is 0.6 s (30%) slower but within noise: no threshold gates it. */
static void test_gate__differences_within_noise_never_fail(void **state)
{
	static struct gate_row only_noise[] = {
		{ "parse", "parse", 2.0, 2.6, 2.0, 0.6, 0, "within noise" },
	};
	struct gate_input in = input4();
	struct gate *g;
	struct gate_result r;

	(void)state;
	in.rows = only_noise;
	in.nrows = 1;
	assert_int_equal(gate_parse("slowdown,any,function>0%,total>0s", &g), 0);
	assert_int_equal(gate_judge(g, &in, &r), 0);
	assert_false(r.failed);
	assert_int_equal(r.nslower, 0);
	gate_result_release(&r);
	gate_free(g);
}

static void test_gate__function_thresholds_in_percent_and_seconds(void **state)
{
	size_t n;

	(void)state;
	assert_true(judge("function>20%", &n)); /* solve +25% */
	assert_int_equal(n, 1);
	assert_false(judge("function>25%", NULL));
	assert_true(judge("function>4%", &n));  /* io +5% too */
	assert_int_equal(n, 2);
	assert_true(judge("function>0.9s", &n));
	assert_int_equal(n, 1);
	assert_false(judge("function>1s", NULL));
	assert_false(judge("function>1000ms", NULL));
}

static void test_gate__a_named_function_is_matched_by_either_name(void **state)
{
	(void)state;
	assert_false(judge("function:io>10%", NULL));
	assert_true(judge("function:io>4%", NULL));
	assert_true(judge("function:_Z5solvev>0.5s", NULL));
	assert_false(judge("function:init>0s", NULL)); /* faster */
	assert_false(judge("function:nosuch>0s", NULL));
}

/* total: the significant rows' net, 1.0 - 0.5 + 0.1 = 0.6 s of 10 s. */
static void test_gate__total_is_the_net_of_the_significant_rows(void **state)
{
	struct gate *g;
	struct gate_input in = input4();
	struct gate_result r;

	(void)state;
	assert_true(judge("total>5%", NULL));
	assert_false(judge("total>6%", NULL));
	assert_true(judge("total>0.5s", NULL));
	assert_false(judge("total>0.6s", NULL));
	assert_int_equal(gate_parse("total>1%", &g), 0);
	assert_int_equal(gate_judge(g, &in, &r), 0);
	assert_float_equal(r.net_slower_sec, 0.6, 1e-12);
	assert_int_equal(r.nslower, 2);
	assert_int_equal(r.nfaster, 1);
	assert_int_equal(r.nhits, 1);
	assert_float_equal(r.hits[0].pct, 6, 1e-9);
	gate_result_release(&r);
	gate_free(g);
}

/* Two runs of one build with every row equal (the same gmon file twice):
 * no gate fails, deterministically. */
static void test_gate__an_identical_pair_passes_every_gate(void **state)
{
	static struct gate_row same[] = {
		{ "solve", "solve", 4.0, 4.0, 4.0, 0, 0, "equal" },
		{ "init", "init", 2.0, 2.0, 2.0, 0, 0, "equal" },
	};
	struct gate_input in = input4();
	struct gate *g;
	struct gate_result r;

	(void)state;
	in.rows = same;
	in.nrows = 2;
	assert_int_equal(gate_parse("any,slowdown,function>0%,total>0%", &g), 0);
	assert_int_equal(gate_judge(g, &in, &r), 0);
	assert_false(r.failed);
	gate_result_release(&r);
	gate_free(g);
}

static void test_gate__change_text_says_which_way(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(gate_change_text(buf, sizeof(buf), 1.0, 4.0), "1.00 s slower (+25.0%)");
	assert_string_equal(gate_change_text(buf, sizeof(buf), -0.5, 2.0), "0.50 s faster (-25.0%)");
	assert_string_equal(gate_change_text(buf, sizeof(buf), 0.3, 0), "0.30 s slower (new)");
	assert_string_equal(gate_change_text(buf, sizeof(buf), 0, 2.0), "equal");
	/* under a hundredth of a second: milliseconds, never "0.00 s slower" */
	assert_string_equal(gate_change_text(buf, sizeof(buf), 0.004, 2.0), "4.0 ms slower (+0.2%)");
}

/* The summary: the gate's verdict, the significant rows largest first in
 * a markdown table (a '|' in a name escaped), nothing within noise. */
static void test_summary__lists_significant_rows_in_a_markdown_table(void **state)
{
	struct gate *g;
	struct gate_input in = input4();
	struct gate_result r;
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);
	const char *label[2] = { "old/app gmon.1", "new/app gmon.2" };

	(void)state;
	assert_non_null(fp);
	assert_int_equal(gate_parse("function>20%", &g), 0);
	assert_int_equal(gate_judge(g, &in, &r), 0);
	assert_int_equal(diff_summary_write(fp, &in, g, &r, label), 0);
	fclose(fp);
	assert_non_null(strstr(text, "### egprof: `old/app gmon.1` vs `new/app gmon.2`\n"));
	assert_non_null(strstr(text, "**Regression gate `function>20%`: failed** (1 finding)"));
	assert_non_null(strstr(text, "| Function | Baseline | Second run | Change | Evidence |\n"
				     "|---|---|---|---|---|\n"
				     "| solve | 4.00 s | 5.00 s | 1.00 s slower (+25.0%) | time |\n"
				     "| init | 2.00 s | 1.50 s | 0.50 s faster (-25.0%) | time |\n"
				     "| io | 2.00 s | 2.10 s | 0.10 s slower (+5.0%) | calls x2 |\n"));
	assert_null(strstr(text, "parse"));
	assert_non_null(strstr(text, "2 functions significantly slower, 1 faster"));
	free(text);
	gate_result_release(&r);
	gate_free(g);
}

static void test_summary__says_when_nothing_changed(void **state)
{
	static struct gate_row same[] = {
		{ "a|b", "x", 4.0, 4.0, 4.0, 0, 0, "equal" },
	};
	struct gate_input in = input4();
	struct gate_result r;
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);
	const char *label[2] = { "a", "b" };

	(void)state;
	in.rows = same;
	in.nrows = 1;
	assert_int_equal(gate_judge(NULL, &in, &r), 0);
	assert_int_equal(diff_summary_write(fp, &in, NULL, &r, label), 0);
	fclose(fp);
	assert_non_null(strstr(text, "No significant change.\n"));
	assert_null(strstr(text, "Regression gate"));
	free(text);
	gate_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate__parses_every_form),
		cmocka_unit_test(test_gate__names_may_hold_brackets_and_commas),
		cmocka_unit_test(test_gate__refuses_what_is_no_term),
		cmocka_unit_test(test_gate__slowdown_fails_on_a_significant_slower_row),
		cmocka_unit_test(test_gate__differences_within_noise_never_fail),
		cmocka_unit_test(test_gate__function_thresholds_in_percent_and_seconds),
		cmocka_unit_test(test_gate__a_named_function_is_matched_by_either_name),
		cmocka_unit_test(test_gate__total_is_the_net_of_the_significant_rows),
		cmocka_unit_test(test_gate__an_identical_pair_passes_every_gate),
		cmocka_unit_test(test_gate__change_text_says_which_way),
		cmocka_unit_test(test_summary__lists_significant_rows_in_a_markdown_table),
		cmocka_unit_test(test_summary__says_when_nothing_changed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
