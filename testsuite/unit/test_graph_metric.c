/*
 * test_graph_metric.c - an event per function and per arc for the graph
 * exports (callpath/graph_metric.c): values in events (overflows times the
 * period), a cycle's members taken as one function (a recursion between
 * them counted once), and a diff's verdicts for functions and arcs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/arcs.h"
#include "callpath/graph_metric.h"
#include "callpath/report.h"
#include "utils/banned.h"

/* A model of an event counted every `period`: paths with their self
 * overflows, every frame at call site "s". */
static struct callpath_model *model_of(const char *const *paths, const uint64_t *overflows,
				       size_t n, uint64_t period)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t site;

	assert_non_null(m);
	site = callpath_model_intern(m, "s");
	for (size_t i = 0; i < n; i++) {
		char buf[256], *save = NULL, *tok;
		uint32_t parent = CALLPATH_NONE, idx = CALLPATH_NONE;

		snprintf(buf, sizeof(buf), "%s", paths[i]);
		for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
			uint32_t f = callpath_model_intern(m, tok);

			assert_int_equal(callpath_model_add(m, parent, f, site, 1, &idx), 0);
			parent = idx;
		}
		callpath_model_add_samples(m, idx, overflows[i]);
	}
	snprintf(m->metric.name, sizeof(m->metric.name), "perf::PAGE-FAULTS");
	snprintf(m->metric.unit, sizeof(m->metric.unit), "events");
	m->metric.period = period;
	m->metric.estimated = period > 1;
	m->hz = 1.0 / (double)period;
	m->sampling = 1;
	return m;
}

/* ping and pong call each other (gprof's cycle): as one function their
 * inclusive events are the outermost frame's, not the sum of theirs */
static void test_graph_metric__events_per_function_and_cycle_counted_once(void **state)
{
	static const char *const paths[] = { "main;ping", "main;ping;pong", "main;ping;pong;ping",
					     "main;ping;pong;ping;leaf", "main;other" };
	static const uint64_t ov[] = { 1, 2, 4, 8, 16 };
	struct callpath_model *m = model_of(paths, ov, 5, 10);
	struct callpath_arcs *arcs;
	struct graph_metric *gm;
	double self, total;

	(void)state;
	assert_int_equal(callpath_arcs_build(m, &arcs), 0);
	assert_int_equal(graph_metric_build((const struct callpath_model *const[]){ m },
					    (const struct callpath_arcs *const[]){ arcs }, 1, 2.0,
					    &gm), 0);
	graph_metric_value(gm, 0, (const char *const[]){ "ping" }, 1, &self, &total);
	assert_true(self == 50 && total == 150);	/* (1 + 4) x 10; once: 15 x 10 */
	graph_metric_value(gm, 0, (const char *const[]){ "pong" }, 1, &self, &total);
	assert_true(self == 20 && total == 140);
	graph_metric_value(gm, 0, (const char *const[]){ "ping", "pong" }, 2, &self, &total);
	assert_true(self == 70 && total == 150);	/* not 150 + 140 */
	graph_metric_value(gm, 0, (const char *const[]){ "main" }, 1, &self, &total);
	assert_true(self == 0 && total == 310);
	graph_metric_value(gm, 0, (const char *const[]){ "never" }, 1, &self, &total);
	assert_true(self == 0 && total == 0);
	assert_true(graph_metric_total(gm, 0) == 310);
	assert_int_equal(graph_metric_changed(gm, "ping", 1), 0);	/* no diff */
	graph_metric_free(gm);
	callpath_arcs_free(arcs);
	callpath_model_free(m);
}

/* big's events doubled, the others' did not: big and the call into it are
 * beyond the noise, the others not */
static void test_graph_metric__diff_verdicts_of_functions_and_arcs(void **state)
{
	static const char *const paths[] = { "main;big;leaf", "main;w1", "main;w2", "main;w3",
					     "main;w4" };
	static const uint64_t a[] = { 2000, 500, 500, 500, 500 };
	static const uint64_t b[] = { 1000, 505, 498, 502, 495 };
	struct callpath_model *ma = model_of(paths, a, 5, 10), *mb = model_of(paths, b, 5, 10);
	struct callpath_arcs *aa, *ab;
	struct graph_metric *gm;
	double self, total;

	(void)state;
	assert_int_equal(callpath_arcs_build(ma, &aa), 0);
	assert_int_equal(callpath_arcs_build(mb, &ab), 0);
	assert_int_equal(graph_metric_build((const struct callpath_model *const[]){ ma, mb },
					    (const struct callpath_arcs *const[]){ aa, ab }, 2, 2.0,
					    &gm), 0);
	graph_metric_value(gm, 1, (const char *const[]){ "big" }, 1, &self, &total);
	assert_true(self == 0 && total == 10000);
	assert_int_equal(graph_metric_changed(gm, "big", 1), 1);
	assert_int_equal(graph_metric_changed(gm, "big", 0), 0);	/* no self events */
	assert_int_equal(graph_metric_changed(gm, "leaf", 0), 1);
	assert_int_equal(graph_metric_changed(gm, "w1", 0), 0);
	assert_int_equal(graph_metric_arc_changed(gm, "main", "big"), 1);
	assert_int_equal(graph_metric_arc_changed(gm, "big", "leaf"), 1);
	assert_int_equal(graph_metric_arc_changed(gm, "main", "w2"), 0);
	assert_int_equal(graph_metric_arc_changed(gm, "main", "none"), 0);
	graph_metric_free(gm);
	callpath_arcs_free(aa);
	callpath_arcs_free(ab);
	callpath_model_free(ma);
	callpath_model_free(mb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph_metric__events_per_function_and_cycle_counted_once),
		cmocka_unit_test(test_graph_metric__diff_verdicts_of_functions_and_arcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
