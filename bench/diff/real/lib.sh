# bench/diff/real/lib.sh - build and run the real programs of the --diff
# case studies (source it).  The programs are read-only copies of public
# projects in $REAL (default /work/real: lua, LULESH, CoMD, XSBench); every
# build copies the source into $WORK first, applies the case's patch there
# (sed scripts in this folder's cases.sh), and compiles with -pg (PG= :
# release builds, run with libcallpath preloaded, sampled).  Nothing of the
# fetched code is in this repository.
#
#   . bench/diff/real/lib.sh
#   real_build PROG VARIANT [PATCH_FUNCTION [EXTRA_CFLAGS...]]
#                      -> $WORK/build/PROG-VARIANT/BINARY ($BIN set)
#   real_run PROG VARIANT OUTDIR [ARGS...]
#                      -> OUTDIR/gmon.out, or OUTDIR/ranks/gmon.<pid> per MPI rank
#
# Programs and workloads (each run a few seconds of CPU on a loaded 2-CPU
# machine):
#   lua      the interpreter (C), bench/diff/real/work.lua (ours): string
#            formatting, sorts with a Lua comparator (a gprof cycle
#            through C), closures, tables
#   lulesh   LULESH 2.0 (C++, OpenMP, serial MPI off), -s 30 -i 60, 2 threads
#   xsbench  XSBench openmp-threading (C, OpenMP), -s small -p 8000, 2 threads
#   comd     CoMD src-mpi (C, MPI) with libcallpath (each gmon file's
#            sidecar names its rank), EAM, mpirun -np 2
set -u
REAL=${REAL:-/work/real}
LIB_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$LIB_HERE/../../.." && pwd)
EGPROF=${EGPROF:-$TOP/gprof-ext/gprof}
CALLPATH_DIR=${CALLPATH_DIR:-$TOP/callpath}
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN=(mpirun --oversubscribe -np 2)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
OPT=${OPT:--O2}
# PG=-pg (the default): instrumented builds.  PG= (empty): release builds,
# run with libcallpath preloaded (sampling mode: the paths of the samples,
# no call counts; doc/modes.md).
PG=${PG--pg}
PRELOAD=()
[ -z "$PG" ] && PRELOAD=(env LD_PRELOAD="$CALLPATH_DIR/libcallpath.so")

lua_srcs="lapi.c lcode.c lctype.c ldebug.c ldo.c ldump.c lfunc.c lgc.c llex.c lmem.c
lobject.c lopcodes.c lparser.c lstate.c lstring.c ltable.c ltm.c lundump.c lvm.c lzio.c
lauxlib.c lbaselib.c ldblib.c liolib.c lmathlib.c loslib.c ltablib.c lstrlib.c
lutf8lib.c loadlib.c lcorolib.c linit.c lua.c"

# The source folder of PROG inside a copy.
real_srcdir() {
	case $1 in
	lua) echo lua ;;
	lulesh) echo LULESH ;;
	xsbench) echo XSBench/openmp-threading ;;
	comd) echo CoMD/src-mpi ;;
	esac
}

# real_build PROG VARIANT [PATCH [CFLAGS...]]: a fresh copy, patched by the
# shell function PATCH (run inside the source folder), built with -pg.
real_build() {
	local prog=$1 variant=$2 patch=${3:-} dir top
	shift $(($# < 3 ? $# : 3))
	dir=$WORK/build/$prog-$variant
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	case $prog in
	lua) cp -r "$REAL/lua" "$dir/" ;;
	lulesh) cp -r "$REAL/LULESH" "$dir/" ;;
	xsbench) mkdir -p "$dir/XSBench" && cp -r "$REAL/XSBench/openmp-threading" "$dir/XSBench/" ;;
	comd) cp -r "$REAL/CoMD" "$dir/" ;;
	esac
	top=$dir/$(real_srcdir "$prog")
	( cd "$top" || exit 1
	  if [ -n "$patch" ]; then "$patch" || { echo "patch $patch failed" >&2; exit 1; }; fi
	  case $prog in
	  lua) gcc $OPT -g $PG -std=c99 -DLUA_USE_LINUX "$@" -o prog $lua_srcs -lm -ldl -Wl,-E ;;
	  lulesh) g++ -DUSE_MPI=0 $OPT -g $PG -fopenmp -I. "$@" -o prog lulesh.cc lulesh-comm.cc \
			lulesh-viz.cc lulesh-util.cc lulesh-init.cc ;;
	  xsbench) gcc -std=gnu99 $OPT -g $PG -fopenmp -DOPENMP "$@" -o prog *.c -lm ;;
	  comd) ./generate_info_header CoMD-mpi mpicc "$OPT" "" >/dev/null 2>&1
		mpicc -std=c99 -DDOUBLE -DDO_MPI $OPT -g $PG "$@" -o prog *.c -lm \
			-L"$CALLPATH_DIR" -lcallpath -Wl,-rpath,"$CALLPATH_DIR" ;;
	  esac ) > "$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; return 1; }
	BIN=$top/prog
}

real_bin() {
	echo "$WORK/build/$1-$2/$(real_srcdir "$1")/prog"
}

# real_run PROG VARIANT OUTDIR [ARGS]: one run (one MPI job), its gmon
# file(s) in OUTDIR.  ARGS replace the workload's own arguments' tail (the
# MPI cases pass the rank to slow down through the environment instead).
real_run() {
	local prog=$1 variant=$2 out=$3 bin src
	shift 3
	bin=$(real_bin "$prog" "$variant")
	src=$WORK/build/$prog-$variant/$(real_srcdir "$prog")
	rm -rf "$out" && mkdir -p "$out" || return 1
	( cd "$out" || exit 1
	  case $prog in
	  lua) "${PRELOAD[@]}" "$bin" "$LIB_HERE/work.lua" "${LUA_N:-20}" ;;
	  lulesh) OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive "${PRELOAD[@]}" "$bin" \
			-s "${LULESH_S:-30}" -i "${LULESH_I:-60}" ;;
	  xsbench) # its checksum is only checked for the default sizes: a
		   # "WARNING - INVALID CHECKSUM" exits 1, with the profile written
		   OMP_WAIT_POLICY=passive "${PRELOAD[@]}" "$bin" -t 2 -s small -p "${XS_P:-8000}"
		   [ -e gmon.out ] ;;
	  comd) mkdir -p ranks
		GMON_OUT_PREFIX=$out/ranks/gmon "${MPIRUN[@]}" -x GMON_OUT_PREFIX \
			"$bin" -e -x "${COMD_X:-20}" -y "${COMD_X:-20}" -z "${COMD_X:-20}" \
			-N "${COMD_N:-20}" -n 10 -i 2 -j 1 -k 1 -d "$src/../pots" ;;
	  esac ) > "$out/run.log" 2>&1 || { tail -20 "$out/run.log" >&2; return 1; }
}

# The gmon operand of a run: its gmon.out, or the folder of its ranks.
real_gmon() {
	if [ -e "$1/gmon.out" ]; then echo "$1/gmon.out"; else echo "$1/ranks"; fi
}
