/* common/zero.h - etm_zero(): clear a struct with vector stores; memset of a
 * mid-sized struct compiles to "rep stos", slow to start, and packets and
 * elements are cleared tens of millions of times per second. */
#ifndef ETM_COMMON_ZERO_H
#define ETM_COMMON_ZERO_H

#include <stddef.h>
#include <string.h>

static inline void etm_zero(void *p, size_t n)
{
	char *c = p;

	while (n >= 32) {
		memset(c, 0, 32);
		c += 32;
		n -= 32;
	}
	if (n)
		memset(c, 0, n);
}

#endif
