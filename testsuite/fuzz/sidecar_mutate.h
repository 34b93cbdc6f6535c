#ifndef EGPROF_FUZZ_SIDECAR_MUTATE_H
#define EGPROF_FUZZ_SIDECAR_MUTATE_H
/*
 * A mutation of the sidecar harnesses (fuzz_sidecar, fuzz_reports,
 * fuzz_pathdiff): the fields of a version-4 file that say where its
 * addresses lie, which no checksum ties to the rest: the process section's
 * load_address, program_start and program_end, and each object's start,
 * end and bias (doc/dev/sidecar-format.md).  libFuzzer's byte mutations rarely
 * change one of them and keep the file whole; a real file with two bytes
 * of its load address zeroed made --folded-calls write past a buffer.  The
 * identity section (the pair with its gmon file) is left as it is, as it
 * is in the damage a reader meets.  Half the changes are made alike to
 * the process section's field and the main program's object, so that the
 * reader's check that they agree passes and the damage goes on to the
 * naming and the reports.
 *
 *   size_t LLVMFuzzerCustomMutator(uint8_t *d, size_t n, size_t max, unsigned seed)
 *   { return sidecar_mutate(d, n, max, seed); }
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define SIDECAR_MUTATE_MAX_FIELDS 64

static uint32_t sm_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t sm_get64(const uint8_t *p)
{
	return (uint64_t)sm_get32(p) | (uint64_t)sm_get32(p + 4) << 32;
}

static void sm_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t sm_rand(uint32_t *s)
{
	/* xorshift32: the mutation is a function of libFuzzer's seed */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * The offsets of the address fields of a version-4 sidecar: f[0..2] the
 * process section's load_address, program_start, program_end (0 when
 * absent), then each object's start, end, bias; main[0..2] the main
 * program's object's (0 when none).  Their number.
 */
static size_t sm_fields(const uint8_t *d, size_t n, size_t *f, size_t *main)
{
	size_t at, k = 3;
	uint32_t nsect;

	memset(f, 0, 3 * sizeof(*f));
	memset(main, 0, 3 * sizeof(*main));
	if (n < 32 || memcmp(d, "EGPROFCP", 8) || sm_get32(d + 8) != 4)
		return 0;
	at = sm_get32(d + 12);
	nsect = sm_get32(d + 20);
	for (uint32_t s = 0; s < nsect && s < 64 && at <= n && n - at >= 16; s++) {
		uint32_t tag = sm_get32(d + at);
		uint64_t len = sm_get64(d + at + 8);
		size_t p = at + 16;

		if (len > n - p)
			break;
		if (tag == 1 && len >= 56) {
			f[0] = p + 32;
			f[1] = p + 40;
			f[2] = p + 48;
		} else if (tag == 4 && len >= 8) {
			uint32_t count = sm_get32(d + p);
			size_t q = p + 8, end = p + (size_t)len;

			for (uint32_t i = 0; i < count && end - q >= 32 &&
			     k + 3 <= SIDECAR_MUTATE_MAX_FIELDS; i++) {
				size_t step = 32 + (size_t)(d[q + 28] | d[q + 29] << 8) +
					      (size_t)(d[q + 30] | d[q + 31] << 8);

				if (sm_get32(d + q + 24) & 1 && !main[0]) {
					main[0] = q + 16;	/* bias, start, end: as f[] */
					main[1] = q;
					main[2] = q + 8;
				}
				f[k++] = q;
				f[k++] = q + 8;
				f[k++] = q + 16;
				step = (step + 7) & ~(size_t)7;
				if (step > end - q)
					break;
				q += step;
			}
		}
		at = p + (size_t)len;
	}
	return f[0] ? k : 0;
}

/* A new value for an address field v (others[] the file's other fields). */
static uint64_t sm_new_value(uint64_t v, const uint64_t *others, size_t nothers, uint32_t *s)
{
	switch (sm_rand(s) % 6) {
	case 0: {	/* one or two bytes zeroed: the damage that found a crash */
		unsigned b = sm_rand(s) % 8, w = 1 + sm_rand(s) % 2;

		for (unsigned i = b; i < b + w && i < 8; i++)
			v &= ~((uint64_t)0xff << (8 * i));
		return v;
	}
	case 1:		/* another field's value */
		return nothers ? others[sm_rand(s) % nothers] : 0;
	case 2:		/* moved by a few pages */
		return v + ((uint64_t)(sm_rand(s) % 33) - 16) * 0x1000;
	case 3:		/* moved by a little, inside a function */
		return v + ((uint64_t)(sm_rand(s) % 129) - 64);
	case 4:		/* one byte anything */
		return v ^ ((uint64_t)(1 + sm_rand(s) % 255) << (8 * (sm_rand(s) % 8)));
	default:
		return (uint64_t)sm_rand(s) << 32 | sm_rand(s);
	}
}

static size_t sidecar_mutate(uint8_t *d, size_t n, size_t max, unsigned seed)
{
	size_t f[SIDECAR_MUTATE_MAX_FIELDS], main[3], k;
	uint64_t vals[SIDECAR_MUTATE_MAX_FIELDS];
	uint32_t s = seed | 1;

	if (sm_rand(&s) % 3 != 0 || !(k = sm_fields(d, n, f, main)))
		return LLVMFuzzerMutate(d, n, max);
	for (size_t i = 0; i < k; i++)
		vals[i] = f[i] ? sm_get64(d + f[i]) : 0;
	for (unsigned changes = 1 + sm_rand(&s) % 2; changes > 0; changes--) {
		size_t i = sm_rand(&s) % k;
		uint64_t v;

		if (!f[i])
			continue;
		v = sm_new_value(sm_get64(d + f[i]), vals, k, &s);
		sm_put64(d + f[i], v);
		/* the process section's field and the main object's alike */
		if (i < 3 && main[i] && sm_rand(&s) % 2)
			sm_put64(d + main[i], v);
	}
	return n;
}

#endif
