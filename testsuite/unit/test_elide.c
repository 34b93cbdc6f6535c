/* test_elide.c - deep paths printed with their middle left out
 * (model/elide.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/elide.h"
#include "utils/banned.h"

#define NONE UINT32_MAX

static void test_elide__counts_are_grouped_by_thousands(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(elide_count(buf, 0), 1);
	assert_string_equal(buf, "0");
	elide_count(buf, 999);
	assert_string_equal(buf, "999");
	elide_count(buf, 19969);
	assert_string_equal(buf, "19,969");
	elide_count(buf, UINT64_MAX);
	assert_string_equal(buf, "18,446,744,073,709,551,615");
}

static void test_elide__the_marker_says_how_many_frames_are_left_out(void **state)
{
	char buf[ELIDE_MARKER_MAX];

	(void)state;
	assert_int_equal(elide_marker(buf, 1), strlen("\xe2\x80\xa6(1 frame)\xe2\x80\xa6"));
	assert_string_equal(buf, "\xe2\x80\xa6(1 frame)\xe2\x80\xa6");
	elide_marker(buf, 19969);
	assert_string_equal(buf, "\xe2\x80\xa6(19,969 frames)\xe2\x80\xa6");
	assert_true(elide_marker(buf, UINT64_MAX) < ELIDE_MARKER_MAX);
}

/* a chain 0 <- 1 <- 2 ... of n nodes, and a second root n with one child */
static uint32_t *chain(uint32_t n)
{
	uint32_t *parent = malloc((n + 2) * sizeof(*parent));

	assert_non_null(parent);
	for (uint32_t i = 0; i < n; i++)
		parent[i] = i ? i - 1 : NONE;
	parent[n] = NONE;
	parent[n + 1] = n;
	return parent;
}

static void test_elide__paths_up_to_32_frames_are_whole(void **state)
{
	uint32_t *parent = chain(100), frames[ELIDE_FRAMES], omitted, k;
	struct path_elider pe;

	(void)state;
	assert_int_equal(path_elider_init(&pe, 102, parent, NONE), 0);
	k = path_elider_frames(&pe, 31, frames, &omitted);
	assert_int_equal(k, 32);
	assert_int_equal(omitted, 0);
	for (uint32_t d = 0; d < 32; d++)
		assert_int_equal(frames[d], d);
	k = path_elider_frames(&pe, 101, frames, &omitted);
	assert_int_equal(k, 2);
	assert_int_equal(frames[0], 100);
	assert_int_equal(frames[1], 101);
	path_elider_release(&pe);
	free(parent);
}

static void test_elide__deeper_paths_keep_16_frames_each_side(void **state)
{
	uint32_t *parent = chain(100), frames[ELIDE_FRAMES], omitted, k;
	struct path_elider pe;

	(void)state;
	assert_int_equal(path_elider_init(&pe, 102, parent, NONE), 0);
	/* node 99: depth 100, frames 0..15, then 84..99 */
	k = path_elider_frames(&pe, 99, frames, &omitted);
	assert_int_equal(k, 32);
	assert_int_equal(omitted, 68);
	for (uint32_t d = 0; d < 16; d++) {
		assert_int_equal(frames[d], d);
		assert_int_equal(frames[16 + d], 84 + d);
	}
	/* depth 33: one frame left out */
	path_elider_frames(&pe, 32, frames, &omitted);
	assert_int_equal(omitted, 1);
	/* a path and one more node (a folded line): 101 frames */
	k = path_elider_line(&pe, 99, 101, frames, &omitted);
	assert_int_equal(k, 32);
	assert_int_equal(omitted, 69);
	assert_int_equal(frames[15], 15);
	assert_int_equal(frames[16], 85);
	assert_int_equal(frames[30], 99);
	assert_int_equal(frames[31], 101);
	/* 31 frames and one more: whole */
	k = path_elider_line(&pe, 30, 101, frames, &omitted);
	assert_int_equal(k, 32);
	assert_int_equal(omitted, 0);
	assert_int_equal(frames[30], 30);
	assert_int_equal(frames[31], 101);
	path_elider_release(&pe);
	free(parent);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elide__counts_are_grouped_by_thousands),
		cmocka_unit_test(test_elide__the_marker_says_how_many_frames_are_left_out),
		cmocka_unit_test(test_elide__paths_up_to_32_frames_are_whole),
		cmocka_unit_test(test_elide__deeper_paths_keep_16_frames_each_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
