#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "gprof-ext/gmon_owner.h"
#include "format/buildid.h"
#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/infile.h"
#include "utils/banned.h"

/* glibc's histogram granularity: HISTFRACTION * sizeof(HISTCOUNTER). */
#define HIST_ROUND 4u
/* Files not written by glibc (gprof -s keeps glibc's range; test
 * generators round to 16 bytes) may end this far beyond the text. */
#define CRAFTED_SLACK 16u
/* How far after a function's entry mcount's return address may lie. */
#define PROLOGUE_MAX 64u

static uint64_t round_down(uint64_t a)
{
	return a & ~(uint64_t)(HIST_ROUND - 1);
}

static uint64_t round_up(uint64_t a)
{
	return round_down(a + HIST_ROUND - 1);
}

/* The nearest entry at or before pc, or UINT64_MAX. */
static uint64_t entry_before(const struct gmon_image *img, uint64_t pc)
{
	size_t lo = 0, hi = img->nentry;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->entry[mid] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? img->entry[lo - 1] : UINT64_MAX;
}

static int foreign(const struct gmon_image *img, const char *gmon, const char *why)
{
	return error("%s: does not belong to '%s': %s (a profile of another program or "
		     "another build; --force reads it anyway)", gmon, img->binary, why);
}

static int scan(const struct gmon_image *img, const char *gmon, char *why, size_t n,
		int report);

static int hist_foreign(const struct gmon_image *img, uint64_t lo, uint64_t hi,
			char *why, size_t n)
{
	snprintf(why, n, "its histogram covers 0x%llx-0x%llx, the binary's text 0x%llx-0x%llx",
		 (unsigned long long)lo, (unsigned long long)hi,
		 (unsigned long long)round_down(img->text_lo),
		 (unsigned long long)round_up(img->text_hi));
	return 1;
}

/* glibc's bins for [lo, hi): one per HIST_ROUND bytes, the buffer rounded
 * up a little (__monstartup aligns it): a file as glibc writes it. */
static int glibc_bins(uint64_t lo, uint64_t hi, uint32_t ncnt)
{
	uint64_t bytes = (uint64_t)ncnt * HIST_ROUND;

	return hi > lo && bytes >= hi - lo && bytes <= hi - lo + 8 * HIST_ROUND;
}

/* A histogram record outside the binary's text. */
static int check_hist(const struct gmon_image *img, uint64_t lo, uint64_t hi,
		      char *why, size_t n)
{
	uint64_t tlo = round_down(img->text_lo), thi = round_up(img->text_hi);

	if (!img->text_hi)
		return 0;
	if (lo < tlo || hi > thi + CRAFTED_SLACK)
		return hist_foreign(img, lo, hi, why, n);
	return 0;
}

/*
 * A histogram that starts where the text starts must end where it ends
 * (glibc writes [__executable_start, etext]): another build of the program
 * ends elsewhere.  Strict (the commands that refuse): every record.
 * Lenient (plain gprof's warning): only a file as glibc writes it, one
 * record of a bin per 4 bytes (glibc_bins), so that a crafted or partial histogram,
 * which upstream reads or refuses itself, is no other build.
 */
static int check_hist_end(const struct gmon_image *img, uint64_t lo, uint64_t hi,
			  uint32_t ncnt, size_t nhist, int strict, char *why, size_t n)
{
	uint64_t tlo = round_down(img->text_lo), thi = round_up(img->text_hi);

	if (!img->text_hi || lo != tlo || hi == thi)
		return 0;
	if (!strict && (nhist != 1 || !glibc_bins(lo, hi, ncnt)))
		return 0;
	return hist_foreign(img, lo, hi, why, n);
}

/*
 * The sidecar beside the gmon file, when there is one and it was written
 * with this gmon file (its identity: a sidecar left from another run says
 * nothing of this one), records the build-id of the program that wrote
 * both.  Unreadable sidecars are reported where they are used.
 */
static int check_sidecar(const struct gmon_image *img, const char *gmon, char *why, size_t n,
			 int report)
{
	char path[4096], err[256];
	unsigned char id[SIDECAR_BUILD_ID_MAX];
	struct sidecar *sc;
	int len, ret = 0;

	if (sidecar_name_for(gmon, path, sizeof(path)) < 0 || access(path, F_OK) != 0)
		return 0;
	if (sidecar_read(path, &sc, err, sizeof(err)) < 0)
		return 0;
	if (sc->build_id_len && sidecar_belongs_to(sc, gmon, err, sizeof(err)) &&
	    (len = elf_build_id(img->binary, id, sizeof(id))) > 0 &&
	    ((uint32_t)len != sc->build_id_len || memcmp(id, sc->build_id, (size_t)len))) {
		snprintf(why, n, "its sidecar records another build-id");
		if (report) /* the sidecar named in the words of every reader */
			sidecar_check_build_id(sc, path, img->binary);
		ret = 1;
	}
	sidecar_free(sc);
	return ret;
}

static int owner(const struct gmon_image *img, const char *gmon, char *why, size_t n,
		 int report)
{
	struct stat st;

	/* plain gprof reads a pipe once, after this: only regular files */
	if (!report && (stat(gmon, &st) != 0 || !S_ISREG(st.st_mode)))
		return 0;
	return scan(img, gmon, why, n, report);
}

static int scan(const struct gmon_image *img, const char *gmon, char *why, size_t n,
		int report)
{
	unsigned char hdr[20], rec[40];
	uint64_t narcs = 0, stray = 0, lo0 = 0, hi0 = 0;
	uint32_t ncnt0 = 0;
	size_t nhist = 0;
	FILE *fp = fopen(gmon, "rb");
	int tag, ret = 0;

	if (!fp)
		return -1;
	if (fread(hdr, 1, sizeof(hdr), fp) != sizeof(hdr) || memcmp(hdr, "gmon", 4) != 0) {
		fclose(fp);
		return 0; /* old BSD layout or not a gmon file: upstream decides */
	}
	while (ret == 0 && (tag = fgetc(fp)) != EOF) {
		uint64_t a, b;
		uint32_t k;

		if (tag == 0) { /* histogram: lowpc highpc ncnt rate dimen abbrev */
			if (fread(rec, 1, 40, fp) != 40)
				break;
			memcpy(&a, rec, 8);
			memcpy(&b, rec + 8, 8);
			memcpy(&k, rec + 16, 4);
			if (report)
				ret = check_hist(img, a, b, why, n) ||
				      check_hist_end(img, a, b, k, 1, 1, why, n);
			if (nhist++ == 0) {
				lo0 = a;
				hi0 = b;
				ncnt0 = k;
			}
			if (fseek(fp, 2 * (long)k, SEEK_CUR) != 0)
				break;
		} else if (tag == 1) { /* arc: frompc selfpc count */
			if (fread(rec, 1, 20, fp) != 20)
				break;
			memcpy(&b, rec + 8, 8);
			a = entry_before(img, b);
			narcs++;
			stray += a == UINT64_MAX || b - a > PROLOGUE_MAX;
		} else {
			break; /* basic-block counts or a bad tag: upstream decides */
		}
	}
	fclose(fp);
	/* plain gprof's warning: the histogram of a file as glibc writes it,
	 * one record of a bin per 4 bytes (a crafted one is upstream's to
	 * read or refuse: it proves nothing of the build) */
	if (ret == 0 && !report && nhist == 1 && glibc_bins(lo0, hi0, ncnt0))
		ret = check_hist(img, lo0, hi0, why, n) ||
		      check_hist_end(img, lo0, hi0, ncnt0, nhist, 0, why, n);
	if (ret == 0 && img->nentry && stray * 10 > narcs) {
		snprintf(why, n, "%llu of its %llu calls do not enter a function of the binary",
			 (unsigned long long)stray, (unsigned long long)narcs);
		ret = 1;
	}
	/* last: it reads the whole sidecar (unless the caller reads it and
	 * checks its build-id there: each sidecar is read once) */
	if (ret == 0 && !img->sidecar_elsewhere)
		ret = check_sidecar(img, gmon, why, n, report);
	return ret;
}

int gmon_owner_why(const struct gmon_image *img, const char *gmon, char *why, size_t n)
{
	return owner(img, gmon, why, n, 0);
}

int gmon_owner_check(const struct gmon_image *img, const char *gmon)
{
	char why[256];
	int r = owner(img, gmon, why, sizeof(why), 1);

	if (r < 0)
		return error("%s: %s", gmon, strerror(errno));
	return r ? foreign(img, gmon, why) : 0;
}

static int cmp_u64(const void *l, const void *r)
{
	uint64_t a = *(const uint64_t *)l, b = *(const uint64_t *)r;

	return (a > b) - (a < b);
}

/* `len` bytes of `f` at `off`, or NULL. */
/*
 * As upstream.c's check reads BFD's symbols: __executable_start and etext
 * bound the text, every function symbol of an executable section is an
 * entry.
 */
int gmon_image_read(const char *binary, struct gmon_image *img)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	Elf64_Sym *syms = NULL;
	char *str = NULL;
	struct stat st;
	FILE *f = stat(binary, &st) == 0 && S_ISREG(st.st_mode) ? fopen(binary, "rb") : NULL;
	int have_lo = 0, have_hi = 0, ret = -1;
	unsigned i;

	memset(img, 0, sizeof(*img));
	img->binary = binary;
	if (!f || fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !(sh = infile_read_range(f, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sh))))
		goto out;
	for (i = 0; i < eh.e_shnum; i++) {
		uint64_t nsyms, k, strsize;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum)
			continue;
		nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
		strsize = sh[sh[i].sh_link].sh_size;
		syms = infile_read_range(f, sh[i].sh_offset, nsyms * sizeof(Elf64_Sym));
		str = infile_read_range(f, sh[sh[i].sh_link].sh_offset, strsize);
		if (!syms || !str || !strsize || !(img->owned = malloc((nsyms + 1) * 8)))
			goto out;
		str[strsize - 1] = 0;
		for (k = 0; k < nsyms; k++) {
			const Elf64_Sym *s = &syms[k];
			const char *name = s->st_name < strsize ? str + s->st_name : "";

			if (!strcmp(name, "etext")) {
				img->text_hi = s->st_value;
				have_hi = 1;
			} else if (!strcmp(name, "__executable_start")) {
				img->text_lo = s->st_value;
				have_lo = 1;
			}
			if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx < eh.e_shnum &&
			    s->st_shndx != SHN_UNDEF && (sh[s->st_shndx].sh_flags & SHF_EXECINSTR))
				img->owned[img->nentry++] = s->st_value;
		}
		break;
	}
	if (!have_lo || !have_hi)
		img->text_hi = 0; /* without both marks, no range check */
	if (img->nentry)
		qsort(img->owned, img->nentry, sizeof(uint64_t), cmp_u64);
	img->entry = img->owned;
	ret = 0;
out:
	if (f)
		fclose(f);
	free(sh);
	free(syms);
	free(str);
	if (ret < 0) {
		free(img->owned);
		memset(img, 0, sizeof(*img));
		img->binary = binary;
	}
	return ret;
}

void gmon_image_release(struct gmon_image *img)
{
	free(img->owned);
	memset(img, 0, sizeof(*img));
}
