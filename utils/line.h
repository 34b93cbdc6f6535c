#ifndef EGPROF_LINE_H
#define EGPROF_LINE_H
/*
 * Text assembled in memory, then written with one fwrite: reports of tens
 * of thousands of rows (the diff's tables, the path report) spent most of
 * their printing in stdio's per-call locking and printf's parsing of its
 * format, field by field.  Each appender writes exactly what the printf
 * conversion named beside it writes (test_line compares them), numbers
 * through utils/fixed.h.
 *
 *   struct line l = LINE_INIT;
 *   line_int(&l, -3, 7);            printf("%7lld", -3LL)
 *   line_fixed(&l, 0.5, 8, 2);      printf("%8.2f", 0.5)
 *   line_str(&l, name);
 *   line_char(&l, '\n');
 *   line_flush(&l, stdout);         writes it, empties l
 *   line_release(&l);
 *
 * Out of memory, an appender returns -1 and the line remembers it until
 * line_release: line_flush then writes nothing and returns -1, so a
 * printer may check l.failed once per line instead of every field, and
 * line_finish reports it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct line {
	char *s;
	size_t len, alloc;
	int failed;     /* an appender ran out of memory */
};

#define LINE_INIT { NULL, 0, 0, 0 }

/* The growing part of line_reserve. */
int line_grow(struct line *l, size_t n);

/*
 * The appenders called for every field of a million-row report are inline:
 * as calls into line.c they cost a tenth of the path report's time.
 */

/* Room for n more bytes (and a NUL) at s + len; 0 or -1. */
static inline int line_reserve(struct line *l, size_t n)
{
	return l->len + n + 1 <= l->alloc ? 0 : line_grow(l, n);
}

static inline int line_put(struct line *l, const char *s, size_t n)
{
	if (line_reserve(l, n) < 0)
		return -1;
	memcpy(l->s + l->len, s, n);
	l->len += n;
	return 0;
}

static inline int line_str(struct line *l, const char *s)  /* "%s" */
{
	return line_put(l, s, strlen(s));
}

static inline int line_char(struct line *l, char c)        /* "%c" */
{
	if (line_reserve(l, 1) < 0)
		return -1;
	l->s[l->len++] = c;
	return 0;
}

int line_spaces(struct line *l, size_t n);               /* "%*s", n, "" */
/* "%*s" of s: right-aligned in width columns, left-aligned when width is
 * negative ("%-*s"); never cut. */
int line_pad(struct line *l, const char *s, int width);
/* "%*lld" of v (left-aligned, "%-*lld", when width is negative) */
int line_int(struct line *l, long long v, int width);
/* "%*llu" of v (left-aligned when width is negative) */
int line_uint(struct line *l, unsigned long long v, int width);
/* "%*.*f" of v, width 0..FIXED_MAX_WIDTH, prec 0..3 (utils/fixed.h) */
int line_fixed(struct line *l, double v, int width, int prec);
/* "%+.*f" of v, prec 0..3 */
int line_fixed_plus(struct line *l, double v, int prec);

/* Write the text and empty the line: 0, or -1 when a write failed or an
 * appender had run out of memory (nothing written). */
int line_flush(struct line *l, FILE *out);
/* line_flush once the text holds at least `bytes`: many short lines per
 * fwrite.  Reports pass LINE_FLUSH_BYTES: a block that large goes straight
 * to write() instead of through stdio's 4 KiB buffer. */
#define LINE_FLUSH_BYTES (256 * 1024)
int line_flush_over(struct line *l, FILE *out, size_t bytes);
/* The end of a report's text: written (a write error shows in ferror(out),
 * for whoever closes it), and the line released.  0, or -1 when an
 * appender had run out of memory (reported). */
int line_finish(struct line *l, FILE *out);
void line_release(struct line *l);

/* v's decimal digits, ending at `end`; returns where they start (at most
 * 20 bytes before end). */
char *line_u64_digits(char *end, uint64_t v);

#endif
