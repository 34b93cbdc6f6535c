#include <time.h>
#include <unistd.h>
#include "utils/progress.h"
#include "utils/banned.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *pg, const struct progress_opts *o, const char *what,
		    uint64_t total)
{
	static const struct progress_opts defaults = PROGRESS_OPTS_INIT;

	pg->o = o ? *o : defaults;
	if (!pg->o.out)
		pg->o.out = stderr;
	if (pg->o.tty < 0)
		pg->o.tty = isatty(fileno(pg->o.out));
	if (pg->o.log < 0)
		pg->o.log = !isatty(fileno(pg->o.out));
	pg->what = what;
	pg->total = total;
	pg->done = 0;
	pg->start = pg->last = now();
	pg->shown = 0;
}

void progress_update(struct progress *pg, uint64_t done)
{
	double t;
	int len;

	pg->done = done;
	if (!pg->o.tty)
		return;
	t = now();
	if (t - pg->start < pg->o.delay ||
	    (pg->shown && t - pg->last < (pg->o.log ? pg->o.every : 0.1)))
		return;
	pg->last = t;
	if (pg->o.log) {
		fprintf(pg->o.out, "%s: %llu/%llu (%d%%)\n", pg->what,
			(unsigned long long)done, (unsigned long long)pg->total,
			pg->total ? (int)(100.0 * (double)done / (double)pg->total) : 100);
		pg->shown = 1;
		fflush(pg->o.out);
		return;
	}
	len = fprintf(pg->o.out, "\r%s: %llu/%llu (%d%%)", pg->what, (unsigned long long)done,
		      (unsigned long long)pg->total,
		      pg->total ? (int)(100.0 * (double)done / (double)pg->total) : 100);
	if (len > 0 && len - 1 < pg->shown)  /* a shorter line: clear the rest */
		fprintf(pg->o.out, "%*s", pg->shown - (len - 1), "");
	if (len > pg->shown)
		pg->shown = len - 1;
	fflush(pg->o.out);
}

void progress_end(struct progress *pg)
{
	if (pg->o.tty && pg->o.log) {
		/* a log says how it ended */
		fprintf(pg->o.out, "%s: %llu/%llu (%d%%) in %.1f s\n", pg->what,
			(unsigned long long)pg->done, (unsigned long long)pg->total,
			pg->total ? (int)(100.0 * (double)pg->done / (double)pg->total) : 100,
			now() - pg->start);
		fflush(pg->o.out);
		pg->shown = 0;
		return;
	}
	if (!pg->shown)
		return;
	fprintf(pg->o.out, "\r%*s\r", pg->shown, "");
	fflush(pg->o.out);
	pg->shown = 0;
}
