/* decoder/hold.c - the element hold of the CoreSight frame realignment
 * (issue 13 item 17): with the realignment on, every element waits in one
 * queue, in the order the pipeline made it, until the input it came from
 * lies ETM_DFMT_REACH bytes behind the latest element's, the farthest back
 * a realignment's cut can fall (source/dfmt_bulk.h); a realignment
 * retracts the waiting elements from the frame before the two before its
 * cut on (made at the old alignment, or from a damaged frame's data whose
 * bit 0 came from the wrong auxiliary byte). The order of the elements is
 * unchanged, so undamaged input decodes the same. */
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/grow.h"
#include "common/sbuf.h"
#include "decoder/dec_int.h"
#include "flow/flow_int.h"
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

void etm_dec_hold_free(struct dec_hold *h)
{
	free(h->el);
	free(h->proto);
	memset(h, 0, sizeof(*h));
}

void etm_dec_hold_clear(struct dec_hold *h)
{
	h->head = h->n = 0;
	h->maxoff = 0;
	h->flush = 0;
	memset(h->lose, 0, sizeof(h->lose));
}

/* Append @e of protocol @proto (0 or -etme_nomem). */
static int hold_put(struct dec_hold *h, const struct etm_elem *e, int proto)
{
	size_t cap = h->cap;
	void *p;

	if (h->head && h->n == h->cap) {
		memmove(h->el, h->el + h->head,
			(h->n - h->head) * sizeof(h->el[0]));
		memmove(h->proto, h->proto + h->head, h->n - h->head);
		h->n -= h->head;
		h->head = 0;
	}
	if (h->n == h->cap) {
		p = etm_grow(h->el, &cap, h->n + 1, sizeof(h->el[0]), 256);
		if (!p)
			return -etme_nomem;
		h->el = p;
		cap = h->cap;
		p = etm_grow(h->proto, &cap, h->n + 1, 1, 256);
		if (!p)
			return -etme_nomem;
		h->proto = p;
		h->cap = cap;
	}
	if (e->id < sizeof(h->lose) && h->lose[e->id]) {
		/* made before its flow lost sync at the cut */
		if (e->kind == etmk_error && e->err == etme_frame_align)
			h->lose[e->id] = 0;
		else if (e->offset >= h->lose_from && !hold_keeps(e))
			return 0;
	}
	h->el[h->n] = *e;
	h->proto[h->n++] = (uint8_t)proto;
	if (e->offset > h->maxoff)
		h->maxoff = e->offset;
	return 0;
}

void etm_dec_hold_retract(struct dec_hold *h, uint64_t cut)
{
	uint64_t from = cut > HOLD_BACK ? cut - HOLD_BACK : 0;
	size_t i, k = h->head;

	for (i = h->head; i < h->n; i++) {
		if (h->el[i].offset >= from && !hold_keeps(&h->el[i]))
			continue;
		if (k != i) {
			h->el[k] = h->el[i];
			h->proto[k] = h->proto[i];
		}
		k++;
	}
	h->n = k;
	/* and those still queued in the flows, which come before each flow's
	 * own frame_align error (etm_dec_lose_all()) */
	memset(h->lose, 1, sizeof(h->lose));
	h->lose[0] = 0; /* the deformatter's error element */
	h->lose_from = from;
}

/* Elements at the head that may go out. */
static size_t hold_ready(const struct dec_hold *h, size_t max)
{
	size_t i = h->head;

	if (h->flush)
		return h->n - h->head < max ? h->n - h->head : max;
	while (i < h->n && i - h->head < max &&
	       h->el[i].offset + ETM_DFMT_REACH <= h->maxoff)
		i++;
	return i - h->head;
}

int etm_dec_hold_next(struct etm_decoder *d, struct etm_item *it)
{
	struct dec_hold *h = &d->hold;
	int err;

	for (;;) {
		if (hold_ready(h, 1)) {
			it->kind = etm_item_elem;
			it->proto = h->proto[h->head];
			it->elem = h->el[h->head++];
			return 0;
		}
		err = etm_dec_next_direct(d, it);
		if (err == 0 && it->kind == etm_item_elem) {
			err = hold_put(h, &it->elem, (int)it->proto);
			if (err < 0)
				return err;
			continue;
		}
		if (err == -etme_eos && h->head < h->n) {
			h->flush = 1; /* the end: nothing can be retracted */
			continue;
		}
		return err;
	}
}

int etm_dec_hold_next_elems(struct etm_decoder *d,
			    const struct etm_elem **els, size_t max)
{
	struct dec_hold *h = &d->hold;
	const struct etm_elem *in;
	int n, i, err;
	size_t k;

	for (;;) {
		k = hold_ready(h, max);
		if (k) {
			*els = h->el + h->head;
			h->head += k;
			return (int)k;
		}
		n = etm_dec_next_elems_direct(d, &in, max);
		if (n == -etme_eos && h->head < h->n) {
			h->flush = 1;
			continue;
		}
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			err = hold_put(h, &in[i],
				       in == &d->xit.elem ? (int)d->xit.proto :
				       d->cur		  ? (int)d->cur->cfg.protocol :
							    etm_proto_unknown);
			if (err < 0)
				return err;
		}
	}
}

void etm_dec_hold_save(const struct dec_hold *h, struct etm_sbuf *s)
{
	size_t i;

	etm_sbuf_u64(s, h->n - h->head);
	etm_sbuf_u64(s, h->maxoff);
	for (i = h->head; i < h->n; i++)
		etm_elem_save(s, &h->el[i]);
	etm_sbuf_put(s, h->lose, sizeof(h->lose));
	etm_sbuf_u64(s, h->lose_from);
}
