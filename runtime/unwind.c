/*
 * unwind.c - a stack walk by the loaded objects' call-frame information,
 * safe in a signal handler (unwind.h says what it guarantees, and why it
 * is not libunwind).
 *
 * The objects: a table built in normal context (dl_iterate_phdr) of every
 * executable segment with its object's readable segments and the search
 * table of its .eh_frame_hdr, sorted by address, in memory of its own.  A
 * walk takes the table's pointer under a reader count; a rebuild publishes
 * a new table and unmaps the old one once no walk reads it, and dlclose
 * waits (cp_unwind_pause) until no walk reads the objects it may unmap.
 *
 * One step from a frame whose registers are known (all of them for the
 * frame a signal interrupted, the callee-saved ones and rsp/rip above):
 *   1. the object holding the program counter (pc - 1 for a return
 *      address, which may be the end of a function that ends in a call),
 *      and the FDE covering it (binary search of .eh_frame_hdr's table);
 *   2. the CIE's and the FDE's call-frame instructions run up to it: the
 *      CFA rule and a rule per register (DWARF 4, 6.4);
 *   3. CFA, then the caller's registers from their rules, every word read
 *      through stack.c from the stack the walk is on;
 *   4. the checks that make a caller right or the walk end: the return
 *      address undefined (outermost frame: complete), the CFA above the
 *      stack pointer, the return address right after a call instruction
 *      of a known object's code.
 * glibc's signal return trampoline (__restore_rt, `mov $15,%rax; syscall`)
 * as a return address means a signal frame: the ucontext the kernel saved
 * lies at the stack pointer, and the walk goes on from its registers.
 *
 * Built -mgeneral-regs-only with raw system calls, as the other code that
 * runs in the SIGPROF handler (sample.c).
 */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "sys.h"
#include "unwind.h"
#include "utils/banned.h"

#define SEGS 8			/* readable segments kept per object */
#define MAX_CFI_BYTES 4096	/* call-frame instructions run per frame */
#define MAX_STATES 8		/* DW_CFA_remember_state nesting */
#define MAX_EXPR_OPS 64		/* DWARF expression operations per rule */
#define EXPR_STACK 16
#define MAX_SIGFRAMES 8		/* signal frames crossed per walk */
#define NREGS 17		/* DWARF x86-64: 0-15 general registers, 16 the return address */
#define RA 16
#define RSP 7

struct seg {
	uintptr_t lo, hi;
};

/* One executable segment of a loaded object. */
struct obj {
	uintptr_t lo, hi;	/* the code */
	uintptr_t hdr;		/* .eh_frame_hdr, 0: none */
	uintptr_t table;	/* its search table: count pairs of int32 */
	uint32_t count;
	uint32_t nseg;
	struct seg seg[SEGS];	/* the object's readable segments */
};

struct table {
	size_t bytes;		/* of this mapping */
	uint32_t n;
	struct obj o[];		/* sorted by lo, disjoint */
};

static struct table *current;	/* published with release ordering */
static uint32_t readers;	/* walks reading `current` or the objects */
static uint32_t closing;	/* dlclose in progress: walks keep out */
static uintptr_t roots[2];	/* entry points where a path ends (complete) */
static uintptr_t ret_root;	/* a return address where a path ends */
static uintptr_t self_lo, self_hi;	/* libcallpath's code */

/* ---- the table (normal context) ---- */

struct build {
	struct table *t;
	uint32_t cap;
	int failed;
};

static int seg_has(const struct obj *o, uintptr_t a, size_t n)
{
	for (uint32_t i = 0; i < o->nseg; i++)
		if (a >= o->seg[i].lo && a <= o->seg[i].hi && n <= o->seg[i].hi - a)
			return 1;
	return 0;
}

static int32_t rd_s32(uintptr_t a)
{
	int32_t v;

	__builtin_memcpy(&v, (const void *)a, sizeof(v));
	return v;
}

static uint32_t rd_u32(uintptr_t a)
{
	uint32_t v;

	__builtin_memcpy(&v, (const void *)a, sizeof(v));
	return v;
}

/*
 * .eh_frame_hdr: version 1, then the encodings of eh_frame_ptr, fde_count
 * and the table.  GNU ld (and gold, lld) write the table as pairs of
 * DW_EH_PE_datarel | DW_EH_PE_sdata4 (0x3b) relative to the header; that is
 * the one form searched, anything else is "no unwind information".
 */
static void read_hdr(struct obj *o)
{
	uintptr_t h = o->hdr, p;
	uint8_t ver, ptr_enc, cnt_enc, tab_enc;
	int32_t count;

	if (!h || !seg_has(o, h, 4))
		goto none;
	ver = *(const uint8_t *)h;
	ptr_enc = *(const uint8_t *)(h + 1);
	cnt_enc = *(const uint8_t *)(h + 2);
	tab_enc = *(const uint8_t *)(h + 3);
	if (ver != 1 || tab_enc != 0x3b || cnt_enc != 0x03)
		goto none;
	p = h + 4;
	/* eh_frame_ptr: pcrel|sdata4 (0x1b) as ld writes it, or udata4/sdata4 */
	if ((ptr_enc & 0x0f) != 0x0b && (ptr_enc & 0x0f) != 0x03)
		goto none;
	p += 4;
	if (!seg_has(o, p, 4))
		goto none;
	count = (int32_t)rd_u32(p);
	p += 4;
	if (count <= 0 || !seg_has(o, p, (size_t)count * 8))
		goto none;
	o->table = p;
	o->count = (uint32_t)count;
	return;
none:
	o->table = 0;
	o->count = 0;
}

static int add_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct build *b = data;
	struct obj base;
	uintptr_t self = (uintptr_t)&add_object;

	(void)size;
	__builtin_memset(&base, 0, sizeof(base));
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_GNU_EH_FRAME)
			base.hdr = lo;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && base.nseg < SEGS) {
			base.seg[base.nseg].lo = lo;
			base.seg[base.nseg].hi = lo + ph->p_memsz;
			base.nseg++;
		}
	}
	read_hdr(&base);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz)
			continue;
		if (self >= lo && self < lo + ph->p_memsz) {
			self_lo = lo;
			self_hi = lo + ph->p_memsz;
		}
		if (b->t->n == b->cap) {
			b->failed = 1;
			return 1;
		}
		b->t->o[b->t->n] = base;
		b->t->o[b->t->n].lo = lo;
		b->t->o[b->t->n].hi = lo + ph->p_memsz;
		b->t->n++;
	}
	return 0;
}

static int count_segs(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X))
			(*(uint32_t *)data)++;
	return 0;
}

static void wait_readers(void)
{
	while (__atomic_load_n(&readers, __ATOMIC_SEQ_CST))
		cp_syscall0(SYS_sched_yield);
}

int cp_unwind_refresh(void)
{
	uint32_t n = 0;
	struct build b = { NULL, 0, 0 };
	struct table *old;
	size_t bytes;

	dl_iterate_phdr(count_segs, &n);
	/* room for objects loaded meanwhile by another thread */
	b.cap = n + 16;
	bytes = (offsetof(struct table, o) + (size_t)b.cap * sizeof(struct obj) + 4095) &
		~(size_t)4095;
	b.t = cp_mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b.t == MAP_FAILED)
		return -1;
	b.t->bytes = bytes;
	dl_iterate_phdr(add_object, &b);
	/* insertion sort: a few dozen segments, nearly sorted already */
	for (uint32_t i = 1; i < b.t->n; i++)
		for (uint32_t j = i; j > 0 && b.t->o[j - 1].lo > b.t->o[j].lo; j--) {
			struct obj x = b.t->o[j];

			b.t->o[j] = b.t->o[j - 1];
			b.t->o[j - 1] = x;
		}
	old = __atomic_exchange_n(&current, b.t, __ATOMIC_SEQ_CST);
	if (old) {
		wait_readers();
		cp_munmap(old, old->bytes);
	}
	return b.failed ? -1 : 0;
}

void cp_unwind_pause(void)
{
	__atomic_fetch_add(&closing, 1, __ATOMIC_SEQ_CST);
	wait_readers();
}

void cp_unwind_resume(void)
{
	cp_unwind_refresh();
	__atomic_fetch_sub(&closing, 1, __ATOMIC_SEQ_CST);
}

void cp_unwind_set_roots(uintptr_t main_root, uintptr_t thread_root, uintptr_t ret)
{
	roots[0] = main_root;
	roots[1] = thread_root;
	ret_root = ret;
}

int cp_unwind_in_runtime(uintptr_t pc)
{
	return pc >= self_lo && pc < self_hi;
}

/* ---- reading call-frame information (signal context) ---- */

static const struct obj *obj_of(const struct table *t, uintptr_t pc)
{
	uint32_t lo = 0, hi = t ? t->n : 0;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pc < t->o[mid].lo)
			hi = mid;
		else if (pc >= t->o[mid].hi)
			lo = mid + 1;
		else
			return &t->o[mid];
	}
	return NULL;
}

/* A cursor over bytes known to be readable: [p, end). */
struct cur {
	uintptr_t p, end;
	int bad;
};

/* The cursor over [a, min(a + n, end of a's readable segment)). */
static void cur_at(struct cur *c, const struct obj *o, uintptr_t a, uintptr_t n)
{
	c->p = a;
	c->end = a;
	c->bad = 1;
	for (uint32_t i = 0; i < o->nseg; i++)
		if (a >= o->seg[i].lo && a < o->seg[i].hi) {
			c->end = o->seg[i].hi - a < n ? o->seg[i].hi : a + n;
			c->bad = 0;
			return;
		}
}

static uint64_t get(struct cur *c, unsigned n)
{
	uint64_t v = 0;

	if (c->bad || c->end - c->p < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	/* little-endian; byte by byte, so that no build (-O1 makes a
	 * variable-length __builtin_memcpy a call) reaches libc's memcpy
	 * from the signal handler */
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)((const volatile uint8_t *)c->p)[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t uleb(struct cur *c)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b = (uint8_t)get(c, 1);

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return 0;
}

static int64_t sleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = (uint8_t)get(c, 1);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !c->bad && shift < 70);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* A pointer in DW_EH_PE encoding `enc` (pcrel and absolute; datarel is
 * not used in .eh_frame on x86-64). */
static uintptr_t pointer(struct cur *c, uint8_t enc)
{
	uintptr_t at = c->p, v;

	if (enc == 0xff)
		return 0;
	switch (enc & 0x0f) {
	case 0x00: v = (uintptr_t)get(c, 8); break;
	case 0x01: v = (uintptr_t)uleb(c); break;
	case 0x02: v = (uintptr_t)get(c, 2); break;
	case 0x03: v = (uintptr_t)get(c, 4); break;
	case 0x04: v = (uintptr_t)get(c, 8); break;
	case 0x09: v = (uintptr_t)sleb(c); break;
	case 0x0a: v = (uintptr_t)(int64_t)(int16_t)get(c, 2); break;
	case 0x0b: v = (uintptr_t)(int64_t)(int32_t)get(c, 4); break;
	case 0x0c: v = (uintptr_t)get(c, 8); break;
	default: c->bad = 1; return 0;
	}
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += at; break;
	default: c->bad = 1; return 0;
	}
	if (enc & 0x80)
		c->bad = 1;	/* indirect: not in .eh_frame's code ranges */
	return v;
}

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint32_t ra;
	uint8_t fde_enc;
	uint8_t has_aug_data;
	uintptr_t insns, insns_end;
};

struct fde {
	uintptr_t start, end;	/* code covered */
	uintptr_t insns, insns_end;
	struct cie cie;
};

/* The CIE at `a` (a record of length-prefixed bytes in a readable segment). */
static int read_cie(const struct obj *o, uintptr_t a, struct cie *ci)
{
	struct cur c;
	uint64_t len, end;
	uint8_t ver;
	char aug[8];
	unsigned na = 0;

	cur_at(&c, o, a, 1u << 20);
	len = get(&c, 4);
	if (len == 0xffffffffu)
		len = get(&c, 8);
	end = c.p + len;
	if (c.bad || len < 4 || end > c.end || get(&c, 4) != 0)
		return -1;
	c.end = end;
	ver = (uint8_t)get(&c, 1);
	if (ver != 1 && ver != 3 && ver != 4)
		return -1;
	for (;;) {
		char ch = (char)get(&c, 1);

		if (c.bad)
			return -1;
		if (!ch)
			break;
		if (na == sizeof(aug))
			return -1;
		aug[na++] = ch;
	}
	if (ver == 4) {
		get(&c, 1);	/* address_size */
		get(&c, 1);	/* segment_size */
	}
	ci->code_align = uleb(&c);
	ci->data_align = sleb(&c);
	ci->ra = ver == 1 ? (uint32_t)get(&c, 1) : (uint32_t)uleb(&c);
	ci->fde_enc = 0;	/* absptr */
	ci->has_aug_data = 0;
	if (na && aug[0] == 'z') {
		uint64_t alen = uleb(&c);
		uintptr_t after = c.p + alen;

		ci->has_aug_data = 1;
		for (unsigned i = 1; i < na && !c.bad; i++) {
			switch (aug[i]) {
			case 'R':
				ci->fde_enc = (uint8_t)get(&c, 1);
				break;
			case 'L':
				get(&c, 1);
				break;
			case 'P': {
				uint8_t penc = (uint8_t)get(&c, 1);

				/* the personality routine's address, not needed:
				 * skipped by its size (indirect allowed) */
				pointer(&c, penc & 0x7f);
				break;
			}
			case 'S': case 'B': case 'G':
				break;
			default:
				/* unknown augmentation: its data length lets us skip */
				i = na;
				break;
			}
		}
		if (after > c.end || after < c.p)
			return -1;
		c.p = after;
	} else if (na) {
		return -1;	/* "eh" and older forms are not used on x86-64 */
	}
	if (c.bad || ci->ra >= NREGS)
		return -1;
	ci->insns = c.p;
	ci->insns_end = c.end;
	return 0;
}

/* The FDE of `o` covering `pc`: 0, or -1 (none: CP_UNWIND_NO_CFI), -2 (bad). */
static int find_fde(const struct obj *o, uintptr_t pc, struct fde *f)
{
	uint32_t lo = 0, hi = o->count;
	uintptr_t fa, cie_at;
	struct cur c;
	uint64_t len, end;
	uint32_t id;

	if (!o->count)
		return -1;
	/* the last entry whose initial location is at or below pc */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (o->hdr + (uintptr_t)(intptr_t)rd_s32(o->table + (uintptr_t)mid * 8) <= pc)
			lo = mid;
		else
			hi = mid;
	}
	if (o->hdr + (uintptr_t)(intptr_t)rd_s32(o->table + (uintptr_t)lo * 8) > pc)
		return -1;
	fa = o->hdr + (uintptr_t)(intptr_t)rd_s32(o->table + (uintptr_t)lo * 8 + 4);
	cur_at(&c, o, fa, 1u << 20);
	len = get(&c, 4);
	if (len == 0xffffffffu)
		len = get(&c, 8);
	end = c.p + len;
	if (c.bad || len < 8 || end > c.end)
		return -2;
	c.end = end;
	id = (uint32_t)get(&c, 4);
	if (!id)
		return -2;	/* a CIE where an FDE should be */
	cie_at = c.p - 4 - id;
	if (read_cie(o, cie_at, &f->cie) < 0)
		return -2;
	f->start = pointer(&c, f->cie.fde_enc);
	f->end = f->start + pointer(&c, f->cie.fde_enc & 0x0f);
	if (f->cie.has_aug_data) {
		uint64_t alen = uleb(&c);

		if (alen > c.end - c.p)
			return -2;
		c.p += alen;
	}
	if (c.bad)
		return -2;
	if (pc < f->start || pc >= f->end)
		return -1;
	f->insns = c.p;
	f->insns_end = c.end;
	return 0;
}

/* ---- running the rules ---- */

enum { R_UNDEF, R_SAME, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR, R_VAL_EXPR };

struct rule {
	uint8_t how;
	uint8_t reg;		/* R_REG */
	int64_t off;		/* R_OFFSET, R_VAL_OFFSET */
	uintptr_t expr, expr_end;	/* R_EXPR, R_VAL_EXPR */
};

struct rules {
	uint8_t cfa_how;	/* 0: register + offset, 1: expression */
	uint8_t cfa_reg;
	int64_t cfa_off;
	uintptr_t cfa_expr, cfa_expr_end;
	struct rule r[NREGS];
};

/*
 * What a step needs beyond a few words: kept in the caller's scratch
 * memory, not on the stack of a signal handler that may run on a small
 * coroutine stack.
 */
struct scratch {
	struct rules init, rs;
	struct rules saved[MAX_STATES];
};
_Static_assert(sizeof(struct scratch) <= CP_UNWIND_SCRATCH, "scratch");

/* Run [p, end) of `o` from location `loc` while it stays at or below pc. */
static int run_cfi(const struct obj *o, uintptr_t p, uintptr_t end, const struct cie *ci,
		   uintptr_t loc, uintptr_t pc, struct rules *rs, const struct rules *init,
		   struct rules *saved)
{
	unsigned nsaved = 0;
	struct cur c;
	uintptr_t start = p;

	cur_at(&c, o, p, end - p);
	if (c.bad || c.end != end)
		return -1;
	while (c.p < c.end) {
		uint8_t op = (uint8_t)get(&c, 1);
		uint64_t reg, delta;
		int64_t off;

		if (c.p - start > MAX_CFI_BYTES)
			return -1;
		switch (op & 0xc0) {
		case 0x40:	/* advance_loc */
			delta = (uint64_t)(op & 0x3f) * ci->code_align;
			goto advance;
		case 0x80:	/* offset */
			reg = op & 0x3f;
			off = (int64_t)uleb(&c) * ci->data_align;
			goto offset;
		case 0xc0:	/* restore */
			reg = op & 0x3f;
			goto restore;
		}
		switch (op) {
		case 0x00:	/* nop */
			continue;
		case 0x01:	/* set_loc */
			loc = pointer(&c, ci->fde_enc);
			if (loc > pc)
				return 0;
			continue;
		case 0x02: delta = get(&c, 1) * ci->code_align; goto advance;
		case 0x03: delta = get(&c, 2) * ci->code_align; goto advance;
		case 0x04: delta = get(&c, 4) * ci->code_align; goto advance;
		case 0x05:	/* offset_extended */
			reg = uleb(&c);
			off = (int64_t)uleb(&c) * ci->data_align;
			goto offset;
		case 0x06:	/* restore_extended */
			reg = uleb(&c);
			goto restore;
		case 0x07:	/* undefined */
			reg = uleb(&c);
			if (reg >= NREGS)
				continue;
			rs->r[reg].how = R_UNDEF;
			continue;
		case 0x08:	/* same_value */
			reg = uleb(&c);
			if (reg >= NREGS)
				continue;
			rs->r[reg].how = R_SAME;
			continue;
		case 0x09: {	/* register */
			uint64_t r2;

			reg = uleb(&c);
			r2 = uleb(&c);
			if (reg >= NREGS)
				continue;
			if (r2 >= NREGS)
				return -1;
			rs->r[reg].how = R_REG;
			rs->r[reg].reg = (uint8_t)r2;
			continue;
		}
		case 0x0a:	/* remember_state */
			if (nsaved == MAX_STATES)
				return -1;
			saved[nsaved++] = *rs;
			continue;
		case 0x0b:	/* restore_state */
			if (!nsaved)
				return -1;
			*rs = saved[--nsaved];
			continue;
		case 0x0c:	/* def_cfa */
			reg = uleb(&c);
			off = (int64_t)uleb(&c);
			goto def_cfa;
		case 0x0d:	/* def_cfa_register */
			reg = uleb(&c);
			if (reg >= NREGS)
				return -1;
			rs->cfa_how = 0;
			rs->cfa_reg = (uint8_t)reg;
			continue;
		case 0x0e:	/* def_cfa_offset */
			rs->cfa_off = (int64_t)uleb(&c);
			continue;
		case 0x0f: {	/* def_cfa_expression */
			uint64_t n = uleb(&c);

			if (n > c.end - c.p)
				return -1;
			rs->cfa_how = 1;
			rs->cfa_expr = c.p;
			rs->cfa_expr_end = c.p + n;
			c.p += n;
			continue;
		}
		case 0x10:	/* expression */
		case 0x16: {	/* val_expression */
			uint64_t n;

			reg = uleb(&c);
			n = uleb(&c);
			if (n > c.end - c.p)
				return -1;
			if (reg < NREGS) {
				rs->r[reg].how = op == 0x10 ? R_EXPR : R_VAL_EXPR;
				rs->r[reg].expr = c.p;
				rs->r[reg].expr_end = c.p + n;
			}
			c.p += n;
			continue;
		}
		case 0x11:	/* offset_extended_sf */
			reg = uleb(&c);
			off = sleb(&c) * ci->data_align;
			goto offset;
		case 0x12:	/* def_cfa_sf */
			reg = uleb(&c);
			off = sleb(&c) * ci->data_align;
			goto def_cfa;
		case 0x13:	/* def_cfa_offset_sf */
			rs->cfa_off = sleb(&c) * ci->data_align;
			continue;
		case 0x14:	/* val_offset */
			reg = uleb(&c);
			off = (int64_t)uleb(&c) * ci->data_align;
			goto val_offset;
		case 0x15:	/* val_offset_sf */
			reg = uleb(&c);
			off = sleb(&c) * ci->data_align;
			goto val_offset;
		case 0x2e:	/* GNU_args_size */
			uleb(&c);
			continue;
		case 0x2f:	/* GNU_negative_offset_extended */
			reg = uleb(&c);
			off = -(int64_t)uleb(&c) * ci->data_align;
			goto offset;
		default:
			return -1;
		}
advance:
		if (c.bad)
			return -1;
		loc += delta;
		if (loc > pc)
			return 0;
		continue;
offset:
		if (reg < NREGS) {
			rs->r[reg].how = R_OFFSET;
			rs->r[reg].off = off;
		}
		continue;
val_offset:
		if (reg < NREGS) {
			rs->r[reg].how = R_VAL_OFFSET;
			rs->r[reg].off = off;
		}
		continue;
restore:
		if (reg < NREGS)
			rs->r[reg] = init ? init->r[reg] : (struct rule){ R_SAME, 0, 0, 0, 0 };
		continue;
def_cfa:
		if (reg >= NREGS)
			return -1;
		rs->cfa_how = 0;
		rs->cfa_reg = (uint8_t)reg;
		rs->cfa_off = off;
		continue;
	}
	return c.bad ? -1 : 0;
}

/* ---- one walk ---- */

struct walk {
	struct cp_thread *t;
	struct scratch *s;
	const struct table *tab;
	struct cp_stack_range stack;
	uintptr_t reg[NREGS];
	uint32_t known;		/* bit r: reg[r] holds the frame's value */
};

/* A stack word, only from the stack the walk is on. */
static int stack_word(struct walk *w, uintptr_t a, uintptr_t *v)
{
	return cp_stack_read(&w->stack, a, v);
}

/* A DWARF expression (the subset call-frame information uses). */
static int eval(struct walk *w, const struct obj *o, uintptr_t p, uintptr_t end,
		uintptr_t initial, int push_initial, uintptr_t *out)
{
	uintptr_t st[EXPR_STACK];
	unsigned sp = 0, ops = 0;
	struct cur c;

	cur_at(&c, o, p, end - p);
	if (c.bad || c.end != end)
		return -1;
	if (push_initial)
		st[sp++] = initial;
#define NEED(n) do { if (sp < (n)) return -1; } while (0)
#define PUSH(v) do { uintptr_t v_ = (v); if (sp == EXPR_STACK) return -1; st[sp++] = v_; } while (0)
	while (c.p < c.end) {
		uint8_t op = (uint8_t)get(&c, 1);
		uintptr_t a, b;

		if (++ops > MAX_EXPR_OPS || c.bad)
			return -1;
		if (op >= 0x30 && op <= 0x4f) {		/* lit0..31 */
			PUSH((uintptr_t)(op - 0x30));
			continue;
		}
		if (op >= 0x70 && op <= 0x8f) {		/* breg0..31 (16: rip, in PLTs) */
			int64_t off = sleb(&c);

			if (op - 0x70 >= NREGS || !(w->known & (1u << (op - 0x70))))
				return -1;
			PUSH(w->reg[op - 0x70] + (uintptr_t)off);
			continue;
		}
		switch (op) {
		case 0x92: {	/* bregx */
			uint64_t r = uleb(&c);
			int64_t off = sleb(&c);

			if (r >= NREGS || !(w->known & (1u << r)))
				return -1;
			PUSH(w->reg[r] + (uintptr_t)off);
			break;
		}
		case 0x08: PUSH((uintptr_t)get(&c, 1)); break;
		case 0x09: PUSH((uintptr_t)(int64_t)(int8_t)get(&c, 1)); break;
		case 0x0a: PUSH((uintptr_t)get(&c, 2)); break;
		case 0x0b: PUSH((uintptr_t)(int64_t)(int16_t)get(&c, 2)); break;
		case 0x0c: PUSH((uintptr_t)get(&c, 4)); break;
		case 0x0d: PUSH((uintptr_t)(int64_t)(int32_t)get(&c, 4)); break;
		case 0x0e: case 0x0f: PUSH((uintptr_t)get(&c, 8)); break;
		case 0x10: PUSH((uintptr_t)uleb(&c)); break;
		case 0x11: PUSH((uintptr_t)sleb(&c)); break;
		case 0x06:	/* deref */
			NEED(1);
			if (stack_word(w, st[sp - 1], &st[sp - 1]) < 0)
				return -2;
			break;
		case 0x12: NEED(1); PUSH(st[sp - 1]); break;		/* dup */
		case 0x13: NEED(1); sp--; break;			/* drop */
		case 0x14: NEED(2); PUSH(st[sp - 2]); break;		/* over */
		case 0x16: NEED(2); a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a; break;
		case 0x23: NEED(1); st[sp - 1] += (uintptr_t)uleb(&c); break;	/* plus_uconst */
		case 0x1f: NEED(1); st[sp - 1] = -st[sp - 1]; break;	/* neg */
		case 0x20: NEED(1); st[sp - 1] = ~st[sp - 1]; break;	/* not */
		case 0x1a: case 0x1c: case 0x1e: case 0x21: case 0x22: case 0x24:
		case 0x25: case 0x26: case 0x27: case 0x29: case 0x2a: case 0x2b:
		case 0x2c: case 0x2d: case 0x2e:
			NEED(2);
			b = st[--sp];
			a = st[sp - 1];
			switch (op) {
			case 0x1a: a &= b; break;
			case 0x1c: a -= b; break;
			case 0x1e: a *= b; break;
			case 0x21: a |= b; break;
			case 0x22: a += b; break;
			case 0x24: a = b < 64 ? a << b : 0; break;
			case 0x25: a = b < 64 ? a >> b : 0; break;
			case 0x26: a = (uintptr_t)(b < 64 ? (intptr_t)a >> b : ((intptr_t)a < 0 ? -1 : 0)); break;
			case 0x27: a ^= b; break;
			case 0x29: a = a == b; break;
			case 0x2a: a = (intptr_t)a >= (intptr_t)b; break;
			case 0x2b: a = (intptr_t)a > (intptr_t)b; break;
			case 0x2c: a = (intptr_t)a <= (intptr_t)b; break;
			case 0x2d: a = (intptr_t)a < (intptr_t)b; break;
			case 0x2e: a = a != b; break;
			}
			st[sp - 1] = a;
			break;
		case 0x96:	/* nop */
			break;
		default:
			return -1;
		}
	}
#undef NEED
#undef PUSH
	if (!sp || c.bad)
		return -1;
	*out = st[sp - 1];
	return 0;
}

/*
 * Is `ra` right after a call instruction of `o`'s code?  call rel32 (e8),
 * or call through a register or memory (ff /2, ModRM and SIB and
 * displacement as encoded), with an optional REX or notrack (3e) prefix.
 */
static int after_call(const struct obj *o, uintptr_t ra)
{
	const uint8_t *b;

	if (ra - o->lo < 8 || ra > o->hi)
		return ra - o->lo >= 5 && ra <= o->hi && *(const uint8_t *)(ra - 5) == 0xe8;
	b = (const uint8_t *)ra;
	if (b[-5] == 0xe8)
		return 1;
	for (unsigned len = 2; len <= 8; len++) {
		const uint8_t *i = b - len;
		unsigned n = 0, modrm, mod, rm, need;

		if (i[n] == 0x3e)
			n++;
		if (n < len && (i[n] & 0xf0) == 0x40)
			n++;
		if (n + 2 > len || i[n] != 0xff)
			continue;
		modrm = i[n + 1];
		if (((modrm >> 3) & 7) != 2)
			continue;
		mod = modrm >> 6;
		rm = modrm & 7;
		need = n + 2;
		if (mod != 3 && rm == 4) {	/* SIB */
			if (need >= len)
				continue;
			if (mod == 0 && (i[need] & 7) == 5)
				need += 4;
			need++;
		}
		if (mod == 0 && rm == 5)
			need += 4;	/* rip-relative */
		else if (mod == 1)
			need += 1;
		else if (mod == 2)
			need += 4;
		if (need == len)
			return 1;
	}
	return 0;
}

/* glibc's x86-64 __restore_rt: mov $15,%rax; syscall */
static int is_sigreturn(const struct walk *w, uintptr_t pc)
{
	static const uint8_t code[9] = { 0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05 };
	const struct obj *o = obj_of(w->tab, pc);

	if (!o || pc > o->hi - sizeof(code))
		return 0;
	for (unsigned i = 0; i < sizeof(code); i++)
		if (((const uint8_t *)pc)[i] != code[i])
			return 0;
	return 1;
}

/* DWARF register r of x86-64 in a ucontext's gregs. */
static const int greg_of[NREGS] = {
	REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
};

static void from_gregs(struct walk *w, const greg_t *g)
{
	for (int r = 0; r < NREGS; r++)
		w->reg[r] = (uintptr_t)g[greg_of[r]];
	w->known = (1u << NREGS) - 1;
}

/* The registers saved in the ucontext at `uc` (a signal frame). */
static int from_sigframe(struct walk *w, uintptr_t uc)
{
	uintptr_t g = uc + offsetof(ucontext_t, uc_mcontext.gregs);
	uintptr_t v[NREGS];

	for (int r = 0; r < NREGS; r++)
		if (stack_word(w, g + (uintptr_t)greg_of[r] * sizeof(greg_t), &v[r]) < 0)
			return -1;
	for (int r = 0; r < NREGS; r++)
		w->reg[r] = v[r];
	w->known = (1u << NREGS) - 1;
	return 0;
}

static int is_root(uintptr_t func)
{
	return func && (func == roots[0] || func == roots[1]);
}

/* Callee-saved registers keep their value where no rule says otherwise. */
#define CALLEE_SAVED ((1u << 3) | (1u << 6) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15))

/*
 * One step from the frame in `w` (whose function `f` covers its pc): the
 * caller's registers.  CP_UNWIND_COMPLETE when the frame is outermost,
 * else -1 to go on, or the reason to stop.
 */
static int step(struct walk *w, const struct obj *o, const struct fde *f, uintptr_t look)
{
	struct rules *init = &w->s->init, *rs = &w->s->rs;
	uintptr_t cfa, nreg[NREGS];
	uint32_t nknown = 0;
	int r;

	__builtin_memset(init, 0, sizeof(*init));
	for (int i = 0; i < NREGS; i++)
		init->r[i].how = (CALLEE_SAVED >> i) & 1 ? R_SAME : R_UNDEF;
	init->r[RSP].how = R_UNDEF;	/* the CFA, below */
	if (run_cfi(o, f->cie.insns, f->cie.insns_end, &f->cie, f->start, UINTPTR_MAX,
		    init, NULL, w->s->saved) < 0)
		return CP_UNWIND_BAD_CFI;
	*rs = *init;
	if (run_cfi(o, f->insns, f->insns_end, &f->cie, f->start, look, rs, init,
		    w->s->saved) < 0)
		return CP_UNWIND_BAD_CFI;
	if (rs->r[f->cie.ra].how == R_UNDEF)
		return CP_UNWIND_COMPLETE;
	if (rs->cfa_how == 0) {
		if (!(w->known & (1u << rs->cfa_reg)))
			return CP_UNWIND_BAD_CFI;
		cfa = w->reg[rs->cfa_reg] + (uintptr_t)rs->cfa_off;
	} else {
		r = eval(w, o, rs->cfa_expr, rs->cfa_expr_end, 0, 0, &cfa);
		if (r < 0)
			return r == -2 ? CP_UNWIND_BAD_READ : CP_UNWIND_BAD_CFI;
	}
	for (int i = 0; i < NREGS; i++) {
		const struct rule *ru = &rs->r[i];
		uintptr_t a;

		switch (ru->how) {
		case R_UNDEF:
			continue;
		case R_SAME:
			if (!(w->known & (1u << i)))
				continue;
			nreg[i] = w->reg[i];
			break;
		case R_OFFSET:
			if (stack_word(w, cfa + (uintptr_t)ru->off, &nreg[i]) < 0)
				return CP_UNWIND_BAD_READ;
			break;
		case R_VAL_OFFSET:
			nreg[i] = cfa + (uintptr_t)ru->off;
			break;
		case R_REG:
			if (!(w->known & (1u << ru->reg)))
				continue;
			nreg[i] = w->reg[ru->reg];
			break;
		case R_EXPR:
		case R_VAL_EXPR:
			r = eval(w, o, ru->expr, ru->expr_end, cfa, 1, &a);
			if (r < 0)
				return r == -2 ? CP_UNWIND_BAD_READ : CP_UNWIND_BAD_CFI;
			if (ru->how == R_EXPR && stack_word(w, a, &a) < 0)
				return CP_UNWIND_BAD_READ;
			nreg[i] = a;
			break;
		}
		nknown |= 1u << i;
	}
	if (!(nknown & (1u << f->cie.ra)))
		return CP_UNWIND_BAD_CFI;
	if (!(nknown & (1u << RSP))) {
		nreg[RSP] = cfa;
		nknown |= 1u << RSP;
	}
	if (nreg[RSP] <= w->reg[RSP])
		return CP_UNWIND_NO_PROGRESS;
	nreg[RA] = nreg[f->cie.ra];
	nknown |= 1u << RA;
	for (int i = 0; i < NREGS; i++)
		w->reg[i] = nreg[i];
	w->known = nknown;
	return -1;
}

uint32_t cp_unwind(struct cp_thread *t, const greg_t *g, void *scratch,
		   struct cp_unwind_frame *frames, uint32_t max, enum cp_unwind_end *end)
{
	struct walk w;
	uint32_t n = 0, sigframes = 0;
	int interrupted = 1;	/* the pc is exact, not a return address */
	int why;

	w.t = t;
	w.s = scratch;
	__atomic_fetch_add(&readers, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&closing, __ATOMIC_SEQ_CST)) {
		why = CP_UNWIND_BUSY;
		goto out;
	}
	w.tab = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
	from_gregs(&w, g);
	if (cp_stack_find(t, w.reg[RSP], &w.stack) < 0) {
		why = CP_UNWIND_BAD_READ;
		if (max) {
			frames[n].pc = w.reg[RA];
			frames[n++].func = 0;
		}
		goto out;
	}
	for (;;) {
		uintptr_t pc = w.reg[RA], look = interrupted ? pc : pc - 1;
		const struct obj *o;
		struct fde f;

		if (!interrupted && is_sigreturn(&w, pc)) {
			/* the kernel's frame: the ucontext at the stack pointer */
			if (++sigframes > MAX_SIGFRAMES) {
				why = CP_UNWIND_DEPTH;
				break;
			}
			if (from_sigframe(&w, w.reg[RSP]) < 0) {
				why = CP_UNWIND_BAD_READ;
				break;
			}
			interrupted = 1;
			if (cp_stack_find(t, w.reg[RSP], &w.stack) < 0) {
				why = CP_UNWIND_BAD_READ;
				break;
			}
			continue;
		}
		if (n == max) {
			why = CP_UNWIND_DEPTH;
			break;
		}
		o = obj_of(w.tab, look);
		if (!o) {
			frames[n].pc = pc;
			frames[n++].func = 0;
			why = CP_UNWIND_NO_OBJECT;
			break;
		}
		why = find_fde(o, look, &f);
		if (why < 0) {
			frames[n].pc = pc;
			frames[n++].func = 0;
			why = why == -1 ? CP_UNWIND_NO_CFI : CP_UNWIND_BAD_CFI;
			break;
		}
		if (n && is_root(f.start)) {
			why = CP_UNWIND_COMPLETE;
			break;
		}
		frames[n].pc = pc;
		frames[n++].func = f.start;
		why = step(&w, o, &f, look);
		if (why >= 0)
			break;
		/* the caller's return address: in known code, after a call */
		pc = w.reg[RA];
		if (!is_sigreturn(&w, pc)) {
			o = obj_of(w.tab, pc - 1);
			if (!o || !after_call(o, pc)) {
				/* a coroutine's first frame returns to
				 * makecontext's trampoline, not after a call */
				why = pc == ret_root ? CP_UNWIND_COMPLETE : CP_UNWIND_BAD_RETURN;
				break;
			}
		}
		interrupted = 0;
		if (w.reg[RSP] >= w.stack.hi &&
		    cp_stack_find(t, w.reg[RSP], &w.stack) < 0) {
			why = CP_UNWIND_BAD_READ;
			break;
		}
	}
out:
	__atomic_fetch_sub(&readers, 1, __ATOMIC_SEQ_CST);
	*end = (enum cp_unwind_end)why;
	return n;
}
