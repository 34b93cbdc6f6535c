/*
 * ends_mpi.c - MPI_Abort writes the profile first (issue 26).
 *
 * MPI_Abort ends the calling rank without exit(): Open MPI's leaves
 * through _exit, so neither glibc's _mcleanup nor our destructor runs and
 * the rank that aborted leaves nothing (the other ranks are sent SIGTERM by
 * the launcher, which ends.c handles).  So MPI_Abort and PMPI_Abort (the
 * Fortran bindings call the latter) are interposed: the profile is written
 * as for a killed process (snapshot.c's cp_snap_end), then the MPI
 * library's own function is called with the same arguments.  The
 * communicator is passed through untouched as a register-sized value, so
 * one definition serves Open MPI (a pointer) and MPICH (an int).  Dynamic
 * builds only: a static link has no next definition to call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "ends.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))

typedef int (*abort_fn)(uintptr_t comm, int errorcode);

static int written;

static int forward(const char *name, uintptr_t comm, int errorcode)
{
	abort_fn next = (abort_fn)dlsym(RTLD_NEXT, name);

	if (!__atomic_exchange_n(&written, 1, __ATOMIC_ACQ_REL))
		cp_snap_end(0);
	if (next)
		return next(comm, errorcode);
	/* no MPI library after us: what an abort would leave, an exit */
	_exit(errorcode ? errorcode : 1);
}

CP_EXPORT int MPI_Abort(uintptr_t comm, int errorcode)
{
	return forward("MPI_Abort", comm, errorcode);
}

CP_EXPORT int PMPI_Abort(uintptr_t comm, int errorcode)
{
	return forward("PMPI_Abort", comm, errorcode);
}
