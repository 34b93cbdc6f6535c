/*
 * egprof-sum: sum the gmon files of many ranks with MPI, for runs too large
 * for one `gprof -s` (see doc/mpi.md).
 *
 *   mpirun -np P egprof-sum [-o OUT] FILES...|DIR...
 *
 * Process p reads files p, p+P, p+2P, ... and sums them (mpi/gmonsum.h);
 * the P partial sums then meet in a binomial tree (log2 P rounds, each
 * process sending once), and process 0 writes OUT (default gmon.sum).
 * Call-path sidecars beside the files are summed the same way into
 * OUT.callpath, under `gprof -s`'s policy (model/sum.h): only when every
 * file has one; the processes first agree on the first file without one, so
 * with any missing, none is read.  Every process reports its own errors;
 * they agree on failure before the tree, so a bad file cannot leave the
 * others waiting.
 */
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "format/sidecar.h"
#include "model/sum.h"
#include "gprof-ext/operands.h"
#include "mpi/gmonsum.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

static int rank, nprocs;

/*
 * Which files of this process's share have a sidecar: *missing is the index
 * of the first without one (n when none lacks one), *found how many have
 * one.  As callpath_sum_read() decides: only a file that does not exist is
 * missing; any other problem shows when it is read.
 */
static int scan_share(char **files, size_t n, uint64_t *missing, uint64_t *found)
{
	char path[4096];
	size_t i;

	*missing = n;
	*found = 0;
	for (i = (size_t)rank; i < n; i += (size_t)nprocs) {
		if (sidecar_name_for(files[i], path, sizeof(path)) < 0) {
			error("file name too long");
			return -1;
		}
		if (access(path, F_OK) != 0 && errno == ENOENT) {
			if (*missing == n)
				*missing = i;
		} else {
			(*found)++;
		}
	}
	return 0;
}

/* The sum of this process's share: gmon files, and sidecars when scp is
 * not NULL. */
static int sum_share(char **files, size_t n, struct gmonsum *g, struct sidecar **scp)
{
	char err[512], path[4096];
	size_t i;
	int r;

	for (i = (size_t)rank; i < n; i += (size_t)nprocs) {
		struct sidecar *sc;

		if (gmonsum_read(g, files[i]) < 0)
			return -1;
		if (!scp)
			continue;
		if (sidecar_name_for(files[i], path, sizeof(path)) < 0) {
			error("file name too long");
			return -1;
		}
		if (sidecar_read(path, &sc, err, sizeof(err)) < 0) {
			error("%s", err);
			return -1;
		}
		/* another run's sidecar is refused, as gprof -s refuses it */
		if (callpath_pair_check(sc, path, files[i], 0) < 0) {
			sidecar_free(sc);
			return -1;
		}
		if (!*scp) {
			*scp = sc;
			continue;
		}
		r = sidecar_merge(*scp, sc, err, sizeof(err));
		sidecar_free(sc);
		if (r < 0) {
			error("%s: cannot sum: %s", path, err);
			return -1;
		}
		if (r > 0)
			warning("%s: %s", path, SIDECAR_SATURATED);
	}
	return 0;
}

/*
 * A partial sum travels as messages of at most one part each
 * (mpi/gmonsum.h): per part its u64 length (tag 0) then its bytes (tag 1);
 * a length of 0 ends the parts, UINT64_MAX says the sender failed.  Then
 * the sidecar sum the same way, as one message (0: none).  No process
 * holds more than its own sum and one part: a 1 GB histogram was encoded
 * whole (4 GB in 64-bit bins, then a copy), and with two processes each
 * ran out of memory.
 */
#define MSG_LEN 0
#define MSG_BYTES 1

static int send_part(void *ctx, const unsigned char *part, size_t len)
{
	int to = *(const int *)ctx;
	uint64_t l = len;

	if (len > INT32_MAX)
		return error("a part of a partial sum is too large for one message");
	MPI_Send(&l, 1, MPI_UINT64_T, to, MSG_LEN, MPI_COMM_WORLD);
	MPI_Send(part, (int)len, MPI_BYTE, to, MSG_BYTES, MPI_COMM_WORLD);
	return 0;
}

static int send_sum(const struct gmonsum *g, const struct sidecar *sc, int to)
{
	uint64_t l = 0, fail = UINT64_MAX;
	unsigned char *b = NULL;

	if (gmonsum_parts(g, send_part, &to) < 0) {
		MPI_Send(&fail, 1, MPI_UINT64_T, to, MSG_LEN, MPI_COMM_WORLD);
		return -1;
	}
	MPI_Send(&l, 1, MPI_UINT64_T, to, MSG_LEN, MPI_COMM_WORLD);
	if (sc) {
		l = sidecar_encoded_size(sc);
		b = l <= INT32_MAX ? malloc(l ? l : 1) : NULL;
		if (!b) {
			MPI_Send(&fail, 1, MPI_UINT64_T, to, MSG_LEN, MPI_COMM_WORLD);
			return error(l > INT32_MAX ? "a call-path sum is too large for one message"
						   : "out of memory");
		}
		sidecar_encode(sc, b);
	}
	MPI_Send(&l, 1, MPI_UINT64_T, to, MSG_LEN, MPI_COMM_WORLD);
	if (l)
		MPI_Send(b, (int)l, MPI_BYTE, to, MSG_BYTES, MPI_COMM_WORLD);
	free(b);
	return 0;
}

/* One message of `from`'s: its length, then its bytes into *buf (grown).
 * The length, 0 for the end, or UINT64_MAX when the sender failed or the
 * message cannot be received. */
static uint64_t recv_msg(int from, unsigned char **buf, size_t *cap)
{
	uint64_t l;

	MPI_Recv(&l, 1, MPI_UINT64_T, from, MSG_LEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (l == 0 || l == UINT64_MAX)
		return l;
	if (l > INT32_MAX || array_grow(buf, cap, (size_t)l, 1) < 0) {
		error(l > INT32_MAX ? "a message is too large" : "out of memory");
		return UINT64_MAX;
	}
	MPI_Recv(*buf, (int)l, MPI_BYTE, from, MSG_BYTES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return l;
}

/* from's partial sum, added to g (and *scp) part by part. */
static int recv_add(int from, struct gmonsum *g, struct sidecar **scp)
{
	unsigned char *buf = NULL;
	size_t cap = 0;
	uint64_t l;
	char err[512];
	struct sidecar *sc;
	int r = -1;

	while ((l = recv_msg(from, &buf, &cap)) != 0) {
		if (l == UINT64_MAX || gmonsum_add_part(g, buf, (size_t)l) < 0)
			goto out;
	}
	l = recv_msg(from, &buf, &cap);
	if (l == UINT64_MAX)
		goto out;
	r = 0;
	if (!l)
		goto out;
	if (sidecar_decode(buf, (size_t)l, "a partial sum", &sc, err, sizeof(err)) < 0) {
		r = error("%s", err);
		goto out;
	}
	if (!*scp) {
		*scp = sc;
		goto out;
	}
	r = sidecar_merge(*scp, sc, err, sizeof(err));
	sidecar_free(sc);
	if (r < 0)
		error("%s", err);
	else if (r > 0)
		warning("a partial sum of other processes' files: %s", SIDECAR_SATURATED);
	r = r < 0 ? -1 : 0;
out:
	free(buf);
	return r;
}

/* Binomial tree: in round k, processes with bit k set send to p - 2^k. */
static int reduce(struct gmonsum *g, struct sidecar **scp)
{
	int step;

	for (step = 1; step < nprocs; step <<= 1) {
		if (rank & step)
			return send_sum(g, *scp, rank - step);
		if (rank + step < nprocs && recv_add(rank + step, g, scp) < 0)
			return -1;
	}
	return 0;
}

/* Where the others would wait for this process forever. */
static void out_of_memory(void)
{
	error("out of memory");
	MPI_Abort(MPI_COMM_WORLD, 2);
}


/* Process 0 lists the files and sends the list to everyone. */
static int share_list(int argc, char **argv, int first, const char *out,
		      char ***filesp, size_t *np)
{
	char *blob = NULL, **files;
	uint64_t len = 0, n = 0, i;
	int ok = 1;

	if (rank == 0) {
		char **f;
		size_t k, at = 0;

		if (gmon_operand_expand_all(argv + first, (size_t)(argc - first), &f, &k) < 0) {
			ok = 0;
		} else if (k == 0) {
			error("no gmon files to sum but the output '%s'", out);
			operands_free(f, k);
			ok = 0;
		} else {
			for (i = 0; i < k; i++)
				len += strlen(f[i]) + 1;
			blob = malloc(len ? len : 1);
			if (!blob) {
				error("out of memory");
				ok = 0;
			}
			for (i = 0; ok && i < k; i++) {
				size_t l = strlen(f[i]) + 1;

				memcpy(blob + at, f[i], l);
				at += l;
			}
			n = k;
			operands_free(f, k);
		}
		if (!ok)
			len = UINT64_MAX;
	}
	MPI_Bcast(&len, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (len == UINT64_MAX || len > INT32_MAX) {
		free(blob);
		return -1;
	}
	MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rank != 0)
		blob = malloc(len ? len : 1);
	if (!blob)
		out_of_memory();
	MPI_Bcast(blob, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
	files = calloc(n ? n : 1, sizeof(*files));
	if (!files)
		out_of_memory();
	for (i = 0, len = 0; i < n; i++) {
		files[i] = strdup(blob + len);
		if (!files[i])
			out_of_memory();
		len += strlen(blob + len) + 1;
	}
	free(blob);
	*filesp = files;
	*np = n;
	return 0;
}

/*
 * Refuse, before anything is read or written, an OUT (or OUT.callpath)
 * that is one of the inputs or their sidecars (utils/outfile.h).  Checked
 * by process 0, which says why; every process returns its verdict.
 */
static int check_outputs(char **files, size_t n, const char *out)
{
	struct outset set = OUTSET_INIT;
	char path[4096];
	int bad = 0;
	size_t i;

	if (rank == 0) {
		for (i = 0; i < n && !bad; i++)
			bad = outset_input(&set, files[i]) < 0 ||
			      (sidecar_name_for(files[i], path, sizeof(path)) >= 0 &&
			       outset_input(&set, path) < 0);
		if (!bad && sidecar_name_for(out, path, sizeof(path)) >= 0)
			bad = outset_output(&set, out, "-o") < 0 ||
			      outset_output(&set, path, "-o, its call-path sidecar") < 0;
		bad = bad || outset_check(&set) < 0;
		outset_release(&set);
	}
	MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *out = "gmon.sum";
	char **files = NULL, path[4096];
	size_t n = 0, i;
	struct gmonsum g;
	struct sidecar *sc = NULL;
	uint64_t missing, found, first_missing, nfound;
	int first = 1, bad, anybad, status = 0;

	/* before MPI: `egprof-sum --help` works without mpirun */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "--version"))) {
		if (argv[1][2] == 'h')
			fputs("usage: mpirun -np P egprof-sum [-o OUT] FILES...|DIR...\n"
			      "sums gmon files (and their .callpath sidecars) into OUT (default\n"
			      "gmon.sum), P processes in a tree reduction.  See egprof-sum(1).\n",
			      stdout);
		else
			printf("egprof-sum (egprof) %s\n", EGPROF_VERSION);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	MPI_Init(&argc, &argv);
	error_set_program("egprof-sum");
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		first = 3;
	}
	if (first >= argc || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np P egprof-sum [-o OUT] FILES...|DIR...\n"
				"sums gmon files (and their .callpath sidecars) into OUT "
				"(default gmon.sum)\n");
		MPI_Finalize();
		return 2;
	}
	if (share_list(argc, argv, first, out, &files, &n) < 0) {
		MPI_Finalize();
		return 1;
	}
	if (check_outputs(files, n, out) < 0) {
		for (i = 0; i < n; i++)
			free(files[i]);
		free(files);
		MPI_Finalize();
		return 1;
	}
	gmonsum_init(&g);
	bad = scan_share(files, n, &missing, &found) < 0;
	MPI_Allreduce(&missing, &first_missing, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&found, &nfound, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	/* the sidecars are summed only when every file has one */
	if (!bad)
		bad = sum_share(files, n, &g, first_missing == n ? &sc : NULL) < 0;
	MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	if (anybad) {
		status = 1;
	} else if (reduce(&g, &sc) < 0) {
		error("summing the partial sums failed");
		MPI_Abort(MPI_COMM_WORLD, 1);
	} else if (rank == 0) {
		if (gmonsum_write(&g, out) < 0) {
			status = 1;
		} else if (sc && callpath_sum_identify(sc, out) < 0) {
			status = 1;	/* the sum's sidecar records the gmon sum */
		} else if (sidecar_name_for(out, path, sizeof(path)) < 0) {
			error("output file name too long");
			status = 1;
		} else if (callpath_sum_store(NULL, path, sc, first_missing < n ?
					      files[first_missing] : NULL,
					      nfound > 0) < 0) {
			status = 1;
		}
	}
	gmonsum_release(&g);
	sidecar_free(sc);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	MPI_Finalize();
	return status;
}
