# diff/: the profile model, matching, subtraction and the diff printers.
DIFF_OBJS = diff/clones.o diff/profile.o diff/profile_io.o diff/match.o diff/diff.o \
	diff/signif.o diff/noise.o diff/evidence.o diff/print.o diff/print_classic.o diff/print_extended.o \
	diff/print_cg.o diff/print_evidence.o diff/print_lines.o
EGPROF_OBJS += $(DIFF_OBJS)

UNIT_TESTS += testsuite/unit/test_match testsuite/unit/test_diff testsuite/unit/test_noise
testsuite/unit/test_match: testsuite/unit/test_match.o diff/match.o diff/profile.o $(UTILS_OBJS)
testsuite/unit/test_diff: testsuite/unit/test_diff.o diff/diff.o diff/match.o \
	diff/signif.o diff/noise.o diff/evidence.o diff/profile.o diff/print.o diff/print_classic.o \
	diff/print_extended.o diff/print_cg.o diff/print_evidence.o $(UTILS_OBJS)
testsuite/unit/test_noise: testsuite/unit/test_noise.o diff/signif.o diff/noise.o diff/evidence.o diff/diff.o \
	diff/match.o diff/profile.o $(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_evidence
testsuite/unit/test_evidence: testsuite/unit/test_evidence.o diff/signif.o diff/evidence.o diff/noise.o \
	diff/diff.o diff/match.o diff/profile.o $(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_clones
testsuite/unit/test_clones: testsuite/unit/test_clones.o diff/clones.o diff/match.o diff/profile.o \
	$(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_signif
testsuite/unit/test_signif: testsuite/unit/test_signif.o diff/signif.o diff/noise.o diff/evidence.o \
	diff/diff.o diff/match.o diff/profile.o $(UTILS_OBJS)
