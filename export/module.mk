# export/: machine-readable results (--format json|csv): a table writer
# and one column table per result (diff, rank statistics, call paths).
EXPORT_OBJS = export/table.o export/diff_export.o export/rankstats_export.o \
	export/callpath_export.o
EGPROF_OBJS += $(EXPORT_OBJS)

UNIT_TESTS += testsuite/unit/test_table
testsuite/unit/test_table: testsuite/unit/test_table.o export/table.o $(UTILS_OBJS)

# --pprof: profile.proto written by a small encoder of ours, gzipped with
# zlib (which BFD links already); read back by pprof itself in the tests.
EXPORT_OBJS += export/pprof.o export/pprof_export.o
# --diff -l --format json|csv: the lines' comparison
EXPORT_OBJS += export/lines_export.o

# --html: the page (html.c), its data from the exporters (html_views.c), and
# its script and style, kept as source files in export/html/ and embedded
# at build time as C strings (scripts/embed) so the page needs no file of
# its own beside it.
EXPORT_OBJS += export/profile_export.o export/html.o export/html_views.o export/html_rank.o \
	export/html_assets.o export/html_source.o
HTML_ASSETS = $(srcdir)/export/html/report.js $(srcdir)/export/html/report.css \
	$(srcdir)/export/html/source.js $(srcdir)/export/html/source.css
export/html_assets.c: $(HTML_ASSETS) $(srcdir)/scripts/embed
	@mkdir -p $(@D)
	@echo "  EMBED    $@"
	@$(srcdir)/scripts/embed $@ html_report_js $(srcdir)/export/html/report.js \
	  html_report_css $(srcdir)/export/html/report.css \
	  html_source_js $(srcdir)/export/html/source.js \
	  html_source_css $(srcdir)/export/html/source.css
CLEANFILES += export/html_assets.c

# the source view's bounded text (html_source.c), with small limits
UNIT_TESTS += testsuite/unit/test_html_source
testsuite/unit/test_html_source: testsuite/unit/test_html_source.o export/html_source.o \
	export/table.o export/lines_export.o export/html.o export/html_assets.o $(UTILS_OBJS)

UNIT_TESTS += testsuite/unit/test_pprof
testsuite/unit/test_pprof: testsuite/unit/test_pprof.o export/pprof.o $(UTILS_OBJS)
testsuite/unit/test_pprof: UNIT_LIBS += -lz

# --flamegraph: the SVG writer (flamegraph.c) and its script, kept as a
# source file and embedded at build time as the HTML report's are.
EXPORT_OBJS += export/flamegraph.o export/flamegraph_assets.o
export/flamegraph_assets.c: $(srcdir)/export/flamegraph/flamegraph.js $(srcdir)/scripts/embed
	@mkdir -p $(@D)
	@echo "  EMBED    $@"
	@$(srcdir)/scripts/embed $@ flamegraph_js $(srcdir)/export/flamegraph/flamegraph.js
CLEANFILES += export/flamegraph_assets.c

UNIT_TESTS += testsuite/unit/test_flamegraph
testsuite/unit/test_flamegraph: testsuite/unit/test_flamegraph.o export/flamegraph.o \
	export/flamegraph_assets.o $(UTILS_OBJS)
