/* decoder/dfmt_replay.h - the deformatter's output for one trace ID, recorded
 * once and replayed into any number of decoders (the configuration probe,
 * probe/diag.c: every variant decodes the same frames, so they are split
 * once instead of once per variant). */
#ifndef ETM_DECODER_TAPE_H
#define ETM_DECODER_TAPE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>

struct etm_dec_replay;

/* Record what a decoder of formatted input @fmt (not etm_fmt_raw) with one
 * source, of trace ID @id, and the realignment off, would take from its
 * deformatter for the @n bytes @buf pushed at once and then finished. NULL
 * on no memory or bad arguments. */
struct etm_dec_replay *etm_dec_replay_record(enum etm_input_format fmt,
					     unsigned id, const uint8_t *buf,
					     size_t n);
void etm_dec_replay_free(struct etm_dec_replay *t);

/* A decoder in @mode reading @t (borrowed, kept until the decoder is
 * freed) instead of pushed input: add the one source of trace ID @id of
 * the recording, then etm_decoder_next() as after pushing the bytes (it
 * returns -etme_again until etm_decoder_finish()). The realignment stays
 * off; push is refused. The items are those of a decoder given the bytes
 * with etm_decoder_set_realign(d, 0). NULL on no memory. */
struct etm_decoder *etm_dec_replay_decoder(const struct etm_dec_replay *t,
					   enum etm_decoder_mode mode);

#endif
