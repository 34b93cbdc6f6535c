/*
 * geomcheck.c - glibc's own __monstartup against gmon_geometry_compute
 * (runtime/gmon_start.c), on many ranges; linked statically, where glibc's
 * _gmonparam is visible.  For each range: every field glibc computes, and
 * its profil() scale, observed by calling glibc's SIGPROF handler with
 * program counters of our choosing (the range lies far from the program's
 * code, so no real tick can land in it) and finding the bin it counted.
 * Prints one "ok"/"not ok" line per range and field group.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/gmon.h>
#include <ucontext.h>

#include "runtime/gmon_start.h"

extern struct gmonparam _gmonparam;	/* hidden in libc.a */

static unsigned seed = 2024;

static unsigned long rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 4;
}

/* The bin glibc's handler counts `pc` in, or -1 when it counts none. */
static long glibc_bin(void (*handler)(int, siginfo_t *, void *), unsigned long pc)
{
	const struct gmonparam *p = &_gmonparam;
	size_t n = p->kcountsize / sizeof(p->kcount[0]);
	siginfo_t si;
	ucontext_t uc;
	long bin = -1;

	memset(&si, 0, sizeof(si));
	memset(&uc, 0, sizeof(uc));
	uc.uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
	memset(p->kcount, 0, p->kcountsize);
	handler(SIGPROF, &si, &uc);
	for (size_t i = 0; i < n; i++)
		if (p->kcount[i]) {
			if (bin >= 0 || p->kcount[i] != 1)
				return -2;
			bin = (long)i;
		}
	return bin;
}

/* profil's index with our scale (sysdeps/posix/profil.c, 64-bit size_t). */
static long our_bin(const struct gmon_geometry *g, unsigned long pc)
{
	size_t i = (pc - g->lowpc) / 2;

	i = (unsigned long long)i * (unsigned)g->s_scale / 65536;
	return i < g->kcountsize / 2 ? (long)i : -1;
}

static int check(int n, unsigned long lo, unsigned long hi)
{
	const struct gmonparam *p = &_gmonparam;
	struct gmon_geometry g;
	struct sigaction sa;
	void (*handler)(int, siginfo_t *, void *);
	int fields, bins = 1;

	__monstartup(lo, hi);
	gmon_geometry_compute(lo, hi, &g);
	fields = p->lowpc == g.lowpc && p->highpc == g.highpc &&
		 p->textsize == g.textsize && p->kcountsize == g.kcountsize &&
		 p->fromssize == g.fromssize && p->hashfraction == g.hashfraction &&
		 p->log_hashfraction == g.log_hashfraction &&
		 p->tolimit == g.tolimit && p->tossize == g.tossize;
	sigaction(SIGPROF, NULL, &sa);
	handler = sa.sa_sigaction;
	for (int k = 0; k < 64 && bins; k++) {
		unsigned long pc = k < 8 ? g.lowpc + (unsigned long)k
			: k < 16 ? g.highpc - 16 + (unsigned long)k
			: g.lowpc - 8 + rnd() % (g.textsize + 16);

		if (glibc_bin(handler, pc) != our_bin(&g, pc)) {
			printf("# range %#lx..%#lx pc %#lx: glibc's bin %ld, ours %ld (scale %d)\n",
			       lo, hi, pc, glibc_bin(handler, pc), our_bin(&g, pc), g.s_scale);
			bins = 0;
		}
	}
	/* no gmon.out: glibc's _mcleanup writes nothing in error state */
	_gmonparam.state = GMON_PROF_ERROR;
	_mcleanup();
	printf("%s %d - range %#lx..%#lx: fields%s, bins%s\n",
	       fields && bins ? "ok" : "not ok", n, lo, hi,
	       fields ? "" : " DIFFER", bins ? "" : " DIFFER");
	return fields && bins;
}

int main(void)
{
	/* far above any code of ours: no real tick lands in these ranges */
	const unsigned long base = 0x500000000000ul;
	static const unsigned long sizes[] = {
		0, 1, 4, 15, 16, 17, 31, 32, 33, 100, 4095, 4096, 4664,
		65536, 65537, 99999, 1000003, 3333333, 16777216, 50000001,
	};
	int n = 0, bad = 0;
	const int extra = 30;

	printf("1..%d\n", (int)(sizeof(sizes) / sizeof(sizes[0])) + extra);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned long lo = base + 0x1000000 * i + (rnd() % 64);

		bad += !check(++n, lo, lo + sizes[i]);
	}
	for (int i = 0; i < extra; i++) {
		unsigned long lo = base + 0x100000000ul + rnd() % 0x100000;

		bad += !check(++n, lo, lo + 1 + rnd() % 2000000);
	}
	return bad != 0;
}
