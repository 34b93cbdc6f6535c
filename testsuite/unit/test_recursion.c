/* test_recursion.c - the frame that made a folded node's recursive calls
 * (model/recursion.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/recursion.h"
#include "utils/banned.h"

#define NONE UINT32_MAX
enum { MAIN, A, B, C, D };

/*
 *   0 main
 *   1 └ a
 *   2   ├ b
 *   3   │ └ c
 *   4   ├ (folded a, from c)     maker: 3, the one c under a
 *   5   ├ (folded a, from a)     direct recursion: maker 1, a itself
 *   6   ├ (folded a, from d)     no d under a: unknown
 *   7   └ (folded a, outside)    unknown
 */
static void test_recursion__the_one_frame_of_the_caller_under_the_fold_made_the_calls(void **state)
{
	uint32_t parent[] = { NONE, 0, 1, 2, 1, 1, 1, 1 }, maker[8];
	uint64_t func[] = { MAIN, A, B, C, A, A, A, A };
	unsigned char folded[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	uint64_t caller[] = { 0, 0, 0, 0, C, A, D, RECURSION_UNKNOWN };

	(void)state;
	assert_int_equal(recursion_makers(8, parent, NONE, func, folded, caller, maker), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(maker[i], NONE);
	assert_int_equal(maker[4], 3);
	assert_int_equal(maker[5], 1);
	assert_int_equal(maker[6], NONE);
	assert_int_equal(maker[7], NONE);
}

/*
 *   0 main
 *   1 ├ a
 *   2 │ ├ b
 *   3 │ │ └ c
 *   4 │ ├ d
 *   5 │ │ └ c
 *   6 │ └ (folded a, from c)     two c under a: unknown
 *   7 └ b
 *   8   └ c                      a c elsewhere does not count
 *   9 a2 (a top-level a)
 *  10 └ c
 *  11 └ (folded a, from c)       one c under this a: 10
 */
static void test_recursion__two_frames_of_the_caller_leave_the_maker_unknown(void **state)
{
	uint32_t parent[] = { NONE, 0, 1, 2, 1, 4, 1, 0, 7, NONE, 9, 9 }, maker[12];
	uint64_t func[] = { MAIN, A, B, C, D, C, A, B, C, A, C, A };
	unsigned char folded[] = { 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	uint64_t caller[] = { 0, 0, 0, 0, 0, 0, C, 0, 0, 0, 0, C };

	(void)state;
	assert_int_equal(recursion_makers(12, parent, NONE, func, folded, caller, maker), 0);
	assert_int_equal(maker[6], NONE);
	assert_int_equal(maker[11], 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recursion__the_one_frame_of_the_caller_under_the_fold_made_the_calls),
		cmocka_unit_test(test_recursion__two_frames_of_the_caller_leave_the_maker_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
