/*
 * The adapter to upstream gprof: the one file that includes upstream's
 * headers and touches its globals.  See upstream.h for the contract.
 */
#include "gprof.h"
#include "libiberty.h"
#include "search_list.h"
#include "source.h"
#include "symtab.h"
#include "cg_arcs.h"
#include "cg_dfn.h"
#include "cg_print.h"
#include "corefile.h"
#include "gmon_io.h"
#include "hist.h"
#include "sym_ids.h"
#include "demangle.h"
#include "getopt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gprof-ext/upstream.h"
#include "model/callpath_model.h"
#include "model/elfsyms.h"
#include "utils/addrsearch.h"
#include "gprof-ext/gmon_owner.h"
#include "diff/clones.h"
#include "diff/match.h"
#include "gprof-ext/loader_watch.h"
#include "utils/bigalloc.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

/* Provided by upstream's gprof.c, compiled with -Dmain=gprof_upstream_main. */
int gprof_upstream_main(int argc, char **argv);
/* Our replacements for the two calls we route through this module. */
int egprof_getopt_long(int argc, char *const *argv, const char *shortopts,
		       const struct option *longopts, int *longind);
void egprof_gmon_out_read(const char *filename);
void egprof_hist_assign_samples(void);
void egprof_gmon_out_write(const char *filename);

/*
 * State of the adapter.  Upstream is a program of globals; these are ours,
 * kept beside them and only here.
 */
static struct upstream_hooks hooks;
static struct outset *sum_stage; /* upstream_stage_sum() */

static struct {
	int probing;                 /* upstream_option_spec() is asking */
	jmp_buf probe_jmp;
	const char *optstring;
	const struct option *longopts;
} spec;

static struct {
	int active;          /* this process is a loader */
	int out_fd;          /* frames go here (loader) or a raw profile (worker) */
	int each;
	int jobs;
	char *const *files;
	size_t nfiles;
	int in_worker;       /* a per-file worker: read only files[worker_index] */
	size_t worker_index;
	int check;           /* check the files belong to the binary first */
	int sidecars_checked; /* ... but not their sidecars: upstream_load */
	const char *binary;
	int clones;          /* add GCC clones to the symbol table (once) */
	int fold_clones;     /* then fold them into their base (the diff) */
	struct loader_watch *watch; /* which file is being read (for stalls) */
	int counts;          /* workers send counts only (upstream_load_counts) */
	int own_file;        /* the loader reads files[worker_index] itself
				(run_workers) and has not sent it yet */
	/* A preforked loader's file names (upstream_load_prefork): in the
	 * request the front end wrote to shared memory, file i at
	 * file_base + file_off[i], instead of `files` */
	const char *file_base;
	const uint64_t *file_off;
	/* The binary's function symbols with their sizes (padding_credit),
	 * read once before the workers fork, so that they share them */
	struct elf_funcs *funcs;
	/* Two files (the one-binary diff): the loader reads both itself, in
	 * turn (read_in_turn), from upstream's state before the first,
	 * kept here */
	int in_turn;
	struct {
		long hz;
		int gmon_input, output_style, files_started;
		double hist_scale;
		unsigned int numarcs;	/* -k specs' arcs (sym_id_parse) */
	} before_read;
} loader;

static int check_gmon_files(const char *binary, size_t n, char *const *files,
			    int sidecars_checked);

/* gmon file i of the loader's request. */
static const char *loader_file(size_t i)
{
	return loader.file_base ? loader.file_base + loader.file_off[i] : loader.files[i];
}

/* ------------------------------------------------------------------------ */
/* Running upstream                                                          */

static void help_at_exit(void)
{
	if (hooks.after_help)
		hooks.after_help(stdout);
}

static void version_at_exit(void)
{
	if (hooks.after_version)
		hooks.after_version(stdout);
}

int egprof_getopt_long(int argc, char *const *argv, const char *shortopts,
		       const struct option *longopts, int *longind)
{
	int c;

	if (spec.probing) {
		spec.optstring = shortopts;
		spec.longopts = longopts;
		longjmp(spec.probe_jmp, 1);
	}
	c = getopt_long(argc, argv, shortopts, longopts, longind);
	/* Upstream prints its help or version and exits; ours follows at exit. */
	if (c == 'h')
		atexit(help_at_exit);
	else if (c == 'v')
		atexit(version_at_exit);
	return c;
}

int upstream_main(int argc, char **argv)
{
	return gprof_upstream_main(argc, argv);
}

void upstream_set_hooks(const struct upstream_hooks *h)
{
	hooks = *h;
}

int upstream_option_spec(const char **optstring, const struct option **longopts)
{
	/* Upstream's main passes its (static) tables to getopt_long before doing
	 * anything else but setlocale and argument-file expansion; stop it there. */
	static char arg0[] = "gprof";
	char *argv[] = { arg0, NULL };

	if (!spec.optstring) {
		spec.probing = 1;
		if (setjmp(spec.probe_jmp) == 0)
			gprof_upstream_main(1, argv);
		spec.probing = 0;
		optind = 1; /* we interrupted a getopt session before it began */
	}
	if (!spec.optstring)
		return error("internal error: upstream gprof did not parse options");
	*optstring = spec.optstring;
	*longopts = spec.longopts;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Upstream's state to our model                                            */

static char *xstrdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The name as upstream's print_name_only() prints it, without the cycle and
 * index suffixes print_name() adds. */
static char *printed_name(const Sym *sym)
{
	const char *name = sym->name;
	char *demangled = NULL;
	char *out;
	size_t n;

	if (!name)
		return strdup("");
	if (!bsd_style_output && demangle) {
		demangled = bfd_demangle(core_bfd, name, DMGL_ANSI | DMGL_PARAMS);
		if (demangled)
			name = demangled;
	}
	if (inline_file_names && sym->file) {
		const char *filename = sym->file->name;
		const char *slash = strrchr(filename, '/');

		if (!print_path && slash)
			filename = slash + 1;
		n = strlen(name) + strlen(filename) + 32;
		out = malloc(n);
		if (out)
			snprintf(out, n, "%s (%s:%d)", name, filename, sym->line_num);
	} else {
		out = strdup(name);
	}
	free(demangled);
	return out;
}

static int in_flat(const Sym *sym)
{
	return sym_lookup(&syms[INCL_FLAT], sym->addr) ||
	       (syms[INCL_FLAT].len == 0 && !sym_lookup(&syms[EXCL_FLAT], sym->addr));
}

/* A symbol's numbers (its strings NULL): what a profile keeps of it. */
static void sym_numbers(struct profile_sym *s, const Sym *sym, unsigned extra_flags)
{
	memset(s, 0, sizeof(*s));
	s->line = sym->line_num;
	s->addr = sym->addr;
	s->end_addr = sym->end_addr;
	s->flags = extra_flags | (sym->is_static ? PSYM_STATIC : 0) |
		   (sym->is_func ? PSYM_FUNC : 0) |
		   (sym->cg.print_flag ? PSYM_IN_GRAPH : 0);
	s->cycle = sym->cg.cyc.num;
	s->cg_index = sym->cg.index;
	s->self_ticks = sym->hist.time;
	s->ncalls = sym->ncalls;
	s->self_calls = sym->cg.self_calls;
	s->prop_self = sym->cg.prop.self;
	s->prop_child = sym->cg.prop.child;
	s->child_ticks = sym->cg.child_time;
}

static int add_sym(struct profile *p, const Sym *sym, unsigned extra_flags,
		   char *print_name)
{
	struct profile_sym s;

	sym_numbers(&s, sym, extra_flags);
	s.name = strdup(sym->name ? sym->name : "");
	s.print_name = print_name;
	s.file = xstrdup_or_null(sym->file ? sym->file->name : NULL);
	if (!s.name || !s.print_name || profile_add_sym(p, &s) < 0) {
		free(s.name);
		free(s.print_name);
		free(s.file);
		return -1;
	}
	return 0;
}

/* The arc from symbol i as a profile arc: 1, or 0 when its child is not a
 * symbol of the table (not kept). */
static int arc_of(struct profile_arc *a, unsigned int i, const Arc *arc)
{
	if (arc->child < symtab.base || arc->child >= symtab.base + symtab.len)
		return 0;
	a->parent = i;
	a->child = (uint32_t)(arc->child - symtab.base);
	a->count = arc->count;
	a->time = arc->time;
	a->child_time = arc->child_time;
	return 1;
}

static size_t kept_arcs(void)
{
	struct profile_arc a;
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < symtab.len; i++)
		for (const Arc *arc = symtab.base[i].cg.children; arc; arc = arc->next_child)
			n += (size_t)arc_of(&a, i, arc);
	return n;
}

/* Local function symbols and the compilation unit each comes from: in an
 * ELF symbol table a FILE entry precedes the local symbols of its unit. */
struct unit_of {
	uint64_t addr;
	const char *unit;     /* BFD's string, alive while core_bfd is */
};

/*
 * The binary's symbol table as BFD gives it: the one upstream's core_init
 * read (core_canonical_syms, gprof-ext/upstream.patch), for the gmon
 * pre-check, the units of static functions and the clone symbols.  Each
 * used to read a copy of its own, and then one shared copy: a second
 * reading of tens of thousands of BFD symbols, a tenth of the loader's
 * page faults in a 20,000-function diff.  NULL (with *n 0) when there is
 * none.
 */
static asymbol **core_bfd_syms(long *n)
{
	if (!core_bfd) {
		*n = 0;
		return NULL;
	}
	return core_canonical_syms(n);
}

static int cmp_unit_of(const void *l, const void *r)
{
	uint64_t a = ((const struct unit_of *)l)->addr, b = ((const struct unit_of *)r)->addr;

	return (a > b) - (a < b);
}

/*
 * The map from static functions to their units, built once per process
 * from the binary's symbol table.  The loader builds it before it forks its
 * per-file workers (units_load() in egprof_gmon_out_read), so they inherit
 * it: a worker reading the symbol table itself would both repeat that work
 * for every rank file and move the file offset BFD's descriptor shares
 * with the other workers, garbling their reads ("invalid string offset").
 */
static struct {
	int loaded;
	struct unit_of *map;
	size_t n;
} units;

/* Without a symbol table or memory the map is empty: units stay unknown
 * (NULL), which only loses a qualifier. */
static void units_load(void)
{
	asymbol **syms;
	struct unit_of *map = NULL;
	const char *unit = NULL;
	long nsyms = 0, i;
	size_t n = 0;

	if (units.loaded)
		return;
	units.loaded = 1;
	syms = core_bfd_syms(&nsyms);
	if (nsyms <= 0 || !(map = malloc((size_t)nsyms * sizeof(*map))))
		goto out;
	for (i = 0; i < nsyms; i++) {
		if (syms[i]->flags & BSF_FILE)
			unit = bfd_asymbol_name(syms[i]);
		else if (unit && (syms[i]->flags & BSF_LOCAL) && (syms[i]->flags & BSF_FUNCTION))
			map[n++] = (struct unit_of){ bfd_asymbol_value(syms[i]), unit };
	}
	qsort(map, n, sizeof(*map), cmp_unit_of);
	units.map = map;
	units.n = n;
	map = NULL;
out:
	free(map);
}

/* Set the unit of every static function of p. */
static void set_units(struct profile *p)
{
	size_t k;

	units_load();
	for (k = 0; k < p->nsyms && units.n; k++) {
		struct unit_of key = { p->syms[k].addr, NULL };
		const struct unit_of *u;

		if (!(p->syms[k].flags & PSYM_STATIC))
			continue;
		u = bsearch(&key, units.map, units.n, sizeof(*units.map), cmp_unit_of);
		if (u)
			p->syms[k].unit = strdup(u->unit);
	}
}

static double histogram_ticks(void)
{
	double total = 0;
	unsigned h;
	bfd_vma i;

	for (h = 0; h < num_histograms; h++)
		for (i = 0; i < histograms[h].num_bins; i++)
			total += histograms[h].sample[i];
	return total;
}

/* What upstream read (enum profile_input).  Arc specs (-k FROM/TO, -q or
 * -Q with FROM/TO) that name functions of the binary make upstream drop
 * arcs as it reads them, so the profile's arcs are not the file's:
 * PROFILE_ARCS_FILTERED. */
static unsigned input_flags(void)
{
	return ((gmon_input & INPUT_HISTOGRAM) ? PROFILE_HAS_HIST : 0) |
	       ((gmon_input & INPUT_CALL_GRAPH) ? PROFILE_HAS_CG : 0) |
	       (syms[INCL_ARCS].len || syms[EXCL_ARCS].len ? PROFILE_ARCS_FILTERED : 0);
}

/* A profile of no symbols with upstream's totals: the head of one. */
static struct profile *current_head(void)
{
	struct profile *p = profile_new();

	if (!p || (a_out_name && !(p->binary = strdup(a_out_name)))) {
		profile_free(p);
		return NULL;
	}
	p->hz = (double)hz;
	p->input = input_flags();
	p->total_ticks = histogram_ticks();
	p->print_ticks = print_time;
	if (num_histograms > 0) {
		p->hist_lowpc = histograms[0].lowpc;
		p->hist_highpc = histograms[0].highpc;
	}
	return p;
}

/* How many cycle symbols follow the table's (gprof's "<cycle N as a
 * whole>", numbered from 1: cg_arcs.c). */
static unsigned int cycle_syms(void)
{
	return cycle_header ? (unsigned int)num_cycles : 0;
}

int upstream_current_profile(struct profile **out)
{
	struct profile *p = current_head();
	unsigned int i;
	int n;

	*out = NULL;
	if (!p)
		return error("out of memory");

	if (profile_reserve(p, symtab.len + cycle_syms(), 0) < 0)
		goto oom;
	for (i = 0; i < symtab.len; i++) {
		const Sym *sym = &symtab.base[i];

		if (add_sym(p, sym, in_flat(sym) ? PSYM_IN_FLAT : 0, printed_name(sym)) < 0)
			goto oom;
	}
	set_units(p);
	for (n = 1; n <= (int)cycle_syms(); n++) {
		char name[64];
		char *pn;

		snprintf(name, sizeof(name), "<cycle %d as a whole>", n);
		pn = strdup(name);
		if (!pn || add_sym(p, &cycle_header[n], PSYM_CYCLE, pn) < 0)
			goto oom;
		free(p->syms[p->nsyms - 1].name);
		p->syms[p->nsyms - 1].name = strdup(name);
		p->syms[p->nsyms - 1].cycle = n;
		if (!p->syms[p->nsyms - 1].name)
			goto oom;
	}
	if (profile_reserve(p, 0, kept_arcs()) < 0)
		goto oom;
	for (i = 0; i < symtab.len; i++) {
		for (const Arc *arc = symtab.base[i].cg.children; arc; arc = arc->next_child) {
			struct profile_arc a;

			if (arc_of(&a, i, arc) && profile_add_arc(p, &a) < 0)
				goto oom;
		}
	}
	*out = p;
	return 0;
oom:
	profile_free(p);
	return error("out of memory");
}

/* ------------------------------------------------------------------------ */
/* Loader processes                                                         */

/*
 * The loader is a child of the front end running upstream's main with the
 * user's options plus -P -Q (which, given last, leave upstream nothing to
 * print while it still assigns samples and assembles the call graph).  It
 * sends frames on its pipe: u64 index, u64 length, the profile bytes; a
 * length of UINT64_MAX says file `index` failed.  With `each`, our
 * gmon_out_read hook forks one worker per file after upstream has read the
 * binary's symbols, so the binary is read once for a thousand rank files.
 */
#define FRAME_FAILED UINT64_MAX

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_frame(int fd, uint64_t index, const char *buf, uint64_t len)
{
	uint64_t hdr[2] = { index, len };

	if (write_all(fd, hdr, sizeof(hdr)) < 0)
		return -1;
	return len == FRAME_FAILED ? 0 : write_all(fd, buf, len);
}

static int serialize_current(char **buf, size_t *len)
{
	struct profile *p;
	int ret;

	if (upstream_current_profile(&p) < 0)
		return -1;
	if (loader.active && loader.clones == 2 && loader.fold_clones &&
	    profile_merge_clones(p) < 0) {
		profile_free(p);
		return -1;
	}
	ret = profile_encode(p, buf, len);
	profile_free(p);
	return ret;
}

/*
 * The symbol table once.  With `each`, before it forks its workers the
 * loader sends the symbol table, as a profile of no counts under the index
 * FRAME_SYMTAB (upstream has read the binary and parsed the -p/-P specs,
 * not yet a gmon file).  The symbols are upstream's symbol table in its
 * order, which every worker inherits unchanged (it is built before the
 * first gmon file is read).  Each worker then sends its profile without
 * the strings of those symbols (send_numbers): the front end takes them
 * from the table (profile_read_mem_names), and folds GCC clones itself.
 * Naming every symbol (demangling, copying four strings) and sending the
 * names was a fifth of each worker's time and the front end's reading in
 * a 20,000-function diff; now it is done once, and both sides of a diff of
 * one binary share one copy of the names.
 *
 * Counts only (upstream_load_counts, for --rank-stats over thousands of
 * files): each worker sends, instead of a whole profile, the counts of the
 * symbols that have any: a tenth of the bytes.
 */
#define FRAME_SYMTAB (UINT64_MAX - 1)

struct counts_head {
	uint64_t nsyms;      /* symbol table size, checked against the table */
	uint64_t n;          /* entries that follow */
	double hz, total_ticks, print_ticks;
	uint64_t input, hist_lowpc, hist_highpc;
};

struct counts_entry {
	uint64_t sym;        /* index into the symbol table */
	double self_ticks;
	uint64_t ncalls, self_calls;
};

static int sink_fd(void *ctx, const void *bytes, size_t n)
{
	return write_all(*(const int *)ctx, bytes, n);
}

/* The symbol table's frame, its bytes streamed as they are encoded. */
static int send_symtab(void)
{
	struct profile *p;
	uint64_t hdr[2];
	int r;

	/* not clone-folded: the workers' numbers follow upstream's table */
	if (upstream_current_profile(&p) < 0)
		return -1;
	hdr[0] = FRAME_SYMTAB;
	hdr[1] = profile_encoded_size(p);
	r = write_all(loader.out_fd, hdr, sizeof(hdr)) < 0 ||
	    profile_encode_to(p, sink_fd, &loader.out_fd) < 0 ? -1 : 0;
	profile_free(p);
	return r;
}

/* A worker's profile without the table's names (see FRAME_SYMTAB), given
 * to ps straight from upstream's symbols: the bytes profile_encode gives for
 * upstream_current_profile's profile with the table's strings left out,
 * without making that profile (megabytes of fresh memory, a fifth of a
 * worker's page faults). */
static void stream_numbers(struct profile_sender *ps, const struct profile *head)
{
	unsigned int i;
	int n;

	profile_send_head(ps, head);
	profile_send_count(ps, (uint64_t)symtab.len + cycle_syms());
	for (i = 0; i < symtab.len; i++) {
		struct profile_sym s;

		sym_numbers(&s, &symtab.base[i], in_flat(&symtab.base[i]) ? PSYM_IN_FLAT : 0);
		profile_send_sym(ps, &s);
	}
	for (n = 1; n <= (int)cycle_syms(); n++) {
		struct profile_sym s;
		char name[64];

		sym_numbers(&s, &cycle_header[n], PSYM_CYCLE);
		snprintf(name, sizeof(name), "<cycle %d as a whole>", n);
		s.name = s.print_name = name;
		s.cycle = n;
		profile_send_sym(ps, &s);
	}
	profile_send_count(ps, kept_arcs());
	for (i = 0; i < symtab.len; i++) {
		for (const Arc *arc = symtab.base[i].cg.children; arc; arc = arc->next_child) {
			struct profile_arc a;

			if (arc_of(&a, i, arc))
				profile_send_arc(ps, &a);
		}
	}
}

/* The length (see struct worker), counted, then the bytes, streamed; from
 * the loader's own file, a frame's header instead of the length. */
static int send_numbers(void)
{
	struct profile *head = current_head();
	struct profile_sender *ps;
	uint64_t hdr[2] = { loader.worker_index, 0 };
	int ret = -1;

	if (!head || !(ps = profile_sender_new(NULL, NULL)))
		goto out;
	stream_numbers(ps, head);
	profile_sender_end(ps, &hdr[1]);
	if ((loader.own_file ? write_all(loader.out_fd, hdr, sizeof(hdr))
			     : write_all(loader.out_fd, &hdr[1], sizeof(hdr[1]))) < 0 ||
	    !(ps = profile_sender_new(sink_fd, &loader.out_fd)))
		goto out;
	stream_numbers(ps, head);
	ret = profile_sender_end(ps, NULL);
out:
	profile_free(head);
	return ret;
}

static int serialize_counts(char **buf, size_t *len)
{
	struct counts_head h;
	struct counts_entry *e;
	unsigned int i;

	memset(&h, 0, sizeof(h));
	*buf = malloc(sizeof(h) + (size_t)symtab.len * sizeof(*e));
	if (!*buf)
		return error("out of memory");
	e = (struct counts_entry *)(*buf + sizeof(h));
	for (i = 0; i < symtab.len; i++) {
		const Sym *sym = &symtab.base[i];

		if (sym->hist.time == 0 && sym->ncalls == 0 && sym->cg.self_calls == 0)
			continue;
		e[h.n].sym = i;
		e[h.n].self_ticks = sym->hist.time;
		e[h.n].ncalls = sym->ncalls;
		e[h.n].self_calls = sym->cg.self_calls;
		h.n++;
	}
	h.nsyms = symtab.len;
	h.hz = (double)hz;
	h.total_ticks = histogram_ticks();
	h.print_ticks = print_time;
	h.input = input_flags();
	if (num_histograms > 0) {
		h.hist_lowpc = histograms[0].lowpc;
		h.hist_highpc = histograms[0].highpc;
	}
	memcpy(*buf, &h, sizeof(h));
	*len = sizeof(h) + (size_t)h.n * sizeof(*e);
	return 0;
}

/*
 * A worker sends its profile's length (u64), then the profile.  The loader
 * relays it to the front end as one frame as soon as the length arrives,
 * with splice(): the bytes go from pipe to pipe without being copied into
 * the loader (which read each profile whole into a growing buffer before:
 * a copy and a page fault per 4 KiB, a third of the loader's time in a
 * 20,000-function diff).  A worker that ends before its length failed; one
 * that ends within its profile leaves a frame cut short, so the loader ends
 * with status 2 and the front end says so.
 */
struct worker {
	pid_t pid;
	int fd;
	size_t index;
	unsigned char len[8]; /* the length, as it arrives */
	size_t nlen;
};

/* The worker's n bytes from its pipe to the front end's; 0, or -1 when the
 * worker's pipe ended first or the front end's could not be written. */
static int relay(int from, int to, uint64_t n)
{
	static char buf[1 << 16];
	int can_splice = 1;

	while (n) {
		size_t want = n < ((uint64_t)1 << 30) ? (size_t)n : (size_t)1 << 30;
		ssize_t r;

		if (can_splice) {
			r = splice(from, NULL, to, NULL, want, SPLICE_F_MOVE);
			if (r < 0 && (errno == EINVAL || errno == ENOSYS)) {
				can_splice = 0; /* not two pipes: copy */
				continue;
			}
		} else {
			r = read(from, buf, want < sizeof(buf) ? want : sizeof(buf));
			if (r > 0 && write_all(to, buf, (size_t)r) < 0)
				return -1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		n -= (uint64_t)r;
	}
	return 0;
}

/*
 * Two files, read in turn by the loader.  A worker per file costs the
 * copies of every page its reading writes: the symbol table's (cg_tally
 * writes the call counts and arcs into it), the heap's; with the loader's
 * own writes after the fork, the one-binary diff at 20,000 functions had
 * 12,800 page faults against 5,000 for one run of gprof, and its CPU time
 * was 1.25 times the run's.  Reading the second file after the first in
 * the same process needs upstream's state as it was before the first
 * read: what reading a file and assembling its call graph change, which
 * reset_for_next_file() puts back.  That state is known for upstream's
 * function-level profile: line granularity (-l: basic-block counts in the
 * symbols), an output style upstream would print for (its printing may
 * mark the symbols) and -d (debug output) keep a worker per file.
 */
extern int dfn_counter, dfn_depth;	/* cg_dfn.c */

static int in_turn_possible(void)
{
	return loader.nfiles == 2 && !line_granularity && output_style == 0 && !debug_level;
}

static void keep_state_before_read(void)
{
	loader.before_read.hz = hz;
	loader.before_read.gmon_input = gmon_input;
	loader.before_read.output_style = output_style;
	loader.before_read.files_started = gmon_files_started;
	loader.before_read.hist_scale = hist_scale;
	loader.before_read.numarcs = numarcs;
}

/*
 * Upstream's state back to before the first file: no histogram, no cycle,
 * only the arcs of -k specs (sym_id_parse puts them in the arcs' table,
 * between the copies of symbols its spec tables hold), every symbol's
 * counts and call-graph fields as sym_init left them (nothing before the
 * first read sets them: add_clone_syms adds symbols only while no arc
 * of the table exists), the first file's globals.  The arcs' table keeps
 * its size (arc_add's static capacity matches it).
 */
static void reset_for_next_file(void)
{
	unsigned int i;

	for (i = loader.before_read.numarcs; i < numarcs; i++)
		free(arcs[i]);
	numarcs = loader.before_read.numarcs;
	for (Sym *sym = symtab.base; sym < symtab.limit; sym++) {
		sym->ncalls = 0;
		sym->hist.time = 0.0;
		memset(&sym->cg, 0, sizeof(sym->cg));
		sym->cg.child_time = 0.0;
		sym->cg.prop.fract = 0.0;
		sym->cg.prop.self = 0.0;
		sym->cg.prop.child = 0.0;
	}
	free(cycle_header);
	cycle_header = NULL;
	num_cycles = 0;
	for (i = 0; i < num_histograms; i++)
		free(histograms[i].sample);
	free(histograms);
	histograms = NULL;
	num_histograms = 0;
	hist_scale = loader.before_read.hist_scale;
	dfn_counter = DFN_NAN;
	dfn_depth = 0;
	hz = loader.before_read.hz;
	gmon_input = loader.before_read.gmon_input;
	output_style = loader.before_read.output_style;
	gmon_files_started = loader.before_read.files_started;
}

/* The loader's next file, read as upstream's main reads one (its steps
 * after the reading: with no output style, those that build the profile). */
static void read_in_turn(size_t i)
{
	reset_for_next_file();
	loader.worker_index = i;
	loader.own_file = 1;
	loader_watch_reading(loader.watch, i);
	gmon_out_read(loader_file(i));
	if (gmon_input & INPUT_HISTOGRAM)
		egprof_hist_assign_samples();
	if (gmon_input & INPUT_CALL_GRAPH)
		cg_assemble();
}

/* The loader's workers, kept while it reads its own file (run_workers). */
static struct relay {
	struct worker *w;
	struct pollfd *pfd;
	size_t next, running;
	int failed;
	size_t own;          /* the file the loader reads itself, or nfiles */
} relay_state;

/* exit() in the loader while it reads its own file (upstream's done(1) on a
 * bad file): say which file failed, as the loader does for a worker. */
static void own_file_failed(void)
{
	if (loader.own_file)
		write_frame(loader.out_fd, loader.worker_index, NULL, FRAME_FAILED);
}

/*
 * Runs in the loader: forks workers, relays their profiles and exits.
 * Returns only in a worker, which goes on in upstream's main, or in the
 * loader when it reads a file itself: when every file has a process at
 * once (no more files than jobs: the one-binary diff's two), the last is
 * read by the loader instead of a worker of its own.  That saves a
 * process, and the loader's writes to the symbol table it shares with the
 * workers mostly land on pages they copied already (a fault, not a copy).
 * It sends its profile (loader_main), then comes back here to relay the
 * workers'.
 */
static void run_workers(void)
{
	struct relay *rs = &relay_state;
	struct worker *w = rs->w;
	struct pollfd *pfd = rs->pfd;
	int i;

	if (!w) {
		w = rs->w = calloc((size_t)loader.jobs, sizeof(*w));
		pfd = rs->pfd = calloc((size_t)loader.jobs, sizeof(*pfd));
		if (!w || !pfd)
			_exit(2);
		rs->own = loader.nfiles >= 2 && loader.nfiles <= (size_t)loader.jobs
			 ? loader.nfiles - 1 : loader.nfiles;
		fflush(NULL);
		if (in_turn_possible()) {
			/* the first file here, the next after it is sent
			 * (loader_main) */
			loader.in_turn = 1;
			keep_state_before_read();
			loader.in_worker = 1;
			loader.own_file = 1;
			loader.worker_index = 0;
			if (atexit(own_file_failed) != 0)
				_exit(2);
			loader_watch_reading(loader.watch, 0);
			gmon_out_read(loader_file(0));
			return; /* back to upstream's main, in the loader */
		}
	}
	while ((rs->next < loader.nfiles && !rs->failed) || rs->running) {
		for (i = 0; i < loader.jobs && rs->next < loader.nfiles && !rs->failed; i++) {
			int fds[2];

			if (rs->next == rs->own) {
				/* the loader's own file: read here, sent by
				 * loader_main, relayed after */
				loader.in_worker = 1;
				loader.own_file = 1;
				loader.worker_index = rs->next++;
				if (atexit(own_file_failed) != 0)
					_exit(2);
				loader_watch_reading(loader.watch, loader.worker_index);
				gmon_out_read(loader_file(loader.worker_index));
				return; /* back to upstream's main, in the loader */
			}
			if (w[i].pid)
				continue;
			if (pipe2(fds, O_CLOEXEC) < 0)
				_exit(2);
			w[i].pid = fork();
			if (w[i].pid < 0)
				_exit(2);
			if (w[i].pid == 0) {
				int j;

				/* A worker holding its siblings' pipes or the
				 * loader's own would keep them open after their
				 * reader is gone: nobody would see EOF or EPIPE. */
				for (j = 0; j < loader.jobs; j++)
					if (w[j].pid)
						close(w[j].fd);
				close(loader.out_fd);
				close(fds[0]);
				loader.in_worker = 1;
				loader.worker_index = rs->next;
				loader.out_fd = fds[1];
				loader_watch_reading(loader.watch, rs->next);
				gmon_out_read(loader_file(rs->next));
				free(w);
				free(pfd);
				rs->w = NULL;
				rs->pfd = NULL;
				return; /* back to upstream's main, in the worker */
			}
			close(fds[1]);
			w[i].fd = fds[0];
			w[i].index = rs->next++;
			w[i].nlen = 0;
			rs->running++;
		}
		for (i = 0; i < loader.jobs; i++) {
			pfd[i].fd = w[i].pid ? w[i].fd : -1;
			pfd[i].events = POLLIN;
		}
		if (poll(pfd, (nfds_t)loader.jobs, -1) < 0 && errno != EINTR)
			_exit(2);
		for (i = 0; i < loader.jobs; i++) {
			int status;
			ssize_t r;

			if (!w[i].pid || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			do
				r = read(w[i].fd, w[i].len + w[i].nlen, sizeof(w[i].len) - w[i].nlen);
			while (r < 0 && errno == EINTR);
			if (r > 0 && (w[i].nlen += (size_t)r) < sizeof(w[i].len))
				continue;
			if (r > 0) {
				/* the length: the frame's header, then its bytes */
				uint64_t hdr[2], len;

				memcpy(&len, w[i].len, sizeof(len));
				hdr[0] = w[i].index;
				hdr[1] = len;
				if (len == FRAME_FAILED || write_all(loader.out_fd, hdr, sizeof(hdr)) < 0 ||
				    relay(w[i].fd, loader.out_fd, len) < 0)
					_exit(2);
			}
			close(w[i].fd);
			waitpid(w[i].pid, &status, 0);
			loader_watch_read(loader.watch, w[i].index);
			if (r <= 0) {
				/* ended before its profile */
				write_frame(loader.out_fd, w[i].index, NULL, FRAME_FAILED);
				rs->failed = 1;
			}
			w[i].pid = 0;
			rs->running--;
		}
	}
	_exit(rs->failed ? 1 : 0);
}

/* A GCC clone's function symbol that upstream left out of its table (no
 * symbol of the table starts at its address). */
static int is_dropped_clone(const asymbol *b)
{
	bfd_vma addr;

	if (!(b->flags & BSF_FUNCTION) || !b->section || !(b->section->flags & SEC_CODE) ||
	    !match_clone_base(bfd_asymbol_name(b), NULL, 0))
		return 0;
	addr = bfd_asymbol_value(b);
	/* upstream kept it, or a symbol at its address */
	return !(sym_lookup(&symtab, addr) && sym_lookup(&symtab, addr)->addr == addr);
}

int upstream_has_dropped_clones(void)
{
	asymbol **bsyms;
	long nb, i;

	if (line_granularity || !core_bfd || !symtab.len)
		return 0;
	bsyms = core_bfd_syms(&nb);
	for (i = 0; i < nb; i++)
		if (is_dropped_clone(bsyms[i]))
			return 1;
	return 0;
}

/*
 * Samples in padding.  glibc's histogram bins are a little under 4 bytes
 * when the text's size is not a multiple of their number (3.993 bytes for
 * a small program), and hist.c, which reads each bin's range rounded down
 * to 2-byte units and gives it to every symbol the range overlaps in
 * proportion (a symbol's range ending where the next begins), gives the
 * bin that holds a function's first instruction (the one every call
 * samples: the prologue, the call to mcount) to the padding before it:
 * crt's frame_dummy, before the program's first function in memory, read
 * 10% of a program's time.  A sample is an instruction's address, never
 * padding.  So the views (not gprof's own text, which stays upstream's)
 * give each bin's samples to the code in its exact range: a symbol's code
 * ends at its ELF size; a symbol without a size (hand-written startup
 * code: frame_dummy, register_tm_clones) is taken to end before a function
 * that starts inside the bin, whose first instruction is the one sampled.
 * A bin with no code by these rules stays as upstream assigned it, and so
 * do the bins inside one function: only bins at a function's boundary
 * change.
 *
 * Returns 1 when some credit moved (moves it when `apply`), 0 none, -1
 * when out of memory.  Skipped with -l (bins by line) and with -f/-F/-e/-E
 * specs of the flat profile (upstream credits only the symbols they keep).
 */
static int padding_credit(int apply)
{
	struct elf_funcs *ef = NULL;
	double *code_high = NULL;
	unsigned int h, i, j, jj;
	size_t k;
	int moved = 0;

	if (line_granularity || !symtab.len || !num_histograms || syms[INCL_FLAT].len ||
	    syms[EXCL_FLAT].len || !a_out_name)
		return 0;
	if (loader.funcs)
		ef = loader.funcs;
	else if (elf_funcs_read(a_out_name, &ef) < 0)
		return -1;
	if (!(code_high = malloc(symtab.len * sizeof(*code_high)))) {
		if (ef != loader.funcs)
			elf_funcs_free(ef);
		return -1;
	}
	/* where each symbol's code ends, in units; -1: no size known.  Both
	 * tables are in address order: one walk finds each symbol's ELF
	 * function (elf_funcs_find's: the last at or below its address, if
	 * its size reaches it) */
	for (j = 0, k = 0; j < symtab.len; j++) {
		bfd_vma addr = symtab.base[j].addr;
		const struct elf_func *f = NULL;

		if (ef && j && addr < symtab.base[j - 1].addr)
			k = addr_search(ef->f, (size_t)ef->n, sizeof(*ef->f),
					offsetof(struct elf_func, addr), addr);
		while (ef && k < ef->n && ef->f[k].addr <= addr)
			k++;
		if (k && addr < ef->f[k - 1].addr + ef->f[k - 1].size)
			f = &ef->f[k - 1];

		code_high[j] = -1;
		if (f && f->addr == symtab.base[j].addr && f->size)
			code_high[j] = MIN((double)(f->addr + f->size) / sizeof(UNIT),
					   (double)symtab.base[j + 1].hist.scaled_addr);
	}
	for (h = 0; h < num_histograms; h++) {
		const histogram *r = &histograms[h];
		bfd_vma lowpc = r->lowpc / sizeof(UNIT);

		for (i = 0, jj = 0; i < r->num_bins; i++) {
			double xl = (double)lowpc + hist_scale * i, xh = (double)lowpc + hist_scale * (i + 1);
			bfd_vma bin_low = lowpc + (bfd_vma)(hist_scale * i);
			bfd_vma bin_high = lowpc + (bfd_vma)(hist_scale * (i + 1));
			double was_sum = 0, code_sum = 0;
			int starts_inside = 0;

			if (!r->sample[i])
				continue;
			while (jj + 1 < symtab.len && symtab.base[jj + 1].hist.scaled_addr <= bin_low &&
			       (double)symtab.base[jj + 1].hist.scaled_addr <= xl)
				jj++;
			/* what upstream gave, and the code in the exact range */
			for (j = jj; j < symtab.len && (double)symtab.base[j].hist.scaled_addr < xh; j++) {
				bfd_vma lo = symtab.base[j].hist.scaled_addr;
				bfd_vma hi = symtab.base[j + 1].hist.scaled_addr;
				double end;

				if (bin_high >= lo && bin_low < hi && MIN(bin_high, hi) > MAX(bin_low, lo))
					was_sum += (double)(MIN(bin_high, hi) - MAX(bin_low, lo));
				if ((double)lo > xl)
					starts_inside = 1;
				end = code_high[j] >= 0 ? code_high[j] : (double)hi;
				if (MIN(xh, end) > MAX(xl, (double)lo))
					code_sum += MIN(xh, end) - MAX(xl, (double)lo);
			}
			if (!starts_inside && code_sum > 0)
				continue; /* inside one function, or sizes agree */
			/* again: an unsized symbol ends where a function starts
			 * inside the bin */
			code_sum = 0;
			for (j = jj; j < symtab.len && (double)symtab.base[j].hist.scaled_addr < xh; j++) {
				double lo = (double)symtab.base[j].hist.scaled_addr, end = code_high[j];

				if (end < 0)
					end = j + 1 < symtab.len &&
					      (double)symtab.base[j + 1].hist.scaled_addr < xh &&
					      (double)symtab.base[j + 1].hist.scaled_addr > xl
					      ? xl : (double)symtab.base[j + 1].hist.scaled_addr;
				if (MIN(xh, end) > MAX(xl, lo))
					code_sum += MIN(xh, end) - MAX(xl, lo);
			}
			if (code_sum <= 0 || was_sum <= 0)
				continue;
			for (j = jj; j < symtab.len && (double)symtab.base[j].hist.scaled_addr < xh; j++) {
				bfd_vma lo = symtab.base[j].hist.scaled_addr;
				bfd_vma hi = symtab.base[j + 1].hist.scaled_addr;
				double was = 0, now = 0, end = code_high[j];

				if (bin_high >= lo && bin_low < hi && MIN(bin_high, hi) > MAX(bin_low, lo))
					was = (double)(MIN(bin_high, hi) - MAX(bin_low, lo));
				if (end < 0)
					end = j + 1 < symtab.len && (double)hi < xh && (double)hi > xl
					      ? xl : (double)hi;
				if (MIN(xh, end) > MAX(xl, (double)lo))
					now = (MIN(xh, end) - MAX(xl, (double)lo)) * was_sum / code_sum;
				if (now - was > 1e-9 || was - now > 1e-9) {
					moved = 1;
					if (apply)
						symtab.base[j].hist.time +=
							(now - was) * r->sample[i] / hist_scale;
				}
			}
		}
	}
	free(code_high);
	if (ef != loader.funcs)
		elf_funcs_free(ef);
	return moved;
}

int upstream_has_padding_samples(void)
{
	return padding_credit(0) > 0;
}

/* gprof.c's call, renamed (gprof-ext/module.mk): upstream's assignment,
 * then, in a load for the views, the padding's share moved to code, before
 * the call graph propagates the times. */
void egprof_hist_assign_samples(void)
{
	hist_assign_samples();
	if (loader.active && padding_credit(1) < 0)
		error("out of memory reading the symbols of '%s'", a_out_name);
}

/*
 * The diff's view of GCC clones (diff/clones.h): upstream's core_sym_class
 * drops foo.isra.0, foo.part.0, foo.cold and the like, so their samples and
 * arcs would go to the function before them in memory.  Before the first
 * gmon file is read (arcs are tallied while reading), give upstream each
 * dropped clone as a symbol of its own; upstream then assigns samples and
 * arcs to it by its own rules, and serialize_current() folds it into its
 * base.  Symbols upstream kept are untouched, so every other function's
 * numbers stay upstream's.  Skipped (upstream's view kept) with line
 * granularity (-l) or arcs from -k specs (which point into the table).
 * 0 when added or skipped, -1 when out of memory (upstream's view kept).
 */
static int add_clone_syms(void)
{
	asymbol **bsyms;
	Sym *base = NULL;
	long nb, i;
	unsigned int k, n = 0;
	int ret = -1;

	if (line_granularity || !core_bfd || !symtab.len)
		return 0;
	for (k = 0; k < symtab.len; k++)
		if (symtab.base[k].cg.children || symtab.base[k].cg.parents)
			return 0;
	bsyms = core_bfd_syms(&nb);
	/* Most programs have no clone upstream dropped: then nothing is
	 * copied (a new table of every symbol was a third of the loader's
	 * page faults at 20,000 functions). */
	for (i = 0, k = 0; i < nb; i++)
		k += (unsigned int)is_dropped_clone(bsyms[i]);
	if (k == 0)
		return 0;
	if (!(base = calloc(symtab.len + (size_t)k + 1, sizeof(Sym))))
		goto out;
	memcpy(base, symtab.base, symtab.len * sizeof(Sym));
	n = symtab.len;
	for (i = 0; i < nb; i++) {
		const asymbol *b = bsyms[i];
		const char *file = NULL, *func = NULL;
		unsigned int line = 0;
		bfd_vma addr;

		if (!is_dropped_clone(b))
			continue;
		addr = bfd_asymbol_value(b);
		sym_init(&base[n]);
		base[n].name = bfd_asymbol_name(b);
		base[n].addr = addr;
		base[n].is_func = true;
		base[n].is_bb_head = true;
		base[n].is_static = (b->flags & BSF_LOCAL) != 0;
		if (bfd_find_nearest_line(core_bfd, b->section, NULL, b->value, &file,
					  &func, &line) && file) {
			base[n].file = source_file_lookup_path(file);
			base[n].line_num = (int)line;
		}
		n++;
	}
	ret = 0;
	if (n == symtab.len)
		goto out;
	/* symtab_finalize sorts, and ends each symbol where the next begins
	 * (the last at the end of the text section, as before). */
	for (k = 0; k < n; k++)
		base[k].end_addr = 0;
	/* The old table stays allocated (the loader ends after one profile);
	 * the spare zeroed entry at the end is where hist.c's scan stops. */
	symtab.base = base;
	symtab.len = n;
	symtab.limit = base + n;
	symtab_finalize(&symtab);
	base = NULL;
out:
	free(base);
	if (ret < 0)
		error("out of memory reading the clones of '%s'", loader.binary);
	return ret;
}

void egprof_gmon_out_read(const char *filename)
{
	/* Upstream has read the binary when it reads the first gmon file: the
	 * moment to refuse files of another program (gmon_owner.h). */
	if (loader.active && loader.check && !loader.in_worker) {
		loader.check = 0;
		if (check_gmon_files(loader.binary, loader.nfiles, NULL,
				     loader.sidecars_checked) < 0)
			_exit(1);
	}
	if (loader.active && loader.clones == 1 && !loader.in_worker)
		loader.clones = add_clone_syms() < 0 ? 0 : 2;
	if (!loader.active || !loader.each) {
		size_t i;

		/* upstream passes on the argv entries loader_main made */
		for (i = 0; loader.active && i < loader.nfiles; i++)
			if (loader_file(i) == filename)
				break;
		loader_watch_reading(loader.watch, i);
		gmon_out_read(filename);
		loader_watch_read(loader.watch, i);
		return;
	}
	if (loader.in_worker)
		return; /* a worker reads its one file, already read */
	units_load(); /* once, for every worker: see `units` */
	/* once too (padding_credit); without them, each reads its own */
	if (!line_granularity && a_out_name && elf_funcs_read(a_out_name, &loader.funcs) < 0)
		loader.funcs = NULL;
	if (send_symtab() < 0)
		_exit(2);
	run_workers();
}

void upstream_stage_sum(struct outset *set)
{
	sum_stage = set;
}

/*
 * Upstream's -s writes gmon.sum by name with fopen.  Staged, it writes the
 * temporary file of an output of the set instead (which is renamed over
 * gmon.sum at commit); a gmon.sum that is not a regular file is written in
 * place, as upstream does.
 */
void egprof_gmon_out_write(const char *filename)
{
	struct outfile *of;

	if (!sum_stage) {
		gmon_out_write(filename);
		return;
	}
	if (outset_open(sum_stage, &of, filename) < 0)
		done(1); /* reported; upstream's way out */
	gmon_out_write(of->kind == OUTFILE_RENAME ? of->tmp_path : filename);
}

/* Runs in the loader child; never returns. */
static void ATTRIBUTE_NORETURN loader_main(const struct upstream_load *req, int out_fd)
{
	static char opt_p[] = "-P", opt_q[] = "-Q";
	size_t argc = 0, i;
	char **argv = calloc(req->nargs + (req->each ? 1 : req->ngmon) + 5, sizeof(char *));
	char *buf = NULL;
	size_t len = 0;
	int devnull;

	if (!argv)
		_exit(2);
	argv[argc++] = (char *)req->argv0;
	for (i = 0; i < req->nargs; i++)
		argv[argc++] = req->gprof_args[i];
	argv[argc++] = opt_p;
	argv[argc++] = opt_q;
	argv[argc++] = (char *)req->binary;
	/*
	 * With `each`, upstream is given the first file only: its call of
	 * gmon_out_read forks the workers for all of them (run_workers), and
	 * a worker, back in upstream's main, has no other operand to loop
	 * over (each of 100,000 workers went through 100,000 operands), nor
	 * an argv of 100,000 pointers to copy at its fork.
	 */
	for (i = 0; i < (req->each ? 1 : req->ngmon); i++)
		argv[argc++] = req->gmon_files ? req->gmon_files[i] : (char *)loader_file(i);

	/* If the front end stops reading (another file failed), writes fail
	 * with EPIPE and we exit quietly instead of dying of SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	loader.active = 1;
	loader.out_fd = out_fd;
	loader.each = req->each;
	loader.jobs = req->jobs > 0 ? req->jobs : 1;
	if (req->gmon_files)
		loader.files = req->gmon_files;
	loader.nfiles = req->ngmon;
	loader.check = !req->force;
	loader.sidecars_checked = req->sidecars_checked;
	loader.binary = req->binary;
	loader.clones = req->clones ? 1 : 0;
	loader.fold_clones = req->clones == UPSTREAM_CLONES_FOLD;
	loader.counts = req->each && req->counts;

	/* Upstream's output goes nowhere; its errors still reach the user. */
	devnull = open("/dev/null", O_WRONLY);
	if (devnull >= 0) {
		fflush(stdout);
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	optind = 0; /* a fresh getopt session: glibc resets on optind == 0 */
	/* nothing reads gprof's "[N]" numbers of a loaded profile: the views
	 * number their own entries */
	cg_assemble_numbers = 0;
	gprof_upstream_main((int)argc, argv);

	/* Upstream returned: its globals hold the profile. */
	while (loader.own_file) {
		/* the loader's own file: its frame, then the workers' or (in
		 * turn) the next file's */
		if ((loader.counts ? serialize_counts(&buf, &len) < 0 ||
				     write_frame(out_fd, loader.worker_index, buf, len) < 0
				   : send_numbers() < 0))
			_exit(2);
		free(buf);
		buf = NULL;
		loader.own_file = 0;
		loader_watch_read(loader.watch, loader.worker_index);
		if (!loader.in_turn)
			run_workers(); /* does not return: see run_workers */
		if (loader.worker_index + 1 >= loader.nfiles)
			_exit(0);
		read_in_turn(loader.worker_index + 1);
	}
	if (loader.in_worker && !loader.counts) {
		if (send_numbers() < 0)
			_exit(2);
		_exit(0);
	}
	if ((!loader.in_worker ? serialize_current(&buf, &len)
			       : serialize_counts(&buf, &len)) < 0)
		_exit(2);
	if (loader.in_worker) {
		uint64_t n = len; /* the length first: see struct worker */

		if (write_all(loader.out_fd, &n, sizeof(n)) < 0 ||
		    write_all(loader.out_fd, buf, len) < 0)
			_exit(2);
	} else if (write_frame(out_fd, 0, buf, len) < 0) {
		_exit(2);
	}
	_exit(0);
}

/*
 * The front end's side.  Every loader started and not yet finished is in
 * `live`: a loader forked later must close the pipes of the earlier ones
 * (else the first loader, its reader gone, would block on a pipe the second
 * holds open), and while one job is read the others are drained into
 * memory, so no loader ever blocks on a full pipe whatever order the caller
 * finishes them in.  Profiles are streamed: a job is read through a stdio
 * cookie whose read polls every live loader.
 */
struct upstream_job {
	pid_t pid;
	int fd;              /* -1 once at EOF */
	FILE *in;            /* the stream over fd (job_cookie_read), once read */
	size_t nexpected;
	size_t got;          /* profiles read */
	long failed;         /* the file whose loader failed, -1 when none said */
	int file_failed;     /* the loader said a file could not be read */
	int data_error;      /* the data was bad, and that was said */
	int done;            /* 1: loader reaped after success, -1: after failure */
	char *binary;
	char **files;
	char *pend;          /* bytes drained while another job was read */
	size_t pend_len, pend_off, pend_cap;
	int reaped, status;  /* the loader's wait status, once reaped */
	int read_error;      /* errno of a failed read */
	struct loader_watch *watch; /* is the loader stuck? */
	uint64_t received;   /* bytes read from the loader */
	int stalled;         /* it was, and that was said */
	int counts_only;     /* a counts-only load (upstream_load_counts) */
	int each;            /* a profile per file: the symbol table comes
				first (FRAME_SYMTAB) */
	int fold_clones;     /* fold each file's GCC clones (diff/clones.h) */
	struct profile *table; /* with `each`, the symbol table: the names of
				  every file's profile; upstream_load_counts
				  refills it with each file's counts */
	char *counts;        /* its frame buffer */
	size_t counts_cap;
	char *frame;         /* the bytes of the profile being read */
	size_t frame_cap;
};

static struct {
	struct upstream_job **jobs;
	size_t n, cap;
} live;

/* How often a reader waiting for data checks that its loader still runs. */
#define LOADER_CHECK_MS 1000

static int live_add(struct upstream_job *job)
{
	if (live.n == live.cap) {
		size_t cap = live.cap ? 2 * live.cap : 4;
		struct upstream_job **q = realloc(live.jobs, cap * sizeof(*q));

		if (!q)
			return -1;
		live.jobs = q;
		live.cap = cap;
	}
	live.jobs[live.n++] = job;
	return 0;
}

static void live_remove(struct upstream_job *job)
{
	size_t i;

	for (i = 0; i < live.n; i++)
		if (live.jobs[i] == job) {
			live.jobs[i] = live.jobs[--live.n];
			break;
		}
	if (live.n == 0) {
		free(live.jobs);
		live.jobs = NULL;
		live.cap = 0;
	}
}

static void job_close(struct upstream_job *job)
{
	if (job->fd >= 0)
		close(job->fd);
	job->fd = -1;
}

/* Reads what `job`'s pipe holds into its pending buffer. */
static void job_drain(struct upstream_job *job)
{
	ssize_t r;

	if (job->pend_off == job->pend_len)
		job->pend_off = job->pend_len = 0;
	if (job->pend_len == job->pend_cap) {
		size_t cap = job->pend_cap ? 2 * job->pend_cap : 65536;
		char *q = realloc(job->pend, cap);

		if (!q) {
			job->read_error = ENOMEM;
			job_close(job);
			return;
		}
		job->pend = q;
		job->pend_cap = cap;
	}
	do
		r = read(job->fd, job->pend + job->pend_len, job->pend_cap - job->pend_len);
	while (r < 0 && errno == EINTR);
	if (r > 0) {
		job->pend_len += (size_t)r;
		job->received += (uint64_t)r;
		return;
	}
	if (r < 0)
		job->read_error = errno;
	job_close(job);
}

/* A loader that died (or stopped) while something else holds its pipe open
 * sends no EOF: look at it directly. */
static int job_loader_gone(struct upstream_job *job)
{
	pid_t r;

	if (job->reaped)
		return 1;
	do
		r = waitpid(job->pid, &job->status, WNOHANG | WUNTRACED);
	while (r < 0 && errno == EINTR);
	if (r == job->pid && WIFSTOPPED(job->status)) {
		/* Stopped on its own (the front end runs): it would never
		 * finish.  Say so and end it. */
		kill(job->pid, SIGKILL);
		while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
			;
		job->reaped = 1;
		return 1;
	}
	if (r == job->pid)
		job->reaped = 1;
	return job->reaped;
}

static ssize_t job_cookie_read(void *cookie, char *buf, size_t size)
{
	struct upstream_job *job = cookie;

	for (;;) {
		struct pollfd *pfd;
		size_t i;
		int r;

		if (job->pend_off < job->pend_len) {
			size_t k = job->pend_len - job->pend_off;

			if (k > size)
				k = size;
			memcpy(buf, job->pend + job->pend_off, k);
			job->pend_off += k;
			return (ssize_t)k;
		}
		if (job->fd < 0)
			return job->read_error ? -1 : 0;
		pfd = calloc(live.n, sizeof(*pfd));
		if (!pfd) {
			job->read_error = ENOMEM;
			return -1;
		}
		for (i = 0; i < live.n; i++) {
			pfd[i].fd = live.jobs[i]->fd;
			pfd[i].events = POLLIN;
		}
		r = poll(pfd, (nfds_t)live.n, LOADER_CHECK_MS);
		if (r < 0 && errno != EINTR) {
			job->read_error = errno;
			free(pfd);
			return -1;
		}
		for (i = 0; r > 0 && i < live.n; i++)
			if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				job_drain(live.jobs[i]);
		free(pfd);
		if (r == 0 && job_loader_gone(job)) {
			/* Dead, with its pipe held open elsewhere, and nothing
			 * left in it (poll found nothing to read): stop. */
			job_close(job);
		} else if (r == 0 && loader_watch_stalled(job->watch, job->pid, job->received)) {
			/* Alive but stuck (loader_watch.h): said, and ended. */
			loader_watch_report(job->watch, job->pid, job->binary, job->files);
			loader_watch_kill(job->pid);
			while (waitpid(job->pid, &job->status, 0) < 0 && errno == EINTR)
				;
			job->reaped = 1;
			job->stalled = 1;
			job_close(job);
		}
	}
}

/* ------------------------------------------------------------------------ */
/* A loader forked while the front end is small                              */

/*
 * Every per-file worker is a fork of the loader, and a fork copies the
 * page tables of the process's private memory: a loader forked from a
 * front end that had planned 100,000 rank files (their names, sidecar
 * names, the output plan: 56 MB) copied those 56 MB of page tables for
 * every worker, so --rank-stats was quadratic in the files (10,000 files
 * 5.8 s, 100,000 files 147 s; perf: copy_page_range).  A preforked loader
 * is forked before any of that exists and waits; its request comes later
 * through shared memory (a memfd the front end fills: the options, and
 * the file names with their offsets), which forks do not copy.  A
 * worker's fork then costs the same whatever the number of files.
 *
 * The request, in the memfd: eight u64 (nargs, ngmon, each, jobs, force,
 * clones, counts, 0), the NUL-terminated strings argv0, the nargs gprof
 * arguments and the binary, zeros up to a multiple of 8, ngmon u64 offsets
 * (from the start) of the file names, then the names, NUL-terminated.
 * The front end writes its length (u64) to the request pipe when it is
 * there; EOF instead ends the loader quietly (the command never needed it).
 */
#define PREFORK_WATCH_FILES ((size_t)1 << 24) /* files whose state is watched */

static struct {
	pid_t pid;
	int req_fd;          /* front end: write end of the request pipe */
	int out_fd;          /* front end: the loader's frames */
	int mem_fd;          /* the request */
	struct loader_watch *watch;
} pre = { 0, -1, -1, -1, NULL };

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* In the preforked loader: wait for the request, then run it. */
static void ATTRIBUTE_NORETURN prefork_main(int req_fd, int mem_fd, int out_fd)
{
	struct upstream_load req;
	uint64_t len, h[8];
	const char *map, *p, *end;
	size_t i;

	if (read_full(req_fd, &len, sizeof(len)) < 0)
		_exit(0); /* not needed after all */
	close(req_fd);
	map = len >= sizeof(h) ? mmap(NULL, len, PROT_READ, MAP_SHARED, mem_fd, 0) : MAP_FAILED;
	close(mem_fd);
	if (map == MAP_FAILED)
		_exit(2);
	memcpy(h, map, sizeof(h));
	memset(&req, 0, sizeof(req));
	req.nargs = h[0];
	req.ngmon = h[1];
	req.each = (int)h[2];
	req.jobs = (int)h[3];
	req.force = (int)h[4];
	req.clones = (int)h[5];
	req.counts = (int)h[6];
	req.sidecars_checked = (int)h[7];
	end = map + len;
	p = map + sizeof(h);
	/* the strings: argv0, the arguments, the binary */
	if (req.nargs > len || !(req.gprof_args = calloc(req.nargs + 1, sizeof(char *))))
		_exit(2);
	for (i = 0; i < req.nargs + 2; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));

		if (!nul)
			_exit(2);
		if (i == 0)
			req.argv0 = p;
		else if (i <= req.nargs)
			((char **)req.gprof_args)[i - 1] = (char *)p;
		else
			req.binary = p;
		p = nul + 1;
	}
	p = map + (((size_t)(p - map) + 7) & ~(size_t)7);
	if (req.ngmon > (uint64_t)(end - p) / 8 || end[-1] != '\0')
		_exit(2);
	loader.file_base = map;
	loader.file_off = (const uint64_t *)p;
	for (i = 0; i < req.ngmon; i++)
		if (loader.file_off[i] >= len)
			_exit(2);
	loader.watch = pre.watch;
	loader_main(&req, out_fd);
}

int upstream_load_prefork(void)
{
	int req[2] = { -1, -1 }, out[2] = { -1, -1 }, mem = -1;
	size_t i;

	if (pre.pid)
		return 0;
	mem = memfd_create("egprof-loader-request", MFD_CLOEXEC);
	if (mem < 0 || pipe2(req, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
		goto fail;
	pre.watch = loader_watch_new(PREFORK_WATCH_FILES, loader_watch_seconds());
	fflush(NULL);
	pre.pid = fork();
	if (pre.pid < 0)
		goto fail;
	if (pre.pid == 0) {
		/* Not the earlier loaders' pipes: see `live`. */
		for (i = 0; i < live.n; i++)
			job_close(live.jobs[i]);
		close(req[1]);
		close(out[0]);
		prefork_main(req[0], mem, out[1]);
	}
	close(req[0]);
	close(out[1]);
	pre.req_fd = req[1];
	pre.out_fd = out[0];
	pre.mem_fd = mem;
	return 0;
fail:
	/* no prefork: upstream_load_start forks as it always did */
	pre.pid = 0;
	loader_watch_free(pre.watch);
	pre.watch = NULL;
	close_fd(&mem);
	for (i = 0; i < 2; i++) {
		close_fd(&req[i]);
		close_fd(&out[i]);
	}
	return 0;
}

int upstream_load_preforked(void)
{
	return pre.pid != 0;
}

void upstream_load_prefork_cancel(void)
{
	if (!pre.pid)
		return;
	close_fd(&pre.req_fd); /* EOF: the loader ends */
	close_fd(&pre.out_fd);
	close_fd(&pre.mem_fd);
	while (waitpid(pre.pid, NULL, 0) < 0 && errno == EINTR)
		;
	loader_watch_free(pre.watch);
	pre.watch = NULL;
	pre.pid = 0;
}

/* Write req to the preforked loader's memfd and tell it.  0 or -1. */
static int prefork_send(const struct upstream_load *req)
{
	uint64_t h[8] = { req->nargs, req->ngmon, (uint64_t)req->each, (uint64_t)req->jobs,
			  (uint64_t)req->force, (uint64_t)req->clones, (uint64_t)req->counts,
			  (uint64_t)req->sidecars_checked };
	uint64_t at, len;
	FILE *fp;
	size_t i;
	int fd = dup(pre.mem_fd);

	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fwrite(h, sizeof(h), 1, fp);
	at = sizeof(h);
	for (i = 0; i < req->nargs + 2; i++) {
		const char *str = i == 0 ? req->argv0 : i <= req->nargs ? req->gprof_args[i - 1]
								    : req->binary;

		fwrite(str, strlen(str) + 1, 1, fp);
		at += strlen(str) + 1;
	}
	while (at % 8) {
		fputc(0, fp);
		at++;
	}
	len = at + 8 * req->ngmon;
	for (i = 0; i < req->ngmon; i++) {
		fwrite(&len, sizeof(len), 1, fp);
		len += strlen(req->gmon_files[i]) + 1;
	}
	for (i = 0; i < req->ngmon; i++)
		fwrite(req->gmon_files[i], strlen(req->gmon_files[i]) + 1, 1, fp);
	if (fclose(fp) != 0)
		return -1;
	return write_all(pre.req_fd, &len, sizeof(len));
}

int upstream_load_start(const struct upstream_load *req, struct upstream_job **jobp)
{
	struct upstream_job *job;
	int fds[2];
	size_t i;

	*jobp = NULL;
	if (req->ngmon == 0)
		return error("no gmon file to read for '%s'", req->binary);
	job = calloc(1, sizeof(*job));
	if (!job)
		return error("out of memory");
	job->fd = -1;
	job->nexpected = req->each ? req->ngmon : 1;
	job->counts_only = req->each && req->counts;
	job->each = req->each;
	job->fold_clones = req->each && req->clones == UPSTREAM_CLONES_FOLD;
	job->binary = strdup(req->binary);
	job->files = calloc(req->ngmon + 1, sizeof(char *));
	if (!job->binary || !job->files)
		goto oom;
	for (i = 0; i < req->ngmon; i++)
		if (!(job->files[i] = strdup(req->gmon_files[i])))
			goto oom;
	if (pre.pid) {
		/* the loader is there, small: send it the request (a process
		 * where upstream already ran cannot run it again: plain
		 * gprof's exports, cmd_gprof.c) */
		if (prefork_send(req) < 0) {
			error("cannot send the rank files to the loader: %s", strerror(errno));
			upstream_load_prefork_cancel();
			goto fail;
		}
		job->pid = pre.pid;
		job->fd = pre.out_fd;
		job->watch = pre.watch;
		loader_watch_limit(job->watch, req->ngmon);
		pre.out_fd = -1;
		pre.watch = NULL;
		pre.pid = 0;
		close_fd(&pre.req_fd);
		close_fd(&pre.mem_fd);
		goto started;
	}
	/* NULL when out of memory: the loader is then not watched */
	job->watch = loader_watch_new(req->ngmon, loader_watch_seconds());
	if (pipe2(fds, O_CLOEXEC) < 0) {
		error("cannot create a pipe: %s", strerror(errno));
		goto fail;
	}
	fflush(NULL);
	job->pid = fork();
	if (job->pid < 0) {
		error("cannot fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		goto fail;
	}
	if (job->pid == 0) {
		/* Not the earlier loaders' pipes: see `live`; nor a
		 * preforked one's */
		for (i = 0; i < live.n; i++)
			job_close(live.jobs[i]);
		close_fd(&pre.req_fd);
		close_fd(&pre.out_fd);
		close_fd(&pre.mem_fd);
		close(fds[0]);
		loader.watch = job->watch;
		loader_main(req, fds[1]);
	}
	close(fds[1]);
	job->fd = fds[0];
started:
	if (live_add(job) < 0) {
		/* Unlisted, it would be inherited by the next loader. */
		kill(job->pid, SIGKILL);
		while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(job->fd);
		goto oom;
	}
	job->failed = -1;
	*jobp = job;
	return 0;
oom:
	error("out of memory");
fail:
	if (job->files)
		for (i = 0; job->files[i]; i++)
			free(job->files[i]);
	loader_watch_free(job->watch);
	free(job->files);
	free(job->binary);
	free(job);
	return -1;
}

static void job_free(struct upstream_job *job)
{
	size_t i;

	live_remove(job);
	job_close(job);
	for (i = 0; job->files[i]; i++)
		free(job->files[i]);
	free(job->files);
	free(job->binary);
	free(job->pend);
	loader_watch_free(job->watch);
	profile_free(job->table);
	free(job->counts);
	free(job->frame);
	free(job);
}

static int load_stop(struct upstream_job *job, int quiet);

void upstream_load_free(struct upstream_job *job)
{
	if (!job)
		return;
	load_stop(job, 1);
	job_free(job);
}

/* The gmon files a loaded profile came from: all of them for a sum, the
 * index-th with `each`. */
static int name_gmon_files(struct profile *p, const struct upstream_job *job, uint64_t index)
{
	size_t i;

	if (job->nexpected > 1)
		return profile_add_gmon_file(p, job->files[index]);
	for (i = 0; job->files[i]; i++)
		if (profile_add_gmon_file(p, job->files[i]) < 0)
			return error("out of memory");
	return 0;
}

/* What failed, said once, naming the file: upstream's own message (on the
 * loader's stderr) says why a file was refused; a loader that ended
 * otherwise is named with its exit status or signal. */
static void report_failure(const struct upstream_job *job, long failed, int status,
			   int data_error)
{
	size_t nfiles = 0;
	char which[64];

	if (job->stalled)
		return; /* loader_watch_report said it */
	while (job->files[nfiles])
		nfiles++;
	if (nfiles == 1 || failed >= 0)
		snprintf(which, sizeof(which), "%s", "");
	else
		snprintf(which, sizeof(which), " (%zu files)", nfiles);
	/*
	 * A file the loader could not read (upstream said why on its stderr):
	 * that is the failure, whatever the loader's status says after it
	 * (it exits 2 when the front end, stopping, closes the pipe it was
	 * still sending the other files' profiles on).
	 */
	if (job->file_failed && (failed >= 0 || nfiles == 1))
		error("%s: cannot read the profile of '%s'",
		      job->files[failed >= 0 ? failed : 0], job->binary);
	else if (job->file_failed)
		error("cannot read the profiles of '%s' (%zu files)", job->binary, nfiles);
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && job->reaped &&
	    WIFSTOPPED(job->status))
		error("reading the profiles of '%s'%s failed: the loader was stopped by "
		      "signal %d (%s) and was ended", job->binary, which,
		      WSTOPSIG(job->status), strsignal(WSTOPSIG(job->status)));
	else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGPIPE)
		error("reading the profiles of '%s'%s failed: the loader was killed by "
		      "signal %d (%s)", job->binary, which, WTERMSIG(status),
		      strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) > 1)
		error("reading the profiles of '%s'%s failed: the loader exited with "
		      "status %d (out of memory, or its output could not be sent)",
		      job->binary, which, WEXITSTATUS(status));
	else if (job->read_error)
		error("reading the profiles of '%s'%s failed: cannot read from the loader: %s",
		      job->binary, which, strerror(job->read_error));
	else if (data_error)
		; /* profile_read() said what is wrong */
	else if (failed >= 0 || nfiles == 1)
		error("%s: cannot read the profile of '%s'",
		      job->files[failed >= 0 ? failed : 0], job->binary);
	else
		error("cannot read the profiles of '%s' (%zu files)", job->binary, nfiles);
}

/* The loader's frames of a counts-only load: the symbol table first, then
 * one frame of counts per file (see FRAME_SYMTAB). */
static int counts_bad(struct upstream_job *job, const char *why)
{
	error("cannot read the profiles of '%s' from its loader: %s", job->binary, why);
	job->data_error = 1;
	return load_stop(job, 0);
}

static int counts_fill(struct upstream_job *job, uint64_t index, uint64_t len)
{
	struct profile *p = job->table;
	struct counts_head h;
	const struct counts_entry *e;
	size_t i, nreal = 0;
	char *name;

	if (len < sizeof(h) || (len - sizeof(h)) % sizeof(*e) != 0)
		return counts_bad(job, "a frame of counts of the wrong size");
	if (len > job->counts_cap) {
		char *q = realloc(job->counts, len);

		if (!q)
			return counts_bad(job, "out of memory");
		job->counts = q;
		job->counts_cap = len;
	}
	if (fread(job->counts, len, 1, job->in) != 1)
		return load_stop(job, 0);
	memcpy(&h, job->counts, sizeof(h));
	e = (const struct counts_entry *)(job->counts + sizeof(h));
	while (nreal < p->nsyms && !(p->syms[nreal].flags & PSYM_CYCLE))
		nreal++;
	if (h.nsyms != nreal || h.n != (len - sizeof(h)) / sizeof(*e))
		return counts_bad(job, "counts of another symbol table");
	for (i = 0; i < nreal; i++) {
		p->syms[i].self_ticks = 0;
		p->syms[i].ncalls = p->syms[i].self_calls = 0;
	}
	for (i = 0; i < h.n; i++) {
		if (e[i].sym >= nreal)
			return counts_bad(job, "counts of another symbol table");
		p->syms[e[i].sym].self_ticks = e[i].self_ticks;
		p->syms[e[i].sym].ncalls = e[i].ncalls;
		p->syms[e[i].sym].self_calls = e[i].self_calls;
	}
	p->hz = h.hz;
	p->input = (unsigned)h.input;
	p->total_ticks = h.total_ticks;
	p->print_ticks = h.print_ticks;
	p->hist_lowpc = h.hist_lowpc;
	p->hist_highpc = h.hist_highpc;
	if (profile_check_rate(p, job->files[index]) < 0) {
		job->data_error = 1; /* as profile_read() refuses it */
		return load_stop(job, 0);
	}
	/* Upstream does not keep the names it read; we know them. */
	if (!(name = strdup(job->files[index])))
		return counts_bad(job, "out of memory");
	if (p->ngmon == 0 && profile_add_gmon_file(p, name) < 0) {
		free(name);
		return counts_bad(job, "out of memory");
	}
	free(p->gmon_files[0]);
	p->gmon_files[0] = name;
	return 1;
}

/*
 * A profile frame of len bytes, read whole and then decoded from memory
 * (profile_read_mem): field by field through the stream was most of the
 * front end's reading.  The buffer grows as the bytes arrive, so a corrupt
 * length costs only the bytes really sent.  0, or -1 when the frame was
 * cut short or could not be decoded (said, unless the loader's end says
 * why: then job->data_error is 0).
 */
static int frame_profile(struct upstream_job *job, uint64_t len, const char *what,
			 const struct profile *names, struct profile **out)
{
	uint64_t have = 0;
	int r;

	*out = NULL;
	while (have < len) {
		size_t want = len - have < ((size_t)1 << 20) ? (size_t)(len - have)
							     : (size_t)1 << 20;
		size_t got;

		if (have + want > job->frame_cap) {
			size_t cap = job->frame_cap ? 2 * job->frame_cap : (size_t)1 << 20;
			char *q;

			if (cap < have + want)
				cap = (size_t)have + want;
			/* megabytes in huge pages where the kernel offers
			 * them (utils/bigalloc.h): a fault per 4 KiB was a
			 * tenth of the front end's page faults */
			if (!(q = bigalloc_aligned(cap))) {
				error("out of memory");
				job->data_error = 1;
				return -1;
			}
			if (have)
				memcpy(q, job->frame, (size_t)have);
			free(job->frame);
			job->frame = q;
			job->frame_cap = cap;
		}
		got = fread(job->frame + have, 1, want, job->in);
		have += got;
		if (got != want)
			break;
	}
	r = names ? profile_read_mem_names(job->frame, (size_t)have, what, names, out)
		  : profile_read_mem(job->frame, (size_t)have, what, out);
	if (have < len) {
		/* cut short: the loader's end says why, else the decoder */
		profile_free(*out);
		*out = NULL;
		job->data_error = r < 0;
		return -1;
	}
	job->data_error = r < 0;
	return r;
}

/* The header of the next frame of data: 1 (its bytes follow on job->in),
 * or what upstream_load_next returns when there is none.  A counts-only
 * load's symbol table, sent first, is read into job->table on the way. */
static int frame_next(struct upstream_job *job, uint64_t hdr[2])
{
	if (job->done)
		return job->done < 0 ? -1 : 0;
	if (!job->in) {
		cookie_io_functions_t io = { job_cookie_read, NULL, NULL, NULL };

		if (!(job->in = fopencookie(job, "r", io))) {
			error("out of memory");
			job->data_error = 1;
			return load_stop(job, 0);
		}
	}
	if (job->got == job->nexpected)
		return load_stop(job, 0);
	for (;;) {
		if (fread(hdr, 2 * sizeof(*hdr), 1, job->in) != 1)
			return load_stop(job, 0); /* the loader stopped: its status says why */
		if (!job->each || hdr[0] != FRAME_SYMTAB || job->table)
			break;
		if (frame_profile(job, hdr[1], job->binary, NULL, &job->table) < 0)
			return load_stop(job, 0);
	}
	if (hdr[0] >= job->nexpected || (job->each && !job->table)) {
		error("cannot read the profiles of '%s' from its loader: "
		      "a frame for file %llu of %zu", job->binary,
		      (unsigned long long)hdr[0], job->nexpected);
		job->data_error = 1;
		return load_stop(job, 0);
	}
	if (hdr[1] == FRAME_FAILED) {
		/* With a sum, index 0 stands for all the files. */
		job->failed = job->nexpected > 1 ? (long)hdr[0] : -1;
		job->file_failed = 1;
		return load_stop(job, 0);
	}
	return 1;
}

int upstream_load_next(struct upstream_job *job, size_t *index, struct profile **out)
{
	uint64_t hdr[2];
	struct profile *p = NULL;
	int r;

	*out = NULL;
	if ((r = frame_next(job, hdr)) <= 0)
		return r;
	/* Upstream does not keep the names it read; we know them. */
	if (frame_profile(job, hdr[1], job->files[hdr[0]], job->table, &p) < 0)
		return load_stop(job, 0);
	if ((job->fold_clones && profile_merge_clones(p) < 0) ||
	    name_gmon_files(p, job, hdr[0]) < 0) {
		profile_free(p);
		job->data_error = 1;
		return load_stop(job, 0);
	}
	job->got++;
	*index = hdr[0];
	*out = p;
	return 1;
}

int upstream_load_counts(struct upstream_job *job, size_t *index, const struct profile **out)
{
	uint64_t hdr[2];
	int r;

	*out = NULL;
	if ((r = frame_next(job, hdr)) <= 0)
		return r;
	if ((r = counts_fill(job, hdr[0], hdr[1])) <= 0)
		return r < 0 ? r : -1;
	job->got++;
	*index = hdr[0];
	*out = job->table;
	return 1;
}

/* Reaps the loader; a failure is reported unless the caller stopped early
 * (it reported its own reason). */
static int load_stop(struct upstream_job *job, int quiet)
{
	int status = 0;

	if (job->done)
		return job->done < 0 ? -1 : 0;
	if (job->in)
		fclose(job->in);
	job->in = NULL;
	/* Closed before waiting: a loader still writing gets EPIPE (it ignores
	 * SIGPIPE) and exits instead of blocking. */
	job_close(job);
	if (job->reaped)
		status = job->status;
	else
		while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR)
			;
	if (job->reaped && WIFSTOPPED(job->status))
		status = SIGKILL; /* a wait status "killed by SIGKILL" */
	if (job->got == job->nexpected && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		job->done = 1;
		return 0;
	}
	if (!quiet)
		report_failure(job, job->failed, status, job->data_error);
	job->done = -1;
	return -1;
}

/* The caller stops reading on purpose: nothing to report. */
int upstream_load_stop(struct upstream_job *job)
{
	return load_stop(job, 1);
}

int upstream_load_finish(struct upstream_job *job, struct profile ***profilesp, size_t *np)
{
	struct profile **profiles = calloc(job->nexpected, sizeof(*profiles));
	struct profile *p;
	size_t i, index;
	int r;

	*profilesp = NULL;
	*np = 0;
	if (!profiles) {
		error("out of memory");
		job->data_error = 1;
		upstream_load_free(job);
		return -1;
	}
	while ((r = upstream_load_next(job, &index, &p)) > 0)
		profiles[index] = p;
	if (r == 0) {
		*profilesp = profiles;
		*np = job->nexpected;
	} else {
		for (i = 0; i < job->nexpected; i++)
			profile_free(profiles[i]);
		free(profiles);
	}
	upstream_load_free(job);
	return r;
}

/* ------------------------------------------------------------------------ */
/* Source positions (callpath/report.c names call sites with -l)            */

int upstream_addr_to_line(uint64_t addr, const char **file, int *line)
{
	const char *fname = NULL, *func = NULL;
	unsigned int l = 0;

	if (!core_bfd || !core_text_sect || addr < core_text_sect->vma ||
	    !bfd_find_nearest_line(core_bfd, core_text_sect, NULL,
				   addr - core_text_sect->vma, &fname, &func, &l) ||
	    !fname || !l)
		return -1;
	*file = fname;
	*line = (int)l;
	return 0;
}

int upstream_addr_inlines(const char *binary, uint64_t addr, struct callpath_inline *out,
			  int max)
{
	/* whether `binary` (the last one asked about) is core_bfd's file */
	static const void *checked_bfd;
	static const char *checked_binary;
	static int same;
	const char *fname = NULL, *func = NULL;
	unsigned int l = 0;
	int n = 0;

	if (!core_bfd || !core_text_sect || !binary || max < 1 || addr < core_text_sect->vma)
		return -1;
	/* another binary's addresses mean nothing in core_bfd (a diff) */
	if (checked_bfd != core_bfd || checked_binary != binary) {
		char *a = realpath(binary, NULL), *b = realpath(bfd_get_filename(core_bfd), NULL);

		same = a && b && !strcmp(a, b);
		free(a);
		free(b);
		checked_bfd = core_bfd;
		checked_binary = binary;
	}
	if (!same || !bfd_find_nearest_line(core_bfd, core_text_sect, NULL,
					    addr - core_text_sect->vma, &fname, &func, &l) ||
	    !func)
		return -1;
	do {
		out[n].func = func;
		out[n].file = fname;
		out[n].line = (int)l;
		n++;
	} while (n < max && bfd_find_inliner_info(core_bfd, &fname, &func, &l) && func);
	return n;
}

static int cmp_u64(const void *l, const void *r)
{
	uint64_t a = *(const uint64_t *)l, b = *(const uint64_t *)r;

	return (a > b) - (a < b);
}

int upstream_check_gmon(const char *binary, char *const *files, size_t n, int sidecars_checked)
{
	return check_gmon_files(binary, n, files, sidecars_checked);
}

/* upstream_check_gmon() of the n files named by `files`, or by the
 * loader's request (loader_file) when files is NULL. */
static int check_gmon_files(const char *binary, size_t n, char *const *files,
			    int sidecars_checked)
{
	struct gmon_image img;
	asymbol **syms;
	uint64_t *entry = NULL;
	long nsyms = 0, i;
	size_t k;
	int ret = 0, have_lo = 0, have_hi = 0;

	memset(&img, 0, sizeof(img));
	img.binary = binary;
	if (!core_bfd)
		return 0;
	syms = core_bfd_syms(&nsyms);
	if (nsyms > 0 && !(entry = malloc((size_t)nsyms * sizeof(uint64_t))))
		nsyms = 0;
	for (i = 0; i < nsyms; i++) {
		const char *name = bfd_asymbol_name(syms[i]);
		uint64_t v = bfd_asymbol_value(syms[i]);

		if (!strcmp(name, "etext")) {
			img.text_hi = v;
			have_hi = 1;
		} else if (!strcmp(name, "__executable_start")) {
			img.text_lo = v;
			have_lo = 1;
		}
		if ((syms[i]->flags & BSF_FUNCTION) && syms[i]->section &&
		    (syms[i]->section->flags & SEC_CODE))
			entry[img.nentry++] = v;
	}
	if (!have_lo || !have_hi)
		img.text_hi = 0; /* without both marks, no range check */
	if (img.nentry)
		qsort(entry, img.nentry, sizeof(uint64_t), cmp_u64);
	img.entry = entry;
	img.sidecar_elsewhere = sidecars_checked;
	for (k = 0; k < n && ret == 0; k++) {
		loader_watch_reading(loader.watch, k); /* (NULL outside a loader) */
		ret = gmon_owner_check(&img, files ? files[k] : loader_file(k));
		loader_watch_read(loader.watch, k);
	}
	free(entry);
	return ret;
}

void upstream_line_options(int *lines, int *full_paths)
{
	*lines = line_granularity;
	*full_paths = print_path;
}

char *upstream_demangle(const char *name)
{
	return bfd_demangle(core_bfd, name, DMGL_ANSI | DMGL_PARAMS);
}
