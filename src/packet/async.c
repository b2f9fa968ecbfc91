/* packet/async.c - A-sync search over a plain byte buffer (packet/async.h). */
#include "packet/async.h"
#include "packet/sync.h"

size_t etm_async_find(const uint8_t *b, size_t n, uint64_t *zeros)
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
