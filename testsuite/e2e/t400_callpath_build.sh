#!/usr/bin/env bash
# The runtime library as built: only the entry points exported, never built
# with -pg, and a per-call path that touches no vector register.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

exports=$(nm -D --defined-only "$CP_SO" | awk '{ print $3 }' | sort | tr '\n' ' ')
# sigaction, signal and setitimer are interposed to notice a program that
# replaces the profiling handler or timer (runtime/signals.c);
# pthread_create to learn of threads' start and end (runtime/thread.c);
# __monstartup, monstartup, moncontrol and _mcleanup: the runtime keeps
# gmon.out's arcs itself (runtime/gmon_interpose.c); MPI_Abort and
# PMPI_Abort to write the profile before the MPI library ends the rank
# without exit (runtime/ends_mpi.c); the exec family, to stop the thread's
# counters and timer before the new program starts (runtime/exec.c);
# __libc_start_main, dlopen and dlclose for sampling mode: main's caller is
# where stack walks end, and the walks' table of objects follows dlopen and
# dlclose (runtime/sampled.c).
cp_check "libcallpath.so exports only the entry points, the SIGPROF watchers and the thread, exec, exit and abort hooks" \
	test "$exports" = "MPI_Abort PMPI_Abort __fentry__ __libc_start_main __monstartup _mcleanup _mcount dlclose dlopen execl execle execlp execv execve execveat execvp execvpe fexecve mcount moncontrol monstartup pthread_create setitimer sigaction signal "
cp_check "libcallpath.so is not built with -pg" \
	bash -c "! nm -D '$CP_SO' | grep -q ' U \\(__gmon_start__\\|__monstartup\\)'"
cp_check "libcallpath.a has mcount" bash -c "nm '$CP_A' | grep -q ' T mcount$'"
for o in record stack; do
	rec="$BUILDDIR/runtime/rt/$o.o"
	cp_check "the slow path ($o.c) uses no vector registers" \
		bash -c "! objdump -d '$rec' | grep -qE '%[xyz]mm'"
	undef=$(nm -u "$rec" | awk '$2 !~ /^cp_|^_GLOBAL_OFFSET_TABLE_$/ { print $2 }' | sort | tr '\n' ' ')
	cp_check "the slow path ($o.c) calls nothing of the C library (raw system calls)" \
		test -z "$undef"
done
# The SIGPROF handler's installation runs under the trampolines too.
smp="$BUILDDIR/runtime/rt/sample.o"
cp_check "the sample handler's code uses no vector registers" \
	bash -c "! objdump -d '$smp' | grep -qE '%[xyz]mm'"
undef=$(nm -u "$smp" | awk '$2 !~ /^cp_|^_GLOBAL_OFFSET_TABLE_$/ { print $2 }' | sort | tr '\n' ' ')
cp_check "the sample handler's code calls only dl_iterate_phdr (from its constructor)" \
	test "$undef" = "dl_iterate_phdr "
noop=$(nm -D --defined-only "$CP_NOOP" | awk '{ print $3 }' | sort | tr '\n' ' ')
cp_check "the no-op build exports the same entry points" \
	test "$noop" = "__fentry__ _mcount mcount "
cp_done
