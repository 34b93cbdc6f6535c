#!/usr/bin/env bash
# The file the modules write at _mcleanup is the one glibc would: compared
# with plain -pg runs in the same situations, what is left in the folder
# (names, types, modes, link targets) and what is on stderr.
#   GMON_OUT_PREFIX=pre       pre.<pid>
#   a prefix in a missing folder, or pre.<pid> a symbolic link
#                             glibc falls back to gmon.out
#   gmon.out a symbolic link  refused: "_mcleanup: gmon.out: Too many
#                             levels of symbolic links", target untouched
#   gmon.out a folder         "_mcleanup: gmon.out: Is a directory"
#   gmon.out an older file    truncated, its mode kept
#   umask 077                 mode 0600
#   gmon.out a FIFO           written into: a reader gets glibc's bytes
. "$SRCDIR/testsuite/gmon/gmonlib.sh"
cd "$WORKDIR" || exit 1
gm_build_preload lib || { echo "not ok 1 - the fixture builds"; echo "1..1"; exit 1; }
PRE="$WORKDIR/lib/libarcrec.so"
gcc -pg -O0 -o prog "$GM_SRC/recur.c" || exit 1

# scenario NAME SETUP RUN_PREFIX [ENV...]: SETUP in a fresh folder, then the
# program (through bash -c "RUN_PREFIX exec ./prog", so that RUN_PREFIX may
# name the pid as $$), plain and with the modules; the folders compared.
scenario() {
	local name=$1 setup=$2 run=$3 side
	shift 3
	for side in plain taken; do
		local d="$name.$side" pre=
		[ $side = taken ] && pre="LD_PRELOAD=$PRE"
		mkdir -p "$d"
		(cd "$d" && eval "$setup" &&
		 env $pre "$@" bash -c "$run exec ../prog 5" > out 2> err
		 echo "status $?" >> err)
		(cd "$d" && find . -mindepth 1 -printf '%y %m %P -> %l\n' |
			sed -E 's/\.[0-9]+( |$)/.PID\1/' | sort; echo "stderr:"; cat err) > "$d.txt"
	done
	cp_same "$name: the same files and messages" "$name.plain.txt" "$name.taken.txt"
}

scenario plain ':' ''
scenario prefix ':' '' GMON_OUT_PREFIX=pre
scenario prefix-missing-folder ':' '' GMON_OUT_PREFIX=nodir/pre
scenario prefix-symlink ':' 'ln -s target pre.$$;' GMON_OUT_PREFIX=pre
scenario symlink 'ln -s target gmon.out' ''
scenario symlink-to-file 'echo keep > target && ln -s target gmon.out' ''
scenario folder 'mkdir gmon.out' ''
scenario older-file 'echo old > gmon.out && chmod 600 gmon.out' ''
scenario umask077 'umask 077' ''
cp_check "the symbolic link's message is glibc's" \
	grep -qx '_mcleanup: gmon.out: Too many levels of symbolic links' symlink.taken/err

for side in plain taken; do
	pre=
	[ $side = taken ] && pre="LD_PRELOAD=$PRE"
	mkdir -p fifo.$side
	(cd fifo.$side && mkfifo gmon.out &&
	 { timeout 20 cat gmon.out > ../fifo.$side.read & } &&
	 env $pre timeout 20 ../prog 5 > out; wait)
done
cp_check "a FIFO: both write into it" test -s fifo.plain.read -a -s fifo.taken.read
cp_check "a FIFO: its reader gets glibc's header, histogram header and arcs" \
	bash -c "$GM_CMP fifo.plain.read fifo.taken.read > fifo.cmp"
cp_check "a FIFO stays a FIFO" test -p fifo.taken/gmon.out
cp_done
