/* common/pagebuf.h - a read buffer that starts half a page into its page;
 * a zeroed table that starts on a cache line.
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

/* A cache line, the unit a table's layout is planned in. */
#define ETM_LINE 64u

/* @n objects of @size bytes, zeroed (by calloc(): a large table's pages
 * are mapped when first touched), starting on a cache line: a table whose
 * entries are laid out so that a lookup reads one line (the cycle-accurate
 * walk memo, flow/flow_etm3_camemo.c) keeps that only if its first entry
 * starts a line, which malloc() does not promise (a large block starts 16
 * bytes past a page). A table of ETM_HUGE_MIN bytes or more is mapped in
 * whole huge pages (Linux, MADV_HUGEPAGE; unless the environment sets
 * ETM_NO_HUGE_TABLES to other than "0"): a table hashed into is touched
 * on nearly every 4 KiB page, a page fault each, where one huge page's
 * fault costs about what 20-30 small ones do (doc/performance.md,
 * "Memory"). NULL when out of memory or on overflow. Release with
 * etm_line_free(). */
#define ETM_HUGE_PAGE (2u << 20)
#define ETM_HUGE_MIN (256u << 10)
void *etm_line_calloc(size_t n, size_t size);

/* Release a table from etm_line_calloc(); NULL is allowed. */
void etm_line_free(void *p);

#endif
