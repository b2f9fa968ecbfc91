/* tests/unit/test-ptmcc.c - the PTM cycle count field reader the fast paths
 * use (etm_ptm_cc_short(), packet/inline_fields.h; its word form without
 * branches on the bytes) against the field's definition written out here
 * (shared/docs/ptm.md section 7: first byte bit 6 = more, bits 5:2 =
 * count[3:0]; 2nd-4th bytes bit 7 = more, 7 count bits each; a 5th byte is
 * always the last), on the worked examples of that section (TC2, checked
 * against DS-5) and on random bytes rich in continuation flags, for every
 * available length. */
#include <string.h>

#include "etest.h"
#include "packet/inline_fields.h"

/* The definition: size (0 if the n bytes end first) and value. */
static int spec_cc(const uint8_t *b, size_t n, uint32_t *v)
{
	uint32_t x = 0;
	size_t i;

	for (i = 0; i < 5; i++) {
		int more;

		if (i >= n)
			return 0;
		if (i == 0) {
			x = (b[0] >> 2) & 0x0fu;
			more = (b[0] >> 6) & 1;
		} else {
			x |= (uint32_t)(b[i] & 0x7fu) << (4 + 7 * (i - 1));
			more = (b[i] >> 7) & 1;
		}
		if (!more || i == 4)
			break;
	}
	*v = x;
	return (int)i + 1;
}

static void t_examples(void)
{
	static const struct {
		uint8_t b[8];
		uint32_t v;
		int size;
	} ex[] = {
		{ { 0xcc, 0x03 }, 51, 2 },
		{ { 0xe4, 0x07 }, 121, 2 },
		{ { 0xd4, 0x1a }, 421, 2 },
		{ { 0x00 }, 0, 1 },
		{ { 0x74, 0x18 }, 397, 2 },
	};
	size_t i;
	uint32_t v;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		v = 0xdeadbeef;
		ET_EQ(etm_ptm_cc_short(ex[i].b, 8, &v), ex[i].size);
		ET_EQ(v, ex[i].v);
		v = 0xdeadbeef; /* the byte-by-byte form */
		ET_EQ(etm_ptm_cc_short(ex[i].b, (size_t)ex[i].size, &v),
		      ex[i].size);
		ET_EQ(v, ex[i].v);
	}
}

static void t_random(void)
{
	uint8_t b[8];
	unsigned seed = 19, it, k;
	size_t n;
	int sizes[6] = { 0 };

	for (it = 0; it < 300000; it++) {
		for (k = 0; k < sizeof(b); k++) {
			seed = seed * 1103515245u + 12345u;
			b[k] = (uint8_t)(seed >> 16);
			/* continuation flags set more often than not */
			if ((seed >> 26) & 3)
				b[k] |= k ? 0x80 : 0x40;
		}
		for (n = 0; n <= sizeof(b); n++) {
			uint32_t v = 0x12345678, w = 0x9abcdef0;
			int r = etm_ptm_cc_short(b, n, &v), s = spec_cc(b, n, &w);

			ET_EQ(r, s);
			if (s)
				ET_EQ(v, w);
			sizes[s]++;
		}
	}
	for (k = 1; k <= 5; k++)
		ET_CHECK(sizes[k] > 1000); /* every size was seen */
}

int main(void)
{
	ETEST(t_examples);
	ETEST(t_random);
	return etest_end();
}
