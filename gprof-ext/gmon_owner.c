#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gprof-ext/gmon_owner.h"
#include "callpath/buildid.h"
#include "callpath/sidecar.h"
#include "utils/error.h"
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

static int check_hist(const struct gmon_image *img, const char *gmon, uint64_t lo, uint64_t hi)
{
	uint64_t tlo = round_down(img->text_lo), thi = round_up(img->text_hi);
	char why[256];

	if (!img->text_hi)
		return 0;
	if ((lo == tlo && hi != thi) || lo < tlo || hi > thi + CRAFTED_SLACK) {
		snprintf(why, sizeof(why), "its histogram covers 0x%llx-0x%llx, the binary's "
			 "text 0x%llx-0x%llx", (unsigned long long)lo, (unsigned long long)hi,
			 (unsigned long long)tlo, (unsigned long long)thi);
		return foreign(img, gmon, why);
	}
	return 0;
}

/* The sidecar beside the gmon file, when there is one, records the
 * build-id of the program that wrote both. */
static int check_sidecar(const struct gmon_image *img, const char *gmon)
{
	char path[4096], err[256];
	struct sidecar *sc;
	int ret;

	if (sidecar_name_for(gmon, path, sizeof(path)) < 0 || access(path, F_OK) != 0)
		return 0;
	if (sidecar_read(path, &sc, err, sizeof(err)) < 0)
		return 0; /* unreadable sidecars are reported where they are used */
	ret = sidecar_check_build_id(sc, path, img->binary);
	sidecar_free(sc);
	return ret < 0 ? foreign(img, gmon, "its sidecar records another build-id") : 0;
}

int gmon_owner_check(const struct gmon_image *img, const char *gmon)
{
	unsigned char hdr[20], rec[40];
	uint64_t narcs = 0, stray = 0;
	FILE *fp = fopen(gmon, "rb");
	int tag, ret = 0;

	if (!fp)
		return error("%s: %s", gmon, strerror(errno));
	if (fread(hdr, 1, sizeof(hdr), fp) != sizeof(hdr) || memcmp(hdr, "gmon", 4) != 0) {
		fclose(fp);
		return 0; /* old BSD layout or not a gmon file: upstream decides */
	}
	if (!img->sidecar_elsewhere && check_sidecar(img, gmon) < 0) {
		fclose(fp);
		return -1;
	}
	while (ret == 0 && (tag = fgetc(fp)) != EOF) {
		uint64_t a, b;
		uint32_t n;

		if (tag == 0) { /* histogram: lowpc highpc ncnt rate dimen abbrev */
			if (fread(rec, 1, 40, fp) != 40)
				break;
			memcpy(&a, rec, 8);
			memcpy(&b, rec + 8, 8);
			memcpy(&n, rec + 16, 4);
			ret = check_hist(img, gmon, a, b);
			if (fseek(fp, 2 * (long)n, SEEK_CUR) != 0)
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
	if (ret == 0 && img->nentry && stray * 10 > narcs) {
		char why[160];

		snprintf(why, sizeof(why), "%llu of its %llu calls do not enter a function "
			 "of the binary", (unsigned long long)stray, (unsigned long long)narcs);
		ret = foreign(img, gmon, why);
	}
	return ret;
}
