/* packet/async.h - the A-sync search over a plain byte buffer (>= 5 x 0x00
 * then 0x80, IHI 0014Q Table 7.1 / IHI 0035B §4.5.1), for the packet
 * decoder (its A-sync rule, pktbuf.c) and code outside the packet parsers
 * that needs to find sync points (the parallel runner's cut points:
 * run/cut.c). The library's one definition of an A-sync; inline, since
 * the packet decoder runs it over every packet of 7 bytes or more. */
#ifndef ETM_PACKET_ASYNC_H
#define ETM_PACKET_ASYNC_H

#include <stddef.h>
#include <stdint.h>

/* Minimum number of 0x00 bytes before the 0x80 of an A-sync. */
#define ETM_ASYNC_ZEROS 5

/* Index of the first 0x80 in @b[0..@n) that completes an A-sync, given that
 * *@zeros 0x00 bytes came just before @b[0] (0 at the start of a search).
 * Returns @n if none completes in @b, with *@zeros then the count of 0x00
 * bytes ending @b (to carry into the next buffer); otherwise *@zeros is
 * the number of 0x00 bytes before the 0x80 (at least the minimum). */
static inline size_t etm_async_find(const uint8_t *b, size_t n,
				    uint64_t *zeros)
{
	uint64_t z = *zeros;
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i] == 0x00) {
			z++;
		} else if (b[i] == 0x80 && z >= ETM_ASYNC_ZEROS) {
			*zeros = z;
			return i;
		} else {
			z = 0;
		}
	}
	*zeros = z;
	return n;
}

#endif
