/* common/bits.h - small inline helpers: little-endian reads, bit fields,
 * sign extension. */
#ifndef ETM_COMMON_BITS_H
#define ETM_COMMON_BITS_H

#include <stdint.h>

static inline uint32_t etm_le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t etm_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Bits [hi:lo] of v. */
static inline uint32_t etm_bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & (uint32_t)((2ull << (hi - lo)) - 1);
}

static inline uint32_t etm_bit(uint32_t v, unsigned n)
{
	return (v >> n) & 1u;
}

/* Sign-extend the low @bits bits of v. */
static inline int64_t etm_sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);
	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/* Mask of the low n bits (n <= 64). */
static inline uint64_t etm_lowmask(unsigned n)
{
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

#endif
