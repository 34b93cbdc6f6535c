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

#include "sidecar.h"
#include "utils/addrsearch.h"
#include "utils/array.h"
#include "utils/infile.h"
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

static void put_addr(FILE *out, const struct symtab *st, uint64_t bias,
		     uint64_t addr, int with_offset)
{
	const struct sym *s = sym_at(st, bias, addr);

	if (!s || addr < bias) {
		fprintf(out, "0x%" PRIx64, addr);
		return;
	}
	if (with_offset)
		fprintf(out, "%s+0x%" PRIx64, s->name, addr - bias - s->addr);
	else
		fputs(s->name, out);
}

static void print_header(FILE *out, const struct sidecar *sc)
{
	fprintf(out, "version %u\npid %" PRIu64 "\nppid %" PRIu64 "\nrank %d\n",
		sc->version, sc->pid, sc->ppid, sc->rank);
	fprintf(out, "host %s\nexe %s\nbuild-id ", sc->host, sc->exe);
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

/*
 * The middle frame of a folded-recursion node's folded line
 * ("parent's path;caller;callee N", one line per call site whatever the
 * depth): the function holding its call site, which made the recursive
 * calls, left out when it is the callee itself ("main;fib;fib" for direct
 * recursion, "main;even;odd;even" for mutual), [external] when the site is
 * outside the program.  So the line's last two frames are the (caller,
 * callee) pair of its calls, as for every other line.
 */
static void put_folded_caller(FILE *out, const struct symtab *st,
			      const struct sidecar *sc, const struct sidecar_node *n)
{
	const struct sym *caller = sym_at(st, sc->load_address, n->call_site);

	if (n->call_site == 0) {
		fputs(";[external]", out);
	} else if (!caller || caller != sym_at(st, sc->load_address, n->callee)) {
		fputc(';', out);
		put_addr(out, st, sc->load_address, n->call_site, 0);
	}
}

static int print_nodes(FILE *out, const struct sidecar *sc,
		       const struct symtab *st, int folded, int samples)
{
	uint32_t *path = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*path));
	uint64_t *rec = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*rec));

	if (!path || !rec) {
		free(path);
		free(rec);
		return -1;
	}
	sidecar_folded_sums(sc, rec);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint32_t depth = sidecar_path(sc, i, path, sc->nr_nodes);
		int is_folded = (n->flags & SIDECAR_NODE_FOLDED) != 0;

		if (folded) {
			uint64_t v = samples ? n->self_samples
					     : is_folded ? n->recursive : n->count;

			if (!v)
				continue;
			for (uint32_t d = 0; d + is_folded < depth; d++) {
				if (d)
					fputc(';', out);
				put_addr(out, st, sc->load_address,
					 sc->nodes[path[d]].callee, 0);
			}
			if (is_folded) {
				put_folded_caller(out, st, sc, n);
				fputc(';', out);
				put_addr(out, st, sc->load_address, n->callee, 0);
			}
			fprintf(out, " %" PRIu64 "\n", v);
			continue;
		}
		/* gprof's notation: calls from outside + recursive calls */
		if (is_folded)
			fprintf(out, "%*s+%" PRIu64 " ", (int)(2 * (depth - 1)), "",
				n->recursive);
		else if (rec[i])
			fprintf(out, "%*s%" PRIu64 "+%" PRIu64 " ", (int)(2 * (depth - 1)),
				"", n->count, rec[i]);
		else
			fprintf(out, "%*s%" PRIu64 " ", (int)(2 * (depth - 1)), "",
				n->count);
		put_addr(out, st, sc->load_address, n->callee, 0);
		fputs(" <- ", out);
		if (n->call_site == 0)
			fputs("[external]", out);	/* outside the program */
		else
			put_addr(out, st, sc->load_address, n->call_site, 1);
		if (is_folded)
			fputs(" (recursion folded into the parent)", out);
		else if (samples)
			fprintf(out, " (%" PRIu64 " samples)", n->self_samples);
		fputc('\n', out);
	}
	free(path);
	free(rec);
	return 0;
}

static const char usage_text[] =
	"usage: cpdump [-f] [-H] [-t] [-s NMFILE] FILE...\n"
	"prints call-path sidecars (FILE.callpath, written by libcallpath) raw;\n"
	"several files are summed.  The report is gprof --callpath.\n"
	"  -f         folded paths (\"a;b;c COUNT\") instead of the tree\n"
	"  -H         the header only\n"
	"  -t         each node's time samples (with -f: folded paths of samples)\n"
	"  -s NMFILE  name addresses with `nm -n` output of the executable\n"
	"  --help     this text;  --version  the version\n"
	"See cpdump(1) and doc/sidecar-format.md.\n";

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct symtab st = { 0 };
	struct sidecar *total = NULL;
	int folded = 0, header_only = 0, samples = 0, opt, ret = 1;
	char err[4096];

	while ((opt = getopt_long(argc, argv, "fHts:", longopts, NULL)) != -1) {
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
			fprintf(stderr, "usage: cpdump [-f] [-H] [-t] [-s NMFILE] FILE... (--help)\n");
			goto out;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: cpdump [-f] [-H] [-t] [-s NMFILE] FILE...\n");
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		struct sidecar *sc;

		if (sidecar_read(argv[i], &sc, err, sizeof(err)) < 0) {
			fprintf(stderr, "cpdump: %s\n", err);
			goto out;
		}
		if (!total) {
			total = sc;
			continue;
		}
		if (sidecar_merge(total, sc, err, sizeof(err)) < 0) {
			fprintf(stderr, "cpdump: %s (adding '%s' to '%s')\n", err,
				argv[i], argv[optind]);
			sidecar_free(sc);
			goto out;
		}
		sidecar_free(sc);
	}
	if (!folded)
		print_header(stdout, total);
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
