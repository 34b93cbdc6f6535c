# model/: one model of a run (run.h: gmon.out through the adapter, the
# sidecars through the one reader, each read once) and the analysis every
# extension view reads (analysis.h: the functions in one metric from one
# source, the diff assessed once, path differences, the filters).
MODEL_OBJS = model/run.o model/paths.o model/measured.o model/analysis.o model/lines.o
EGPROF_OBJS += $(MODEL_OBJS)
