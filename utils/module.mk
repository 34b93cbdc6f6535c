# utils/: small pieces every part shares (errors, atomic output files, growing arrays).
UTILS_OBJS = utils/error.o utils/outfile.o utils/array.o utils/progress.o
EGPROF_OBJS += $(UTILS_OBJS)

UNIT_TESTS += testsuite/unit/test_progress
testsuite/unit/test_progress: testsuite/unit/test_progress.o $(UTILS_OBJS)
