# utils/: small pieces every part shares (errors, atomic output files, growing arrays).
UTILS_OBJS = utils/error.o utils/outfile.o utils/array.o utils/infile.o \
	utils/printable.o utils/progress.o utils/fixed.o \
	utils/line.o utils/radixsort.o utils/xmltext.o utils/names.o
EGPROF_OBJS += $(UTILS_OBJS)

UNIT_TESTS += testsuite/unit/test_outfile testsuite/unit/test_infile \
	testsuite/unit/test_printable testsuite/unit/test_progress \
	testsuite/unit/test_fixed testsuite/unit/test_line \
	testsuite/unit/test_radixsort testsuite/unit/test_names
testsuite/unit/test_outfile: testsuite/unit/test_outfile.o $(UTILS_OBJS)
testsuite/unit/test_infile: testsuite/unit/test_infile.o utils/infile.o
testsuite/unit/test_printable: testsuite/unit/test_printable.o utils/printable.o
testsuite/unit/test_progress: testsuite/unit/test_progress.o $(UTILS_OBJS)
testsuite/unit/test_fixed: testsuite/unit/test_fixed.o utils/fixed.o
testsuite/unit/test_line: testsuite/unit/test_line.o utils/line.o utils/fixed.o utils/error.o
testsuite/unit/test_radixsort: testsuite/unit/test_radixsort.o utils/radixsort.o
testsuite/unit/test_names: testsuite/unit/test_names.o utils/names.o
