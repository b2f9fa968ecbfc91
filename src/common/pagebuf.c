/* common/pagebuf.c - read buffers that start half a page into their page,
 * zeroed tables that start on a cache line (common/pagebuf.h). */
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

/* As etm_skewed_alloc(): the block calloc() returned is kept just before
 * the table. */
void *etm_line_calloc(size_t n, size_t size)
{
	uint8_t *a, *p;
	uintptr_t at;

	if (size && n > (SIZE_MAX - ETM_LINE - sizeof(void *)) / size)
		return NULL;
	a = calloc(1, n * size + ETM_LINE + sizeof(void *));
	if (!a)
		return NULL;
	at = (uintptr_t)(a + sizeof(void *));
	p = a + sizeof(void *) + ((ETM_LINE - at % ETM_LINE) % ETM_LINE);
	memcpy(p - sizeof(void *), &a, sizeof(a));
	return p;
}

void etm_line_free(void *p)
{
	etm_skewed_free(p);
}
