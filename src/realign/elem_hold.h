/* realign/elem_hold.h - the element hold of the CoreSight frame
 * realignment (doc/realign.md, "Element hold"): its ring
 * (elem_hold_ring.c: the elements waiting until no realignment can
 * retract them, their release ETM_DFMT_REACH bytes of input later, the
 * retraction of those a realignment's cut makes wrong, the first sign of
 * trouble among them) and its switch (elem_hold_rule.c: when the hold is
 * on, when it engages and lets go in etm_realign_basic). A data structure
 * and its rules only: the decoder owns one, pumps its pipeline's elements
 * into it and hands out the ready ones (decoder/elem_hold.c). The append
 * and the ready scan are inline, for the element path. */
#ifndef ETM_REALIGN_ELEM_HOLD_H
#define ETM_REALIGN_ELEM_HOLD_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>

#include "source/dfmt_bulk.h"

struct etm_sbuf;

/* The trace IDs a hold tells apart (an element's id & 0x7f). */
#define ETM_REALIGN_HOLD_IDS 128

/* Elements [head, n) of the ring el (cap, a power of two) wait; [head,
 * rdy) are ready (final): the latest element's offset maxoff is
 * ETM_DFMT_REACH bytes past theirs, or the input ended. */
struct etm_realign_hold {
	struct etm_elem *el;
	size_t head, rdy, n, cap;
	uint64_t maxoff;
	/* after a realignment: the elements of ID i from lose_from on are
	 * dropped until its flow's frame_align error (lose[i]; losing, how
	 * many IDs) */
	int losing;
	uint8_t lose[ETM_REALIGN_HOLD_IDS];
	uint64_t lose_from;
	/* in etm_realign_basic: damage was suspected, the hold is on until
	 * the input passes engaged_until (elem_hold_rule.c) */
	int engaged;
	uint64_t engaged_until;
};

/* The index past the longest run of elements el[r & m], el[(r + 1) & m],
 * ... before index @k whose offsets lie ETM_DFMT_REACH bytes or more
 * before @mx. */
static inline size_t etm_realign_hold_ready_at(const struct etm_elem *el,
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
size_t etm_realign_hold_ready(const struct etm_elem *el, size_t m, size_t r,
			      size_t k, uint64_t mx);
/* Room for @k more elements (0 or -etme_nomem): the ring grows to a power
 * of two, its waiting elements moved to the start. */
int etm_realign_hold_room(struct etm_realign_hold *h, size_t k);
/* Append the @n elements @e (room made) while a realignment is losing
 * elements (h->losing): those made before their flow lost sync at the cut
 * go; then move the ready mark. */
void etm_realign_hold_add_losing(struct etm_realign_hold *h,
				 const struct etm_elem *e, size_t n);

/* Append the @n elements @e (room made: etm_realign_hold_room()); while a
 * realignment is losing elements, out of line. The ready mark moves in
 * etm_realign_hold_mark(). */
static inline __attribute__((always_inline)) void
etm_realign_hold_add(struct etm_realign_hold *h, const struct etm_elem *e,
		     size_t n)
{
	struct etm_elem *el = h->el, *to;
	size_t i, m = h->cap - 1, k = h->n, c;
	uint64_t mx = h->maxoff;

	if (__builtin_expect(h->losing != 0, 0)) {
		etm_realign_hold_add_losing(h, e, n);
		return;
	}
	/* up to the ring's end, then from its start */
	to = el + (k & m);
	c = h->cap - (k & m);
	c = n < c ? n : c;
	for (i = 0; i < c; i++) {
		to[i] = e[i];
		mx = e[i].offset > mx ? e[i].offset : mx;
	}
	for (; i < n; i++) {
		el[i - c] = e[i];
		mx = e[i].offset > mx ? e[i].offset : mx;
	}
	h->n = k + n;
	h->maxoff = mx;
}

/* Move the ready mark to the latest offset. */
static inline void etm_realign_hold_mark(struct etm_realign_hold *h)
{
	h->rdy = etm_realign_hold_ready_at(h->el, h->cap - 1, h->rdy, h->n,
					   h->maxoff);
}

/* A realignment cut the frames at input offset @cut: the waiting elements
 * from two frames before it on (or from before the first sign of trouble
 * still waiting, if earlier) are dropped, and those of the IDs i with
 * @live[i] (a flow still queues elements made before the cut) will be as
 * they come, until each one's frame_align error. */
void etm_realign_hold_retract(struct etm_realign_hold *h, uint64_t cut,
			      const uint8_t live[ETM_REALIGN_HOLD_IDS]);
/* The offset of the first waiting element at input offset >= @from that
 * says the trace was malformed there (a malformed packet, a contradiction
 * with the image, a loss of the trace, an address with no memory image),
 * else UINT64_MAX: where a late realignment's damage may have begun
 * (etm_realign_in; only where a realignment is decided). */
uint64_t etm_realign_hold_sign(const struct etm_realign_hold *h,
			       uint64_t from);
/* Empty the hold and disengage it (a restart); free its memory. */
void etm_realign_hold_clear(struct etm_realign_hold *h);
void etm_realign_hold_free(struct etm_realign_hold *h);
/* The waiting elements, as state that decides the future output (@on: the
 * hold is on), and the engagement. */
void etm_realign_hold_save(const struct etm_realign_hold *h, int on,
			   struct etm_sbuf *s);

/* The hold's switch (elem_hold_rule.c; the two asked on the element path
 * inline here). Whether the hold is on in @mode for a decoder of elements
 * from CoreSight frames (@frames; else never, unless elements still wait
 * in it: they come out through it): always in etm_realign_precise, while
 * engaged in etm_realign_basic. */
static inline int etm_realign_hold_on(const struct etm_realign_hold *h,
				      enum etm_realign mode, int frames)
{
	return (frames && (mode == etm_realign_precise ||
			   (mode == etm_realign_basic && h->engaged))) ||
	       h->n > h->head;
}

/* An engaged hold lets go when it is empty, nothing is to be withdrawn
 * (no loss pending; @pending: no rewind pending either) and the input is
 * past engaged_until. Returns 1 if it let go now, else 0 (asked after
 * every batch that goes out). */
static inline int etm_realign_hold_release(struct etm_realign_hold *h,
					   int pending)
{
	if (!h->engaged || h->head != h->n || h->losing || pending ||
	    h->maxoff < h->engaged_until)
		return 0;
	h->engaged = 0;
	return 1;
}
/* The realignment was switched to @mode: the hold disengages unless it
 * is etm_realign_basic. */
void etm_realign_hold_set_mode(struct etm_realign_hold *h,
			       enum etm_realign mode);
/* Damage suspected at input offset @off (a bad packet, a realignment) in
 * a decoder of elements from CoreSight frames: in etm_realign_basic the
 * hold engages until the input is 2 * ETM_DFMT_REACH past the latest
 * suspicion. Returns 1 if it engaged now (the switch changes), else 0. */
int etm_realign_hold_suspect(struct etm_realign_hold *h,
			     enum etm_realign mode, uint64_t off);
/* The input offset from which on nothing the decoder made has gone out
 * (it may still be withdrawn) with the hold on (@on), for a decision
 * (etm_realign_in.out; UINT64_MAX: all is out). */
uint64_t etm_realign_hold_out_from(const struct etm_realign_hold *h, int on);

#endif
