/* decoder/left_sources.c - the sources of the input the decoder does not decode
 * (etm_decoder_note_source(): left out by a selection), for the frame
 * realignment only: a packet decoder of each parses their data where a
 * realignment decided late looks for where the damage began
 * (realign/damage_start.c), and with their image a trial flow runs over those
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
#include "realign/realign.h"
#include "source/dfmt_bulk.h"

void etm_dec_left_wire(struct etm_decoder *d)
{
	if (d->dfmt && d->fmt == etm_fmt_coresight && d->left)
		etm_dfmt_keep_history(d->dfmt, 1);
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
