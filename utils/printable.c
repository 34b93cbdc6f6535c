/*
 * Printable names (printable.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "utils/printable.h"
#include "utils/banned.h"

/*
 * Length of the valid UTF-8 character at s that XML 1.0 allows (and every
 * reader of ours displays), 0 when it is not one: control characters (but
 * tab), bytes of no or a broken sequence, overlong forms, surrogates and
 * the noncharacters U+FFFE and U+FFFF.
 */
size_t printable_char(const unsigned char *s)
{
	uint32_t c = s[0], min;
	size_t n, i;

	if (c < 0x80)
		return (c >= 0x20 && c != 0x7f) || c == '\t' ? 1 : 0;
	if (c >= 0xc2 && c < 0xe0)
		n = 2, min = 0x80, c &= 0x1f;
	else if (c >= 0xe0 && c < 0xf0)
		n = 3, min = 0x800, c &= 0x0f;
	else if (c >= 0xf0 && c < 0xf5)
		n = 4, min = 0x10000, c &= 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c < 0xe000) ||
	    c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

/*
 * Make *s printable text (graph.h): every byte that is not part of such a
 * character becomes the four characters \xNN, so a name is still told
 * apart from its neighbours and no writer can be broken by it.
 */
int printable_fix(char **s)
{
	const unsigned char *p;
	char *out, *o;
	size_t extra = 0, k;

	if (!*s)
		return 0;
	for (p = (const unsigned char *)*s; *p; p += k ? k : 1)
		if (!(k = printable_char(p)))
			extra += 3;
	if (!extra)
		return 0;
	out = o = malloc(strlen(*s) + extra + 1);
	if (!out)
		return -1;
	for (p = (const unsigned char *)*s; *p; p += k ? k : 1) {
		k = printable_char(p);
		if (k) {
			memcpy(o, p, k);
			o += k;
		} else {
			snprintf(o, 5, "\\x%02x", *p);
			o += 4;
		}
	}
	*o = '\0';
	free(*s);
	*s = out;
	return 0;
}

