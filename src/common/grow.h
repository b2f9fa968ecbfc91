/* common/grow.h - growing a heap array by doubling, for every layer: one
 * place for the capacity arithmetic and its overflow check. */
#ifndef ETM_COMMON_GROW_H
#define ETM_COMMON_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Room for @need elements of @size bytes in array @p of *@cap elements:
 * returns @p if it has the room (and is not NULL), else @p reallocated to
 * the first capacity that does, doubling from *@cap (or @first if *@cap is
 * 0), with *@cap updated. NULL on no memory or a byte size that does not
 * fit in size_t; @p and *@cap are then unchanged (@p is still the
 * caller's). So a non-NULL result is always the array to keep. */
static inline void *etm_grow(void *p, size_t *cap, size_t need, size_t size,
			     size_t first)
{
	size_t n = *cap ? *cap : first ? first :
					 1;

	if (p && need <= *cap)
		return p;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (n > SIZE_MAX / size || !(p = realloc(p, n * size)))
		return NULL;
	*cap = n;
	return p;
}

#endif
