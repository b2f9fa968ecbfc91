/* common/pagebuf.c - read buffers that start half a page into their page
 * (common/pagebuf.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/pagebuf.h"

/* The block malloc() returned is kept just before the buffer, so that
 * etm_skewed_free() needs nothing but the buffer. */
void *etm_skewed_alloc(size_t n)
{
	uint8_t *a, *p;
	uintptr_t at;

	if (n > SIZE_MAX - ETM_PAGE - sizeof(void *))
		return NULL;
	a = malloc(n + ETM_PAGE + sizeof(void *));
	if (!a)
		return NULL;
	at = (uintptr_t)(a + sizeof(void *));
	p = a + sizeof(void *) + ((ETM_PAGE_SKEW - at) & (ETM_PAGE - 1));
	memcpy(p - sizeof(void *), &a, sizeof(a));
	return p;
}

void etm_skewed_free(void *p)
{
	void *a;

	if (!p)
		return;
	memcpy(&a, (uint8_t *)p - sizeof(void *), sizeof(a));
	free(a);
}
