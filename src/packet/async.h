/* packet/async.h - the A-sync search over a plain byte buffer (>= 5 x 0x00
 * then 0x80, IHI 0014Q Table 7.1 / IHI 0035B §4.5.1), for the packet
 * decoder (its A-sync rule, pktbuf.c) and code outside the packet parsers
 * that needs to find sync points (the parallel runner's cut points:
 * run/cut.c). The library's one definition of an A-sync (the search and
 * its bit-mask form for one packet's bytes); inline, since the packet
 * decoder checks every packet of 7 bytes or more with it. */
#ifndef ETM_PACKET_ASYNC_H
#define ETM_PACKET_ASYNC_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* Bytes etm_async_end32() reads. */
#define ETM_ASYNC_WIN 32

/* Index of the 0x80 that completes an A-sync in @b[1..@span) counting
 * zeros from @b[1] on (what etm_async_find(@b + 1, @span - 1) gives, plus
 * one), or 0 if none does; @span <= ETM_ASYNC_WIN and @b readable for
 * ETM_ASYNC_WIN bytes. The same rule as bit masks: bit k of z is set if
 * @b[k] is 0x00 (k >= 1), of e if it is 0x80; an A-sync ends at k if e
 * has bit k and z bits k-5..k-1. For the packet decoder's check of every
 * packet it reads (pktbuf.c), a few instructions instead of a loop over
 * the packet's bytes; tests/unit/test-async.c compares the two. */
static inline size_t etm_async_end32(const uint8_t *b, size_t span)
{
	uint64_t z, e, r;

#ifdef __SSE2__
	__m128i lo = _mm_loadu_si128((const __m128i *)(const void *)b);
	__m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(b + 16));
	__m128i c0 = _mm_setzero_si128(), c8 = _mm_set1_epi8((char)0x80);

	e = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, c8)) |
	    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, c8)) << 16;
	e &= (1ull << span) - 1;
	if (!e)
		return 0; /* no 0x80: most packets */
	z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, c0)) |
	    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, c0)) << 16;
#else
	size_t k;

	z = e = 0;
	for (k = 0; k < ETM_ASYNC_WIN; k++) {
		z |= (uint64_t)(b[k] == 0x00) << k;
		e |= (uint64_t)(b[k] == 0x80) << k;
	}
	e &= (1ull << span) - 1;
#endif
	_Static_assert(ETM_ASYNC_ZEROS == 5, "five shifts below");
	z &= ~(uint64_t)1; /* zeros count from b[1] */
	r = z << 1;        /* bit k: ETM_ASYNC_ZEROS zeros end at k - 1 */
	r &= z << 2 & z << 3 & z << 4 & z << 5;
	e &= r;
	return e ? (size_t)__builtin_ctzll(e) : 0;
}

#endif
