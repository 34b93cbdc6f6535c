# callpath/: the call-path runtime (libcallpath), its sidecar format and cpdump.
#
# Two builds of the sources:
#  - the runtime (callpath/rt/*.o): position independent, hidden visibility,
#    never -pg, never sanitizers (it runs inside other programs, before and
#    after them); record.c, the per-call path, also -mgeneral-regs-only so the
#    trampolines need not save vector registers;
#  - the analysis side (callpath/sidecar.o, cpdump): our usual EG_CFLAGS,
#    sanitizers included, through the top Makefile's %.o rule.

CALLPATH_RT_CFLAGS = $(filter-out -fsanitize% -pg -p -fprofile% --coverage,$(EG_CFLAGS)) \
	-fPIC -fvisibility=hidden -fno-omit-frame-pointer
CALLPATH_RT_OBJS = callpath/rt/record.o callpath/rt/runtime.o callpath/rt/chain.o \
	callpath/rt/sidecar.o callpath/rt/mcount.o callpath/rt/infile.o
CALLPATH_NOOP_OBJS = callpath/rt/mcount-noop.o callpath/rt/chain.o

callpath/rt/record.o: $(srcdir)/callpath/record.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime fast path)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
	  -fomit-frame-pointer \
	  -MMD -MP -c $< -o $@

callpath/rt/%.o: $(srcdir)/callpath/%.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

# The sidecar module opens its inputs through utils/infile.c.
callpath/rt/infile.o: $(srcdir)/utils/infile.c
	@mkdir -p $(@D)
	@echo "  CC       $@ (runtime)"
	@$(CC) $(CALLPATH_RT_CFLAGS) -MMD -MP -c $< -o $@

# mcount.S includes runtime.h (struct offsets): -MMD -MP records that, so
# changing the header rebuilds the trampolines (the .d files are included
# by the top Makefile with everything else's).
callpath/rt/mcount.o: $(srcdir)/callpath/arch/x86_64/mcount.S
	@mkdir -p $(@D)
	@echo "  AS       $@"
	@$(CC) -MMD -MP -c $< -o $@

callpath/rt/mcount-noop.o: $(srcdir)/callpath/arch/x86_64/mcount.S
	@mkdir -p $(@D)
	@echo "  AS       $@ (no-op trampoline)"
	@$(CC) -DCP_NOOP -MMD -MP -c $< -o $@

callpath/libcallpath.so: $(CALLPATH_RT_OBJS)
	@echo "  LINK     $@"
	@$(CC) -shared -Wl,-z,defs -Wl,-soname,libcallpath.so -o $@ $(CALLPATH_RT_OBJS)

callpath/libcallpath.a: $(CALLPATH_RT_OBJS)
	@echo "  AR       $@"
	@rm -f $@ && ar rcs $@ $(CALLPATH_RT_OBJS)

callpath/libcallpath-noop.so: $(CALLPATH_NOOP_OBJS)
	@echo "  LINK     $@"
	@$(CC) -shared -Wl,-z,defs -Wl,-soname,libcallpath-noop.so -o $@ $(CALLPATH_NOOP_OBJS)

callpath/cpdump: callpath/cpdump.o callpath/sidecar.o utils/array.o utils/infile.o
	@echo "  LINK     $@"
	@$(CC) $(EG_LDFLAGS) -o $@ callpath/cpdump.o callpath/sidecar.o utils/array.o \
	  utils/infile.o

# The unit test is linked by the top Makefile's rule for UNIT_TESTS.
testsuite/unit/test_sidecar: testsuite/unit/test_sidecar.o callpath/sidecar.o utils/infile.o

ALL_TARGETS += callpath/libcallpath.so callpath/libcallpath.a \
	callpath/libcallpath-noop.so callpath/cpdump
UNIT_TESTS += testsuite/unit/test_sidecar
CLEANFILES += $(CALLPATH_RT_OBJS) $(CALLPATH_NOOP_OBJS)
