/* source/offseg.h - the input offsets of deformatted data: the one offset
 * map the source layer hands up with bytes that do not sit at consecutive
 * input offsets (the packet decoder reads it, packet/pktdec.h). */
#ifndef ETM_SOURCE_OFFSEG_H
#define ETM_SOURCE_OFFSEG_H

#include <stddef.h>
#include <stdint.h>

/* Offset map of a buffer whose bytes are not at consecutive input offsets
 * (deformatted data): byte pos >= seg.pos has offset
 * seg.off + (pos - seg.pos) up to the next segment. */
struct etm_offseg {
	size_t pos;
	uint64_t off;
};

#endif
