# testsuite/: cmocka unit tests, one per module (testsuite/unit/test_<module>.c).
# A fragment that adds a unit test appends it to UNIT_TESTS and gives its
# objects as prerequisites, e.g.
#   UNIT_TESTS += testsuite/unit/test_profile
#   testsuite/unit/test_profile: testsuite/unit/test_profile.o $(DIFF_OBJS) $(UTILS_OBJS)
# The link rule is in the top Makefile, after every fragment.
UNIT_TESTS += testsuite/unit/test_profile
testsuite/unit/test_profile: testsuite/unit/test_profile.o diff/profile.o \
	diff/profile_io.o $(UTILS_OBJS)

testsuite/unit/%.o: OBJ_CFLAGS += $(CMOCKA_CFLAGS)
