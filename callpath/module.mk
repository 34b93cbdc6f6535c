# callpath/: the call-path reports (`--callpath`, `--folded`, path diffs,
# path ranks, metric columns) and the model's build of a run's calling
# contexts (report.c's callpath_model_build, with the helpers in model/),
# linked into gprof-ext/gprof.  The sidecar format is format/'s, the
# runtime runtime/'s.
#
# gprof-ext/cmd_callpath.o is the glue to the front end; the others know
# nothing of it and are unit-tested alone.
CALLPATH_ANALYSIS_OBJS = model/paths_build.o callpath/report.o callpath/folded.o model/arcs.o model/elide.o \
	model/recursion.o model/shortname.o \
	callpath/pathdiff.o model/sum.o format/buildid.o model/stale.o \
	model/elfsyms.o model/leaves.o callpath/pathrank.o model/metric.o \
	model/derived.o callpath/metric_columns.o
EGPROF_OBJS += $(CALLPATH_ANALYSIS_OBJS) gprof-ext/cmd_callpath.o
# The sidecar reader is shared with the MPI rank files; whichever fragment
# lists it first links it.
CALLPATH_SIDECAR_OBJ := $(filter-out $(EGPROF_OBJS),format/sidecar.o)
EGPROF_OBJS += $(CALLPATH_SIDECAR_OBJ)

UNIT_TESTS += testsuite/unit/test_callpath_report testsuite/unit/test_pathdiff
testsuite/unit/test_callpath_report: testsuite/unit/test_callpath_report.o diff/signif.o \
	$(CALLPATH_ANALYSIS_OBJS) format/sidecar.o diff/profile.o $(UTILS_OBJS)
testsuite/unit/test_pathdiff: testsuite/unit/test_pathdiff.o diff/signif.o \
	$(CALLPATH_ANALYSIS_OBJS) format/sidecar.o diff/profile.o $(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_derived
testsuite/unit/test_derived: testsuite/unit/test_derived.o model/derived.o model/metric.o \
	format/sidecar.o $(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_pathrank
testsuite/unit/test_pathrank: testsuite/unit/test_pathrank.o callpath/pathrank.o
UNIT_TESTS += testsuite/unit/test_shortname
testsuite/unit/test_shortname: testsuite/unit/test_shortname.o model/shortname.o utils/names.o
UNIT_TESTS += testsuite/unit/test_elide testsuite/unit/test_recursion
testsuite/unit/test_elide: testsuite/unit/test_elide.o model/elide.o
testsuite/unit/test_recursion: testsuite/unit/test_recursion.o model/recursion.o
