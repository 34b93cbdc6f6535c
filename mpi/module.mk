# mpi/: MPI ranks.  This fragment adds the whole feature:
#  - rank identity and statistics across ranks (diff/ranks.c; ranks/rankstats*.c),
#    --rank-stats (gprof-ext/cmd_rank_stats.c, listed by gprof-ext/module.mk)
#    and -s summing sidecars too (gprof-ext/cmd_sum.c);
#  - egprof-sum, the MPI-parallel summing tool, built only when mpicc exists.
# See doc/mpi.md.
RANK_OBJS = diff/ranks.o ranks/rankstate.o ranks/rankstats.o ranks/rankstats_print.o ranks/rankpaths.o \
	ranks/heatmap.o
EGPROF_OBJS += $(RANK_OBJS) gprof-ext/cmd_sum.o
# (each rank's functions from its sidecar are the model's,
# model/run.h's run_file_functions)
# The heat map (--rank-stats --svg/--png) draws with cairo, compiled
# against its headers and loaded with dlopen when a map is drawn (why:
# ranks/heatmap.c), so nothing is linked.
CAIRO_CFLAGS := $(shell pkg-config --cflags cairo)
ranks/heatmap.o: OBJ_CFLAGS += $(CAIRO_CFLAGS)
# The sidecar reader is shared with --callpath; whichever fragment lists it
# first links it.
RANK_SIDECAR_OBJ := $(filter-out $(EGPROF_OBJS),format/sidecar.o)
EGPROF_OBJS += $(RANK_SIDECAR_OBJ)

UNIT_TESTS += testsuite/unit/test_rankstats
testsuite/unit/test_rankstats: testsuite/unit/test_rankstats.o $(RANK_OBJS) \
	diff/profile.o diff/signif.o format/sidecar.o model/metric.o $(UTILS_OBJS)

# egprof-sum's sums need no MPI: unit-tested alone
UNIT_TESTS += testsuite/unit/test_gmonsum
testsuite/unit/test_gmonsum: testsuite/unit/test_gmonsum.o mpi/gmonsum.o $(UTILS_OBJS)

MPICC := $(shell command -v mpicc 2>/dev/null)
ifneq ($(MPICC),)
# mpicc compiles with our flags; the sanitizers stay out, since OpenMPI's
# own allocations would drown their reports.
MPI_CFLAGS = $(filter-out -fsanitize%,$(EG_CFLAGS))
EGPROF_SUM_SRCS = mpi/egprof-sum.c mpi/gmonsum.c format/sidecar.c \
	model/sum.c gprof-ext/operands.c utils/error.c utils/array.c \
	utils/outfile.c utils/infile.c
mpi/egprof-sum: $(addprefix $(srcdir)/,$(EGPROF_SUM_SRCS)) $(srcdir)/mpi/gmonsum.h \
	$(srcdir)/format/sidecar.h $(srcdir)/model/sum.h $(srcdir)/gprof-ext/operands.h
	@mkdir -p $(@D)
	@echo "  MPICC    $@"
	@$(MPICC) $(MPI_CFLAGS) -o $@ $(addprefix $(srcdir)/,$(EGPROF_SUM_SRCS))
ALL_TARGETS += mpi/egprof-sum
endif

# egprof-rankstats: --rank-stats as an MPI tree reduction.  It reads rank
# files through upstream gprof like `gprof --rank-stats` (the same objects),
# so it is linked by mpicc from our objects and upstream's; not in the
# sanitizer build (OpenMPI's own allocations would drown the reports).
ifneq ($(MPICC),)
ifeq ($(SAN_CFLAGS),)
RANKSTATS_MPI_OBJS = gprof-ext/cmd_rank_stats.o gprof-ext/cmdline.o gprof-ext/operands.o \
	gprof-ext/gmon_check.o gprof-ext/input_check.o gprof-ext/input_check_args.o \
	gprof-ext/gmon_owner.o format/buildid.o \
	export/rankstats_export.o export/table.o export/html.o export/html_rank.o export/html_assets.o \
	$(RANK_OBJS) format/sidecar.o model/metric.o diff/profile.o diff/profile_io.o diff/clones.o diff/match.o $(UTILS_OBJS) \
	gprof-ext/upstream.o gprof-ext/loader_watch.o gprof-ext/upstream_gprof.o \
	model/run.o model/paths.o model/measured.o model/paths_build.o callpath/report.o model/elfsyms.o \
	model/leaves.o model/elide.o model/recursion.o model/shortname.o callpath/pathrank.o \
	model/stale.o model/sum.o model/arcs.o diff/signif.o model/lines.o gprof-ext/srcmap.o \
	model/where.o
mpi/egprof-rankstats.o: $(srcdir)/mpi/egprof-rankstats.c
	@mkdir -p $(@D)
	@echo "  MPICC    $@"
	@$(MPICC) $(MPI_CFLAGS) -MMD -MP -c $< -o $@
mpi/egprof-rankstats: mpi/egprof-rankstats.o $(RANKSTATS_MPI_OBJS) $(UP)/stamp-build
	@echo "  MPICC    $@"
	@$(MPICC) $(EG_LDFLAGS) -o $@ mpi/egprof-rankstats.o $(RANKSTATS_MPI_OBJS) \
	  $(UP_GPROF_OBJS) $(UP_LIBS) -lm
ALL_TARGETS += mpi/egprof-rankstats
CLEANFILES += mpi/egprof-rankstats.o
endif
endif

UNIT_TESTS += testsuite/unit/test_rankstate
testsuite/unit/test_rankstate: testsuite/unit/test_rankstate.o $(RANK_OBJS) \
	diff/profile.o diff/signif.o format/sidecar.o model/metric.o $(UTILS_OBJS)

# make install / uninstall: egprof-rankstats when it was built, and the man
# pages of the MPI tools built (egprof-sum itself is installed with the
# runtime, runtime/module.mk).
install: install-mpi
install-mpi: all
	$(INSTALL) -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(mandir)/man1"
	if [ -f mpi/egprof-rankstats ]; then \
	  $(INSTALL) -m 755 mpi/egprof-rankstats "$(DESTDIR)$(bindir)/egprof-rankstats" && \
	  $(INSTALL) -m 644 $(srcdir)/doc/egprof-rankstats.1 "$(DESTDIR)$(mandir)/man1/egprof-rankstats.1"; fi
	if [ -f mpi/egprof-sum ]; then \
	  $(INSTALL) -m 644 $(srcdir)/doc/egprof-sum.1 "$(DESTDIR)$(mandir)/man1/egprof-sum.1"; fi

uninstall: uninstall-mpi
uninstall-mpi:
	rm -f "$(DESTDIR)$(bindir)/egprof-rankstats" "$(DESTDIR)$(mandir)/man1/egprof-rankstats.1" \
	  "$(DESTDIR)$(mandir)/man1/egprof-sum.1"

.PHONY: install-mpi uninstall-mpi
