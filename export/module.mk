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
