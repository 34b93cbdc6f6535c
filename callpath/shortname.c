/*
 * shortname.c - C++ names with their template arguments left out
 * (shortname.h).
 */
#include "callpath/shortname.h"

#include <stdlib.h>
#include <string.h>

#include "utils/banned.h"

#define ELLIPSIS "\xe2\x80\xa6"

/* The operators whose names hold '<' or '>', longest first. */
static const char *const angle_ops[] = {
	"<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "->", "<", ">",
};

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Length of the operator token after "operator" at s[i] (the keyword
 * itself included) when it holds '<' or '>', else 0. */
static size_t angle_operator(const char *s, size_t i)
{
	static const char kw[] = "operator";
	size_t k = sizeof(kw) - 1;

	if (strncmp(s + i, kw, k) || (i && ident_char(s[i - 1])))
		return 0;
	for (size_t j = 0; j < sizeof(angle_ops) / sizeof(angle_ops[0]); j++) {
		size_t n = strlen(angle_ops[j]);

		if (!strncmp(s + i + k, angle_ops[j], n))
			return k + n;
	}
	return 0;
}

/* Index of the '>' closing the '<' at s[i], or 0 when it does not close. */
static size_t closing(const char *s, size_t i)
{
	size_t depth = 0;

	for (size_t j = i; s[j]; j++) {
		size_t op = angle_operator(s, j);

		if (op) {
			j += op - 1;
			continue;
		}
		if (s[j] == '<') {
			depth++;
		} else if (s[j] == '>') {
			if (--depth == 0)
				return j;
		}
	}
	return 0;
}

char *short_name(const char *name)
{
	size_t len = strlen(name), n = 0;
	char *out = malloc(3 * len + 8);	/* "<>" becomes 5 bytes */

	if (!out)
		return NULL;
	for (size_t i = 0; name[i];) {
		size_t op = angle_operator(name, i), end;

		if (op) {
			memcpy(out + n, name + i, op);
			n += op;
			i += op;
			continue;
		}
		if (name[i] != '<') {
			out[n++] = name[i++];
			continue;
		}
		end = closing(name, i);
		if (!end) {
			/* unbalanced: not a demangled C++ name */
			memcpy(out, name, len + 1);
			return out;
		}
		memcpy(out + n, "<" ELLIPSIS ">", sizeof(ELLIPSIS) + 1);
		n += sizeof(ELLIPSIS) + 1;
		i = end + 1;
	}
	out[n] = '\0';
	return out;
}
