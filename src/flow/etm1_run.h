/* flow/etm1_run.h - the ETMv1 decoder in a cut decode (run/, decoder/):
 * where a stream of sample records may be cut, a decoder restarted at a
 * record, and the state that decides its future output, so that the
 * parallel runner can decode ETMv1 in chunks and stitch them where two
 * decoders agree (doc/etmv1.md "Cut decode"). */
#ifndef ETM_FLOW_ETM1_RUN_H
#define ETM_FLOW_ETM1_RUN_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/etmv1.h>

struct etm_sbuf;

/* Byte index in the @n bytes @buf (which start on a record boundary) of
 * the first record a chunk may start at: a BE or BD status (no trigger)
 * whose two address packet offset cycles are in @buf and let its address
 * be located (neither a BE/BD, which would abandon it, nor a TD, nor APO
 * 15). From there an unsynchronised decoder finds the branch's address by
 * TRACESYNC alone; it synchronises at the first full (5-byte) one. @n
 * rounded down to a record multiple if there is none. */
size_t etm_e1_cut_find(const uint8_t *buf, size_t n);

/* Make @d decode a stream whose first pushed record is sample @cycle
 * (element offsets 4 * cycle onwards), unsynchronised, with nothing
 * pushed or queued; the block cache is kept. */
void etm_e1_restart(struct etm_e1 *d, uint64_t cycle);

/* Write the state that decides @d's future elements to @s (between
 * pushes, its queue drained): the cycle, the byte cursor, the PC, the
 * branch-address base, the context ID, the open range. Not the
 * data-address base (data packets are counted, not output), the block
 * caches or the statistics. */
void etm_e1_save(const struct etm_e1 *d, struct etm_sbuf *s);

#endif
