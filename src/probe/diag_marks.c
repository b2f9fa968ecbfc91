/* probe/diag_marks.c - the etm_diag_mark bits of a range element: the
 * image read behind them, and its memo (probe/diag_marks.h). */
#include <string.h>

#include <etmtrace/insn.h>

#include "probe/diag_marks.h"

/* Classify the instruction at @addr; 0 if it cannot be read. */
static int diag_insn(const struct etm_image *img, uint64_t addr,
		     enum etm_isa isa, struct etm_insn *in)
{
	uint8_t b[4];
	size_t n;

	if (!img)
		return 0;
	n = etm_image_read(img, etm_space_any, addr, b, sizeof(b));
	return etm_insn_decode(in, isa, addr, b, n) > 0;
}

/* Whether a T32 instruction at @addr may sit in an IT block: an IT
 * instruction among the eight halfwords before it (an IT block holds up
 * to four instructions of up to four bytes; conservative). */
static int diag_maybe_it(const struct etm_image *img, uint64_t addr)
{
	uint8_t b[16];
	unsigned i;

	if (addr < 16 || etm_image_read(img, etm_space_any, addr - 16, b,
					16) != 16)
		return 1;
	for (i = 0; i < 16; i += 2)
		if (b[i + 1] == 0xbf && (b[i] & 0x0f))
			return 1;
	return 0;
}

/* Whether the instruction at @addr cannot fail its condition. */
static unsigned n_uncond(const struct etm_image *img, uint64_t addr,
			 enum etm_isa isa)
{
	struct etm_insn in;

	return diag_insn(img, addr, isa, &in) && !in.cond &&
	       (isa == etmi_a32 || !diag_maybe_it(img, addr));
}

void diag_nmemo_clear(struct diag_nmemo *m)
{
	memset(m->slot, 0, sizeof(m->slot));
}

unsigned diag_n_uncond_read(struct diag_nmemo *m, const struct etm_image *img,
			    uint64_t addr, enum etm_isa isa)
{
	unsigned r = n_uncond(img, addr, isa);

	if (addr < ((uint64_t)1 << 59))
		m->slot[(addr >> 1) & (DIAG_NMEMO - 1)] =
			(addr << 4 | (uint64_t)isa << 1 | 1) |
			(r ? DIAG_NMEMO_YES : 0);
	return r;
}

unsigned etm_diag_elem_marks(const struct etm_image *img,
			     const struct etm_elem *e)
{
	unsigned r = 0;

	if (e->kind != etmk_range)
		return 0;
	if (e->last_cls == etmc_undefined)
		r |= etm_mark_undef;
	if (e->last_atom && !e->last_exec &&
	    n_uncond(img, e->last_addr, e->isa))
		r |= etm_mark_n_uncond;
	return r;
}
