#include <math.h>
#include <stdint.h>
#include <string.h>
#include "utils/fixed.h"
#include "utils/banned.h"

static const double scale[] = { 1.0, 10.0, 100.0, 1000.0 };

/*
 * Whether printf rounds a (whose scaled value a * s is r, rounded, with
 * floor fl) up to fl + 1: it rounds the exact binary value of a, to
 * nearest with ties to even.  d, r's fraction less one half, is exact
 * (r < 2^52, so r - fl is; then Sterbenz), and a multiple of r's ulp; the
 * rounding of the product is at most half an ulp.  So when d is not 0 its
 * sign decides; when it is 0, the product's exact remainder (fma) does, and
 * only a remainder of 0 is a true tie.  No case is left to printf.
 */
static int round_up(double a, double s, double r, double fl)
{
	double d = (r - fl) - 0.5, rem;

	if (d != 0.0)
		return d > 0.0;
	rem = fma(a, s, -r);
	if (rem != 0.0)
		return rem > 0.0;
	return fmod(fl, 2.0) != 0.0;
}

size_t fixed_format(char *buf, double v, int width, int prec)
{
	char digits[40];
	size_t n = sizeof(digits), len, pad;
	double a = fabs(v), r = a * scale[prec], fl;
	uint64_t k;
	int i;

	/* Zero is most of a call-path report's columns (paths without
	 * samples). */
	if (v == 0.0 && !signbit(v) && (size_t)width <= FIXED_MAX_WIDTH) {
		len = prec ? (size_t)prec + 2 : 1;
		pad = (size_t)width > len ? (size_t)width - len : 0;
		memset(buf, ' ', pad);
		memcpy(buf + pad, "0.000", len);
		buf[pad + len] = '\0';
		return pad + len;
	}
	/* Beyond 1e15 the scaled value has no fraction bits to round on. */
	if (!(r < 1e15))
		return (size_t)snprintf(buf, FIXED_MAX, "%*.*f", width, prec, v);
	fl = floor(r);
	k = (uint64_t)fl + round_up(a, scale[prec], r, fl);
	for (i = 0; i < prec; i++, k /= 10)
		digits[--n] = (char)('0' + k % 10);
	if (prec)
		digits[--n] = '.';
	do {
		digits[--n] = (char)('0' + k % 10);
		k /= 10;
	} while (k);
	if (signbit(v)) /* -0.0 and -0.001 print "-0.00" too */
		digits[--n] = '-';
	len = sizeof(digits) - n;
	pad = (size_t)width > len ? (size_t)width - len : 0;
	memset(buf, ' ', pad);
	memcpy(buf + pad, digits + n, len);
	buf[pad + len] = '\0';
	return pad + len;
}

int fixed_print(FILE *out, double v, int width, int prec)
{
	char buf[FIXED_MAX];
	size_t n = fixed_format(buf, v, width, prec);

	return fwrite(buf, 1, n, out) == n ? 0 : -1;
}
