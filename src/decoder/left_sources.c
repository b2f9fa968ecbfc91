/* decoder/left_sources.c - the sources of the input the decoder does not
 * decode (etm_decoder_note_source(): left out by a selection), noted for
 * the frame realignment: the decoder checks and notes their IDs, owns the
 * set (realign/left_sources.c: a packet decoder of each, and their image
 * for a trial flow) and copies it to a clone. */
#include <stddef.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "decoder/dec_int.h"
#include "decoder/realign.h"
#include "realign/realign.h"

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
	r = etm_realign_left_add(&d->left, id, cfg, img);
	etm_dec_left_wire(d);
	return r;
}

void etm_dec_left_free(struct etm_decoder *d)
{
	etm_realign_left_free(d->left);
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
	return etm_realign_left_cfgs(d->left, cfg, max);
}
