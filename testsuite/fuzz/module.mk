# testsuite/fuzz/: libFuzzer harnesses for every reader and writer of ours
# (doc/dev/reliability.md).  Built only on request, with clang:
#   make fuzz-build                 the harnesses, in fuzz/
#   make fuzz [FUZZ_SECONDS=60]     each harness for FUZZ_SECONDS on a copy of
#                                   its seed corpus, with a summary line each
# The smoke run of `make check` (t640_fuzz_smoke) runs each for a few seconds
# when clang's fuzzer runtime is installed.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
# gcc's warnings are the project's rule; clang's two about `a | b ? x : y`,
# an idiom of the writers, are not.
FUZZ_CFLAGS = -std=gnu11 -g -O1 -Wall -Wextra -Werror $(FUZZ_SAN) \
	-Wno-bitwise-conditional-parentheses -Wno-bitwise-instead-of-logical \
	-fsanitize=fuzzer-no-link -I$(srcdir) -I. -DEGPROF_VERSION='"$(EGPROF_VERSION)"'
FUZZ_HARNESSES = sidecar reports pathdiff profile_io gmonsum operands options writers names views
FUZZ_BINS = $(addprefix fuzz/fuzz_,$(FUZZ_HARNESSES))

fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  FUZZCC   $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_OBJ_CFLAGS) -MMD -MP -c $< -o $@

# The adapter needs upstream's headers; upstream itself stays uninstrumented.
fuzz/obj/gprof-ext/upstream.o: FUZZ_OBJ_CFLAGS = $(UP_CPPFLAGS) -Wno-unused-parameter
fuzz/obj/gml/%.o fuzz/obj/testsuite/fuzz/fuzz_writers.o \
	fuzz/obj/testsuite/fuzz/fuzz_names.o: FUZZ_OBJ_CFLAGS = $(XML2_CFLAGS) $(CGRAPH_CFLAGS)

FUZZ_UTILS = $(addprefix fuzz/obj/,$(UTILS_OBJS))
fuzz/fuzz_sidecar: fuzz/obj/format/sidecar.o $(FUZZ_UTILS)
# reports and path diffs of sidecars named through a made-up program's
# symbols (testsuite/fuzz/named_model.h)
fuzz/fuzz_reports fuzz/fuzz_pathdiff: fuzz/obj/format/sidecar.o fuzz/obj/model/paths_build.o fuzz/obj/callpath/report.o fuzz/obj/model/metric.o \
	fuzz/obj/callpath/folded.o fuzz/obj/model/arcs.o fuzz/obj/model/elfsyms.o fuzz/obj/model/leaves.o fuzz/obj/format/buildid.o \
	fuzz/obj/callpath/pathdiff.o fuzz/obj/callpath/pathrank.o fuzz/obj/model/elide.o \
	fuzz/obj/model/recursion.o fuzz/obj/model/shortname.o fuzz/obj/diff/signif.o \
	fuzz/obj/diff/profile.o $(FUZZ_UTILS)
fuzz/fuzz_profile_io: fuzz/obj/diff/profile.o fuzz/obj/diff/profile_io.o $(FUZZ_UTILS)
fuzz/fuzz_gmonsum: fuzz/obj/mpi/gmonsum.o $(FUZZ_UTILS)
fuzz/fuzz_operands: fuzz/obj/gprof-ext/operands.o $(FUZZ_UTILS)
fuzz/fuzz_options: fuzz/obj/gprof-ext/options.o fuzz/obj/gprof-ext/cmdline.o \
	fuzz/obj/gprof-ext/upstream.o fuzz/obj/gprof-ext/loader_watch.o $(addprefix fuzz/obj/,$(DIFF_OBJS)) \
	fuzz/obj/export/table.o fuzz/obj/gprof-ext/gmon_owner.o fuzz/obj/diff/gate.o \
	fuzz/obj/format/buildid.o fuzz/obj/format/sidecar.o fuzz/obj/model/elfsyms.o \
	$(FUZZ_UTILS) gprof-ext/upstream_gprof.o
fuzz/fuzz_options: FUZZ_LIBS = $(UP_GPROF_OBJS) $(UP_LIBS)
fuzz/fuzz_writers fuzz/fuzz_names: $(addprefix fuzz/obj/,$(GML_OBJS)) fuzz/obj/filter/filter.o fuzz/obj/diff/profile.o fuzz/obj/diff/signif.o \
	fuzz/obj/callpath/folded.o fuzz/obj/model/paths_build.o fuzz/obj/callpath/report.o fuzz/obj/model/metric.o fuzz/obj/model/arcs.o \
	fuzz/obj/model/elfsyms.o fuzz/obj/model/leaves.o fuzz/obj/format/buildid.o fuzz/obj/callpath/pathdiff.o fuzz/obj/callpath/pathrank.o \
	fuzz/obj/model/elide.o fuzz/obj/model/recursion.o fuzz/obj/model/shortname.o \
	fuzz/obj/format/sidecar.o fuzz/obj/testsuite/fuzz/dot_reader.o $(FUZZ_UTILS)
fuzz/fuzz_writers fuzz/fuzz_names: FUZZ_LIBS = $(XML2_LIBS) $(GVC_LIBS) $(CGRAPH_LIBS)
# names through the views' writers: the heat map's SVG, pprof, the HTML
# report's JSON (its script and style: the generated export/html_assets.c)
fuzz/obj/ranks/heatmap.o: FUZZ_OBJ_CFLAGS = $(CAIRO_CFLAGS)
fuzz/obj/testsuite/fuzz/fuzz_views.o: FUZZ_OBJ_CFLAGS = $(XML2_CFLAGS)
fuzz/fuzz_views: fuzz/obj/ranks/heatmap.o fuzz/obj/export/pprof.o fuzz/obj/export/html.o \
	fuzz/obj/export/html_assets.o fuzz/obj/export/table.o $(FUZZ_UTILS)
fuzz/fuzz_views: FUZZ_LIBS = $(XML2_LIBS) -lz

$(FUZZ_BINS): fuzz/fuzz_%: fuzz/obj/testsuite/fuzz/fuzz_%.o
	@echo "  FUZZLD   $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ \
	  $(filter-out $(FUZZ_LIBS),$^) $(FUZZ_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@$(srcdir)/testsuite/fuzz/run --builddir "$(CURDIR)" --srcdir "$(srcdir)" \
	  --seconds $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

.PHONY: fuzz fuzz-build

# Seed maker for the loader pipe format (testsuite/fuzz/mkcorpus).
fuzz/mkseed_profile: fuzz/obj/testsuite/fuzz/mkseed_profile.o \
	fuzz/obj/gprof-ext/upstream.o fuzz/obj/gprof-ext/loader_watch.o fuzz/obj/diff/profile.o fuzz/obj/diff/profile_io.o \
	fuzz/obj/diff/clones.o fuzz/obj/diff/match.o fuzz/obj/model/elfsyms.o \
	$(FUZZ_UTILS) gprof-ext/upstream_gprof.o
	@echo "  FUZZLD   $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -o $@ $^ \
	  $(UP_GPROF_OBJS) $(UP_LIBS) -lm
CLEANFILES += $(FUZZ_BINS) fuzz/mkseed_profile
