# diff/: the profile model, matching, subtraction and the diff printers.
DIFF_OBJS = diff/profile.o diff/profile_io.o
EGPROF_OBJS += $(DIFF_OBJS)
