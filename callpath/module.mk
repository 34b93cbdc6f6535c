# callpath/: the sidecar format module (sidecar.[ch], shared with the
# runtime in runtime/, which compiles it with its own flags), cpdump, and,
# in analysis.mk, the reports linked into gprof.

callpath/cpdump: callpath/cpdump.o callpath/sidecar.o utils/array.o utils/infile.o
	@echo "  LINK     $@"
	@$(CC) $(EG_LDFLAGS) -o $@ callpath/cpdump.o callpath/sidecar.o utils/array.o \
	  utils/infile.o

# The unit test is linked by the top Makefile's rule for UNIT_TESTS.
testsuite/unit/test_sidecar: testsuite/unit/test_sidecar.o callpath/sidecar.o utils/infile.o

ALL_TARGETS += callpath/cpdump
UNIT_TESTS += testsuite/unit/test_sidecar
