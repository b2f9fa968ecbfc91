/* run/cut.c - sync points where an input may be cut, chunk heads and
 * checkpoint positions (run/cut.h), shared by parallel decode and chunk
 * decode. A-syncs are found by the packet layer's search (packet/async.h). */
#include "decoder/clone.h"
#include "packet/async.h"
#include "run/cut.h"

#define ASYNC_ZEROS 5 /* a cut starts at the last 5 zeros before the 0x80 */

/* The first frame at or after @from whose first byte is an ID change. */
static uint64_t find_frame(etm_read_fn rd, void *rctx, uint64_t size,
			   uint8_t *buf, uint64_t from)
{
	uint64_t pos;

	for (pos = (from + 15) & ~(uint64_t)15; pos < size;) {
		size_t n = size - pos > ETM_CUT_SEARCH ? ETM_CUT_SEARCH :
							 (size_t)(size - pos);
		size_t i;

		if (rd(rctx, pos, buf, n) != n)
			return size;
		for (i = 0; i < n; i += 16)
			if ((buf[i] & 1) && buf[i] != 0xff)
				return pos + i;
		pos += n;
	}
	return size;
}

/* The first A-sync whose zeros all lie at or after @from. */
static uint64_t find_async(etm_read_fn rd, void *rctx, uint64_t size,
			   uint8_t *buf, uint64_t from)
{
	uint64_t pos, zeros = 0;

	for (pos = from; pos < size;) {
		size_t n = size - pos > ETM_CUT_SEARCH ? ETM_CUT_SEARCH :
							 (size_t)(size - pos);
		size_t i;

		if (rd(rctx, pos, buf, n) != n)
			return size;
		i = etm_async_find(buf, n, &zeros);
		if (i < n)
			return pos + i - ASYNC_ZEROS;
		pos += n;
	}
	return size;
}

uint64_t etm_cut_find_start(int frames, etm_read_fn rd, void *rctx,
			    uint64_t size, uint8_t *buf, uint64_t from)
{
	return frames ? find_frame(rd, rctx, size, buf, from) :
			find_async(rd, rctx, size, buf, from);
}

uint64_t etm_cut_find_record(const struct etm_decoder *d, unsigned align,
			     etm_read_fn rd, void *rctx, uint64_t size,
			     uint8_t *buf, uint64_t from)
{
	uint64_t pos = (from + align - 1) / align * align;

	while (pos < size) {
		size_t n = size - pos > ETM_CUT_SEARCH ? ETM_CUT_SEARCH :
							 (size_t)(size - pos);
		size_t k;

		n -= n % align;
		if (!n || rd(rctx, pos, buf, n) != n)
			return size;
		k = etm_decoder_cut_find(d, buf, n);
		if (k < n && (k + ETM_CUT_REC_LOOK <= n || pos + n >= size))
			return pos + k;
		if (pos + n >= size || n <= ETM_CUT_REC_LOOK)
			return size;
		/* the records near the end again, with what follows them */
		pos += n - ETM_CUT_REC_LOOK;
	}
	return size;
}

uint64_t etm_cut_head_len(uint64_t len)
{
	uint64_t h = len / 4;

	if (h < ETM_CUT_DENSE)
		h = ETM_CUT_DENSE;
	if (h > ETM_CUT_HEAD)
		h = ETM_CUT_HEAD;
	h &= ~(uint64_t)15;
	return h < len ? h : len;
}

uint64_t etm_cut_next_piece(uint64_t start, uint64_t head_end, uint64_t pos)
{
	uint64_t p;

	if (pos < start + ETM_CUT_DENSE)
		p = start + ((pos - start) / ETM_CUT_FINE + 1) * ETM_CUT_FINE;
	else
		p = (pos / ETM_CUT_PIECE + 1) * ETM_CUT_PIECE;
	return p < head_end ? p : head_end;
}
