#ifndef EGPROF_PROGRESS_H
#define EGPROF_PROGRESS_H
/*
 * A progress line for long commands ("rank files: 412/1024 (40%)") on
 * stderr, only when stderr is a terminal and the work has lasted over a
 * second: tests, pipes and quick runs stay clean.  The line is rewritten in
 * place (carriage return) at most ten times a second and erased at the end.
 *
 * When the user asks for progress (--progress) and stderr is a file or a
 * pipe (a batch job's log), whole lines are written instead, one every
 * `every` seconds once the work has lasted `delay`, and one at the end
 * with the time taken ("rank files: 100000/100000 (100%) in 109.2 s").
 *
 *   struct progress pg;
 *   progress_start(&pg, NULL, "rank files", n);   NULL: the defaults
 *   ... progress_update(&pg, done); ...
 *   progress_end(&pg);
 */
#include <stdint.h>
#include <stdio.h>

struct progress_opts {
	FILE *out;        /* NULL: stderr */
	int tty;          /* 1 show, 0 never, -1: when `out` is a terminal */
	double delay;     /* seconds before the first line */
	int log;          /* 1 whole lines (a log), 0 one line rewritten in
			     place, -1: lines unless `out` is a terminal */
	double every;     /* with log: seconds between lines */
};
#define PROGRESS_OPTS_INIT { NULL, -1, 1.0, 0, 10.0 }
/* --progress: shown whatever stderr is, as lines in a log */
#define PROGRESS_OPTS_ASKED { NULL, 1, 1.0, -1, 10.0 }

struct progress {
	struct progress_opts o;
	const char *what;   /* borrowed */
	uint64_t total, done;
	double start, last; /* monotonic seconds */
	int shown;          /* length of the line on screen, 0 when none */
};

void progress_start(struct progress *pg, const struct progress_opts *o, const char *what,
		    uint64_t total);
void progress_update(struct progress *pg, uint64_t done);
void progress_end(struct progress *pg);

#endif
