/* common/pagebuf.c - read buffers that start half a page into their page,
 * zeroed tables that start on a cache line, large ones in huge pages
 * where the system has them (common/pagebuf.h). */
#define _DEFAULT_SOURCE 1 /* madvise(), MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

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

/* What precedes a table of etm_line_calloc(): the block it lies in, and
 * the length of that block's mapping (0: the block is calloc()'s). */
struct line_head {
	void *base;
	size_t maplen;
};

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* Whether huge pages are wanted (not turned off by ETM_NO_HUGE_TABLES). */
static int huge_wanted(void)
{
	const char *v = getenv("ETM_NO_HUGE_TABLES");

	return !v || !*v || !strcmp(v, "0");
}

/* @bytes zeroed, in a mapping of whole huge pages that starts on one,
 * advised to be backed by huge pages: *@maplen its length, the mapping
 * returned; NULL if it cannot be made. */
static void *huge_map(size_t bytes, size_t *maplen)
{
	size_t len = (bytes + ETM_HUGE_PAGE - 1) & ~(size_t)(ETM_HUGE_PAGE - 1);
	uint8_t *m, *a;
	size_t lead;

	if (bytes > SIZE_MAX - 2 * ETM_HUGE_PAGE)
		return NULL;
	m = mmap(NULL, len + ETM_HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	/* the mapping trimmed to start and end on a huge page */
	lead = (ETM_HUGE_PAGE - (uintptr_t)m % ETM_HUGE_PAGE) % ETM_HUGE_PAGE;
	a = m + lead;
	if (lead)
		munmap(m, lead);
	if (ETM_HUGE_PAGE - lead)
		munmap(a + len, ETM_HUGE_PAGE - lead);
	madvise(a, len, MADV_HUGEPAGE); /* advice: without it, small pages */
	*maplen = len;
	return a;
}

static void huge_unmap(void *p, size_t maplen)
{
	munmap(p, maplen);
}
#else
static int huge_wanted(void)
{
	return 0;
}

static void *huge_map(size_t bytes, size_t *maplen)
{
	(void)bytes;
	*maplen = 0;
	return NULL;
}

static void huge_unmap(void *p, size_t maplen)
{
	(void)p;
	(void)maplen;
}
#endif

/* As etm_skewed_alloc(): the block calloc() returned (or the mapping) is
 * kept just before the table. */
void *etm_line_calloc(size_t n, size_t size)
{
	struct line_head h = { NULL, 0 };
	size_t head = (sizeof(h) + ETM_LINE - 1) / ETM_LINE * ETM_LINE;
	uint8_t *a, *p;
	uintptr_t at;

	if (size && n > (SIZE_MAX - ETM_LINE - head) / size)
		return NULL;
	if (n * size >= ETM_HUGE_MIN && huge_wanted()) {
		a = huge_map(head + n * size, &h.maplen);
		if (a) {
			h.base = a;
			p = a + head;
			memcpy(p - sizeof(h), &h, sizeof(h));
			return p;
		}
	}
	a = calloc(1, n * size + ETM_LINE + sizeof(h));
	if (!a)
		return NULL;
	at = (uintptr_t)(a + sizeof(h));
	p = a + sizeof(h) + ((ETM_LINE - at % ETM_LINE) % ETM_LINE);
	h.base = a;
	memcpy(p - sizeof(h), &h, sizeof(h));
	return p;
}

void etm_line_free(void *p)
{
	struct line_head h;

	if (!p)
		return;
	memcpy(&h, (uint8_t *)p - sizeof(h), sizeof(h));
	if (h.maplen)
		huge_unmap(h.base, h.maplen);
	else
		free(h.base);
}
