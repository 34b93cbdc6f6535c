/* The loader pipe format (diff/profile_io.c): any bytes read or are refused
 * (no crash, no allocation the bytes do not back), and a profile read back
 * writes the same bytes again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/profile.h"
#include "testsuite/fuzz/fuzz.h"

FUZZ_QUIET_INITIALIZE

static char *write_mem(const struct profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	fuzz_assert(mem != NULL);
	fuzz_assert(profile_write(mem, p) == 0);
	fuzz_assert(fclose(mem) == 0);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p = NULL, *q = NULL;
	FILE *in;
	char *b1, *b2;
	size_t l1, l2;
	int mem_ok;

	/* the loader's frames are read from memory (profile_read_mem):
	 * whatever it accepts, the stream reader accepts too */
	mem_ok = profile_read_mem(data, size, "fuzz", &q) == 0;
	fuzz_assert(mem_ok || q == NULL);
	profile_free(q);
	{
		/* the same bytes as a worker's frame of numbers for a symbol
		 * table of three (profile_read_mem_names): read or refused,
		 * never a crash; read, it holds the table's names */
		static struct profile *table;
		struct profile *r = NULL;

		if (!table) {
			table = profile_new();
			fuzz_assert(table != NULL);
			for (int i = 0; i < 3; i++) {
				struct profile_sym y = { 0 };

				y.name = strdup(i == 0 ? "main" : i == 1 ? "f" : "g");
				y.print_name = strdup(y.name);
				y.addr = 0x1000 + 0x100 * (uint64_t)i;
				fuzz_assert(profile_add_sym(table, &y) == i);
			}
		}
		if (profile_read_mem_names(data, size, "fuzz", table, &r) == 0) {
			fuzz_assert(r->nsyms >= 3);
			fuzz_assert(r->syms[1].name && strcmp(r->syms[1].name, "f") == 0);
		} else {
			fuzz_assert(r == NULL);
		}
		profile_free(r);
	}
	q = NULL;
	if (size == 0)
		return 0; /* fmemopen refuses an empty buffer */
	in = fmemopen((void *)data, size, "r");
	fuzz_assert(in != NULL);
	if (profile_read(in, "fuzz", &p) < 0) {
		fuzz_assert(p == NULL && !mem_ok);
		fclose(in);
		return 0;
	}
	fclose(in);
	b1 = write_mem(p, &l1);
	in = fmemopen(b1, l1, "r");
	fuzz_assert(in != NULL);
	fuzz_assert(profile_read(in, "again", &q) == 0);
	fclose(in);
	b2 = write_mem(q, &l2);
	fuzz_assert(l1 == l2 && memcmp(b1, b2, l1) == 0);
	profile_free(q);
	/* and a block profile_encode wrote reads back from memory */
	fuzz_assert(profile_read_mem(b1, l1, "again", &q) == 0);
	free(b1);
	free(b2);
	profile_free(p);
	profile_free(q);
	return 0;
}
