/* decoder/stages.c - the decoder's entry points for input and output,
 * each handing the call to the first of its stages that applies: a
 * circular buffer's pieces (pieces.c: fresh decoders over each piece),
 * then the element hold of the realignment (elem_hold.c), then the
 * pipeline itself (decoder.c). Every stage calls only the ones below it,
 * so the files of src/decoder call each other in no cycle
 * (tests/cli/test-decoder_calls.sh). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/zero.h"
#include "decoder/clone.h"
#include "decoder/dec_int.h"
#include "flow/flow_pull.h"
#include "packet/pktdec.h"

int etm_decoder_push(struct etm_decoder *d, const uint8_t *buf, size_t n)
{
	if (!d || (!buf && n))
		return -etme_invalid;
	if (d->finishing || d->replay)
		return -etme_invalid;
	if (d->pc)
		return etm_dec_pieces_push(d, buf, n);
	return etm_dec_push(d, buf, n);
}

void etm_decoder_free(struct etm_decoder *d)
{
	if (!d)
		return;
	etm_dec_pieces_free(d);
	etm_dec_free(d);
}

/* etm_decoder_next() past its common case: a circular buffer's pieces
 * (pieces.c), the hold when it is on (elem_hold.c; it keeps the source
 * being drained out of d->cur, so that the common case never applies
 * then: it costs nothing there), else the pipeline. */
static __attribute__((noinline)) int next_outer(struct etm_decoder *d,
						struct etm_item *it)
{
	if (d->pc)
		return etm_dec_pieces_next(d, it);
	if (d->hold_on)
		return etm_dec_hold_next(d, it);
	return etm_dec_next_slow(d, it);
}

int etm_decoder_next(struct etm_decoder *d, struct etm_item *it, size_t size)
{
	if (!d || !it || size < sizeof(*it))
		return -etme_invalid;
	if (d->raw && d->raw->kind)
		return etm_dec_pipe_next(d, it);
	if (d->cur && d->cur->flow) {
		/* the common case: an element already queued */
		const struct etm_elem *el = etm_flow_pop(d->cur->flow);

		if (el) {
			it->elem = *el;
			it->kind = etm_item_elem;
			it->proto = d->cur->cfg.protocol;
			return 0;
		}
	}
	return next_outer(d, it);
}

int etm_decoder_next_elems(struct etm_decoder *d,
			   const struct etm_elem **els, size_t max)
{
	if (!d || !els || !max || d->mode != etm_dec_elements ||
	    d->want_packets)
		return -etme_invalid;
	if (max > INT_MAX)
		max = INT_MAX;
	if (d->pc)
		return etm_dec_pieces_next_elems(d, els, max);
	if (d->hold_on)
		return etm_dec_hold_next_elems(d, els, max);
	return etm_dec_pipe_next_elems(d, els, max);
}

/* The record of an item of etm_decoder_next() in packet mode: a packet,
 * or an error element of the deformatter. */
static void rec_from_item(struct etm_pkt_rec *r, const struct etm_item *it)
{
	if (it->kind != etm_item_elem) {
		etm_pkt_rec_from(r, &it->pkt);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->offset = it->elem.offset;
	r->type = etmp_error;
	r->value = (uint32_t)it->elem.err;
}

/* An error record of a batch: a bad packet, as drain_source() reports
 * one, so that the batch stops where etm_decoder_next() would. */
static void rec_bad_packet(struct etm_decoder *d, const struct etm_pkt_rec *r)
{
	struct etm_packet pkt;

	etm_zero(&pkt, sizeof(pkt));
	pkt.offset = r->offset;
	pkt.size = r->size;
	pkt.id = r->id;
	etm_dec_bad_packet(d, &pkt);
}

int etm_decoder_next_packets(struct etm_decoder *d, struct etm_pkt_rec *recs,
			     size_t max)
{
	struct etm_item it;
	size_t n = 0;
	int err;

	if (!d || !recs || !max || d->mode != etm_dec_packets)
		return -etme_invalid;
	if (max > INT_MAX)
		max = INT_MAX;
	while (n < max) {
		if (d->cur && !d->re_at) {
			/* a batch from the source being drained */
			err = etm_pkt_next_recs(d->cur->pd, recs + n,
						max - n);
			if (err > 0) {
				n += (size_t)err;
				d->npackets += (uint64_t)err;
				if (recs[n - 1].type == etmp_error)
					rec_bad_packet(d, &recs[n - 1]);
				continue;
			}
			if (err != -etme_again && err != -etme_eos)
				return n ? (int)n : err;
			if (n)
				break;
		}
		/* everything else (input, deformatter, end of input) as
		 * etm_decoder_next() does it */
		err = etm_decoder_next(d, &it, sizeof(it));
		if (err < 0)
			return n ? (int)n : err;
		rec_from_item(&recs[n++], &it);
	}
	return (int)n;
}

struct etm_decoder *etm_decoder_clone_whole(const struct etm_decoder *d)
{
	struct etm_decoder *c = etm_decoder_clone(d, 0);

	if (c && d->pc && etm_dec_pieces_on(c, etm_dec_pieces_mode(d)) < 0) {
		etm_decoder_free(c);
		return NULL;
	}
	return c;
}
