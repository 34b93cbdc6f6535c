/*
 * folded.c - folded stacks for flame graphs, and their two-column diff.
 */
#include "callpath/folded.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/printable.h"
#include "utils/banned.h"

/*
 * A frame of a folded line: ';' separates frames and a line ends at a
 * newline, so a ';' in a name is written ':' (as flamegraph's
 * stackcollapse scripts do) and what is not printable text
 * (utils/printable.h: control characters, bad UTF-8) as \xNN.  Spaces stay
 * (C++ names have them): flamegraph.pl takes the count after the last one.
 * Writes the frame at out (when not NULL); returns its length.
 */
static size_t put_frame(char *out, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n = 0, k;

	for (; *p; p += k ? k : 1) {
		k = printable_char(p);
		if (!k) {
			if (out)
				snprintf(out + n, 5, "\\x%02x", *p);
			n += 4;
		} else if (out) {
			memcpy(out + n, p, k);
			if (*p == ';')
				out[n] = ':';
			n += k;
		} else {
			n += k;
		}
	}
	return n;
}

/*
 * "main;b;c": the functions of frame idx's path.  A folded-recursion frame
 * is one line per call site whatever the depth: its parent's path, the
 * function that made the recursive calls unless it is the callee itself,
 * and the callee ("main;fib;fib 2692536", "main;even;odd;even 54"), so that
 * the last two frames of every line are the (caller, callee) of its calls.
 */
static char *stack_text(const struct callpath_model *m, uint32_t idx, uint32_t *buf)
{
	const struct callpath_frame *f = &m->frames[idx];
	uint32_t depth = callpath_model_path(m, idx, buf, m->nr_frames);
	const char *caller = NULL;
	size_t len = 1, off = 0;
	char *s;

	if (f->folded && strcmp(m->names[f->caller], m->names[f->func]))
		caller = m->names[f->caller];
	for (uint32_t d = 0; d < depth; d++)
		len += put_frame(NULL, m->names[m->frames[buf[d]].func]) + 1;
	if (caller)
		len += put_frame(NULL, caller) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	for (uint32_t d = 0; d < depth; d++) {
		if (d == depth - 1 && caller) {
			s[off++] = ';';
			off += put_frame(s + off, caller);
		}
		if (d)
			s[off++] = ';';
		off += put_frame(s + off, m->names[m->frames[buf[d]].func]);
	}
	s[off] = '\0';
	return s;
}

static int cmp_stacks(const void *a, const void *b)
{
	return strcmp(((const struct folded_stack *)a)->stack,
		      ((const struct folded_stack *)b)->stack);
}

int folded_build(const struct callpath_model *m, enum folded_value value,
		 struct folded **out)
{
	struct folded *f = calloc(1, sizeof(*f));
	uint32_t *buf = malloc(((size_t)m->nr_frames + 1) * sizeof(*buf));
	size_t w = 0;

	*out = NULL;
	if (!f || !buf)
		goto oom;
	f->stacks = calloc((size_t)m->nr_frames + 1, sizeof(*f->stacks));
	if (!f->stacks)
		goto oom;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		uint64_t v = value == FOLDED_SAMPLES ? m->frames[i].samples
			     : m->frames[i].folded ? m->frames[i].recursive
						   : m->frames[i].count;

		if (!v)
			continue;
		f->stacks[f->nr].stack = stack_text(m, i, buf);
		if (!f->stacks[f->nr].stack)
			goto oom;
		f->stacks[f->nr++].count = v;
	}
	qsort(f->stacks, f->nr, sizeof(*f->stacks), cmp_stacks);
	/* the same names through different call sites: one line */
	for (size_t r = 0; r < f->nr; r++) {
		if (w && !strcmp(f->stacks[w - 1].stack, f->stacks[r].stack)) {
			f->stacks[w - 1].count += f->stacks[r].count;
			free(f->stacks[r].stack);
			continue;
		}
		f->stacks[w++] = f->stacks[r];
	}
	f->nr = w;
	free(buf);
	*out = f;
	return 0;
oom:
	free(buf);
	folded_free(f);
	return error("out of memory while folding call paths");
}

void folded_free(struct folded *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++)
		free(f->stacks[i].stack);
	free(f->stacks);
	free(f);
}

int folded_write(FILE *fp, const struct folded *f)
{
	for (size_t i = 0; i < f->nr; i++)
		fprintf(fp, "%s %" PRIu64 "\n", f->stacks[i].stack, f->stacks[i].count);
	return ferror(fp) ? -1 : 0;
}

int folded_write_diff(FILE *fp, const struct pathdiff *d)
{
	for (size_t i = 0; i < d->nr; i++)
		fprintf(fp, "%s %" PRIu64 " %" PRIu64 "\n", d->rows[i].stack,
			d->rows[i].a, d->rows[i].b);
	return ferror(fp) ? -1 : 0;
}

static int write_folded(FILE *fp, const void *f)
{
	return folded_write(fp, f);
}

static int write_folded_diff(FILE *fp, const void *d)
{
	return folded_write_diff(fp, d);
}

int folded_save(struct outset *set, const char *path, const struct folded *f)
{
	return outfile_write(set, path, write_folded, f);
}

int folded_save_diff(struct outset *set, const char *path, const struct pathdiff *d)
{
	return outfile_write(set, path, write_folded_diff, d);
}
