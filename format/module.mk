# format/: the sidecar format (sidecar.[ch], sidecar_layout.h) and the
# build-id reader: the one module the runtime (runtime/, which compiles
# sidecar.c with its own flags) and the analysis share.

# The unit test is linked by the top Makefile's rule for UNIT_TESTS.
testsuite/unit/test_sidecar: testsuite/unit/test_sidecar.o format/sidecar.o utils/infile.o

UNIT_TESTS += testsuite/unit/test_sidecar
