# gprof-ext/: the front end around upstream gprof.
#
# Upstream's gprof.c is compiled unmodified: its main is renamed and its calls
# to getopt_long and gmon_out_read go through our adapter (upstream.c).
GPROF_EXT_OBJS = gprof-ext/main.o gprof-ext/options.o gprof-ext/cmdline.o \
	gprof-ext/cmd_gprof.o gprof-ext/cmd_diff.o gprof-ext/cmd_rank_stats.o \
	gprof-ext/cmd_interval.o \
	gprof-ext/operands.o gprof-ext/plan.o gprof-ext/gmon_check.o gprof-ext/gmon_owner.o \
	gprof-ext/loader_watch.o gprof-ext/input_check.o gprof-ext/input_check_args.o \
	gprof-ext/gate_cli.o
# The regression gate and the diff's markdown summary: their own modules
# (diff/gate.h, export/diff_summary.h), listed here with their one caller.
GATE_OBJS = diff/gate.o diff/gate_diff.o export/diff_summary.o
EGPROF_OBJS += $(GPROF_EXT_OBJS) $(GATE_OBJS)

# --help names the installed documentation (configure's --docdir).
gprof-ext/options.o: OBJ_CFLAGS += -DEGPROF_DOCDIR='"$(docdir)"'
gprof-ext/options.o: Makefile

UPSTREAM_RENAMES = -Dmain=gprof_upstream_main -Dgetopt_long=egprof_getopt_long \
	-Dgmon_out_read=egprof_gmon_out_read -Dgmon_out_write=egprof_gmon_out_write \
	-Dhist_assign_samples=egprof_hist_assign_samples

# (module.mk too: a change of the renames must recompile it)
gprof-ext/upstream_gprof.o: $(UP)/stamp-build $(srcdir)/gprof-ext/module.mk
	@mkdir -p $(@D)
	@echo "  CC       $@ (upstream gprof.c, main renamed)"
	@$(CC) $(UP_CPPFLAGS) -g -O2 $(SAN_CFLAGS) $(UPSTREAM_RENAMES) \
	  -c $(UP_SRC)/gprof/gprof.c -o $@

# The adapter includes upstream's headers, so it gets their flags too.
gprof-ext/upstream.o: $(srcdir)/gprof-ext/upstream.c $(UP)/stamp-build
	@mkdir -p $(@D)
	@echo "  CC       $@"
	@$(CC) $(UP_CPPFLAGS) $(EG_CFLAGS) -Wno-unused-parameter -MMD -MP \
	  -c $(srcdir)/gprof-ext/upstream.c -o $@

# Source positions through BFD (srcmap.h): upstream's headers too, none of
# upstream gprof's state.
EGPROF_OBJS += gprof-ext/srcmap.o
gprof-ext/srcmap.o: $(srcdir)/gprof-ext/srcmap.c $(UP)/stamp-build
	@mkdir -p $(@D)
	@echo "  CC       $@"
	@$(CC) $(UP_CPPFLAGS) $(EG_CFLAGS) -Wno-unused-parameter -MMD -MP \
	  -c $(srcdir)/gprof-ext/srcmap.c -o $@



UNIT_TESTS += testsuite/unit/test_input_check
testsuite/unit/test_input_check: testsuite/unit/test_input_check.o gprof-ext/input_check.o \
	utils/infile.o utils/error.o

UNIT_TESTS += testsuite/unit/test_gate
testsuite/unit/test_gate: testsuite/unit/test_gate.o diff/gate.o export/diff_summary.o \
	export/table.o $(UTILS_OBJS)
