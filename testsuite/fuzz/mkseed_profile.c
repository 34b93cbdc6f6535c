/*
 * Seed maker for fuzz_profile_io: runs upstream gprof in this process on
 * the arguments given (as a loader does, with -P -Q appended by the
 * caller) and writes the profile in the loader pipe format to stdout.
 *   mkseed_profile -P -Q prog gmon.out > corpus/profile_io/prog.profile
 */
#include <stdio.h>
#include "diff/profile.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"

int main(int argc, char **argv)
{
	struct profile *p;
	FILE *out = stdout;
	int ret;

	error_set_program(argv[0]);
	/* upstream prints nothing with -P -Q; keep stdout for the profile */
	stdout = fopen("/dev/null", "w");
	if (!stdout || upstream_main(argc, argv) != 0 || upstream_current_profile(&p) < 0)
		return 1;
	ret = profile_write(out, p) < 0;
	profile_free(p);
	return ret;
}
