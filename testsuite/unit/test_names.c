/* test_names.c - the one naming rule of every output (utils/names.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "utils/names.h"
#include "utils/banned.h"

#define E "\xe2\x80\xa6"

#define SORT_F "void sort_points<float>(std::vector<Point<float>, std::allocator<Point<float> > >&)"
#define SORT_D "void sort_points<double>(std::vector<Point<double>, std::allocator<Point<double> > >&)"
/* two clones that differ only three levels down */
#define INS(T) "void std::__insertion_sort<__gnu_cxx::__normal_iterator<Point<" T ">*, " \
	"std::vector<Point<" T ">, std::allocator<Point<" T "> > > >, cmp>" \
	"(__gnu_cxx::__normal_iterator<Point<" T ">*, std::vector<Point<" T ">, " \
	"std::allocator<Point<" T "> > > >, cmp) [clone .isra.0]"

static void test_name_shorten__keeps_the_levels_asked_for(void **state)
{
	char *s;

	(void)state;
	s = name_shorten(SORT_F, 0);
	assert_string_equal(s, "void sort_points<" E ">(std::vector<" E ">&)");
	free(s);
	s = name_shorten(SORT_F, 1);
	assert_string_equal(s, "void sort_points<float>(std::vector<Point<" E ">, std::allocator<"
			       E "> >&)");
	free(s);
	s = name_shorten("bool operator< <int>(Box<int> const&)", 1);
	assert_string_equal(s, "bool operator< <int>(Box<int> const&)");
	free(s);
	s = name_shorten("a<b", 0);	/* unbalanced: as it is */
	assert_string_equal(s, "a<b");
	free(s);
}

static void test_name_map__instantiations_stay_distinct(void **state)
{
	const char *names[] = { SORT_F, SORT_D, INS("float"), INS("double"), "main",
				"std::vector<int, std::allocator<int> >::push_back(int const&)",
				SORT_F };
	struct name_map *nm = name_map_new();
	const char *a, *b;

	(void)state;
	assert_non_null(nm);
	assert_int_equal(name_map_add_all(nm, names, 7), 0);
	a = name_map_short(nm, SORT_F);
	b = name_map_short(nm, SORT_D);
	assert_string_equal(a, "void sort_points<float>(std::vector<Point<" E ">, std::allocator<"
			       E "> >&)");
	assert_string_equal(b, "void sort_points<double>(std::vector<Point<" E ">, std::allocator<"
			       E "> >&)");
	a = name_map_short(nm, INS("float"));
	b = name_map_short(nm, INS("double"));
	assert_string_not_equal(a, b);
	assert_non_null(strstr(a, "float"));
	assert_non_null(strstr(a, "[clone .isra.0]"));
	assert_true(strlen(a) < strlen(INS("float")));
	/* a name without a twin loses every argument */
	assert_string_equal(name_map_short(nm, names[5]), "std::vector<" E ">::push_back(int const&)");
	assert_string_equal(name_map_short(nm, "main"), "main");
	name_map_free(nm);
}

static void test_name_map__the_order_given_does_not_matter(void **state)
{
	const char *one[] = { SORT_F, SORT_D }, *two[] = { SORT_D, SORT_F };
	struct name_map *x = name_map_new(), *y = name_map_new();

	(void)state;
	assert_int_equal(name_map_add_all(x, one, 2), 0);
	assert_int_equal(name_map_add_all(y, two, 2), 0);
	assert_string_equal(name_map_short(x, SORT_F), name_map_short(y, SORT_F));
	assert_string_equal(name_map_short(x, SORT_D), name_map_short(y, SORT_D));
	name_map_free(x);
	name_map_free(y);
}

static void test_name_map__a_later_name_never_takes_a_given_short_name(void **state)
{
	const char *one[] = { SORT_F };
	struct name_map *nm = name_map_new();
	const char *a, *b;

	(void)state;
	assert_int_equal(name_map_add_all(nm, one, 1), 0);
	a = name_map_short(nm, SORT_F);
	assert_string_equal(a, "void sort_points<" E ">(std::vector<" E ">&)");
	b = name_map_short(nm, SORT_D);
	assert_string_not_equal(a, b);
	assert_string_equal(name_map_short(nm, SORT_D), b);	/* remembered */
	name_map_free(nm);
}

static void test_name_wrap__breaks_long_names_and_keeps_short_ones(void **state)
{
	char *s;
	size_t longest = 0, line = 0, lines = 1;

	(void)state;
	s = name_wrap("main", 20, 4);
	assert_string_equal(s, "main");
	free(s);
	s = name_wrap(INS("float"), 30, 3);
	for (const char *c = s; *c; c++) {
		if (*c == '\n') {
			lines++;
			line = 0;
		} else if (++line > longest) {
			longest = line;
		}
	}
	assert_true(lines <= 3);
	assert_true(longest < 80);	/* the first break comes at 71 */
	assert_non_null(strstr(s, "[clone .isra.0]"));	/* the suffix stays */
	assert_non_null(strstr(s, E));	/* it said it left some out */
	assert_memory_equal(s, "void std::__insertion_sort<", 27);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_shorten__keeps_the_levels_asked_for),
		cmocka_unit_test(test_name_map__instantiations_stay_distinct),
		cmocka_unit_test(test_name_map__the_order_given_does_not_matter),
		cmocka_unit_test(test_name_map__a_later_name_never_takes_a_given_short_name),
		cmocka_unit_test(test_name_wrap__breaks_long_names_and_keeps_short_ones),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
