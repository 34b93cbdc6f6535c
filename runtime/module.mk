# runtime/: libcallpath, the call-path runtime linked into users' programs
# (LD_PRELOAD, -lcallpath or libcallpath.a).  It is kept apart from the
# analysis (callpath/, linked into gprof) because it runs inside other
# programs: position independent, hidden visibility, never -pg, never
# sanitizers, calling nothing of ours but the sidecar writer
# (format/sidecar.c, the one module both sides use; compiled here a second
# time with the runtime's flags).  record.c, the per-call path, is also built
# -mgeneral-regs-only so the trampolines need not save vector registers.
#
# The libraries keep their place in the build tree (callpath/libcallpath.so,
# .a, -noop.so) so that scripts and tests find them where they always were.

# gmon.out's writer, glibc's start-up arithmetic and the runtime's arcs
# (gmon_arcs.c); the take-over is gmon_interpose.c in the shared library,
# gmon_static.c in the archive (see the end of this file)
CALLPATH_GMON_OBJS = runtime/rt/gmon_out.o runtime/rt/gmon_start.o runtime/rt/gmon_arcs.o
# profiles of killed runs and snapshots (issue 26): ends.c, snapshot.c,
# sidecar_stream.c, the runtime's own threads (own_thread.c) and whether
# the process is profiled at all (profiled.c); ends_mpi.c (MPI_Abort) in
# the shared library only
CALLPATH_ENDS_OBJS = runtime/rt/ends.o runtime/rt/snapshot.o runtime/rt/sidecar_stream.o \
	runtime/rt/own_thread.o runtime/rt/profiled.o runtime/rt/ends_mpi.o
CALLPATH_RT_CFLAGS = $(filter-out -fsanitize% -pg -p -fprofile% --coverage,$(EG_CFLAGS)) \
	-fPIC -fvisibility=hidden -fno-omit-frame-pointer
# Event counts (CALLPATH_EVENTS): PAPI's module when configure found PAPI,
# else the stub that says so; libcallpath.a always has the stub (a static
# link would need PAPI's static libraries).
# PAPI is dlopen()ed by its soname when CALLPATH_EVENTS is set, never
# linked: a run without events loads neither libpapi nor libpfm.
ifeq ($(HAVE_PAPI),yes)
CALLPATH_COUNTERS_OBJ = runtime/rt/counters_papi.o
else
CALLPATH_COUNTERS_OBJ = runtime/rt/counters_none.o
endif
CALLPATH_RT_LIBS =
# Sampling mode (programs without -pg): the stack walk and the mode, in the
# shared library only (a static link has no preload and no interposition);
# libcallpath.a has the stub that always instruments.
CALLPATH_SAMPLED_OBJS = runtime/rt/sampled.o runtime/rt/unwind.o runtime/rt/dlopen.o
CALLPATH_RT_OBJS = $(CALLPATH_COUNTERS_OBJ) runtime/rt/record.o runtime/rt/runtime.o runtime/rt/chain.o \
	runtime/rt/sidecar.o runtime/rt/mcount.o runtime/rt/sample.o runtime/rt/sampler.o runtime/rt/offcpu.o runtime/rt/infile.o \
	runtime/rt/stack.o runtime/rt/signals.o runtime/rt/thread.o runtime/rt/gmonfile.o \
	runtime/rt/exec.o $(CALLPATH_GMON_OBJS) runtime/rt/gmon_interpose.o $(CALLPATH_ENDS_OBJS) \
	$(CALLPATH_SAMPLED_OBJS)
CALLPATH_NOOP_OBJS = runtime/rt/mcount-noop.o runtime/rt/chain.o
# libcallpath.a: the same but for the entry points and glibc's mcount, and
# what a static link cannot interpose (pthread_create, _mcleanup; signal,
# sigaction and setitimer call glibc's internal names): CP_ARCHIVE, see
# chain.c, thread.c, gmonfile.c, signals.c.  An archive member is linked
# only when something linked refers to it: the end handlers and snapshots
# (ends.o, started by its constructor) are reached from gmon_static.o,
# which marks the process profiled (profiled.o calls into ends.o) and
# holds the exit's gmon.out write against the end signals; gmon_static.o
# itself from gmonfile-a.o, and that from runtime.o.
CALLPATH_RT_A_OBJS = runtime/rt/record.o runtime/rt/runtime.o \
	runtime/rt/chain-a.o runtime/rt/sidecar.o runtime/rt/mcount-a.o runtime/rt/sample.o runtime/rt/sampler.o runtime/rt/offcpu-a.o \
	runtime/rt/infile.o runtime/rt/stack.o runtime/rt/signals-a.o runtime/rt/thread-a.o \
	runtime/rt/gmonfile-a.o runtime/rt/counters_none-a.o $(CALLPATH_GMON_OBJS) runtime/rt/gmon_static.o \
	runtime/rt/ends-a.o runtime/rt/snapshot-a.o runtime/rt/sidecar_stream.o \
	runtime/rt/own_thread-a.o runtime/rt/profiled.o runtime/rt/sampled_none-a.o

runtime/rt/record.o: $(srcdir)/runtime/record.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime fast path)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -fomit-frame-pointer \
	  -MMD -MP -c $< -o $@

# sample.c installs its SIGPROF handler from record.c's slow path, under the
# trampolines, and stack.c reads frames for both: general registers only,
# as record.c.
# the flat and off arc tables are filled from the slow path: the same
runtime/rt/gmon_arcs.o: $(srcdir)/runtime/gmon_arcs.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, slow path)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -MMD -MP -c $< -o $@

runtime/rt/sample.o: $(srcdir)/runtime/sample.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, SIGPROF handler)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -MMD -MP -c $< -o $@

runtime/rt/sampler.o: $(srcdir)/runtime/sampler.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, sampler)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -MMD -MP -c $< -o $@

runtime/rt/stack.o: $(srcdir)/runtime/stack.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, stacks)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -MMD -MP -c $< -o $@

# the stack walk runs in the SIGPROF handler: general registers only, no
# libc (not even an implicit memset), as sample.c
runtime/rt/unwind.o: $(srcdir)/runtime/unwind.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, stack walk)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -MMD -MP -c $< -o $@

runtime/rt/sampled.o: $(srcdir)/runtime/sampled.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, sampling mode)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -fno-tree-loop-distribute-patterns -MMD -MP -c $< -o $@

runtime/rt/sidecar.o: $(srcdir)/format/sidecar.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

# The sidecar module opens its inputs through utils/infile.c.
runtime/rt/infile.o: $(srcdir)/utils/infile.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

runtime/rt/counters_papi.o: $(srcdir)/runtime/counters_papi.c Makefile
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, PAPI loaded as $(PAPI_SONAME))"
	@$(CC) $(CALLPATH_RT_CFLAGS) -DCP_PAPI_SONAME='"$(PAPI_SONAME)"' -MMD -MP -c $< -o $@

runtime/rt/%.o: $(srcdir)/runtime/%.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

runtime/rt/%-a.o: $(srcdir)/runtime/%.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime, archive)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -DCP_ARCHIVE -MMD -MP -c $< -o $@

runtime/rt/mcount-a.o: $(srcdir)/runtime/arch/x86_64/mcount.S
	@mkdir -p $(@D)
	@echo "  AS       $@ (archive)"
	@$(CC) -DCP_ARCHIVE -MMD -MP -c $< -o $@

# mcount.S includes runtime.h (struct offsets): -MMD -MP records that, so
# changing the header rebuilds the trampolines (the .d files are included
# by the top Makefile with everything else's).
runtime/rt/mcount.o: $(srcdir)/runtime/arch/x86_64/mcount.S
	@mkdir -p $(@D)
	@echo "  AS       $@"
	@$(CC) -MMD -MP -c $< -o $@

runtime/rt/dlopen.o: $(srcdir)/runtime/arch/x86_64/dlopen.S
	@mkdir -p $(@D)
	@echo "  AS       $@"
	@$(CC) -MMD -MP -c $< -o $@

runtime/rt/mcount-noop.o: $(srcdir)/runtime/arch/x86_64/mcount.S
	@mkdir -p $(@D)
	@echo "  AS       $@ (no-op trampoline)"
	@$(CC) -DCP_NOOP -MMD -MP -c $< -o $@

# The shared library has a versioned soname: programs linked with
# -lcallpath need libcallpath.so.$(CALLPATH_SOVERSION); bump it when the
# runtime's interface to programs changes (its entry points and what they
# expect of glibc), not for sidecar format versions (readers handle those).
CALLPATH_SOVERSION = 1
CALLPATH_LIBVERSION = $(CALLPATH_SOVERSION).0.0

callpath/libcallpath.so: $(CALLPATH_RT_OBJS)
	@echo "  LINK     $@"
	@$(CC) -shared -Wl,-z,defs -Wl,-soname,libcallpath.so.$(CALLPATH_SOVERSION) \
	  -o $@ $(CALLPATH_RT_OBJS) $(CALLPATH_RT_LIBS)

# what programs linked in the build tree load (-L callpath -lcallpath)
callpath/libcallpath.so.$(CALLPATH_SOVERSION): callpath/libcallpath.so
	@ln -sf libcallpath.so $@

runtime/callpath.pc: $(srcdir)/runtime/callpath.pc.in Makefile
	@mkdir -p $(@D)
	@echo "  GEN      $@"
	@sed -e 's|@prefix@|$(prefix)|g' -e 's|@libdir@|$(libdir)|g' \
	  -e 's|@version@|$(EGPROF_VERSION)|g' $< > $@

callpath/libcallpath.a: $(CALLPATH_RT_A_OBJS)
	@echo "  AR       $@"
	@rm -f $@ && ar rcs $@ $(CALLPATH_RT_A_OBJS)

callpath/libcallpath-noop.so: $(CALLPATH_NOOP_OBJS)
	@echo "  LINK     $@"
	@$(CC) -shared -Wl,-z,defs -Wl,-soname,libcallpath-noop.so -o $@ $(CALLPATH_NOOP_OBJS)

ALL_TARGETS += callpath/libcallpath.so callpath/libcallpath.a \
	callpath/libcallpath-noop.so callpath/libcallpath.so.$(CALLPATH_SOVERSION) \
	runtime/callpath.pc
CLEANFILES += $(CALLPATH_RT_OBJS) $(CALLPATH_NOOP_OBJS) $(CALLPATH_RT_A_OBJS)

# make install / uninstall: the libraries, their pkg-config file, cpdump and
# (when built) egprof-sum, besides what the top Makefile installs.
CALLPATH_PCDIR = $(libdir)/pkgconfig
install: install-callpath
install-callpath: all
	$(INSTALL) -d "$(DESTDIR)$(libdir)" "$(DESTDIR)$(CALLPATH_PCDIR)" "$(DESTDIR)$(bindir)"
	$(INSTALL) -m 755 callpath/libcallpath.so \
	  "$(DESTDIR)$(libdir)/libcallpath.so.$(CALLPATH_LIBVERSION)"
	ln -sf libcallpath.so.$(CALLPATH_LIBVERSION) \
	  "$(DESTDIR)$(libdir)/libcallpath.so.$(CALLPATH_SOVERSION)"
	ln -sf libcallpath.so.$(CALLPATH_SOVERSION) "$(DESTDIR)$(libdir)/libcallpath.so"
	$(INSTALL) -m 644 callpath/libcallpath.a "$(DESTDIR)$(libdir)/libcallpath.a"
	$(srcdir)/scripts/libdir-runtime pc runtime/callpath.pc \
	  "$(DESTDIR)$(CALLPATH_PCDIR)/callpath.pc" "$(libdir)"
	$(INSTALL) -m 755 tools/cpdump/cpdump "$(DESTDIR)$(bindir)/cpdump"
	if [ -f mpi/egprof-sum ]; then \
	  $(INSTALL) -m 755 mpi/egprof-sum "$(DESTDIR)$(bindir)/egprof-sum"; fi
	@$(srcdir)/scripts/libdir-runtime ldconfig "$(libdir)" "$(DESTDIR)"

uninstall: uninstall-callpath
uninstall-callpath:
	rm -f "$(DESTDIR)$(libdir)/libcallpath.so.$(CALLPATH_LIBVERSION)" \
	  "$(DESTDIR)$(libdir)/libcallpath.so.$(CALLPATH_SOVERSION)" \
	  "$(DESTDIR)$(libdir)/libcallpath.so" "$(DESTDIR)$(libdir)/libcallpath.a" \
	  "$(DESTDIR)$(CALLPATH_PCDIR)/callpath.pc" "$(DESTDIR)$(bindir)/cpdump" \
	  "$(DESTDIR)$(bindir)/egprof-sum"

.PHONY: install-callpath uninstall-callpath

# gmon.out written by the runtime (issues 23, 26): the take-over
# (gmon_interpose.c in libcallpath.so, gmon_static.c in libcallpath.a)
# asks the runtime (gmon_arcs.c) and writes with gmon_out.c.  The unit
# tests build the writer's modules with the test flags (sanitizers in
# check-sanitize).
testsuite/unit/test_gmon_out: testsuite/unit/test_gmon_out.o runtime/gmon_out.o \
	runtime/gmon_start.o
testsuite/unit/test_gmon_start: testsuite/unit/test_gmon_start.o runtime/gmon_out.o \
	runtime/gmon_start.o
UNIT_TESTS += testsuite/unit/test_gmon_out testsuite/unit/test_gmon_start
testsuite/unit/test_gmon_out: UNIT_LIBS += -lpthread

# Abnormal ends and snapshots (issue 26): the signal-safe sidecar encoder,
# checked byte for byte against format/sidecar.c's.
testsuite/unit/test_sidecar_stream: testsuite/unit/test_sidecar_stream.o \
	runtime/sidecar_stream.o format/sidecar.o utils/infile.o
UNIT_TESTS += testsuite/unit/test_sidecar_stream
