/* decoder/hold_ring.h - the element hold's ring (hold_ring.c; struct
 * dec_hold in dec_int.h): its operations, and the ready scan inline for
 * the hold's append on the element path (elem_hold.c). */
#ifndef ETM_DECODER_HOLD_RING_H
#define ETM_DECODER_HOLD_RING_H

#include <stddef.h>
#include <stdint.h>

#include "decoder/dec_int.h"
#include "source/dfmt_bulk.h"

/* The index past the longest run of elements el[r & m], el[(r + 1) & m],
 * ... before index @k whose offsets lie ETM_DFMT_REACH bytes or more
 * before @mx. */
static inline size_t etm_dec_hold_ready_at(const struct etm_elem *el,
					   size_t m, size_t r, size_t k,
					   uint64_t mx)
{
	const struct etm_elem *p, *end;
	size_t c;

	if (mx < ETM_DFMT_REACH)
		return r;
	mx -= ETM_DFMT_REACH;
	/* up to the ring's end, then from its start */
	while (r != k) {
		p = el + (r & m);
		c = m + 1 - (r & m);
		end = p + (k - r < c ? k - r : c);
		while (p != end && p->offset <= mx)
			p++;
		c = (size_t)(p - (el + (r & m)));
		r += c;
		if (p != end)
			break;
	}
	return r;
}

/* The same out of line (its unit test). */
size_t etm_dec_hold_ready(const struct etm_elem *el, size_t m, size_t r,
			  size_t k, uint64_t mx);
/* Room for @k more elements (0 or -etme_nomem): the ring grows to a power
 * of two, its waiting elements moved to the start. */
int etm_dec_hold_room(struct dec_hold *h, size_t k);
/* Append the @n elements @e (room made) while a realignment is losing
 * elements (h->losing): those made before their flow lost sync at the cut
 * go; then move the ready mark. */
void etm_dec_hold_add_losing(struct dec_hold *h, const struct etm_elem *e,
			     size_t n);
/* A realignment cut the frames at input offset @cut: the waiting elements
 * from two frames before it on are dropped, and those still queued in the
 * flows of @d will be as they come. */
void etm_dec_hold_retract(struct etm_decoder *d, uint64_t cut);
/* The offset of the first waiting element at input offset >= @from that
 * says the trace was malformed there (a malformed packet, a contradiction
 * with the image, a loss of the trace, an address with no memory image),
 * else UINT64_MAX: where a late realignment's damage may have begun
 * (etm_realign_in; only where a realignment is decided). */
uint64_t etm_dec_hold_sign(const struct dec_hold *h, uint64_t from);
/* Empty the hold (a restart); free its memory. */
void etm_dec_hold_clear(struct dec_hold *h);
void etm_dec_hold_free(struct dec_hold *h);
/* The waiting elements, as state that decides the future output. */
void etm_dec_hold_save(const struct dec_hold *h, struct etm_sbuf *s);

#endif
