/* decoder/left_sources.c - the sources of the input the decoder does not decode
 * (etm_decoder_note_source(): left out by a selection), for the frame
 * realignment only: a packet decoder of each parses their data where a
 * realignment decided late looks for where the damage began
 * (source/dfmt_damage_start.c), and with their image a trial flow runs over those
 * packets (its first contradiction with the image, as decoding the source
 * would see it); nothing of them is parsed otherwise. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "decoder/dec_int.h"
#include "decoder/hold_ring.h"
#include "decoder/realign.h"
#include "packet/pktdec.h"
#include "source/dfmt_bulk.h"

struct dec_left {
	struct etm_pkt_decoder *pd[ETM_DEC_MAX_SOURCES];
	struct etm_config cfg[ETM_DEC_MAX_SOURCES];
	uint8_t ids[ETM_DEC_MAX_SOURCES]; /* pd[id] is there */
	/* the source's image (NULL: none), and a flow over it, made at the
	 * first scan */
	const struct etm_image *img[ETM_DEC_MAX_SOURCES];
	struct etm_flow *fl[ETM_DEC_MAX_SOURCES];
};

/* Whether packet @p says the stream is malformed there. */
static int left_bad(const struct etm_packet *p)
{
	return p->type == etmp_error &&
	       (p->err == etme_bad_opc || p->err == etme_bad_packet);
}

/* Packet @p into the trial flow @fl (NULL: none); the offset of the first
 * sign among its elements once the flow is on (*@on: a trace_on seen),
 * else SIZE_MAX. */
static size_t left_flow(struct etm_flow *fl, const struct etm_packet *p,
			int *on)
{
	struct etm_elem e;
	size_t at = SIZE_MAX;

	if (!fl || etm_flow_put(fl, p) < 0)
		return SIZE_MAX;
	while (etm_flow_next(fl, &e, sizeof(e)) == 0) {
		if (*on && at == SIZE_MAX && etm_dec_elem_trouble(&e))
			at = (size_t)e.offset;
		*on |= e.kind == etmk_trace_on;
	}
	return at;
}

/* The trial flow of left-out source @id, made at its first use; reset. */
static struct etm_flow *left_fl(struct dec_left *l, uint8_t id)
{
	if (!l->img[id])
		return NULL;
	if (!l->fl[id])
		l->fl[id] = etm_flow_alloc(&l->cfg[id], l->img[id]);
	if (l->fl[id])
		etm_flow_reset(l->fl[id]);
	return l->fl[id];
}

/* etm_dfmt_scan_fn: the first malformed packet of ID @id's bytes @b after
 * their first A-sync, through its packet decoder from a reset, or the
 * packet of the first contradiction of its trial flow over the image if
 * earlier (after the flow's first trace_on). */
static size_t left_scan(void *ctx, uint8_t id, const uint8_t *b, size_t n,
			int *bad)
{
	const struct etm_decoder *d = ctx;
	struct etm_pkt_decoder *pd = d->left && id < ETM_DEC_MAX_SOURCES ?
					     d->left->pd[id] :
					     NULL;
	struct etm_flow *fl;
	struct etm_packet pkt;
	size_t at = SIZE_MAX, good;
	int synced = 0, on = 0;

	*bad = 0;
	if (!pd)
		return SIZE_MAX;
	etm_pkt_reset(pd);
	*bad = etm_pkt_trial(pd, b, n, &good);
	if (etm_pkt_push(pd, b, n, 0) < 0)
		return SIZE_MAX;
	fl = left_fl(d->left, id);
	while (at == SIZE_MAX && etm_pkt_next(pd, &pkt, sizeof(pkt)) == 0) {
		synced |= pkt.type == etmp_async;
		if (synced && left_bad(&pkt))
			at = (size_t)pkt.offset;
		else if (synced)
			at = left_flow(fl, &pkt, &on);
	}
	etm_pkt_reset(pd);
	return at;
}

/* What waits in the hold came from input after maxoff - ETM_DFMT_REACH
 * (it goes out only once the latest element is that far past it); without
 * the hold, everything made is out. The deformatter's damage start among
 * the left-out sources' data reads it (etm_dfmt_set_out()). */
void etm_dec_left_out(struct etm_decoder *d)
{
	uint64_t out = UINT64_MAX;

	if (d->hold_on)
		out = d->hold.maxoff > ETM_DFMT_REACH ?
			      d->hold.maxoff - ETM_DFMT_REACH + 1 :
			      0;
	etm_dfmt_set_out(d->dfmt, out);
}

void etm_dec_left_wire(struct etm_decoder *d)
{
	if (d->dfmt && d->fmt == etm_fmt_coresight && d->left)
		etm_dfmt_set_scan(d->dfmt, left_scan, d->left->ids);
}

int etm_decoder_note_source(struct etm_decoder *d,
			    const struct etm_config *cfg)
{
	return etm_decoder_note_source_img(d, cfg, NULL);
}

int etm_decoder_note_source_img(struct etm_decoder *d,
				const struct etm_config *cfg,
				const struct etm_image *img)
{
	unsigned id;
	int r;

	if (!d || !cfg)
		return -etme_invalid;
	id = etm_cfg_trace_id(cfg);
	r = etm_decoder_note_id(d, id);
	if (r < 0)
		return r;
	if (etm_config_check(cfg, NULL) < 0 ||
	    (cfg->protocol != etm_proto_etmv3 && cfg->protocol != etm_proto_ptm))
		return -etme_bad_config;
	if (!d->dfmt || d->fmt != etm_fmt_coresight || d->src[id])
		return 0; /* nothing to look for, or decoded */
	if (!d->left && !(d->left = calloc(1, sizeof(*d->left))))
		return -etme_nomem;
	etm_pkt_free(d->left->pd[id]);
	etm_flow_free(d->left->fl[id]);
	d->left->fl[id] = NULL;
	d->left->img[id] = img;
	etm_config_from_user(&d->left->cfg[id], cfg, cfg->size);
	d->left->pd[id] = etm_pkt_alloc(&d->left->cfg[id]);
	d->left->ids[id] = d->left->pd[id] != NULL;
	etm_dec_left_wire(d);
	return d->left->pd[id] ? 0 : -etme_nomem;
}

void etm_dec_left_free(struct etm_decoder *d)
{
	unsigned i;

	for (i = 0; d->left && i < ETM_DEC_MAX_SOURCES; i++) {
		etm_pkt_free(d->left->pd[i]);
		etm_flow_free(d->left->fl[i]);
	}
	free(d->left);
	d->left = NULL;
}

int etm_dec_left_clone(struct etm_decoder *c, const struct etm_decoder *d)
{
	unsigned i;

	for (i = 0; d->left && i < ETM_DEC_MAX_SOURCES; i++)
		if (d->left->ids[i] &&
		    etm_decoder_note_source_img(c, &d->left->cfg[i],
						d->left->img[i]) == -etme_nomem)
			return -etme_nomem;
	return 0;
}

size_t etm_dec_left_cfgs(const struct etm_decoder *d, struct etm_config *cfg,
			 size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; d->left && i < ETM_DEC_MAX_SOURCES && n < max; i++)
		if (d->left->ids[i]) {
			cfg[n] = d->left->cfg[i];
			cfg[n++].traceid = i;
		}
	return n;
}
