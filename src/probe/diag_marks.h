/* probe/diag_marks.h - the etm_diag_mark bits of a range element
 * (etmtrace/diag.h), and a memo of the one that reads the image: whether
 * the last instruction of a range whose last atom is N cannot fail its
 * condition. Library-internal. */
#ifndef ETM_PROBE_DIAG_MARKS_H
#define ETM_PROBE_DIAG_MARKS_H

#include <stdint.h>

#include <etmtrace/diag.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>

/* Entries of the memo (a power of 2): loops fail the same few conditional
 * instructions again and again (TC2 PTM: 31% of the ranges end on an N
 * atom, at about 1,850 addresses; 256 entries missed 58% of them). */
#define DIAG_NMEMO 4096

/* Whether the instruction at an address and ISA cannot fail its condition,
 * by (address, ISA), direct-mapped: a slot holds address << 4 | ISA << 1 |
 * 1, with bit 63 the answer; 0 is empty. Valid for one image: cleared
 * when the image changes (the flow decoder's block cache makes the same
 * assumption: an image does not change under a decode). */
struct diag_nmemo {
	uint64_t slot[DIAG_NMEMO];
};

#define DIAG_NMEMO_YES ((uint64_t)1 << 63)

/* Forget every answer (a new image). */
void diag_nmemo_clear(struct diag_nmemo *m);

/* Whether the instruction at @addr in @isa, read from @img, cannot fail
 * its condition (etm_mark_n_uncond), from the image; the answer is kept in
 * @m when the address fits its key. */
unsigned diag_n_uncond_read(struct diag_nmemo *m, const struct etm_image *img,
			    uint64_t addr, enum etm_isa isa);

/* diag_n_uncond_read() answered from @m when it can. */
static inline unsigned diag_n_uncond(struct diag_nmemo *m,
				     const struct etm_image *img,
				     uint64_t addr, enum etm_isa isa)
{
	uint64_t key = addr << 4 | (uint64_t)isa << 1 | 1;
	uint64_t s = m->slot[(addr >> 1) & (DIAG_NMEMO - 1)];

	if ((s & ~DIAG_NMEMO_YES) == key && addr < ((uint64_t)1 << 59))
		return s >> 63;
	return diag_n_uncond_read(m, img, addr, isa);
}

/* The etm_diag_mark bits of range @e against @img, the image read through
 * @m. */
static inline unsigned diag_marks_memo(struct diag_nmemo *m,
				       const struct etm_image *img,
				       const struct etm_elem *e)
{
	unsigned r = 0;

	if (e->last_cls == etmc_undefined)
		r |= etm_mark_undef;
	if (e->last_atom && !e->last_exec &&
	    diag_n_uncond(m, img, e->last_addr, e->isa))
		r |= etm_mark_n_uncond;
	return r;
}

#endif
