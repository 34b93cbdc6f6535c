/*
 * folded.c - folded stacks for flame graphs, and their two-column diff.
 */
#include "callpath/folded.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

static char *stack_text(const struct callpath_model *m, uint32_t idx, uint32_t *buf)
{
	uint32_t depth = callpath_model_path(m, idx, buf, m->nr_frames);
	size_t len = 1, off = 0;
	char *s;

	for (uint32_t d = 0; d < depth; d++)
		len += strlen(m->names[m->frames[buf[d]].func]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (uint32_t d = 0; d < depth; d++)
		off += (size_t)snprintf(s + off, len - off, "%s%s", d ? ";" : "",
					m->names[m->frames[buf[d]].func]);
	return s;
}

static int cmp_stacks(const void *a, const void *b)
{
	return strcmp(((const struct folded_stack *)a)->stack,
		      ((const struct folded_stack *)b)->stack);
}

int folded_build(const struct callpath_model *m, struct folded **out)
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
		if (!m->frames[i].count)
			continue;
		f->stacks[f->nr].stack = stack_text(m, i, buf);
		if (!f->stacks[f->nr].stack)
			goto oom;
		f->stacks[f->nr++].count = m->frames[i].count;
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

static int save(const char *path, const struct folded *f, const struct pathdiff *d)
{
	struct outfile of;
	int rc;

	if (outfile_open(&of, path) < 0)
		return -1;
	rc = f ? folded_write(of.fp, f) : folded_write_diff(of.fp, d);
	if (rc < 0) {
		int e = errno;

		outfile_abort(&of);
		return error("%s: cannot write: %s", path, strerror(e ? e : EIO));
	}
	return outfile_commit(&of);
}

int folded_save(const char *path, const struct folded *f)
{
	return save(path, f, NULL);
}

int folded_save_diff(const char *path, const struct pathdiff *d)
{
	return save(path, NULL, d);
}
