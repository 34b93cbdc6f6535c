# model/: one model of a run (run.h: gmon.out through the adapter, the
# sidecars through the one reader, each read once) and the analysis every
# extension view reads (analysis.h: the functions in one metric from one
# source, the diff assessed once, path differences, the filters).
MODEL_OBJS = model/run.o model/paths.o model/measured.o model/analysis.o model/lines.o \
	model/where.o
EGPROF_OBJS += $(MODEL_OBJS)

# Source lines (lines.h) on a fixture binary built by the test; BFD from
# upstream's build maps its addresses (gprof-ext/srcmap.c).
UNIT_TESTS += testsuite/unit/test_lines
testsuite/unit/test_lines: testsuite/unit/test_lines.o model/lines.o gprof-ext/srcmap.o \
	model/leaves.o format/sidecar.o format/buildid.o diff/signif.o diff/profile.o \
	$(UTILS_OBJS) | $(UP)/stamp-build
testsuite/unit/test_lines: UNIT_LIBS += $(UP_LIBS)
