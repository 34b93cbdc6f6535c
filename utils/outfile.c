#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

char *outfile_temp_name(const char *path)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);

	if (tmp)
		snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	return tmp;
}

int outfile_rename_into_place(const char *tmp_path, const char *path)
{
	if (rename(tmp_path, path) < 0) {
		int e = errno;
		unlink(tmp_path);
		return error("%s: cannot write: %s", path, strerror(e));
	}
	return 0;
}

int outfile_open(struct outfile *of, const char *path)
{
	memset(of, 0, sizeof(*of));
	of->path = strdup(path);
	of->tmp_path = outfile_temp_name(path);
	if (!of->path || !of->tmp_path) {
		outfile_abort(of);
		return error("out of memory");
	}
	of->fp = fopen(of->tmp_path, "w");
	if (!of->fp) {
		int e = errno;
		free(of->tmp_path);
		of->tmp_path = NULL;
		outfile_abort(of);
		return error("%s: cannot write: %s", path, strerror(e));
	}
	return 0;
}

int outfile_commit(struct outfile *of)
{
	int ret = 0;
	int e = 0;

	if (fflush(of->fp) != 0 || ferror(of->fp) || fsync(fileno(of->fp)) != 0) {
		e = errno;
		ret = -1;
	}
	if (fclose(of->fp) != 0 && !ret) {
		e = errno;
		ret = -1;
	}
	of->fp = NULL;
	if (ret < 0) {
		error("%s: cannot write: %s", of->path, strerror(e ? e : EIO));
		outfile_abort(of);
		return -1;
	}
	ret = outfile_rename_into_place(of->tmp_path, of->path);
	free(of->tmp_path);
	free(of->path);
	of->tmp_path = of->path = NULL;
	return ret;
}

void outfile_abort(struct outfile *of)
{
	if (of->fp)
		fclose(of->fp);
	if (of->tmp_path)
		unlink(of->tmp_path);
	free(of->tmp_path);
	free(of->path);
	memset(of, 0, sizeof(*of));
}
