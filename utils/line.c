#define _GNU_SOURCE /* fwrite_unlocked */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "utils/line.h"
#include "utils/fixed.h"
#include "utils/error.h"
#include "utils/banned.h"

int line_grow(struct line *l, size_t n)
{
	size_t na;
	char *ns;

	if (n > SIZE_MAX / 4 - l->len) { /* the doubling would wrap */
		l->failed = 1;
		return -1;
	}
	na = 2 * (l->len + n + 1);
	if (na < 256)
		na = 256;
	ns = realloc(l->s, na);
	if (!ns) {
		l->failed = 1;
		return -1;
	}
	l->s = ns;
	l->alloc = na;
	return 0;
}

int line_spaces(struct line *l, size_t n)
{
	if (line_reserve(l, n) < 0)
		return -1;
	memset(l->s + l->len, ' ', n);
	l->len += n;
	return 0;
}

/* s (n bytes) padded to |width| columns: on the left for width > 0, on the
 * right for width < 0. */
static int put_aligned(struct line *l, const char *s, size_t n, int width)
{
	size_t w = width < 0 ? (size_t)-(long)width : (size_t)width;
	size_t pad = w > n ? w - n : 0;

	if (line_reserve(l, n + pad) < 0)
		return -1;
	if (width > 0) {
		memset(l->s + l->len, ' ', pad);
		l->len += pad;
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
	if (width < 0) {
		memset(l->s + l->len, ' ', pad);
		l->len += pad;
	}
	return 0;
}

int line_pad(struct line *l, const char *s, int width)
{
	return put_aligned(l, s, strlen(s), width);
}

char *line_u64_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

int line_int(struct line *l, long long v, int width)
{
	char buf[24], *end = buf + sizeof(buf), *p;
	/* the magnitude without overflow at LLONG_MIN */
	uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	p = line_u64_digits(end, m);
	if (v < 0)
		*--p = '-';
	return put_aligned(l, p, (size_t)(end - p), width);
}

int line_uint(struct line *l, unsigned long long v, int width)
{
	char buf[24], *end = buf + sizeof(buf), *p = line_u64_digits(end, v);

	return put_aligned(l, p, (size_t)(end - p), width);
}

int line_fixed(struct line *l, double v, int width, int prec)
{
	if (line_reserve(l, FIXED_MAX) < 0)
		return -1;
	l->len += fixed_format(l->s + l->len, v, width, prec);
	return 0;
}

int line_fixed_plus(struct line *l, double v, int prec)
{
	if (line_reserve(l, FIXED_MAX + 1) < 0)
		return -1;
	if (!isfinite(v)) {
		/* "+inf", "-nan": printf's own words */
		int n = snprintf(l->s + l->len, FIXED_MAX + 1, "%+.*f", prec, v);

		l->len += n > 0 ? (size_t)n : 0;
		return 0;
	}
	if (!signbit(v))
		l->s[l->len++] = '+';
	l->len += fixed_format(l->s + l->len, v, 0, prec);
	return 0;
}

int line_flush(struct line *l, FILE *out)
{
	int ret = 0;

	if (l->failed)
		ret = -1;
	else if (l->len && fwrite_unlocked(l->s, 1, l->len, out) != l->len)
		ret = -1;
	l->len = 0;
	return ret;
}

int line_flush_over(struct line *l, FILE *out, size_t bytes)
{
	return l->len >= bytes || l->failed ? line_flush(l, out) : 0;
}

int line_finish(struct line *l, FILE *out)
{
	int oom;

	line_flush(l, out);
	oom = l->failed;
	line_release(l);
	return oom ? error("out of memory") : 0;
}

void line_release(struct line *l)
{
	free(l->s);
	l->s = NULL;
	l->len = l->alloc = 0;
	l->failed = 0;
}
