#include <math.h>
#include <stdint.h>
#include <string.h>
#include "utils/fixed.h"
#include "utils/banned.h"

static const double scale[] = { 1.0, 10.0, 100.0, 1000.0 };

size_t fixed_format(char *buf, double v, int width, int prec)
{
	char digits[40];
	size_t n = sizeof(digits), len, pad;
	double a = fabs(v), r = a * scale[prec], fl;
	uint64_t k;
	int i;

	/* Beyond 1e15 the scaled value has no fraction bits to round on. */
	if (!(r < 1e15))
		return (size_t)snprintf(buf, FIXED_MAX, "%*.*f", width, prec, v);
	fl = floor(r);
	/* The product's error is at most half an ulp of r (about r * 1.1e-16). */
	if (fabs(r - fl - 0.5) < 1e-9 + r * 1e-15)
		return (size_t)snprintf(buf, FIXED_MAX, "%*.*f", width, prec, v);
	k = (uint64_t)fl + (r - fl > 0.5);
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
