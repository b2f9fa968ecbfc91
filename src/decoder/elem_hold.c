/* decoder/elem_hold.c - the element hold of the CoreSight frame realignment
 * (doc/realign.md): while it is on (always in etm_realign_precise, from
 * the first suspicion of damage in etm_realign_basic), every element waits
 * in one queue, in the order the pipeline made it, until the input it came from
 * lies ETM_DFMT_REACH bytes behind the latest element's, the farthest back
 * a realignment's cut can fall (source/dfmt_bulk.h); a realignment
 * retracts the waiting elements from two frames before its cut on, or
 * before the first sign of trouble still waiting (made at the old
 * alignment, or from a damaged frame's data whose bit 0 came from the
 * wrong auxiliary byte). The order of the elements is unchanged, so
 * undamaged input decodes the same (doc/robustness.md, "Element hold"). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/sbuf.h"
#include "decoder/dec_int.h"
#include "flow/flow_pull.h"
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

/* Elements made ready at once before a batch goes out (fewer calls). */
#define HOLD_BATCH 64

void etm_dec_hold_free(struct dec_hold *h)
{
	free(h->el);
	memset(h, 0, sizeof(*h));
}

void etm_dec_hold_clear(struct dec_hold *h)
{
	h->head = h->rdy = h->n = 0;
	h->maxoff = 0;
	h->losing = 0;
	memset(h->lose, 0, sizeof(h->lose));
}

/* Room for @k more elements (0 or -etme_nomem): the ring grows to a
 * power of two, its waiting elements moved to the start. */
static int hold_room(struct dec_hold *h, size_t k)
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
static int hold_lost(struct dec_hold *h, const struct etm_elem *e)
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

size_t etm_dec_hold_ready(const struct etm_elem *el, size_t m, size_t r,
			  size_t k, uint64_t mx)
{
	while (r < k && el[r & m].offset + ETM_DFMT_REACH <= mx)
		r++;
	return r;
}

/* Append the @n elements @e (room made) and move the ready mark. Whether
 * a realignment is losing elements is read once per batch (hold_lost()
 * keeps what is no longer lost). */
static void hold_add(struct dec_hold *h, const struct etm_elem *e, size_t n)
{
	struct etm_elem *el = h->el;
	size_t i, m = h->cap - 1, k = h->n;
	uint64_t mx = h->maxoff;
	int losing = h->losing != 0;

	for (i = 0; i < n; i++) {
		if (__builtin_expect(losing, 0) && hold_lost(h, &e[i]))
			continue;
		memcpy(&el[k++ & m], &e[i], sizeof(e[i]));
		mx = e[i].offset > mx ? e[i].offset : mx;
	}
	h->n = k;
	h->rdy = etm_dec_hold_ready(el, m, h->rdy, k, mx);
	h->maxoff = mx;
}

uint64_t etm_dec_hold_sign(const struct dec_hold *h, uint64_t from)
{
	uint64_t first = UINT64_MAX;
	size_t i, m = h->cap - 1;
	const struct etm_elem *e;

	for (i = h->rdy; i < h->n; i++) {
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
static uint64_t hold_from(const struct dec_hold *h, uint64_t cut)
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

void etm_dec_hold_retract(struct etm_decoder *d, uint64_t cut)
{
	struct dec_hold *h = &d->hold;
	uint64_t from = hold_from(h, cut);
	size_t i, k = h->rdy, m = h->cap - 1, last[ETM_DEC_MAX_SOURCES];
	const struct etm_elem *e;

	/* a source's last element before it, if a range: its offset is the
	 * packet that began it, its last atoms may come from after it */
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
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
	 * own frame_align error (etm_dec_lose_all()) */
	h->losing = 0;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		h->lose[i] = d->src[i] && d->src[i]->flow;
		h->losing += h->lose[i];
	}
	h->lose_from = from;
}

/* The hold just engaged (etm_dec_suspect()): the source being drained
 * moves to hold_cur, as the hold keeps it between calls. */
static void hold_engage(struct etm_decoder *d)
{
	if (d->cur && !d->hold_cur) {
		d->hold_cur = d->cur;
		d->cur = NULL;
	}
}

int etm_dec_hold_next(struct etm_decoder *d, struct etm_item *it)
{
	struct dec_hold *h = &d->hold;
	int err;

	hold_engage(d);
	for (;;) {
		if (h->rdy > h->head) {
			const struct dec_source *s;

			it->elem = h->el[h->head++ & (h->cap - 1)];
			it->kind = etm_item_elem;
			/* the source's protocol (the deformatter's errors, ID
			 * 0: none), as the item had it */
			s = d->src[it->elem.id & 0x7f];
			it->proto = s ? s->cfg.protocol : etm_proto_unknown;
			etm_dec_hold_idle(d);
			return 0;
		}
		err = etm_dec_next_direct(d, it);
		if (err == 0 && it->kind == etm_item_elem) {
			if (h->n - h->head + 1 > h->cap && hold_room(h, 1) < 0)
				return -etme_nomem;
			hold_add(h, &it->elem, 1);
			continue;
		}
		if (err == -etme_eos && h->head < h->n) {
			h->rdy = h->n; /* the end: nothing can be retracted */
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
	int n = 0;
	size_t k, m;

	hold_engage(d);
	d->cur = d->hold_cur;
	while (h->rdy - h->head < HOLD_BATCH) {
		n = etm_dec_next_elems_direct(d, &in, max);
		if (n == -etme_eos && h->rdy < h->n) {
			h->rdy = h->n; /* the end: nothing can be retracted */
			break;
		}
		if (n < 0)
			break;
		if (h->n - h->head + (size_t)n > h->cap &&
		    hold_room(h, (size_t)n) < 0) {
			n = -etme_nomem;
			break;
		}
		hold_add(h, in, (size_t)n);
	}
	d->hold_cur = d->cur;
	d->cur = NULL;
	if (n == -etme_nomem)
		return n;
	if (h->rdy == h->head)
		return n < 0 ? n : -etme_again;
	if (n < 0 && n != -etme_again && n != -etme_eos)
		return n;
	/* contiguous: up to the ring's end */
	k = h->rdy - h->head < max ? h->rdy - h->head : max;
	m = h->cap - (h->head & (h->cap - 1));
	k = k < m ? k : m;
	*els = h->el + (h->head & (h->cap - 1));
	h->head += k;
	etm_dec_hold_idle(d);
	return (int)k;
}

void etm_dec_hold_save(const struct dec_hold *h, struct etm_sbuf *s)
{
	size_t i;

	/* the ready ones go out whatever comes: not state */
	etm_sbuf_u64(s, h->n - h->rdy);
	etm_sbuf_u64(s, h->maxoff);
	for (i = h->rdy; i < h->n; i++)
		etm_elem_save(s, &h->el[i & (h->cap - 1)]);
	etm_sbuf_u32(s, (uint32_t)h->losing);
	if (h->losing) {
		etm_sbuf_put(s, h->lose, sizeof(h->lose));
		etm_sbuf_u64(s, h->lose_from);
	}
}
