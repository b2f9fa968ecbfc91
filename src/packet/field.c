/* packet/field.c - timestamp field reader with compressed merge, Gray
 * decoding and little-endian helper. */
#include "packet/field.h"

#include <etmtrace/error.h>

#include "common/bits.h"

int etm_field_ts(const uint8_t *b, size_t n, int ts64, uint64_t *raw,
		 uint8_t *bits)
{
	unsigned max = ts64 ? 9 : 7, i, nb = 0;
	uint64_t v = 0, mask;

	for (i = 0; i < max; i++) {
		if (i >= n)
			return -etme_again;
		if (i == max - 1) {
			/* last possible byte: no continuation bit */
			uint64_t last = ts64 ? b[i] : (b[i] & 0x3fu);

			v |= last << (7 * i);
			nb = ts64 ? 64 : 48;
			break;
		}
		v |= (uint64_t)(b[i] & 0x7f) << (7 * i);
		nb += 7;
		if (!(b[i] & 0x80))
			break;
	}
	mask = etm_lowmask(nb);
	*raw = (*raw & ~mask) | (v & mask);
	*bits = (uint8_t)nb;
	return (int)i + 1;
}

uint64_t etm_field_gray2bin(uint64_t g)
{
	unsigned s;

	for (s = 1; s < 64; s <<= 1)
		g ^= g >> s;
	return g;
}

uint32_t etm_field_le(const uint8_t *b, unsigned n)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}
