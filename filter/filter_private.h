#ifndef EGPROF_FILTER_PRIVATE_H
#define EGPROF_FILTER_PRIVATE_H
/* Shared by filter.c and filter_ctt.c; not for other modules. */
#include "filter/filter.h"

/* --focus's or --root's function, or NULL. */
const char *filter_start_name(const struct filter_opts *f);
/* name is one of --exclude's (NULL is not). */
int filter_is_excluded(const struct filter_opts *f, const char *name);
/* "OPT 'NAME': no such function in the WHERE", reported; -1. */
int filter_name_missing(const char *opt, const char *name, const char *where);

#endif
