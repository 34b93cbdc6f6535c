/*
 * cpdump - print call-path sidecars raw (a debugging aid; the report is
 * `gprof --callpath/--folded`, doc/callpath-report.md).
 *
 *   cpdump [-f] [-H] [-t] [-s NMFILE] FILE...
 *
 * Several files are summed (sidecar_merge: in the first file's address
 * space, so runs of one PIE line up; another binary's file is refused).  Default output: the header and
 * the tree, one node per line, indented by depth.  -f prints folded paths
 * ("a;b;c COUNT", one per node with a non-zero count; folded recursion
 * as one line per call site it came back through) instead, -H the
 * header only, -t the tree with each node's time samples ("(N samples)"
 * after the call site; -f -t: folded paths of samples).  -s NMFILE names addresses using `nm -n` output of the
 * executable (addresses are taken relative to the recorded load address, so
 * PIE works); without it addresses are printed raw.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/sidecar.h"
#include "model/elide.h"
#include "model/recursion.h"
#include "utils/addrsearch.h"
#include "utils/array.h"
#include "utils/infile.h"
#include "utils/printable.h"
#include "utils/satmath.h"
#include "utils/banned.h"

struct sym {
	uint64_t addr;
	uint64_t size;		/* 0 when nm was run without -S */
	char *name;
};

struct symtab {
	struct sym *syms;
	size_t nr, alloc;
	int sized;		/* nm -S: symbols without a size match nothing */
};

static int symtab_load(struct symtab *st, const char *path)
{
	char line[4096], err[4200];
	int fd = infile_open(path, NULL, err, sizeof(err));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (!f) {
		if (fd >= 0) {
			close(fd);
			snprintf(err, sizeof(err), "%s: out of memory", path);
		}
		fprintf(stderr, "cpdump: %s\n", err);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr, size = 0;
		char type, name[3072];

		if (sscanf(line, "%llx %llx %c %3071s", &addr, &size, &type,
			   name) != 4) {
			size = 0;
			if (sscanf(line, "%llx %c %3071s", &addr, &type, name) != 3)
				continue;
		}
		if (type != 't' && type != 'T' && type != 'W' && type != 'w')
			continue;
		if (array_grow(&st->syms, &st->alloc, st->nr + 1, sizeof(*st->syms)) < 0)
			goto oom;
		st->syms[st->nr].addr = addr;
		st->syms[st->nr].size = size;
		st->sized |= size != 0;
		st->syms[st->nr].name = strdup(name);
		if (!st->syms[st->nr].name)
			goto oom;
		st->nr++;
	}
	fclose(f);
	return 0;
oom:
	fclose(f);
	fprintf(stderr, "cpdump: out of memory\n");
	return -1;
}

static void symtab_release(struct symtab *st)
{
	for (size_t i = 0; i < st->nr; i++)
		free(st->syms[i].name);
	free(st->syms);
}

/* The symbol containing addr (nm -n output is sorted), or NULL. */
static const struct sym *symtab_find(const struct symtab *st, uint64_t addr)
{
	size_t lo = addr_search(st->syms, st->nr, sizeof(*st->syms),
				offsetof(struct sym, addr), addr);

	return lo ? &st->syms[lo - 1] : NULL;
}

/* The function holding run-time address `addr`, or NULL. */
static const struct sym *sym_at(const struct symtab *st, uint64_t bias,
				uint64_t addr)
{
	const struct sym *s = st->nr ? symtab_find(st, addr - bias) : NULL;

	if (s && st->sized && addr - bias >= s->addr + s->size)
		s = NULL;
	return s;
}

/*
 * The len bytes at s as text (utils/printable.h): a control character,
 * bad UTF-8 or a NUL (a forged sidecar's host or exe may hold one: it
 * would cut the name) is written \xNN, so no escape sequence reaches the
 * terminal and no line is forged.  s[len] is a NUL.
 */
static void put_text(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t k = *p ? printable_char(p) : 0;

		if (!k || k > (size_t)(end - p)) {
			fprintf(out, "\\x%02x", *p++);
			continue;
		}
		fwrite(p, 1, k, out);
		p += k;
	}
}

static void put_name(FILE *out, const char *s)
{
	put_text(out, s, strlen(s));
}

static void put_addr(FILE *out, const struct symtab *st, uint64_t bias,
		     uint64_t addr, int with_offset)
{
	const struct sym *s = sym_at(st, bias, addr);

	if (!s || addr < bias) {
		fprintf(out, "0x%" PRIx64, addr);
		return;
	}
	put_name(out, s->name);
	if (with_offset)
		fprintf(out, "+0x%" PRIx64, addr - bias - s->addr);
}

/* The per-thread entries (the threads section): before the objects and
 * dropped counters, so that the tree still follows "dropped-stopped". */
static void print_threads(FILE *out, const struct sidecar *sc)
{
	if (!sc->nr_thread_views)
		return;
	fprintf(out, "thread-views %u limit %u\n", sc->nr_thread_views, sc->thread_limit);
	for (uint32_t i = 0; i < sc->nr_thread_views; i++) {
		const struct sidecar_thread *t = &sc->thread_views[i];
		uint64_t calls = 0, samples = 0;

		for (uint32_t k = 0; k < t->nr_values; k++) {
			calls = sat_add_u64(calls, t->values[k].calls);
			samples = sat_add_u64(samples, t->values[k].samples);
		}
		fprintf(out, "thread %u tid %" PRIu64 " %s threads %u nodes %u calls %" PRIu64
			" samples %" PRIu64 " name ", i, t->tid,
			t->flags & SIDECAR_THREAD_OTHER ? "other" :
			t->flags & SIDECAR_THREAD_MAIN ? "main" : "kept",
			t->threads, t->nr_values, calls, samples);
		put_name(out, t->name);
		fputc('\n', out);
	}
}

static void print_header(FILE *out, const struct sidecar *sc)
{
	fprintf(out, "version %u\npid %" PRIu64 "\nppid %" PRIu64 "\nrank %d\n",
		sc->version, sc->pid, sc->ppid, sc->rank);
	fputs("host ", out);
	put_text(out, sc->host, sc->host_len);
	fputs("\nexe ", out);
	put_text(out, sc->exe, sc->exe_len);
	fputs("\nbuild-id ", out);
	for (uint32_t i = 0; i < sc->build_id_len; i++)
		fprintf(out, "%02x", sc->build_id[i]);
	fprintf(out, "\nload-address 0x%" PRIx64 "\n", sc->load_address);
	if (sc->program_end)
		fprintf(out, "program 0x%" PRIx64 "-0x%" PRIx64 "\n",
			sc->program_start, sc->program_end);
	else
		fputs("program unknown\n", out);
	fprintf(out, "depth %u\nflags 0x%x\n", sc->depth, sc->flags);
	fprintf(out, "threads %u\nnodes %u\ncalls %" PRIu64 "\nfailure %s\n",
		sc->threads, sc->nr_nodes, sidecar_total(sc),
		sc->failure < SIDECAR_FAIL_NR ? sidecar_failure_names[sc->failure]
					      : "unknown");
	fprintf(out, "sampling 0x%x\nsamples %" PRIu64 "\nunplaced-samples %" PRIu64 "\n",
		sc->sampling, sidecar_total_samples(sc), sc->unplaced_samples);
	/* the sampled program counters (issue 22), among the nodes */
	{
		uint32_t leaves = 0;

		for (uint32_t i = 0; i < sc->nr_nodes; i++)
			leaves += sidecar_node_is_leaf(&sc->nodes[i]);
		fprintf(out, "leaves %u\n", leaves);
	}
	/* the time samples' kind and rate (CALLPATH_HZ), and signals taken */
	fprintf(out, "time-metric %s\ntime-period %" PRIu64 "\ntime-taken %" PRIu64 "\n",
		sc->time_name, sc->time_period, sc->time_taken);
	/* the process's CPU time when sampling stopped (getrusage), if recorded */
	if (sc->process_cpu.valid)
		fprintf(out, "process-cpu-ns %" PRIu64 " user %" PRIu64 " system\n",
			sc->process_cpu.user_ns, sc->process_cpu.sys_ns);
	/* version 4: the gmon file it pairs with, metrics, loaded objects */
	fprintf(out, "gmon-file %s\ngmon-identity 0x%x\ngmon-size %" PRIu64
		"\ngmon-hash 0x%016" PRIx64 "\nrun-id 0x%016" PRIx64 "\nwritten-ns %" PRIu64
		"\nsnapshot %u\n", sc->id.gmon_name, sc->id.flags, sc->id.gmon_size,
		sc->id.gmon_hash, sc->id.run_id, sc->id.time_ns, sc->id.snapshot);
	for (uint32_t i = 0; i < sc->nr_extra; i++)
		fprintf(out, "metric %s %s kind %u flags 0x%x period %" PRIu64
			" unplaced %" PRIu64 "\n", sc->extra_metrics[i].name,
			sc->extra_metrics[i].unit, sc->extra_metrics[i].kind,
			sc->extra_metrics[i].flags, sc->extra_metrics[i].period,
			sc->extra_metrics[i].unplaced);
	/* sampled paths: how the runtime's stack walks ended */
	if (sc->flags & SIDECAR_F_SAMPLED) {
		fprintf(out, "walks %" PRIu64 "\nwalk-frames-max %u\n", sc->unwind.walked,
			sc->unwind.max_frames);
		for (int e = 0; e < SIDECAR_UNWIND_END_NR; e++)
			fprintf(out, "walks-%d %" PRIu64 " %s\n", e, sc->unwind.ends[e],
				sidecar_unwind_end_names[e]);
	}
	print_threads(out, sc);
	fprintf(out, "objects %u\n", sc->nr_objects);
	for (uint32_t i = 0; i < sc->nr_objects; i++)
		fprintf(out, "object 0x%" PRIx64 "-0x%" PRIx64 " bias 0x%" PRIx64 " %s\n",
			sc->objects[i].start, sc->objects[i].end, sc->objects[i].bias,
			sc->objects[i].path);
	/* last, as before version 4: scripts read the tree after it */
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		fprintf(out, "dropped-%s %" PRIu64 "\n", sidecar_drop_names[d],
			sc->dropped[d]);
}

/* Every per-thread value: "thread-value THREAD NODE CALLS SAMPLES". */
static void print_thread_values(FILE *out, const struct sidecar *sc)
{
	for (uint32_t i = 0; i < sc->nr_thread_views; i++)
		for (uint32_t k = 0; k < sc->thread_views[i].nr_values; k++) {
			const struct sidecar_thread_value *v = &sc->thread_views[i].values[k];

			fprintf(out, "thread-value %u %u %" PRIu64 " %" PRIu64 "\n", i,
				v->node, v->calls, v->samples);
		}
}

/*
 * A node's function, as recursion.h compares them: its symbol (its index
 * in the symbol table) when -s names it, else its address; and the
 * function holding a call site, unknown outside the program or without
 * symbols (a return address is not the callee's address).
 */
static uint64_t func_key(const struct symtab *st, const struct sidecar *sc,
			 uint64_t callee)
{
	const struct sym *s = sym_at(st, sc->load_address, callee);

	return s && callee >= sc->load_address ? (uint64_t)(s - st->syms) : callee | 1ull << 63;
}

static uint64_t site_key(const struct symtab *st, const struct sidecar *sc,
			 uint64_t site)
{
	const struct sym *s = site ? sym_at(st, sc->load_address, site) : NULL;

	return s && site >= sc->load_address ? (uint64_t)(s - st->syms) : RECURSION_UNKNOWN;
}

struct dump {
	const struct sidecar *sc;
	const struct symtab *st;
	uint32_t *parent;	/* per node, SIDECAR_ROOT for a top-level node */
	struct path_elider pe;	/* deep paths' middle left out (elide.h) */
	uint32_t *maker;	/* folded nodes: the frame that made the calls */
	uint64_t *rec;		/* per node: recursive calls folded into it */
};

/*
 * One folded line: the names of node's path, then of extra's callee
 * (a folded node, or SIDECAR_ROOT for none), ';'-separated, a deep path's
 * middle left out, and the value.  Costs the same at any depth.
 */
static void put_folded(FILE *out, const struct dump *d, uint32_t node, uint32_t extra,
		       uint64_t v)
{
	uint32_t frames[ELIDE_FRAMES], omitted;
	uint32_t k = path_elider_line(&d->pe, node, extra, frames, &omitted);
	char marker[ELIDE_MARKER_MAX];

	for (uint32_t j = 0; j < k; j++) {
		if (j == ELIDE_HEAD && omitted) {
			fputc(';', out);
			fwrite(marker, 1, elide_marker(marker, omitted), out);
		}
		if (j)
			fputc(';', out);
		put_addr(out, d->st, d->sc->load_address, d->sc->nodes[frames[j]].callee, 0);
	}
	fprintf(out, " %" PRIu64 "\n", v);
}

/*
 * Folded paths: a line per node with a value.  A folded-recursion node's
 * calls are the line of the frame that made them and the callee
 * ("main;fib;fib", "main;a;b;c;a": recursion.h), or, when that frame is
 * not known, are added to the line of the frame they fold into, so that
 * no line names a call that did not happen.
 */
static void print_folded(FILE *out, const struct dump *d, int samples)
{
	const struct sidecar *sc = d->sc;

	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		int is_folded = (n->flags & SIDECAR_NODE_FOLDED) != 0;
		uint64_t v = samples ? n->self_samples : is_folded ? n->recursive : n->count;

		if (is_folded && !samples && d->maker[i] == SIDECAR_ROOT)
			continue;	/* on its parent's line */
		if (!samples && !is_folded && d->rec[i])
			v = sat_add_u64(v, d->rec[i]);
		if (!v)
			continue;
		if (is_folded)
			put_folded(out, d, d->maker[i], i, v);
		else
			put_folded(out, d, i, SIDECAR_ROOT, v);
	}
}

static void print_tree(FILE *out, const struct dump *d, int samples)
{
	const struct sidecar *sc = d->sc;

	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint32_t depth = d->pe.depth[i];
		int is_folded = (n->flags & SIDECAR_NODE_FOLDED) != 0;
		int indent = (int)(2 * ((elide_omitted(depth) ? ELIDE_FRAMES : depth) - 1));

		/* indented up to ELIDE_FRAMES levels; deeper nodes say their
		 * depth (elide.h) */
		fprintf(out, "%*s", indent, "");
		if (elide_omitted(depth)) {
			char digits[32];

			elide_count(digits, depth);
			fprintf(out, "[depth %s] ", digits);
		}
		/* gprof's notation: calls from outside + recursive calls */
		if (is_folded)
			fprintf(out, "+%" PRIu64 " ", n->recursive);
		else if (d->rec[i])
			fprintf(out, "%" PRIu64 "+%" PRIu64 " ", n->count, d->rec[i]);
		else
			fprintf(out, "%" PRIu64 " ", n->count);
		put_addr(out, d->st, sc->load_address, n->callee, 0);
		fputs(" <- ", out);
		if (sidecar_node_is_leaf(n))	/* a sampled pc, no call (issue 22) */
			fputs(n->call_site == SIDECAR_LEAF_OVERHEAD ? "[sample] [instrumentation]"
								   : "[sample]", out);
		else if (n->call_site == 0)
			fputs("[external]", out);	/* outside the program */
		else
			put_addr(out, d->st, sc->load_address, n->call_site, 1);
		if (is_folded)
			fputs(" (recursion folded into the parent)", out);
		else if (samples)
			fprintf(out, " (%" PRIu64 " samples)", n->self_samples);
		fputc('\n', out);
	}
}

static int print_nodes(FILE *out, const struct sidecar *sc,
		       const struct symtab *st, int folded, int samples)
{
	size_t n = (size_t)sc->nr_nodes + 1;
	struct dump d = { sc, st, malloc(n * sizeof(uint32_t)), { 0 }, NULL,
			  malloc(n * sizeof(uint64_t)) };
	uint64_t *func = malloc(n * sizeof(*func)), *caller = malloc(n * sizeof(*caller));
	unsigned char *is_folded = malloc(n);
	int ret = -1;

	d.maker = malloc(n * sizeof(*d.maker));
	if (!d.parent || !d.rec || !func || !caller || !is_folded || !d.maker)
		goto out;
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *nd = &sc->nodes[i];

		d.parent[i] = nd->parent;
		is_folded[i] = (nd->flags & SIDECAR_NODE_FOLDED) != 0;
		func[i] = func_key(st, sc, nd->callee);
		caller[i] = is_folded[i] ? site_key(st, sc, nd->call_site) : RECURSION_UNKNOWN;
	}
	if (path_elider_init(&d.pe, sc->nr_nodes, d.parent, SIDECAR_ROOT) < 0 ||
	    recursion_makers(sc->nr_nodes, d.parent, SIDECAR_ROOT, func, is_folded,
			     caller, d.maker) < 0)
		goto out;
	if (folded) {
		/* a folded node whose maker is known has its own line; the
		 * others' calls count on their parent's (d.rec) */
		memset(d.rec, 0, n * sizeof(*d.rec));
		for (uint32_t i = 0; i < sc->nr_nodes; i++) {
			uint32_t p = sc->nodes[i].parent;

			if (is_folded[i] && d.maker[i] == SIDECAR_ROOT && p != SIDECAR_ROOT)
				d.rec[p] = sat_add_u64(d.rec[p], sc->nodes[i].recursive);
		}
		print_folded(out, &d, samples);
	} else {
		sidecar_folded_sums(sc, d.rec);
		print_tree(out, &d, samples);
	}
	ret = 0;
out:
	path_elider_release(&d.pe);
	free(d.parent);
	free(d.rec);
	free(d.maker);
	free(func);
	free(caller);
	free(is_folded);
	return ret;
}

static const char usage_text[] =
	"usage: cpdump [-f] [-H] [-t] [-T] [-s NMFILE] FILE...\n"
	"prints call-path sidecars (FILE.callpath, written by libcallpath) raw;\n"
	"several files are summed.  The report is gprof --callpath.\n"
	"  -f         folded paths (\"a;b;c COUNT\") instead of the tree\n"
	"  -H         the header only\n"
	"  -t         each node's time samples (with -f: folded paths of samples)\n"
	"  -T         each thread's values per node (\"thread-value THREAD NODE\n"
	"             CALLS SAMPLES\"; a sum of files has none)\n"
	"  -s NMFILE  name addresses with `nm -n` output of the executable\n"
	"  --help     this text;  --version  the version\n"
	"See cpdump(1).\n";

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct symtab st = { 0 };
	struct sidecar *total = NULL;
	int folded = 0, header_only = 0, samples = 0, per_thread = 0, opt, ret = 1;
	char err[4096];

	while ((opt = getopt_long(argc, argv, "fHtTs:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
		case 'V':
			printf("cpdump (egprof) %s\n", EGPROF_VERSION);
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
		case 't':
			samples = 1;
			break;
		case 'T':
			per_thread = 1;
			break;
		case 'f':
			folded = 1;
			break;
		case 'H':
			header_only = 1;
			break;
		case 's':
			if (symtab_load(&st, optarg) < 0)
				goto out;
			break;
		default:
			fprintf(stderr, "usage: cpdump [-f] [-H] [-t] [-T] [-s NMFILE] FILE... (--help)\n");
			goto out;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: cpdump [-f] [-H] [-t] [-T] [-s NMFILE] FILE...\n");
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		struct sidecar *sc;
		int r;

		if (sidecar_read(argv[i], &sc, err, sizeof(err)) < 0) {
			fprintf(stderr, "cpdump: %s\n", err);
			goto out;
		}
		if (!total) {
			total = sc;
			continue;
		}
		r = sidecar_merge(total, sc, err, sizeof(err));
		sidecar_free(sc);
		if (r < 0) {
			fprintf(stderr, "cpdump: %s (adding '%s' to '%s')\n", err,
				argv[i], argv[optind]);
			goto out;
		}
		if (r > 0)
			fprintf(stderr, "cpdump: warning: %s: %s\n", argv[i],
				SIDECAR_SATURATED);
	}
	if (!folded)
		print_header(stdout, total);
	if (per_thread && !header_only && !folded)
		print_thread_values(stdout, total);
	if (!header_only && print_nodes(stdout, total, &st, folded, samples) < 0) {
		fprintf(stderr, "cpdump: out of memory\n");
		goto out;
	}
	/* `cpdump x >/dev/full` must not look like success */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "cpdump: cannot write standard output: %s\n",
			errno ? strerror(errno) : "write error");
		goto out;
	}
	ret = 0;
out:
	sidecar_free(total);
	symtab_release(&st);
	return ret;
}
