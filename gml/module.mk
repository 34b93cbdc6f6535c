# gml/: the call-graph model and its writers (GML for yEd, DOT through
# graphviz's cgraph, GraphML through libxml2).
GML_OBJS = gml/graph.o gml/graph_diff.o gml/gml_write.o gml/dot_write.o \
	gml/graphml_write.o gml/graph_select.o gml/graph_render.o gml/graph_export.o
# libgvc: graphviz's layout and renderers, for --svg/--png
GVC_CFLAGS := $(GVC_CFLAGS)
GVC_LIBS := $(shell pkg-config --libs libgvc)
EGPROF_LIBS += $(GVC_LIBS)
EGPROF_OBJS += $(GML_OBJS)

gml/%.o: OBJ_CFLAGS += $(XML2_CFLAGS) $(CGRAPH_CFLAGS) $(GVC_CFLAGS)

UNIT_TESTS += testsuite/unit/test_graph testsuite/unit/test_gml
testsuite/unit/test_graph: testsuite/unit/test_graph.o $(GML_OBJS) filter/filter.o diff/profile.o diff/signif.o diff/diff.o diff/match.o diff/noise.o diff/evidence.o $(UTILS_OBJS)
testsuite/unit/test_gml: testsuite/unit/test_gml.o $(GML_OBJS) filter/filter.o diff/profile.o diff/signif.o diff/diff.o diff/match.o diff/noise.o diff/evidence.o $(UTILS_OBJS)
testsuite/unit/test_graph testsuite/unit/test_gml: UNIT_LIBS += $(XML2_LIBS) $(GVC_LIBS) $(CGRAPH_LIBS)
testsuite/unit/test_gml.o: OBJ_CFLAGS += $(XML2_CFLAGS) $(CGRAPH_CFLAGS)

# The export benchmark (bench/graph/run.sh); built by `make`, run by hand.
ALL_TARGETS += bench/graph/bench_graph
bench/graph/bench_graph: bench/graph/bench_graph.o $(GML_OBJS) filter/filter.o diff/profile.o diff/signif.o $(UTILS_OBJS)
	@echo "  LINK     $@"
	@$(CC) $(EG_LDFLAGS) -o $@ $^ $(XML2_LIBS) $(GVC_LIBS) $(CGRAPH_LIBS) -lm
