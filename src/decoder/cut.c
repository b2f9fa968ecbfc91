/* decoder/cut.c - sync points where an input may be cut, chunk heads and
 * checkpoint positions (decoder/cut.h), shared by parallel decode and
 * chunk decode. */
#include "decoder/cut.h"

#define ASYNC_ZEROS 5

uint64_t etm_cut_find_start(int frames, etm_read_fn rd, void *rctx,
			    uint64_t size, uint8_t *buf, uint64_t from)
{
	uint64_t pos;

	if (frames)
		from = (from + 15) & ~(uint64_t)15;
	for (pos = from; pos < size;) {
		size_t n = size - pos > ETM_CUT_SEARCH ? ETM_CUT_SEARCH :
							 (size_t)(size - pos);
		size_t i, z = 0;

		if (rd(rctx, pos, buf, n) != n)
			return size;
		for (i = 0; i < n; i += frames ? 16 : 1) {
			if (frames) {
				if ((buf[i] & 1) && buf[i] != 0xff)
					return pos + i;
				continue;
			}
			if (buf[i] == 0x80 && z >= ASYNC_ZEROS &&
			    pos + i >= from + ASYNC_ZEROS)
				return pos + i - ASYNC_ZEROS;
			z = buf[i] ? 0 : z + 1;
		}
		if (n < ETM_CUT_SEARCH)
			break;
		/* windows overlap by an A-sync's zeros */
		pos += frames ? n : n - ASYNC_ZEROS - 1;
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

int etm_cut_has_fsync(const uint8_t *buf, uint64_t off, size_t n)
{
	size_t i = (size_t)((16 - (off & 15)) & 15);

	for (; i < n; i += 16)
		if (buf[i] == 0xff)
			return 1;
	return 0;
}
