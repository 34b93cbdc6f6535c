/*
 * elide.c - deep call paths printed with their middle left out (elide.h).
 */
#include "model/elide.h"

#include <stdlib.h>
#include <string.h>

#include "utils/banned.h"

#define ELLIPSIS "\xe2\x80\xa6" /* U+2026, valid UTF-8: printable everywhere */

size_t elide_count(char *buf, uint64_t v)
{
	char digits[32], *p = digits + sizeof(digits);
	size_t n;
	int group = 0;

	do {
		if (group++ == 3) {
			*--p = ',';
			group = 1;
		}
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (size_t)(digits + sizeof(digits) - p);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

size_t elide_marker(char *buf, uint64_t omitted)
{
	static const char open[] = ELLIPSIS "(";
	const char *close = omitted == 1 ? " frame)" ELLIPSIS : " frames)" ELLIPSIS;
	size_t n = sizeof(open) - 1, k;

	memcpy(buf, open, n);
	n += elide_count(buf + n, omitted);
	k = strlen(close);
	memcpy(buf + n, close, k + 1);
	return n + k;
}

int path_elider_init(struct path_elider *pe, uint32_t n, const uint32_t *parent,
		     uint32_t none)
{
	pe->parent = parent;
	pe->none = none;
	pe->depth = malloc(((size_t)n + 1) * sizeof(*pe->depth));
	pe->anchor = malloc(((size_t)n + 1) * sizeof(*pe->anchor));
	if (!pe->depth || !pe->anchor) {
		path_elider_release(pe);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = parent[i];

		pe->depth[i] = p == none ? 1 : pe->depth[p] + 1;
		if (pe->depth[i] < ELIDE_HEAD)
			pe->anchor[i] = none;
		else if (pe->depth[i] == ELIDE_HEAD)
			pe->anchor[i] = i;
		else
			pe->anchor[i] = pe->anchor[p];
	}
	return 0;
}

void path_elider_release(struct path_elider *pe)
{
	free(pe->depth);
	free(pe->anchor);
	pe->depth = pe->anchor = NULL;
}

/* The `count` frames ending at node, root first, into out[0 .. count). */
static void walk_up(const struct path_elider *pe, uint32_t node, uint32_t count,
		    uint32_t *out)
{
	while (count)
		out[--count] = node, node = pe->parent[node];
}

uint32_t path_elider_line(const struct path_elider *pe, uint32_t node,
			  uint32_t extra, uint32_t *frames, uint32_t *omitted)
{
	uint32_t more = extra != pe->none, depth = pe->depth[node] + more;

	*omitted = elide_omitted(depth);
	if (!*omitted) {
		walk_up(pe, node, depth - more, frames);
		if (more)
			frames[depth - 1] = extra;
		return depth;
	}
	/* depth - more >= ELIDE_FRAMES >= ELIDE_HEAD: node has its anchor */
	walk_up(pe, pe->anchor[node], ELIDE_HEAD, frames);
	walk_up(pe, node, ELIDE_TAIL - more, frames + ELIDE_HEAD);
	if (more)
		frames[ELIDE_FRAMES - 1] = extra;
	return ELIDE_FRAMES;
}

uint32_t path_elider_frames(const struct path_elider *pe, uint32_t node,
			    uint32_t *frames, uint32_t *omitted)
{
	return path_elider_line(pe, node, pe->none, frames, omitted);
}
