# filter/: --focus, --root, --depth and --exclude, one set of rules for
# every output (graphs, folded stacks, pprof, HTML, JSON): on call graphs
# of functions and on calling-context trees.
FILTER_OBJS = filter/filter.o filter/filter_ctt.o filter/filter_models.o
EGPROF_OBJS += $(FILTER_OBJS)

UNIT_TESTS += testsuite/unit/test_filter
testsuite/unit/test_filter: testsuite/unit/test_filter.o $(FILTER_OBJS) model/paths_build.o callpath/report.o model/metric.o model/elide.o model/recursion.o model/shortname.o model/arcs.o model/elfsyms.o model/leaves.o format/buildid.o callpath/pathrank.o format/sidecar.o \
	diff/profile.o diff/signif.o $(UTILS_OBJS) -lm
