#ifndef EGPROF_GATE_H
#define EGPROF_GATE_H
/*
 * The regression gate of --diff (--fail-on EXPR): do the significant
 * differences of an assessed diff cross the thresholds a team set?  CI
 * runs `gprof --diff --fail-on ...` on a baseline and a new build and
 * fails the build on the gate's exit status (GATE_EXIT_STATUS).
 *
 * The gate judges only what the diff's one significance rule already
 * decided (diff/signif.h, diff/evidence.h): a row counts when its verdict
 * is significant, with the size and direction of its evidence.  So the
 * chance that a gate fails on two runs of the same build is at most the
 * rule's family-wise error, that of K sigmas (--noise K): 4.6% at 2,
 * 0.27% at 3, 0.006% at 4; a threshold only lowers it.
 *
 * EXPR is one or more terms joined by commas; the gate fails when any
 * term does:
 *
 *   slowdown            any function significantly slower
 *   any                 any significant difference, either way
 *   function>AMOUNT     a function significantly slower by more than AMOUNT
 *   function:NAME>AMOUNT   the same for the function NAME only
 *   total>AMOUNT        the significant differences add up to a slowdown
 *                       of more than AMOUNT of the baseline's total time
 *
 * AMOUNT is a number with a unit: % (of that function's baseline time, or
 * of the baseline's total), s or ms.  ">=" is accepted for ">".
 *
 * The gate sees the diff through gate_row (below), not struct diff: the
 * adapter (diff/gate_diff.c) is the one place that reads the diff's
 * fields, so the gate follows the diff wherever its model goes.
 *
 *   struct gate *g;
 *   if (gate_parse("function>10%,total>2%", &g) < 0) ... reported
 *   struct gate_input in;  ... gate_input_from_diff(&in, d) ...
 *   struct gate_result r;
 *   gate_judge(g, &in, &r);       r.failed, r.hits[]
 *   gate_report(g, &in, &r);      one line per hit on stderr
 *   gate_result_release(&r); gate_input_release(&in); gate_free(g);
 */
#include <stddef.h>

/* main's exit status when a gate failed and everything else succeeded. */
#define GATE_EXIT_STATUS 3

enum gate_scope {
	GATE_SLOWDOWN,  /* any significant slowdown */
	GATE_ANY,       /* any significant difference */
	GATE_FUNCTION,  /* a function (or the one named) beyond an amount */
	GATE_TOTAL,     /* the net significant slowdown beyond an amount */
};

enum gate_unit { GATE_SECONDS, GATE_PERCENT };

struct gate_term {
	enum gate_scope scope;
	char *name;          /* function:NAME, else NULL */
	double amount;       /* seconds, or percent */
	enum gate_unit unit;
	char *text;          /* the term as given, for messages */
};

struct gate {
	struct gate_term *terms;
	size_t nterms;
	char *expr;          /* as given */
};

/* 0 and *out (free with gate_free), or -1 after reporting what is wrong
 * with EXPR and what it may be. */
int gate_parse(const char *expr, struct gate **out);
void gate_free(struct gate *g);

/* One row of the assessed diff: a function, or time outside the program
 * (a library), never a cycle as a whole. */
struct gate_row {
	const char *name;      /* as the diff prints it */
	const char *symbol;    /* its symbol name (mangled), or NULL;
				  function:NAME matches either */
	double base_sec;       /* the seconds the diff's test judged, per
				  run: the baseline's */
	double second_sec;     /* the second run's */
	double ref_sec;        /* the baseline's at the runs' common speed:
				  what a percentage of the function is of */
	double slower_sec;     /* > 0: the second run is slower by this
				  much (the diff's evidence, signed: its time
				  at the common speed, or what a change of
				  calls implies); < 0 faster */
	int significant;       /* the diff's verdict */
	char why[64];          /* the evidence in a few words */
};

struct gate_input {
	struct gate_row *rows; /* owned */
	size_t nrows;
	double base_total_sec; /* the baseline's total seconds, per run */
	double second_total_sec;
	double ref_total_sec;  /* the baseline's total at the common speed:
				  what a percentage of the total is of */
	double runs;           /* the second side's repeated runs each
				  second is per (1: one run, or ranks) */
	double speed;          /* the runs' common speed (second / baseline)
				  the diff judged at; 1 when none */
	double noise_sigmas;   /* K */
	double alpha;          /* the rule's family-wise error */
	size_t nfunctions;     /* rows tested */
};
void gate_input_release(struct gate_input *in);

struct gate_hit {
	size_t term;           /* index into g->terms */
	size_t row;            /* index into in->rows, or (size_t)-1 for
				  a total */
	double sec;            /* how much slower (or different), seconds */
	double pct;            /* in percent of the baseline's time (of the
				  row or the total); INFINITY when it had
				  none */
};

struct gate_result {
	int failed;
	struct gate_hit *hits; /* owned; the largest first within a term */
	size_t nhits;
	size_t nslower, nfaster; /* significant rows each way */
	double net_slower_sec; /* sum of the significant rows' slower_sec */
};

/* 0, or -1 when out of memory (reported). */
int gate_judge(const struct gate *g, const struct gate_input *in, struct gate_result *r);
/* A failed gate's hits on stderr, one line each (at most 10, then a
 * count), naming the function, its change and the term it crossed. */
void gate_report(const struct gate *g, const struct gate_input *in,
		 const struct gate_result *r);
void gate_result_release(struct gate_result *r);

/* "0.52 s slower (+35.1%)", "0.10 s faster (-12.0%)", "equal": a row's
 * change for messages and the summary, ref_sec what the percentage is of
 * (buf of 64 bytes or more). */
const char *gate_change_text(char *buf, size_t n, double slower_sec, double ref_sec);

/*
 * The adapter (diff/gate_diff.c): the rows of an assessed diff (after
 * diff_assess) as the gate sees them.  Seconds are per run of a side of
 * repeated runs.  0, or -1 when out of memory (reported).
 */
struct diff;
int gate_input_from_diff(struct gate_input *in, const struct diff *d);

#endif
