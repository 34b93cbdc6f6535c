# tools/cpdump/: cpdump, the sidecar dumper (a tool of its own, linked
# from the format module and the model's path helpers).

CPDUMP_OBJS = tools/cpdump/cpdump.o format/sidecar.o model/elide.o \
	model/recursion.o utils/array.o utils/infile.o utils/printable.o
tools/cpdump/cpdump: $(CPDUMP_OBJS)
	@echo "  LINK     $@"
	@$(CC) $(EG_LDFLAGS) -o $@ $(CPDUMP_OBJS)

ALL_TARGETS += tools/cpdump/cpdump
