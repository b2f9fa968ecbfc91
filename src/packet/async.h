/* packet/async.h - the A-sync search over a plain byte buffer (>= 5 x 0x00
 * then 0x80, IHI 0014Q Table 7.1 / IHI 0035B §4.5.1), for code outside the
 * packet parsers that needs to find sync points (the parallel runner's cut
 * points: run/cut.c). The library's one definition of an A-sync. */
#ifndef ETM_PACKET_ASYNC_H
#define ETM_PACKET_ASYNC_H

#include <stddef.h>
#include <stdint.h>

/* Index of the first 0x80 in @b[0..@n) that completes an A-sync, given that
 * *@zeros 0x00 bytes came just before @b[0] (0 at the start of a search).
 * Returns @n if none completes in @b, with *@zeros then the count of 0x00
 * bytes ending @b (to carry into the next buffer); otherwise *@zeros is
 * the number of 0x00 bytes before the 0x80 (at least the minimum). */
size_t etm_async_find(const uint8_t *b, size_t n, uint64_t *zeros);

#endif
