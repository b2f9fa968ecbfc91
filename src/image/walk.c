/* image/walk.c - iterate the instructions of a decoded range element,
 * re-reading and classifying each opcode from the program image. */
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "image/image_int.h"

int etm_walk_init(struct etm_walk *w, const struct etm_image *img,
		  const struct etm_elem *el)
{
	if (!w || !el || el->kind != etmk_range)
		return -etme_invalid;
	w->img = img;
	w->addr = el->start;
	w->end = el->end;
	w->isa = el->isa;
	/* Without space-specific regions every lookup is "any"; with them,
	 * the range's security state picks the space ("any" is a fallback). */
	if (etm_image_has_spaces(img))
		w->space = el->ns ? etm_space_nonsecure : etm_space_secure;
	else
		w->space = etm_space_any;
	/* ninsn 0 (unknown count): walk by addresses only. */
	w->left = el->ninsn ? el->ninsn : UINT32_MAX;
	return 0;
}

int etm_walk_next(struct etm_walk *w, struct etm_insn *insn)
{
	uint8_t buf[4];
	size_t n;
	int sz;

	if (!w || !insn)
		return -etme_invalid;
	if (!w->left || w->addr >= w->end)
		return -etme_eos;
	if (w->isa != etmi_a32 && w->isa != etmi_t32 && w->isa != etmi_tee)
		return -etme_invalid;
	n = w->img ? etm_image_read(w->img, w->space, w->addr, buf, 4) : 0;
	sz = n ? etm_insn_decode(insn, w->isa, w->addr, buf, n) : -etme_again;
	if (sz < 0)
		return -etme_nomap;
	w->addr += (unsigned)sz;
	w->left--;
	return 0;
}
