/* egprof-sum's gmon reader (mpi/gmonsum.c): any bytes decode or are refused,
 * and a decoded sum encodes to bytes that decode to the same encoding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/gmonsum.h"
#include "testsuite/fuzz/fuzz.h"

FUZZ_QUIET_INITIALIZE

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gmonsum s, back;
	unsigned char *b1 = NULL, *b2 = NULL;
	size_t l1 = 0, l2 = 0;

	gmonsum_init(&s);
	gmonsum_init(&back);
	if (gmonsum_decode(data, size, &s) == 0) {
		fuzz_assert(gmonsum_encode(&s, &b1, &l1) == 0);
		fuzz_assert(gmonsum_decode(b1, l1, &back) == 0);
		fuzz_assert(gmonsum_encode(&back, &b2, &l2) == 0);
		fuzz_assert(l1 == l2 && memcmp(b1, b2, l1) == 0);
	}
	free(b1);
	free(b2);
	gmonsum_release(&s);
	gmonsum_release(&back);
	return 0;
}
