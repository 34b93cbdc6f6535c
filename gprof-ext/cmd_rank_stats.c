#include "gprof-ext/commands.h"
#include "utils/error.h"

int cmd_rank_stats(struct egprof_opts *o)
{
	(void)o;
	return error("--rank-stats is not built yet") ? 1 : 1;
}
