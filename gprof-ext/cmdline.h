#ifndef EGPROF_CMDLINE_H
#define EGPROF_CMDLINE_H
/*
 * Splitting a gprof command line the way upstream's getopt_long will parse
 * it: which arguments are options (and which option each is), which are
 * option arguments, and which are operands (image and gmon files).  Uses
 * upstream's own option table (upstream_option_spec), so it cannot drift.
 *
 * Ownership: a struct cmdline points into the argv it was built from (which
 * must outlive it) and owns its arrays; cmdline_release() frees them.
 */
#include <stddef.h>

struct cmdline_opt {
	int val;           /* the short option character, or upstream's value */
	const char *name;  /* the long option name, or NULL for a short one */
	const char *arg;   /* its argument, or NULL */
	int argi;          /* index in argv where the option starts */
};

struct cmdline {
	char **args;       /* argv elements that are options or their arguments */
	size_t nargs;
	char **operands;   /* the rest, in order */
	size_t noperands;
	struct cmdline_opt *opts;
	size_t nopts;
};

/* 0, or -1 after reporting an option upstream would refuse (or no memory). */
int cmdline_split(struct cmdline *cl, int argc, char **argv);
/* The same, but an option upstream would refuse is not reported: for
 * looking ahead at a command line that upstream itself will reject. */
int cmdline_split_quiet(struct cmdline *cl, int argc, char **argv);
void cmdline_release(struct cmdline *cl);

/* "-x" or "--name", for messages. */
const char *cmdline_opt_spelling(const struct cmdline_opt *o, char *buf, size_t n);

/*
 * Which upstream options a mode (--diff, --rank-stats) accepts: one table,
 * each row an option accepted (why NULL) or refused with its reason.  An
 * option is matched by its long name when the row has one (long-only
 * options), else by its short character.
 */
struct cmdline_rule {
	int val;           /* the short option character; 0 with a name */
	const char *name;  /* a long-only option's name, else NULL */
	const char *why;   /* NULL: accepted; else why it is refused */
};

/*
 * Report the first option of `cl` that `rules` does not accept, as
 * "option '-s' cannot be used with --diff (WHY)", with `other_why` for
 * options not in the table.  0 when all are accepted, else -1.
 */
int cmdline_check(const struct cmdline *cl, const char *mode,
		  const struct cmdline_rule *rules, size_t nrules,
		  const char *other_why);

#endif
