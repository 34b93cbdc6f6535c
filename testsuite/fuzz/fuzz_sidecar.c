/* The sidecar reader (format/sidecar.c): any bytes decode or are refused,
 * and what decodes encodes to bytes that decode to the same encoding (in
 * version 4, several node tables and repeated keys are summed by the first
 * decode: the encoding of the sum is stable); what decodes can be summed
 * with itself (sidecar_merge: metrics by name, objects, the identity).
 * Mutations: libFuzzer's, and a third of the time the address fields
 * (sidecar_mutate.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "format/sidecar.h"
#include "testsuite/fuzz/fuzz.h"
#include "testsuite/fuzz/sidecar_mutate.h"

FUZZ_QUIET_INITIALIZE

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	return sidecar_mutate(data, size, max_size, seed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sidecar *sc = NULL, *back = NULL;
	char err[256];
	unsigned char *buf, *buf2;
	size_t len, len2;

	if (sidecar_decode(data, size, "fuzz.callpath", &sc, err, sizeof(err)) < 0) {
		fuzz_assert(sc == NULL && err[0] != '\0');
		return 0;
	}
	len = sidecar_encoded_size(sc);
	buf = malloc(len ? len : 1);
	fuzz_assert(buf != NULL);
	sidecar_encode(sc, buf);
	fuzz_assert(sidecar_decode(buf, len, "again", &back, err, sizeof(err)) == 0);
	len2 = sidecar_encoded_size(back);
	fuzz_assert(len2 == len);
	buf2 = malloc(len2 ? len2 : 1);
	fuzz_assert(buf2 != NULL);
	sidecar_encode(back, buf2);
	fuzz_assert(memcmp(buf, buf2, len) == 0);
	(void)sidecar_total(sc);
	if (sidecar_merge(back, sc, err, sizeof(err)) == 0) {
		fuzz_assert(back->nr_nodes == sc->nr_nodes);
		fuzz_assert(back->nr_extra == sc->nr_extra);
		fuzz_assert(back->id.flags == SIDECAR_ID_SUM);
	}
	free(buf);
	free(buf2);
	sidecar_free(back);
	sidecar_free(sc);
	return 0;
}
