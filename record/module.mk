# record/: egprof-record, the launcher that runs a program under libcallpath
# (doc/record.md, doc/egprof-record.1).  It links nothing of ours but
# banned.h: it only sets the runtime up and reports where the files went.
# The runtime it preloads is the build tree's when it runs from the build
# tree (../callpath/libcallpath.so), else the one installed in libdir.
record/egprof-record: $(srcdir)/record/egprof-record.c Makefile
	@mkdir -p $(@D)
	@echo "  CC       $@"
	@$(CC) $(EG_CFLAGS) -DEGPROF_RECORD_LIBDIR='"$(libdir)"' -MMD -MP \
	  -o $@ $(srcdir)/record/egprof-record.c

ALL_TARGETS += record/egprof-record
CLEANFILES += record/egprof-record

install: install-record
install-record: all
	$(INSTALL) -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(mandir)/man1"
	$(INSTALL) -m 755 record/egprof-record "$(DESTDIR)$(bindir)/egprof-record"
	$(INSTALL) -m 644 $(srcdir)/doc/egprof-record.1 "$(DESTDIR)$(mandir)/man1/egprof-record.1"

uninstall: uninstall-record
uninstall-record:
	rm -f "$(DESTDIR)$(bindir)/egprof-record" "$(DESTDIR)$(mandir)/man1/egprof-record.1"

.PHONY: install-record uninstall-record
