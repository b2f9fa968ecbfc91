/* disasm/disasm.c - instruction text for listings, via capstone (Debian
 * libcapstone-dev); this library unit is built only when capstone is found.
 *
 * T32 instructions in an IT block disassemble differently (MOVS outside,
 * MOV<c> inside). Capstone tracks IT blocks from the instructions it was
 * last given, so its text would depend on what the listing printed before
 * - on the path, and with --jobs on where the input was cut. Here the IT
 * context is taken from the program image instead: an IT instruction up
 * to 14 bytes before the instruction whose block, walked forwards with
 * T32 instruction sizes, lands on it. Such instructions are
 * disassembled on a scratch handle after their IT instruction and the
 * instructions between, which is then drained with NOPs; every other T32
 * instruction (IT included) goes to a handle that never holds IT state.
 * The text is thus a function of the address and the image only - the
 * same with any number of jobs, and right after exceptions or branches
 * into a block, where the executed path does not show the IT.
 *
 * Capstone is not linked: each disassembler dlopen()s it by its SONAME
 * (ETM_CAPSTONE_SONAME, from the build) and takes the five functions it
 * calls. Linked, its relocations cost every run of a program that links
 * libetmtrace_symbols ~375 page faults at start-up, disassembling or not.
 * RTLD_NODELETE keeps it mapped once loaded, so a disassembler per
 * formatting thread and per buffer loads it once; the handle is the
 * disassembler's own (no global state). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include <etmtrace/disasm.h>

#include "disasm/disasm.h"

/* The capstone functions used, from the dlopen()ed library. */
struct cs_fns {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*close)(csh *handle);
	cs_insn *(*insn_alloc)(csh handle);
	void (*insn_free)(cs_insn *insn, size_t count);
	bool (*iter)(csh handle, const uint8_t **code, size_t *size,
		     uint64_t *address, cs_insn *insn);
};

struct disasm {
	void *lib; /* dlopen() handle of capstone */
	struct cs_fns cs;
	csh arm, thumb, it; /* it: the scratch handle for IT blocks */
	int ok_arm, ok_thumb, ok_it;
	cs_insn *insn;
};

/* Load capstone into d->lib and d->cs; 0, or -1 (nothing held). */
static int cs_load(struct disasm *d)
{
	d->lib = dlopen(ETM_CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!d->lib)
		return -1;
	d->cs.open = (cs_err(*)(cs_arch, cs_mode, csh *))dlsym(d->lib, "cs_open");
	d->cs.close = (cs_err(*)(csh *))dlsym(d->lib, "cs_close");
	d->cs.insn_alloc = (cs_insn * (*)(csh)) dlsym(d->lib, "cs_malloc");
	d->cs.insn_free = (void (*)(cs_insn *, size_t))dlsym(d->lib, "cs_free");
	d->cs.iter = (bool (*)(csh, const uint8_t **, size_t *, uint64_t *,
			       cs_insn *))dlsym(d->lib, "cs_disasm_iter");
	if (d->cs.open && d->cs.close && d->cs.insn_alloc && d->cs.insn_free &&
	    d->cs.iter)
		return 0;
	dlclose(d->lib);
	d->lib = NULL;
	return -1;
}

struct disasm *disasm_open(void)
{
	struct disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (cs_load(d) < 0) {
		free(d);
		return NULL;
	}
	d->ok_arm = d->cs.open(CS_ARCH_ARM, CS_MODE_ARM, &d->arm) == CS_ERR_OK;
	d->ok_thumb = d->cs.open(CS_ARCH_ARM, CS_MODE_THUMB, &d->thumb) == CS_ERR_OK;
	d->ok_it = d->cs.open(CS_ARCH_ARM, CS_MODE_THUMB, &d->it) == CS_ERR_OK;
	if (d->ok_arm)
		d->insn = d->cs.insn_alloc(d->arm);
	return d;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	if (d->insn)
		d->cs.insn_free(d->insn, 1);
	if (d->ok_arm)
		d->cs.close(&d->arm);
	if (d->ok_thumb)
		d->cs.close(&d->thumb);
	if (d->ok_it)
		d->cs.close(&d->it);
	dlclose(d->lib);
	free(d);
}

static int is_it(unsigned hw)
{
	return (hw & 0xff00) == 0xbf00 && (hw & 0x000f) != 0;
}

/* T32 instruction size from its first halfword. */
static unsigned t32_size(unsigned hw)
{
	return hw >= 0xe800 ? 4 : 2;
}

/* Disassemble the T32 bytes @p (@sz: 2 or 4) at @addr on handle @h; 1 if
 * it gave an instruction (then in d->insn). */
static int one(struct disasm *d, csh h, const uint8_t *p, size_t sz,
	       uint64_t addr)
{
	return (int)d->cs.iter(h, &p, &sz, &addr, d->insn);
}

/* Instruction boundaries in the @n bytes @m before a T32 instruction: T32
 * sizes are parsed forwards from the start and from the second halfword
 * (such parses meet after a few instructions and agree from there on); a
 * parse that lands exactly on the instruction is used. Returns 0 if none
 * does, else bit k of *@b = a boundary at m[2k]. */
static int boundaries(const uint8_t *m, unsigned n, uint32_t *b)
{
	unsigned s, pos;

	for (s = 0; s <= 2; s += 2) {
		*b = 0;
		for (pos = s; pos < n;
		     pos += t32_size((unsigned)m[pos] | m[pos + 1] << 8))
			*b |= 1u << (pos / 2);
		if (pos == n)
			return 1;
	}
	return 0;
}

/* If the T32 instruction at @x is in the block of an IT instruction found
 * in the image (see the top of the file), disassemble it in that context
 * into d->insn and return 1. A block has at most 4 instructions of at most
 * 4 bytes, so its IT is at most 14 bytes back; which halfwords start
 * instructions is found by parsing from further back (boundaries()). */
#define IT_BACK 32
static int in_it_block(struct disasm *d, const struct etm_image *img,
		       enum etm_space space, uint64_t x, const uint8_t *cur,
		       size_t cursz)
{
	uint8_t m[IT_BACK + 4];
	unsigned at, slot, pos, n = IT_BACK;
	uint32_t bd;

	if (!img || !d->ok_it)
		return 0;
	while (n >= 16 && (x < n || etm_image_read(img, space, x - n, m, n) != n))
		n -= 16;
	if (n < 16 || !boundaries(m, n, &bd))
		return 0;
	memcpy(m + n, cur, cursz);
	for (at = n - 2, slot = 0; at >= n - 14 && slot < 4; at -= 2) {
		unsigned hw = (unsigned)m[at] | m[at + 1] << 8;

		if (!(bd >> (at / 2) & 1))
			continue;
		if (!is_it(hw)) {
			slot++;
			continue;
		}
		/* the nearest IT: @slot instructions between it and @x */
		if (slot >= 4 - (unsigned)__builtin_ctz(hw & 0xf))
			return 0;
		/* replay: the IT, the instructions between, the target */
		one(d, d->it, m + at, 2, x - n + at);
		for (pos = at + 2; pos < n;) {
			unsigned sz = t32_size((unsigned)m[pos] | m[pos + 1] << 8);

			one(d, d->it, m + pos, sz, x - n + pos);
			pos += sz;
		}
		return one(d, d->it, cur, cursz, x);
	}
	return 0;
}

/* Empty the scratch handle's IT state (a block has at most 4 slots). */
static void drain_it(struct disasm *d)
{
	static const uint8_t nop[2] = { 0x00, 0xbf };
	int i;

	for (i = 0; i < 4; i++)
		one(d, d->it, nop, 2, 0);
}

/* The text of d->insn into @buf as objdump prints it: no space after a
 * mnemonic without operands ("nop"), and a direct branch's target as
 * "700af77c" (hex, no "#0x": `objdump -d`), not capstone's "#0x700af77c". */
static void text(const struct disasm *d, const struct etm_insn *in, char *buf,
		 size_t n)
{
	const char *op = d->insn->op_str, *h = NULL, *x;
	unsigned long long v;
	char *end;

	for (x = strstr(op, "#0x"); x; x = strstr(x + 3, "#0x"))
		h = x; /* the last operand */
	if (in->cls == etmc_br_direct && h) {
		v = strtoull(h + 3, &end, 16);
		if (end != h + 3 && !*end &&
		    (v == in->target || v == (in->target & ~1ull))) {
			snprintf(buf, n, "%s %.*s%s", d->insn->mnemonic,
				 (int)(h - op), op, h + 3);
			return;
		}
	}
	if (op[0])
		snprintf(buf, n, "%s %s", d->insn->mnemonic, op);
	else
		snprintf(buf, n, "%s", d->insn->mnemonic);
}

void disasm_insn(struct disasm *d, const struct etm_image *img,
		 enum etm_space space, const struct etm_insn *in, char *buf,
		 size_t n)
{
	uint8_t b[4];
	const uint8_t *p = b;
	size_t sz = in->size;
	uint64_t addr = in->addr;
	int thumb = in->isa != etmi_a32, ok = 0;

	if (thumb && in->size == 4) {
		b[0] = (uint8_t)(in->opcode >> 16);
		b[1] = (uint8_t)(in->opcode >> 24);
		b[2] = (uint8_t)in->opcode;
		b[3] = (uint8_t)(in->opcode >> 8);
	} else {
		b[0] = (uint8_t)in->opcode;
		b[1] = (uint8_t)(in->opcode >> 8);
		b[2] = (uint8_t)(in->opcode >> 16);
		b[3] = (uint8_t)(in->opcode >> 24);
	}
	if (d && d->insn && thumb && d->ok_thumb) {
		int scratch = 1;

		if (sz == 2 && is_it(in->opcode)) /* an IT itself */
			ok = d->ok_it && one(d, d->it, b, 2, addr);
		else if (in_it_block(d, img, space, addr, b, sz))
			ok = 1;
		else
			ok = one(d, d->thumb, b, sz, addr), scratch = 0;
		if (ok)
			text(d, in, buf, n);
		if (scratch)
			drain_it(d);
		if (ok)
			return;
	} else if (d && d->insn && !thumb && d->ok_arm &&
		   d->cs.iter(d->arm, &p, &sz, &addr, d->insn)) {
		text(d, in, buf, n);
		return;
	}
	snprintf(buf, n, "(%s)", etm_insn_class_name(in->cls));
}

static void hook_insn(void *ctx, const struct etm_image *img,
		      enum etm_space space, const struct etm_insn *in,
		      char *buf, size_t n)
{
	disasm_insn(ctx, img, space, in, buf, n);
}

struct etm_disasm_hook disasm_hook(struct disasm *d)
{
	struct etm_disasm_hook h = { d ? hook_insn : NULL, d };

	return h;
}

struct etm_disasm_hook etm_disasm_open(void)
{
	return disasm_hook(disasm_open());
}

void etm_disasm_close(struct etm_disasm_hook *h)
{
	if (!h)
		return;
	disasm_close(h->ctx);
	h->insn = NULL;
	h->ctx = NULL;
}
