/* tests/unit/test-async.c - the A-sync rule in its two forms (packet/async.h):
 * the bit-mask form the packet decoder checks each packet with
 * (etm_async_end32()) against the definition written out here (at least
 * five 0x00 bytes, counted from b[1], then 0x80: IHI 0014Q Table 7.1, IHI
 * 0035B §4.5.1) and against the search (etm_async_find()), on hand-made
 * cases and random buffers rich in 0x00 and 0x80. */
#include <stdlib.h>
#include <string.h>

#include "etest.h"
#include "packet/async.h"

/* The definition: index k in [1, span) of the first 0x80 with b[k-5..k-1]
 * all 0x00 and k - 5 >= 1, or 0. */
static size_t spec_end(const uint8_t *b, size_t span)
{
	size_t k, j;

	for (k = 6; k < span; k++) {
		if (b[k] != 0x80)
			continue;
		for (j = k - 5; j < k && b[j] == 0x00; j++)
			;
		if (j == k)
			return k;
	}
	return 0;
}

/* etm_async_find() over b[1..span) as the packet decoder uses it. */
static size_t find_end(const uint8_t *b, size_t span)
{
	uint64_t z = 0;
	size_t i = etm_async_find(b + 1, span - 1, &z);

	return i < span - 1 ? i + 1 : 0;
}

static void t_hand(void)
{
	uint8_t b[ETM_ASYNC_WIN];

	/* header, five zeros, 0x80: ends at 6 */
	memset(b, 0x55, sizeof(b));
	memset(b + 1, 0, 5);
	b[6] = 0x80;
	ET_EQ(etm_async_end32(b, 7), 6);
	ET_EQ(etm_async_end32(b, 6), 0); /* 0x80 outside the span */
	/* the header byte is not counted even if it is 0x00 */
	b[1] = 0x11;
	b[0] = 0x00;
	ET_EQ(etm_async_end32(b, 7), 0);
	/* four zeros only, then a longer run later */
	memset(b, 0x55, sizeof(b));
	memset(b + 2, 0, 4);
	b[6] = 0x80;
	memset(b + 20, 0, 11);
	b[31] = 0x80;
	ET_EQ(etm_async_end32(b, 32), 31);
	ET_EQ(etm_async_end32(b, 31), 0);
}

static void t_random(void)
{
	static const uint8_t pick[4] = { 0x00, 0x80, 0x01, 0x00 };
	uint8_t b[ETM_ASYNC_WIN];
	unsigned seed = 14, it;
	size_t k, span, found = 0;

	for (it = 0; it < 200000; it++) {
		for (k = 0; k < sizeof(b); k++) {
			seed = seed * 1103515245u + 12345u;
			b[k] = pick[(seed >> 16) & 3];
			if (((seed >> 20) & 7) == 0)
				b[k] = (uint8_t)(seed >> 24);
		}
		span = 1 + (size_t)(it % ETM_ASYNC_WIN);
		ET_EQ(etm_async_end32(b, span), spec_end(b, span));
		if (span > 1)
			ET_EQ(find_end(b, span), spec_end(b, span));
		found += spec_end(b, span) != 0;
	}
	ET_CHECK(found > 1000); /* the buffers hold A-syncs often enough */
}

int main(void)
{
	ETEST(t_hand);
	ETEST(t_random);
	return etest_end();
}
