/*
 * env.h - numbers in the runtime's environment variables, read one way.
 *
 * A number is decimal digits and nothing else: no sign, no blanks before or
 * after, no base prefix, at most 19 digits.  (strtol and strtoul, used
 * before, took leading blanks and a sign but not trailing blanks:
 * CALLPATH_HZ=" 10" was accepted and "10 " refused, and "-1" read as a
 * huge unsigned.)  A variable whose value is not such a number in its range
 * is said once on stderr, always in these words, and its default is kept:
 *
 *   callpath: ignoring NAME='VALUE': not a number in [LO, HI]
 *   callpath: ignoring NAME='VALUE': not 0 or a number in [LO, HI]
 *
 * (the second where 0 means "off").  Unset or empty: the default, silently.
 * Normal context only (getenv, dprintf).
 */
#ifndef CALLPATH_RUNTIME_ENV_H
#define CALLPATH_RUNTIME_ENV_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The `len` characters at `s` as a number: 0 and *v, or -1. */
static inline int cp_parse_number(const char *s, size_t len, unsigned long long *v)
{
	unsigned long long n = 0;

	if (!len || len > 19)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		n = n * 10 + (unsigned long long)(s[i] - '0');
	}
	*v = n;
	return 0;
}

/*
 * The `len` characters at `s` as a decimal fraction: digits with at most
 * one point among or around them ("2", "0.05", ".5", "5."), at least one
 * digit, nothing else (no sign, no blanks, no exponent, no "inf"), at most
 * 19 digits each side: 0 and *v, or -1.  For seconds, read the one way the
 * numbers above are.
 */
static inline int cp_parse_decimal(const char *s, size_t len, double *v)
{
	unsigned long long whole = 0, frac = 0;
	size_t dot = 0, flen;
	double scale = 1;

	while (dot < len && s[dot] != '.')
		dot++;
	flen = dot < len ? len - dot - 1 : 0;
	if (!dot && !flen)
		return -1;	/* empty, or the point alone */
	if (dot && cp_parse_number(s, dot, &whole) != 0)
		return -1;
	if (flen && cp_parse_number(s + dot + 1, flen, &frac) != 0)
		return -1;	/* a second point too */
	for (size_t i = 0; i < flen; i++)
		scale *= 10;
	*v = (double)whole + (double)frac / scale;
	return 0;
}

/*
 * Environment variable `name` as a number in [lo, hi] (or 0 too, when
 * `zero_ok`): 1 and *out when it is one, 0 when unset or empty, -1 when it
 * is not (said on stderr as above).
 */
static inline int cp_env_number(const char *name, unsigned long long lo,
				unsigned long long hi, int zero_ok, unsigned long long *out)
{
	const char *s = getenv(name);
	unsigned long long v;
	size_t len = 0;

	if (!s || !*s)
		return 0;
	while (s[len])
		len++;
	if (cp_parse_number(s, len, &v) == 0 && ((v >= lo && v <= hi) || (zero_ok && v == 0))) {
		*out = v;
		return 1;
	}
	dprintf(2, "callpath: ignoring %s='%s': not %sa number in [%llu, %llu]\n",
		name, s, zero_ok ? "0 or " : "", lo, hi);
	return -1;
}

#endif
