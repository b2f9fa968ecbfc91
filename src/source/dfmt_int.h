/* source/dfmt_int.h - deformatter calls for the decoder only. */
#ifndef ETM_SOURCE_DFMT_INT_H
#define ETM_SOURCE_DFMT_INT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/source.h>

/* Trace IDs known to be live (@ids[id] nonzero), for realignment after a
 * lost frame alignment: frames naming them fit. */
void etm_dfmt_seen_ids(struct etm_dfmt *d, const uint8_t *ids);

/* Bytes @b (offsets @off...) that come before the next pushed input (a
 * frame cut by the end of the fast path's last input). Returns 0 or
 * -etme_invalid (no room). */
int etm_dfmt_hold_bytes(struct etm_dfmt *d, const uint8_t *b, size_t n,
			uint64_t off);

#endif
