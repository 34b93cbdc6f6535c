/*
 * sys.h - raw system calls for the parts of the runtime that may not call
 * the C library: record.c and stack.c run under the trampolines (which do
 * not save vector registers), sample.c's handler in signal context.  No
 * errno: a failure is the negative error number.
 */
#ifndef CALLPATH_RUNTIME_SYS_H
#define CALLPATH_RUNTIME_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

static inline long cp_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long cp_syscall0(long nr)
{
	return cp_syscall6(nr, 0, 0, 0, 0, 0, 0);
}

static inline void *cp_mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	long r = cp_syscall6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, off);

	return r < 0 && r > -4096 ? (void *)-1 : (void *)r;	/* MAP_FAILED */
}

static inline void *cp_mremap(void *old, size_t old_len, size_t len, int flags)
{
	long r = cp_syscall6(SYS_mremap, (long)old, (long)old_len, (long)len, flags, 0, 0);

	return r < 0 && r > -4096 ? (void *)-1 : (void *)r;
}

static inline int cp_munmap(void *addr, size_t len)
{
	return (int)cp_syscall6(SYS_munmap, (long)addr, (long)len, 0, 0, 0, 0);
}

#endif
