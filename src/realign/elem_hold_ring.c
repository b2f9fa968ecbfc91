/* realign/elem_hold_ring.c - the element hold's ring (doc/realign.md,
 * "Element hold"): the elements waiting until no realignment can retract
 * them, their release ETM_DFMT_REACH bytes of input later, the retraction
 * of those a realignment's cut makes wrong, and the first sign of trouble
 * among them. A data structure only: the hold's place in the decoder's
 * output is decoder/elem_hold.c, which pumps the pipeline into it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/sbuf.h"
#include "flow/flow_pull.h"
#include "realign/elem_hold.h"
#include "realign/realign.h"
#include "source/dfmt_bulk.h"

/* An error or a loss of sync stays: it says that something was wrong
 * there, and claims no instruction. */
static int hold_keeps(const struct etm_elem *e)
{
	return e->kind == etmk_error || e->kind == etmk_nosync;
}

/* Frames before a realignment's cut whose elements go too: the one before
 * it may hold the damage, and a range begun in the one before that may
 * take its last atoms from it. */
#define HOLD_BACK (2 * 16)

/* The ready mark as of the latest offset (the hold's stage moves it only
 * when a batch is about to go out: the ready prefix only grows with the
 * latest offset, so this is where it would be had it moved after every
 * append). */
static size_t hold_rdy(const struct etm_realign_hold *h)
{
	return etm_realign_hold_ready_at(h->el, h->cap - 1, h->rdy, h->n,
					 h->maxoff);
}

void etm_realign_hold_free(struct etm_realign_hold *h)
{
	free(h->el);
	memset(h, 0, sizeof(*h));
}

void etm_realign_hold_clear(struct etm_realign_hold *h)
{
	h->head = h->rdy = h->n = 0;
	h->maxoff = 0;
	h->losing = 0;
	memset(h->lose, 0, sizeof(h->lose));
	h->engaged = 0;
	h->engaged_until = 0;
}

/* Room for @k more elements (0 or -etme_nomem): the ring grows to a
 * power of two, its waiting elements moved to the start. */
int etm_realign_hold_room(struct etm_realign_hold *h, size_t k)
{
	size_t live = h->n - h->head, cap = 256, i;
	struct etm_elem *el;

	if (live + k <= h->cap)
		return 0;
	while (cap < live + k) {
		if (cap > SIZE_MAX / 2 / sizeof(*el))
			return -etme_nomem;
		cap *= 2;
	}
	el = malloc(cap * sizeof(*el));
	if (!el)
		return -etme_nomem;
	for (i = 0; i < live; i++)
		el[i] = h->el[(h->head + i) & (h->cap - 1)];
	free(h->el);
	h->el = el;
	h->rdy -= h->head;
	h->n = live;
	h->head = 0;
	h->cap = cap;
	return 0;
}

/* After a realignment: whether @e was made before its flow lost sync at
 * the cut (then it goes, unless it is an error or a loss of sync). */
static int hold_lost(struct etm_realign_hold *h, const struct etm_elem *e)
{
	if (e->id >= sizeof(h->lose) || !h->lose[e->id])
		return 0;
	if (e->kind == etmk_error && e->err == etme_frame_align) {
		h->lose[e->id] = 0; /* its flow's own: made after the cut */
		h->losing--;
		return 0;
	}
	return e->offset >= h->lose_from && !hold_keeps(e);
}

size_t etm_realign_hold_ready(const struct etm_elem *el, size_t m, size_t r,
			      size_t k, uint64_t mx)
{
	return etm_realign_hold_ready_at(el, m, r, k, mx);
}

void etm_realign_hold_add_losing(struct etm_realign_hold *h, const struct etm_elem *e,
				 size_t n)
{
	struct etm_elem *el = h->el;
	size_t i, m = h->cap - 1, k = h->n;
	uint64_t mx = h->maxoff;

	for (i = 0; i < n; i++) {
		if (hold_lost(h, &e[i]))
			continue;
		el[k++ & m] = e[i];
		mx = e[i].offset > mx ? e[i].offset : mx;
	}
	h->n = k;
	h->rdy = etm_realign_hold_ready_at(el, m, h->rdy, k, mx);
	h->maxoff = mx;
}

uint64_t etm_realign_hold_sign(const struct etm_realign_hold *h, uint64_t from)
{
	uint64_t first = UINT64_MAX;
	size_t i, m = h->cap - 1;
	const struct etm_elem *e;

	for (i = hold_rdy(h); i < h->n; i++) {
		e = &h->el[i & m];
		if (e->offset >= from && e->offset < first &&
		    etm_realign_elem_trouble(e))
			first = e->offset;
	}
	return first;
}

/* The first waiting element of the retraction: two frames before the cut
 * @cut, or before the first sign of trouble still waiting if earlier (the
 * cut may come late). */
static uint64_t hold_from(const struct etm_realign_hold *h, uint64_t cut)
{
	uint64_t from = cut > HOLD_BACK ? cut - HOLD_BACK : 0, o;
	size_t i, m = h->cap - 1;

	for (i = h->rdy; i < h->n; i++) {
		o = h->el[i & m].offset & ~(uint64_t)15;
		if (etm_realign_elem_sign(&h->el[i & m]) && o < from + HOLD_BACK)
			from = o > HOLD_BACK ? o - HOLD_BACK : 0;
	}
	return from;
}

void etm_realign_hold_retract(struct etm_realign_hold *h, uint64_t cut,
			      const uint8_t live[ETM_REALIGN_HOLD_IDS])
{
	uint64_t from;
	size_t i, k, m = h->cap - 1, last[ETM_REALIGN_HOLD_IDS];
	const struct etm_elem *e;

	h->rdy = hold_rdy(h);
	from = hold_from(h, cut);
	k = h->rdy;

	/* a source's last element before it, if a range: its offset is the
	 * packet that began it, its last atoms may come from after it */
	for (i = 0; i < ETM_REALIGN_HOLD_IDS; i++)
		last[i] = SIZE_MAX;
	for (i = h->rdy; i < h->n; i++) {
		e = &h->el[i & m];
		if (e->offset < from)
			last[e->id & 0x7f] = e->kind == etmk_range ? i : SIZE_MAX;
	}
	/* the ready ones are final */
	for (i = h->rdy; i < h->n; i++) {
		e = &h->el[i & m];
		if ((e->offset >= from && !hold_keeps(e)) ||
		    last[e->id & 0x7f] == i)
			continue;
		if (k != i)
			h->el[k & m] = *e;
		k++;
	}
	h->n = k;
	/* and those still queued in the flows, which come before each flow's
	 * own frame_align error (decoder/realign.c, etm_dec_lose_all()) */
	h->losing = 0;
	for (i = 0; i < ETM_REALIGN_HOLD_IDS; i++) {
		h->lose[i] = live[i] != 0;
		h->losing += h->lose[i];
	}
	h->lose_from = from;
}

/* The waiting elements (not the ready ones: they go out whatever comes)
 * and the losing state. */
static void hold_save_waiting(const struct etm_realign_hold *h,
			      struct etm_sbuf *s)
{
	size_t i, r = hold_rdy(h);

	etm_sbuf_u64(s, h->n - r);
	etm_sbuf_u64(s, h->maxoff);
	for (i = r; i < h->n; i++)
		etm_elem_save(s, &h->el[i & (h->cap - 1)]);
	etm_sbuf_u32(s, (uint32_t)h->losing);
	if (h->losing) {
		etm_sbuf_put(s, h->lose, sizeof(h->lose));
		etm_sbuf_u64(s, h->lose_from);
	}
}

void etm_realign_hold_save(const struct etm_realign_hold *h, int on,
			   struct etm_sbuf *s)
{
	if (on)
		hold_save_waiting(h, s);
	if (h->engaged)
		etm_sbuf_u64(s, h->engaged_until);
}
