/* decoder/realign.c - the decoder's part of the CoreSight frame
 * realignment (doc/realign.md), what moves the decoder's own state: its
 * switch (off, basic, precise) and the hold's with it (the rules are
 * src/realign/elem_hold_rule.c), the IDs of the input for the
 * deformatter, the answer where it asks for a decision (src/realign/,
 * given the sources' packet decoders for its trial parses), a bad packet
 * on the fast path handed back to its byte path from the frame of the
 * packet, and every parser and flow losing sync where the frames were
 * realigned (what the hold withdraws there: src/realign/elem_hold_ring.c). */
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/zero.h"
#include "decoder/dec_int.h"
#include "decoder/realign.h"
#include "packet/pktdec.h"
#include "realign/realign.h"
#include "source/dfmt_bulk.h"

void etm_dec_ids_changed(struct etm_decoder *d)
{
	if (d->dfmt && d->fmt == etm_fmt_coresight)
		etm_dfmt_note_ids(d->dfmt, d->sel,
				  d->noted_any ? d->noted : NULL);
}

int etm_decoder_note_id(struct etm_decoder *d, unsigned id)
{
	if (!d || !id || id >= 0x70)
		return -etme_invalid;
	d->noted_any = 1;
	d->noted[id] = 1;
	etm_dec_ids_changed(d);
	return 0;
}

void etm_dec_decide(struct etm_decoder *d)
{
	struct etm_realign_in in;
	unsigned i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		in.pd[i] = d->src[i] ? d->src[i]->pd : NULL;
	in.sign = etm_realign_hold_sign(&d->hold,
					etm_realign_sign_from(d->dfmt));
	in.left = d->left;
	in.out = etm_realign_hold_out_from(&d->hold, d->hold_on);
	etm_realign_decide(d->dfmt, &in);
}

void etm_dec_set_judge(struct etm_decoder *d)
{
	if (d->dfmt && d->fmt == etm_fmt_coresight) {
		etm_dfmt_set_decide(d->dfmt, !d->no_realign);
	}
	/* what a realignment may retract waits (elem_hold.c): always in
	 * precise, from the first suspicion of damage on in basic; once
	 * elements wait there, they come out through it */
	d->hold_on = etm_realign_hold_on(&d->hold, d->realign,
					 d->dfmt && d->fmt == etm_fmt_coresight &&
						 !d->want_packets) ||
		     d->hold_cur;
	/* the sign sees every flow's elements as they are made */
	if (d->dfmt && d->fmt == etm_fmt_coresight)
		etm_dfmt_set_flow_trial(d->dfmt, d->hold_on && !d->no_realign &&
							 !d->want_packets);
}

int etm_decoder_set_realign(struct etm_decoder *d, enum etm_realign mode)
{
	if (!d || (mode != etm_realign_off && mode != etm_realign_basic &&
		   mode != etm_realign_precise))
		return -etme_invalid;
	d->realign = mode;
	d->no_realign = mode == etm_realign_off;
	etm_realign_hold_set_mode(&d->hold, mode);
	etm_dec_set_judge(d);
	return 0;
}

void etm_dec_suspect(struct etm_decoder *d, uint64_t off)
{
	if (d->want_packets || d->fmt != etm_fmt_coresight)
		return;
	if (etm_realign_hold_suspect(&d->hold, d->realign, off))
		etm_dec_set_judge(d);
}

void etm_dec_hold_idle(struct etm_decoder *d)
{
	if (!etm_realign_hold_release(&d->hold, d->re_at != 0))
		return;
	d->cur = d->hold_cur;
	d->hold_cur = NULL;
	etm_dec_set_judge(d);
}

void etm_dec_bad_packet(struct etm_decoder *d, const struct etm_packet *pkt)
{
	if (d->no_realign || d->fmt != etm_fmt_coresight || !d->dfmt)
		return;
	etm_dec_suspect(d, pkt->offset);
	if (!etm_dfmt_fast(d->dfmt)) {
		etm_dfmt_suspect(d->dfmt);
	} else if (!d->finishing && !d->re_at) {
		const struct dec_source *s = d->src[pkt->id & 0x7f];
		uint64_t end = s && s->pd ? etm_pkt_err_end(s->pd) : 0;

		d->re_at = pkt->offset + (pkt->size ? pkt->size : 1);
		d->re_end = end > d->re_at ? end : d->re_at;
		d->re_id = pkt->id;
	}
}

int etm_dec_rewind(struct etm_decoder *d)
{
	struct dec_source *s = d->src[d->re_id & 0x7f];
	uint64_t at = d->re_at;

	d->re_at = 0;
	if (s && s->pd)
		etm_pkt_reset(s->pd);
	if (!etm_dfmt_fast(d->dfmt))
		return 0;
	return etm_dfmt_rewind(d->dfmt, d->sel, at, d->re_end, d->re_id);
}

void etm_dec_retract(struct etm_decoder *d, uint64_t cut)
{
	uint8_t live[ETM_DEC_MAX_SOURCES];
	unsigned i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		live[i] = d->src[i] && d->src[i]->flow;
	etm_realign_hold_retract(&d->hold, cut, live);
}

void etm_dec_lose_all(struct etm_decoder *d, uint64_t off)
{
	struct etm_packet pkt;
	unsigned i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		struct dec_source *s = d->src[i];

		if (!s || !s->pd)
			continue;
		etm_pkt_reset(s->pd);
		if (!s->flow)
			continue;
		etm_zero(&pkt, sizeof(pkt));
		pkt.type = etmp_error;
		pkt.err = etme_frame_align;
		pkt.offset = off;
		pkt.id = (uint8_t)i;
		etm_flow_put(s->flow, &pkt);
	}
	d->lose_id = 0;
}
