# callpath/: the sidecar format module (sidecar.[ch], shared with the
# runtime in runtime/, which compiles it with its own flags), cpdump, and,
# in analysis.mk, the reports linked into gprof.

CPDUMP_OBJS = callpath/cpdump.o callpath/sidecar.o callpath/elide.o \
	callpath/recursion.o utils/array.o utils/infile.o utils/printable.o
callpath/cpdump: $(CPDUMP_OBJS)
	@echo "  LINK     $@"
	@$(CC) $(EG_LDFLAGS) -o $@ $(CPDUMP_OBJS)

# The unit test is linked by the top Makefile's rule for UNIT_TESTS.
testsuite/unit/test_sidecar: testsuite/unit/test_sidecar.o callpath/sidecar.o utils/infile.o

ALL_TARGETS += callpath/cpdump
UNIT_TESTS += testsuite/unit/test_sidecar
