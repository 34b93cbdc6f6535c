# utils/: small pieces every part shares (errors, atomic output files, growing arrays).
UTILS_OBJS = utils/error.o utils/outfile.o utils/array.o utils/infile.o \
	utils/printable.o
EGPROF_OBJS += $(UTILS_OBJS)
