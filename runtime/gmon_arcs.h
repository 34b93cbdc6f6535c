/*
 * gmon_arcs.h - the runtime's side of the gmon.out take-over
 * (gmon_arcs.c; doc/dev/runtime.md, "What the runtime must do to take over").
 *
 * record.c's slow path, once gmon.out's arcs are the runtime's
 * (cp_arcs_taken): a call the trees do not take goes to the flat table
 * while arcs are on (cp_arcs_flat_add); a call the trees take while arcs
 * are off goes to the off table too (cp_arcs_off_add).  Both lock-free,
 * general registers and raw system calls only (slow path, signal
 * handlers).
 */
#ifndef CALLPATH_RUNTIME_GMON_ARCS_H
#define CALLPATH_RUNTIME_GMON_ARCS_H

#include <stddef.h>
#include <stdint.h>

#define CP_ARCS_HIDDEN __attribute__((visibility("hidden")))

struct gmon_arc_source;

extern int cp_arcs_taken CP_ARCS_HIDDEN;	/* glibc's counter is not called */
extern int cp_arcs_disabled CP_ARCS_HIDDEN;	/* CALLPATH_ARCS=glibc */
void cp_arcs_flat_add(uint64_t frompc, uint64_t selfpc) CP_ARCS_HIDDEN;
void cp_arcs_off_add(uint64_t frompc, uint64_t selfpc) CP_ARCS_HIDDEN;
/* calls no table could take (no memory) */
uint64_t cp_arcs_lost(void) CP_ARCS_HIDDEN;

/* record.c */
/* glibc's counter called by the trampolines (0) or not (1) */
void cp_counter_set(int taken) CP_ARCS_HIDDEN;
extern unsigned char cp_counter_off CP_ARCS_HIDDEN;	/* read by the trampolines */
/* moncontrol's arcs on or off (dynamic builds: through cp_state) */
void cp_arcs_state(int on) CP_ARCS_HIDDEN;
/* the registry lock, at most `tries` yields: 0, or -1 */
int cp_registry_trylock(unsigned tries) CP_ARCS_HIDDEN;
/* static links: arcs are on while *state <= 1 (glibc's ON or BUSY) */
extern const long *cp_arcs_gate CP_ARCS_HIDDEN;

/* gmonfile.c */
void cp_gmon_before_write(void) CP_ARCS_HIDDEN;

#endif
