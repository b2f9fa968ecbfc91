/* common/pagebuf.h - a read buffer that starts half a page into its page.
 *
 * The kernel's read() copy into a buffer whose start sits a few bytes past
 * a page start ran 2-3x slower in system time (likely 4K aliasing between
 * the page cache source and the destination, both near offset 0 of their
 * pages; doc/measurements/2026-12-07-profile-read-skew.md). malloc() of a
 * large block returns exactly such a pointer (16 bytes past an mmap page),
 * so every buffer read() fills in bulk is allocated here instead. */
#ifndef ETM_COMMON_PAGEBUF_H
#define ETM_COMMON_PAGEBUF_H

#include <stddef.h>

#define ETM_PAGE 4096u
#define ETM_PAGE_SKEW 2048u

/* @n bytes starting ETM_PAGE_SKEW bytes into a page; NULL when out of
 * memory. Release with etm_skewed_free(). */
void *etm_skewed_alloc(size_t n);

/* Release a buffer from etm_skewed_alloc(); NULL is allowed. */
void etm_skewed_free(void *p);

#endif
