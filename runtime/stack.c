/*
 * stack.c - which stack a thread runs on, and reading a frame only there.
 *
 * A shadow-stack entry's frame is checked by reading its return-address
 * slot (record.c's live_top(), the SIGPROF handler).  The entry may be a
 * frame of another stack: a coroutine that finished and whose stack was
 * freed, a handler's frame on an alternate signal stack since unmapped.
 * Reading it would crash the program, so a slot is read only where it is
 * known to be mapped:
 *
 *   - on the thread's own stack, [cp_tls.stack_lo, + stack_span + 8),
 *     mapped as long as the thread lives.  Its bounds come from
 *     pthread_getattr_np() for the main thread (thread.c, in normal
 *     context), from the mapping holding the stack pointer when the
 *     pthread_create wrapper starts a thread (before the thread can switch
 *     to any other stack), or, for a thread nobody told us about, from that
 *     mapping on its first call (which, if it is made on a coroutine's
 *     stack, takes that stack for the thread's own: threads of a static
 *     link or of glibc's own making);
 *   - on the alternate signal stack, while the thread runs on it
 *     (sigaltstack() says SS_ONSTACK): the program keeps it while it is in
 *     use;
 *   - on any other stack (ucontext, Boost.Context, a task runtime's), in
 *     the mapping that holds the stack pointer (found in /proc/self/maps,
 *     a few kept per thread), and then only through process_vm_readv(),
 *     which fails instead of faulting if the memory went away meanwhile.
 *     Where that system call is refused (seccomp), such frames count as
 *     not live.
 * An entry on any other stack than the one the thread runs on is not live.
 * The cost is path accuracy around coroutine switches, never a crash
 * (doc/callpath.md, "Coroutines and alternate stacks").
 *
 * Built like record.c (-mgeneral-regs-only, raw system calls): it runs
 * under the trampolines and in the SIGPROF handler.
 */
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "runtime.h"
#include "sys.h"
#include "utils/banned.h"

int cp_pid;
static int vm_read_refused;	/* process_vm_readv() is not allowed here */

void cp_stack_set_own(uintptr_t lo, uintptr_t hi)
{
	if (hi > lo + 8) {
		cp_tls.stack_lo = lo;
		cp_tls.stack_span = hi - lo - 8;
	}
}

static int in_own(uintptr_t a)
{
	return a - cp_tls.stack_lo < cp_tls.stack_span + 8;
}

static uintptr_t hex_field(const char **p, const char *end)
{
	uintptr_t v = 0;

	for (; *p < end; (*p)++) {
		char c = **p;
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			break;
		v = v << 4 | d;
	}
	return v;
}

/*
 * The readable mapping of /proc/self/maps that holds `addr`: 0 and its
 * range, or -1.  Lines are "lo-hi rwxp ...", read a buffer at a time into
 * `buf` (the thread's own: a handler may run on a small stack).
 */
static int maps_find(char *buf, size_t buflen, uintptr_t addr, struct cp_stack_range *r)
{
	size_t have = 0;
	int fd = (int)cp_syscall6(SYS_open, (long)"/proc/self/maps",
				  00 | 02000000 /* O_RDONLY | O_CLOEXEC */, 0, 0, 0, 0);
	int found = -1, skipping = 0;	/* in a line longer than the buffer */

	if (fd < 0)
		return -1;
	for (;;) {
		long n = cp_syscall6(SYS_read, fd, (long)(buf + have),
				     (long)(buflen - have), 0, 0, 0);
		const char *p = buf, *end, *nl;

		if (n == -4 /* EINTR */)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		end = buf + have;
		for (;;) {
			const char *q;

			for (nl = p; nl < end && *nl != '\n'; nl++)
				;
			if (nl == end)
				break;
			q = p;
			if (!skipping) {
				uintptr_t lo = hex_field(&q, nl), hi;

				if (q < nl && *q == '-') {
					q++;
					hi = hex_field(&q, nl);
					if (addr >= lo && addr < hi && q + 1 < nl && q[1] == 'r') {
						r->lo = lo;
						r->hi = hi;
						found = 0;
						goto out;
					}
				}
			}
			skipping = 0;
			p = nl + 1;
		}
		/* keep the unfinished line; one longer than the buffer is
		 * skipped to its end (its start held no range of interest: the
		 * range comes first, and is short) */
		if (p == buf && have == buflen) {
			const char *q = buf;
			uintptr_t lo = hex_field(&q, end), hi;

			if (!skipping && q < end && *q == '-') {
				q++;
				hi = hex_field(&q, end);
				if (addr >= lo && addr < hi && q + 1 < end && q[1] == 'r') {
					r->lo = lo;
					r->hi = hi;
					found = 0;
					goto out;
				}
			}
			skipping = 1;
			have = 0;
			continue;
		}
		have = (size_t)(end - p);
		for (size_t i = 0; i < have; i++)
			buf[i] = p[i];
	}
out:
	cp_syscall6(SYS_close, fd, 0, 0, 0, 0, 0);
	return found;
}

void cp_stack_own_from_maps(struct cp_thread *t, uintptr_t sp)
{
	struct cp_stack_range r;

	if (maps_find(t->maps_buf, sizeof(t->maps_buf), sp, &r) == 0)
		cp_stack_set_own(r.lo, r.hi);
}

void cp_stack_own_here(void)
{
	char buf[512];
	struct cp_stack_range r;

	if (maps_find(buf, sizeof(buf), (uintptr_t)__builtin_frame_address(0), &r) == 0)
		cp_stack_set_own(r.lo, r.hi);
}

/* The alternate signal stack if the thread runs on it now. */
static int on_altstack(uintptr_t sp, struct cp_stack_range *r)
{
	stack_t ss;

	if (cp_syscall6(SYS_sigaltstack, 0, (long)&ss, 0, 0, 0, 0) != 0 ||
	    !(ss.ss_flags & SS_ONSTACK))
		return 0;
	r->lo = (uintptr_t)ss.ss_sp;
	r->hi = r->lo + ss.ss_size;
	return sp - r->lo < ss.ss_size;
}

/*
 * The stack the thread runs on at `sp` when it is not its own: the
 * alternate signal stack, or the mapping holding sp, or none.
 */
static void stack_current(struct cp_thread *t, uintptr_t sp, struct cp_stack_range *r)
{
	if (on_altstack(sp, r)) {
		r->kind = CP_STACK_ALT;
		return;
	}
	for (uint32_t i = 0; i < 4; i++)
		if (sp - t->maps_cache[i].lo < t->maps_cache[i].hi - t->maps_cache[i].lo) {
			*r = t->maps_cache[i];
			return;
		}
	if (maps_find(t->maps_buf, sizeof(t->maps_buf), sp, r) == 0) {
		r->kind = CP_STACK_MAPPING;
		t->maps_cache[t->maps_next++ % 4] = *r;
		return;
	}
	r->lo = r->hi = 0;
	r->kind = CP_STACK_NONE;	/* no frame elsewhere is live */
}

/* *addr through process_vm_readv: 0, or -1 if it is not mapped (now). */
static int read_safely(uintptr_t addr, uintptr_t *val)
{
	struct iovec local = { val, sizeof(*val) }, remote = { (void *)addr, sizeof(*val) };
	int pid = __atomic_load_n(&cp_pid, __ATOMIC_RELAXED);
	long n;

	if (__atomic_load_n(&vm_read_refused, __ATOMIC_RELAXED))
		return -1;
	if (!pid)
		pid = (int)cp_syscall0(SYS_getpid);
	n = cp_syscall6(SYS_process_vm_readv, pid, (long)&local, 1, (long)&remote, 1, 0);
	if (n == (long)sizeof(*val))
		return 0;
	if (n == -1 /* EPERM */ || n == -38 /* ENOSYS */)
		__atomic_store_n(&vm_read_refused, 1, __ATOMIC_RELAXED);
	return -1;
}

int cp_slot_live(struct cp_thread *t, const struct cp_frame *f, uintptr_t sp,
		 struct cp_stack_range *cur)
{
	uintptr_t slot, v;

	if (!f->node || f->fp == UINTPTR_MAX)
		return 1;	/* a call not recorded, or the root's sentinel */
	slot = f->fp + 8;
	if (in_own(slot))
		return *(const uintptr_t *)slot == f->node->call_site;
	if (in_own(sp))
		return 0;	/* we run on our own stack, the frame is elsewhere */
	if (cur->kind == CP_STACK_UNKNOWN)
		stack_current(t, sp, cur);
	if (slot - cur->lo >= cur->hi - cur->lo || slot < sp)
		return 0;	/* not on the stack we run on */
	if (cur->kind == CP_STACK_ALT)	/* in use: the program keeps it */
		return *(const uintptr_t *)slot == f->node->call_site;
	return read_safely(slot, &v) == 0 && v == f->node->call_site;
}

int cp_stack_find(struct cp_thread *t, uintptr_t sp, struct cp_stack_range *r)
{
	if (cp_tls.stack_span && in_own(sp)) {
		r->lo = cp_tls.stack_lo;
		r->hi = cp_tls.stack_lo + cp_tls.stack_span + 8;
		r->kind = CP_STACK_OWN;
	} else {
		stack_current(t, sp, r);
		if (r->kind == CP_STACK_NONE)
			return -1;
	}
	/*
	 * A frame's data is at or above its stack pointer, but for the
	 * x86-64 red zone: the 128 bytes below it, which a function's
	 * epilogue leaves its popped registers in (and which its unwind rules
	 * still name) and which the kernel leaves alone when it delivers a
	 * signal.
	 */
	if (sp - 128 > r->lo && sp > 128)
		r->lo = sp - 128;
	return 0;
}

int cp_stack_read(const struct cp_stack_range *r, uintptr_t addr, uintptr_t *val)
{
	if (addr < r->lo || r->hi - r->lo < sizeof(*val) || addr > r->hi - sizeof(*val))
		return -1;
	if (r->kind == CP_STACK_OWN || r->kind == CP_STACK_ALT) {
		__builtin_memcpy(val, (const void *)addr, sizeof(*val));
		return 0;
	}
	return read_safely(addr, val);
}
