# callpath/analysis.mk: the analysis side of call paths (`--callpath`,
# `--folded`, path diffs, summed sidecars), linked into gprof-ext/gprof.
# The runtime and the sidecar format are callpath/module.mk's; this fragment
# only links their sidecar.o.
#
# cmd_callpath.o is the glue to the front end; the others know nothing of it
# and are unit-tested alone.
CALLPATH_ANALYSIS_OBJS = callpath/report.o callpath/folded.o callpath/arcs.o callpath/elide.o \
	callpath/recursion.o callpath/shortname.o \
	callpath/pathdiff.o callpath/sum.o callpath/buildid.o callpath/stale.o \
	callpath/elfsyms.o callpath/leaves.o callpath/pathrank.o callpath/metric.o \
	callpath/derived.o callpath/metric_columns.o
EGPROF_OBJS += $(CALLPATH_ANALYSIS_OBJS) callpath/cmd_callpath.o
# The sidecar reader is shared with the MPI rank files; whichever fragment
# lists it first links it.
CALLPATH_SIDECAR_OBJ := $(filter-out $(EGPROF_OBJS),callpath/sidecar.o)
EGPROF_OBJS += $(CALLPATH_SIDECAR_OBJ)

UNIT_TESTS += testsuite/unit/test_callpath_report testsuite/unit/test_pathdiff
testsuite/unit/test_callpath_report: testsuite/unit/test_callpath_report.o diff/signif.o \
	$(CALLPATH_ANALYSIS_OBJS) callpath/sidecar.o diff/profile.o $(UTILS_OBJS)
testsuite/unit/test_pathdiff: testsuite/unit/test_pathdiff.o diff/signif.o \
	$(CALLPATH_ANALYSIS_OBJS) callpath/sidecar.o diff/profile.o $(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_derived
testsuite/unit/test_derived: testsuite/unit/test_derived.o callpath/derived.o callpath/metric.o \
	callpath/sidecar.o $(UTILS_OBJS)
UNIT_TESTS += testsuite/unit/test_pathrank
testsuite/unit/test_pathrank: testsuite/unit/test_pathrank.o callpath/pathrank.o
UNIT_TESTS += testsuite/unit/test_shortname
testsuite/unit/test_shortname: testsuite/unit/test_shortname.o callpath/shortname.o utils/names.o
UNIT_TESTS += testsuite/unit/test_elide testsuite/unit/test_recursion
testsuite/unit/test_elide: testsuite/unit/test_elide.o callpath/elide.o
testsuite/unit/test_recursion: testsuite/unit/test_recursion.o callpath/recursion.o
