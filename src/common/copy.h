/* common/copy.h - etm_copy(): copy a mid-sized struct with vector loads and
 * stores; gcc may compile such a copy (or memcpy) to "rep movs", slow to
 * start, where elements are copied tens of millions of times per second. */
#ifndef ETM_COMMON_COPY_H
#define ETM_COMMON_COPY_H

#include <stddef.h>
#include <string.h>

/* 32 bytes, if there are, from *@s to *@d. */
static inline void etm_copy32(char **d, const char **s, size_t *n)
{
	if (*n >= 32) {
		memcpy(*d, *s, 32);
		*d += 32;
		*s += 32;
		*n -= 32;
	}
}

/* Straight-line code, no loop (see etm_zero()); @d and @s do not overlap.
 * Always inlined: with a constant @n it is a few vector moves, cheaper
 * than the call gcc would otherwise make of it (an element of the walk
 * memo is copied once per memoised range). */
static inline __attribute__((always_inline)) void etm_copy(void *d, const void *s, size_t n)
{
	char *cd = d;
	const char *cs = s;

	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	etm_copy32(&cd, &cs, &n);
	if (n)
		memcpy(cd, cs, n); /* the rest (all of it past 256) */
}

#endif
