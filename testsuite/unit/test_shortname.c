/* test_shortname.c - C++ names with their template arguments left out
 * (model/shortname.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/shortname.h"
#include "utils/banned.h"

#define E "\xe2\x80\xa6"

static void check(const char *in, const char *want)
{
	char *got = short_name(in);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_short_name__template_arguments_become_an_ellipsis(void **state)
{
	(void)state;
	check("std::vector<int, std::allocator<int> >::push_back(int const&)",
	      "std::vector<" E ">::push_back(int const&)");
	check("void std::__sort<__gnu_cxx::__normal_iterator<int*, std::vector<int, "
	      "std::allocator<int> > >, __gnu_cxx::__ops::_Iter_less_iter>"
	      "(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
	      "__gnu_cxx::__ops::_Iter_less_iter)",
	      "void std::__sort<" E ">(__gnu_cxx::__normal_iterator<" E ">, "
	      "__gnu_cxx::__ops::_Iter_less_iter)");
	check("std::function<void (std::vector<int>)>::operator()(std::vector<int>) const",
	      "std::function<" E ">::operator()(std::vector<" E ">) const");
}

static void test_short_name__names_without_templates_are_unchanged(void **state)
{
	(void)state;
	check("main", "main");
	check("use(Big const&) [clone .constprop.0]", "use(Big const&) [clone .constprop.0]");
	check("(anonymous namespace)::f(int)", "(anonymous namespace)::f(int)");
	check("main._omp_fn.0", "main._omp_fn.0");
	check("", "");
}

static void test_short_name__operators_with_angle_brackets_are_kept(void **state)
{
	(void)state;
	check("operator<<(std::ostream&, Big const&)", "operator<<(std::ostream&, Big const&)");
	check("Big::operator<(Big const&) const", "Big::operator<(Big const&) const");
	check("operator<=>(A const&, A const&)", "operator<=>(A const&, A const&)");
	check("Ptr<int>::operator->() const", "Ptr<" E ">::operator->() const");
	check("bool operator< <int>(Box<int> const&, Box<int> const&)",
	      "bool operator< <" E ">(Box<" E "> const&, Box<" E "> const&)");
	check("x::operator>>=(int)", "x::operator>>=(int)");
	/* a name that merely ends in "operator" is no operator */
	check("myoperator<int>(int)", "myoperator<" E ">(int)");
}

static void test_short_name__unbalanced_brackets_leave_the_name_as_it_is(void **state)
{
	(void)state;
	check("a<b", "a<b");
	check("x>y", "x>y");
	check("f<g<h>", "f<g<h>");
	check("<><><>", "<" E "><" E "><" E ">");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_name__template_arguments_become_an_ellipsis),
		cmocka_unit_test(test_short_name__names_without_templates_are_unchanged),
		cmocka_unit_test(test_short_name__operators_with_angle_brackets_are_kept),
		cmocka_unit_test(test_short_name__unbalanced_brackets_leave_the_name_as_it_is),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
