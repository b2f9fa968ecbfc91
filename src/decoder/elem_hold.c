/* decoder/elem_hold.c - the decoder's output through the element hold of
 * the CoreSight frame realignment (doc/realign.md): while it is on (always
 * in etm_realign_precise, from the first suspicion of damage in
 * etm_realign_basic), every element the pipeline (decoder.c) makes waits
 * in the hold's ring (realign/elem_hold_ring.c), in the order it was
 * made, until the input it came from lies ETM_DFMT_REACH bytes behind the
 * latest element's, the farthest back a realignment's cut can fall
 * (source/dfmt_bulk.h); a realignment retracts the waiting elements from
 * two frames before its cut on. The order of the elements is unchanged,
 * so undamaged input decodes the same. Only the stage is here, above the
 * pipeline: it pumps the pipeline's elements into the ring and hands out
 * the ready ones, calling down into decoder.c and realign.c (and the ring
 * and its rules, src/realign/elem_hold.h), none of which calls it. */
#include <stdint.h>
#include <stdlib.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "decoder/dec_int.h"

/* Elements made ready at once before a batch goes out (fewer calls):
 * while the hold is engaged in etm_realign_basic (it disengages once it is
 * empty), and otherwise (etm_realign_precise: the consumer's calls are
 * fewer, up to etm_capture_run()'s 256 a call). */
#define HOLD_BATCH 64
#define HOLD_BATCH_ON 256
/* In etm_realign_precise, the ready mark moves only once this many more
 * elements than a batch wait (the elements of the last ETM_DFMT_REACH
 * bytes are not ready: fewer checks that fail), and before a batch goes
 * out; the ready prefix is the same whenever it is found (it only grows
 * with the latest offset), and whatever reads it (a retraction, the sign,
 * a save) finds it first (realign/elem_hold_ring.c). */
#define HOLD_LAZY 512

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
	struct etm_realign_hold *h = &d->hold;
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
		d->cur = d->hold_cur;
		err = etm_dec_pipe_next(d, it);
		d->hold_cur = d->cur;
		d->cur = NULL;
		if (err == 0 && it->kind == etm_item_elem) {
			if (h->n - h->head + 1 > h->cap && etm_realign_hold_room(h, 1) < 0)
				return -etme_nomem;
			etm_realign_hold_add(h, &it->elem, 1);
			etm_realign_hold_mark(h);
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
	struct etm_realign_hold *h = &d->hold;
	const struct etm_elem *in;
	int n = 0, dirty = 0;
	size_t k, m, want = HOLD_BATCH_ON, lazy = HOLD_LAZY;

	if (h->engaged) {
		want = HOLD_BATCH;
		lazy = 0;
	}
	hold_engage(d);
	d->cur = d->hold_cur;
	while (h->rdy - h->head < want) {
		n = etm_dec_pipe_next_elems(d, &in, max);
		if (n == -etme_eos && h->rdy < h->n) {
			h->rdy = h->n; /* the end: nothing can be retracted */
			break;
		}
		if (n < 0)
			break;
		if (h->n - h->head + (size_t)n > h->cap &&
		    etm_realign_hold_room(h, (size_t)n) < 0) {
			n = -etme_nomem;
			break;
		}
		etm_realign_hold_add(h, in, (size_t)n);
		dirty = 1;
		if (h->n - h->head >= want + lazy) {
			etm_realign_hold_mark(h);
			dirty = 0;
		}
	}
	if (dirty)
		etm_realign_hold_mark(h);
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

int etm_dec_next(struct etm_decoder *d, struct etm_item *it)
{
	/* as etm_decoder_next(): an element already queued in the source
	 * being drained first (the hold keeps none there once engaged) */
	if (!d->hold_on || (d->raw && d->raw->kind))
		return etm_dec_pipe_next(d, it);
	if (etm_dec_pipe_pop(d, it))
		return 0;
	return etm_dec_hold_next(d, it);
}
