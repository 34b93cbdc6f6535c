# utils/: small pieces every part shares (errors, atomic output files).
UTILS_OBJS = utils/error.o utils/outfile.o
EGPROF_OBJS += $(UTILS_OBJS)
