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

/* CoreSight frames: look for a lost frame alignment when a source's
 * packets stop parsing (@on nonzero, the default), or only where a frame
 * names a reserved ID (@on 0: the deformatter's own rules). While on (and
 * elements, not packets, are wanted), an element comes out only once the
 * input read is some 900 bytes past it, or at the end: a realignment
 * withdraws those made from frames it finds damaged. */
void etm_decoder_set_realign(struct etm_decoder *d, int on);

#endif
