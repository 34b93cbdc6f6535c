#ifndef EGPROF_FILTER_MODELS_H
#define EGPROF_FILTER_MODELS_H
/*
 * filter/filter.h's call-graph rules applied to the models the outputs
 * read: a profile's functions (diff/profile.h) and a differential
 * profile's entries (diff/diff.h).  Names are as gprof prints them
 * (print_name); cycles as a whole are kept with any of their members.
 *
 *   char *in = malloc(p->nsyms);
 *   if (filter_profile(&f, p, in) < 0) ...          in[i]: keep syms[i]
 *
 *   struct diff view;
 *   if (filter_diff_view(&f, d, &view) < 0) ...     a diff of the kept
 *   diff_export(..., &view, ...);                   entries and arcs
 *   filter_diff_view_release(&view);
 *
 * A view shares d's strings, profiles and per-rank arrays (d must outlive
 * it); it owns only its entry and arc arrays.  moved_peer indexes are
 * remapped (-1 when the peer was left out).  Both return 0, or -1
 * reported.
 */
#include "filter/filter.h"

struct profile;
struct diff;

int filter_profile(const struct filter_opts *f, const struct profile *p, char *in);
int filter_diff_entries(const struct filter_opts *f, const struct diff *d, char *in);
int filter_diff_view(const struct filter_opts *f, const struct diff *d, struct diff *view);
void filter_diff_view_release(struct diff *view);

#endif
