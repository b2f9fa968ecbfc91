/* decoder/dfmt_record.c - a recording of the deformatter's output for one
 * trace ID (dfmt_replay.c) made from input bytes, and a decoder that reads
 * one instead of its own deformatter. Above the pipeline: it makes
 * decoders (decoder.c), which replay recordings without knowing of this
 * file. */
#include <stdlib.h>

#include <etmtrace/error.h>

#include "decoder/dec_int.h"
#include "decoder/dfmt_replay.h"
#include "source/dfmt_bulk.h"

struct etm_dec_replay *etm_dec_replay_record(enum etm_input_format fmt,
					     unsigned id, const uint8_t *buf,
					     size_t n)
{
	struct etm_dec_replay *t = NULL;
	struct etm_decoder *d;

	if (fmt == etm_fmt_raw || id >= ETM_DEC_MAX_SOURCES || (!buf && n))
		return NULL;
	d = etm_decoder_alloc(fmt, etm_dec_packets);
	if (!d)
		return NULL;
	/* as etm_decoder_add_source() and set_realign(0) leave it */
	d->sel[id] = 1;
	etm_dec_ids_changed(d);
	etm_decoder_set_realign(d, etm_realign_off);
	if (etm_dfmt_push(d->dfmt, buf, n) == 0)
		t = etm_dec_replay_fill(fmt, id, d);
	etm_decoder_free(d);
	return t;
}

struct etm_decoder *etm_dec_replay_decoder(const struct etm_dec_replay *t,
					   enum etm_decoder_mode mode)
{
	struct etm_decoder *d;

	if (!t)
		return NULL;
	d = etm_decoder_alloc(etm_fmt_raw, mode); /* no deformatter */
	if (!d)
		return NULL;
	d->fmt = etm_dec_replay_fmt(t);
	d->replay = t;
	d->no_realign = 1;
	return d;
}
