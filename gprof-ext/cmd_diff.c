#include "gprof-ext/commands.h"
#include "utils/error.h"

int cmd_diff(struct egprof_opts *o)
{
	(void)o;
	return error("--diff is not built yet") ? 1 : 1;
}
