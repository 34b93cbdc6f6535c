# runtime/: libcallpath, the call-path runtime linked into users' programs
# (LD_PRELOAD, -lcallpath or libcallpath.a).  It is kept apart from the
# analysis (callpath/, linked into gprof) because it runs inside other
# programs: position independent, hidden visibility, never -pg, never
# sanitizers, calling nothing of ours but the sidecar writer
# (callpath/sidecar.c, the one module both sides use; compiled here a second
# time with the runtime's flags).  record.c, the per-call path, is also built
# -mgeneral-regs-only so the trampolines need not save vector registers.
#
# The libraries keep their place in the build tree (callpath/libcallpath.so,
# .a, -noop.so) so that scripts and tests find them where they always were.

CALLPATH_RT_CFLAGS = $(filter-out -fsanitize% -pg -p -fprofile% --coverage,$(EG_CFLAGS)) \
	-fPIC -fvisibility=hidden -fno-omit-frame-pointer
CALLPATH_RT_OBJS = runtime/rt/record.o runtime/rt/runtime.o runtime/rt/chain.o \
	runtime/rt/sidecar.o runtime/rt/mcount.o
CALLPATH_NOOP_OBJS = runtime/rt/mcount-noop.o runtime/rt/chain.o
# libcallpath.a: the same but for the entry points and glibc's mcount (CP_ARCHIVE,
# for static links: see chain.c)
CALLPATH_RT_A_OBJS = runtime/rt/record.o runtime/rt/runtime.o \
	runtime/rt/chain-a.o runtime/rt/sidecar.o runtime/rt/mcount-a.o

runtime/rt/record.o: $(srcdir)/runtime/record.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime fast path)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -fomit-frame-pointer \
	  -MMD -MP -c $< -o $@

runtime/rt/sidecar.o: $(srcdir)/callpath/sidecar.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

runtime/rt/%.o: $(srcdir)/runtime/%.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

runtime/rt/chain-a.o: $(srcdir)/runtime/chain.c
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

runtime/rt/mcount-noop.o: $(srcdir)/runtime/arch/x86_64/mcount.S
	@mkdir -p $(@D)
	@echo "  AS       $@ (no-op trampoline)"
	@$(CC) -DCP_NOOP -MMD -MP -c $< -o $@

callpath/libcallpath.so: $(CALLPATH_RT_OBJS)
	@echo "  LINK     $@"
	@$(CC) -shared -Wl,-z,defs -Wl,-soname,libcallpath.so -o $@ $(CALLPATH_RT_OBJS)

callpath/libcallpath.a: $(CALLPATH_RT_A_OBJS)
	@echo "  AR       $@"
	@rm -f $@ && ar rcs $@ $(CALLPATH_RT_A_OBJS)

callpath/libcallpath-noop.so: $(CALLPATH_NOOP_OBJS)
	@echo "  LINK     $@"
	@$(CC) -shared -Wl,-z,defs -Wl,-soname,libcallpath-noop.so -o $@ $(CALLPATH_NOOP_OBJS)

ALL_TARGETS += callpath/libcallpath.so callpath/libcallpath.a \
	callpath/libcallpath-noop.so
CLEANFILES += $(CALLPATH_RT_OBJS) $(CALLPATH_NOOP_OBJS) $(CALLPATH_RT_A_OBJS)
