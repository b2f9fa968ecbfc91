/* realign/realign.h - the CoreSight frame realignment's decision
 * (doc/realign.md), between the packet layer and the decoder: where the
 * deformatter stops and asks (etm_dfmt_next_bulk() returns ETM_DFMT_ASK),
 * the decoder answers with etm_realign_decide(), which reads the
 * deformatter's window (source/dfmt_window.h), trial-parses it through the
 * packet decoders it is given and writes the decision back. */
#ifndef ETM_REALIGN_REALIGN_H
#define ETM_REALIGN_REALIGN_H

#include <stdint.h>

struct etm_dfmt;
struct etm_pkt_decoder;

/* What the decoder gives a decision: the packet decoder of each live trace
 * ID (@pd[id], NULL: none; for trial parses, etm_pkt_trial()), and the
 * first sign of trouble (a malformed packet, a
 * contradiction with the image, a loss of the trace, an address with no
 * image) among the elements a realignment may still retract, at input
 * offset >= etm_realign_sign_from() (UINT64_MAX: none). */
struct etm_realign_in {
	const struct etm_pkt_decoder *pd[128];
	uint64_t sign;
};

/* From where the sign of etm_realign_in counts, for the deformatter @d
 * that asked. */
uint64_t etm_realign_sign_from(struct etm_dfmt *d);

/* Decide the realignment the deformatter @d asked for (ETM_DFMT_ASK):
 * frames in place, a shift now, or a cut waiting at a later frame. */
void etm_realign_decide(struct etm_dfmt *d, const struct etm_realign_in *in);

#endif
