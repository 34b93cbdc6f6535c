/* Unit tests for printable names (utils/printable.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "utils/printable.h"
#include "utils/banned.h"

static char *fixed(const char *in)
{
	char *s = strdup(in);

	assert_non_null(s);
	assert_int_equal(printable_fix(&s), 0);
	return s;
}

static void check(const char *in, const char *want)
{
	char *s = fixed(in);

	assert_string_equal(s, want);
	free(s);
}

static void test_printable__plain_and_valid_utf8_names_are_kept(void **state)
{
	(void)state;
	check("main", "main");
	check("ns::f(int, char const*) <a;b> \"q\" &\\", "ns::f(int, char const*) <a;b> \"q\" &\\");
	check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	check("tab\there", "tab\there");
}

static void test_printable__control_characters_become_hex_escapes(void **state)
{
	(void)state;
	check("new\nline", "new\\x0aline");
	check("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
	check("cr\r", "cr\\x0d");
}

static void test_printable__bad_utf8_bytes_become_hex_escapes(void **state)
{
	(void)state;
	check("\xff", "\\xff");
	check("a\xc3", "a\\xc3");               /* cut short */
	check("\xc0\xaf", "\\xc0\\xaf");         /* overlong '/' */
	check("\xed\xa0\x80", "\\xed\\xa0\\x80"); /* a surrogate */
	check("\xef\xbf\xbe", "\\xef\\xbf\\xbe"); /* U+FFFE */
	check("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
}

static void test_printable__null_stays_null(void **state)
{
	char *s = NULL;

	(void)state;
	assert_int_equal(printable_fix(&s), 0);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printable__plain_and_valid_utf8_names_are_kept),
		cmocka_unit_test(test_printable__control_characters_become_hex_escapes),
		cmocka_unit_test(test_printable__bad_utf8_bytes_become_hex_escapes),
		cmocka_unit_test(test_printable__null_stays_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
