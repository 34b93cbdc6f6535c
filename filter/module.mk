# filter/: --focus, --root, --depth and --exclude, one set of rules for
# every output (graphs, folded stacks, pprof, HTML, JSON): on call graphs
# of functions and on calling-context trees.
FILTER_OBJS = filter/filter.o filter/filter_ctt.o filter/filter_models.o
EGPROF_OBJS += $(FILTER_OBJS)

UNIT_TESTS += testsuite/unit/test_filter
testsuite/unit/test_filter: testsuite/unit/test_filter.o $(FILTER_OBJS) callpath/report.o callpath/metric.o callpath/elide.o callpath/recursion.o callpath/shortname.o callpath/arcs.o callpath/elfsyms.o callpath/pathrank.o callpath/sidecar.o \
	diff/profile.o diff/signif.o $(UTILS_OBJS) -lm
