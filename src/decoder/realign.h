/* decoder/realign.h - the decoder's frame realignment as the library's own
 * layers (load/, probe/) and tests control it: its switch, and a
 * left-out source's image for placing damage. Not public API
 * (include/etmtrace/decoder.h holds that). */
#ifndef ETM_DECODER_REALIGN_H
#define ETM_DECODER_REALIGN_H

#include <etmtrace/decoder.h>
#include <etmtrace/image.h>

/* As etm_decoder_note_source(), with the source's program image @img
 * (borrowed: must outlive the decoder; NULL: none): its packets are then
 * also run through a flow over @img there, whose first contradiction with
 * the image puts the error where the damage began, as decoding the
 * source would. */
int etm_decoder_note_source_img(struct etm_decoder *d,
				const struct etm_config *cfg,
				const struct etm_image *img);

#endif
