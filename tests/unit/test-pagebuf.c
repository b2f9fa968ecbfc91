/* tests/unit/test-pagebuf.c - read buffers that start half a page into
 * their page (etm_skewed_alloc(), common/pagebuf.h): for sizes below,
 * at and above malloc's mmap threshold (128 KiB by default, where malloc
 * hands out a pointer 16 bytes past a page start) the buffer's address
 * modulo 4096 is 2048, every one of its bytes can be written and read
 * back, several live buffers do not overlap, and free takes NULL; and the
 * tables of etm_line_calloc() start on a cache line, zeroed; from
 * ETM_HUGE_MIN bytes on Linux one line into a mapping that starts on a
 * huge page (unless ETM_NO_HUGE_TABLES is set), below it or turned off
 * in a block of calloc(). */
#define _DEFAULT_SOURCE 1 /* setenv() */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/pagebuf.h"
#include "etest.h"

static const size_t sizes[] = { 1, 100, 4095, 4096, 4097, 65536,
				(size_t)1 << 17, ((size_t)1 << 18) + 3,
				(size_t)1 << 20 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void t_skew(void)
{
	uint8_t *b[NSIZES];
	size_t i, j, k;

	for (i = 0; i < NSIZES; i++) {
		b[i] = etm_skewed_alloc(sizes[i]);
		ET_CHECK(b[i] != NULL);
		if (!b[i])
			return;
		ET_EQ((uintptr_t)b[i] % ETM_PAGE, ETM_PAGE_SKEW);
		memset(b[i], (int)(i + 1), sizes[i]);
	}
	/* each buffer still holds its own byte: none overlaps another */
	for (i = 0; i < NSIZES; i++) {
		for (k = 0; k < sizes[i] && b[i][k] == (uint8_t)(i + 1); k++)
			;
		ET_EQ(k, sizes[i]);
	}
	for (i = 0; i < NSIZES; i++)
		for (j = 0; j < NSIZES; j++)
			ET_CHECK(i == j || b[i] + sizes[i] <= b[j] ||
				 b[j] + sizes[j] <= b[i]);
	for (i = 0; i < NSIZES; i++)
		etm_skewed_free(b[i]);
	etm_skewed_free(NULL);
}

static void t_too_big(void)
{
	ET_CHECK(etm_skewed_alloc(SIZE_MAX) == NULL);
	ET_CHECK(etm_skewed_alloc(SIZE_MAX - ETM_PAGE) == NULL);
}

/* etm_line_calloc(): the table starts on a 64-byte line whatever the size
 * (malloc()'s large blocks start 16 bytes past a page), is zeroed, holds
 * n * size writable bytes not shared with another table; an overflowing
 * n * size is refused. */
static void t_line(void)
{
	static const size_t sz[] = { 1, 24, 704 };
	uint8_t *b[NSIZES * 3];
	size_t i, j, k, len[NSIZES * 3];

	for (i = 0; i < NSIZES * 3; i++) {
		len[i] = sizes[i / 3] * sz[i % 3];
		b[i] = etm_line_calloc(sizes[i / 3], sz[i % 3]);
		ET_CHECK(b[i] != NULL);
		if (!b[i])
			return;
		ET_EQ((uintptr_t)b[i] % ETM_LINE, 0);
		for (k = 0; k < len[i] && !b[i][k]; k++)
			;
		ET_EQ(k, len[i]);
		memset(b[i], (int)(i + 1), len[i]);
	}
	for (i = 0; i < NSIZES * 3; i++) {
		for (k = 0; k < len[i] && b[i][k] == (uint8_t)(i + 1); k++)
			;
		ET_EQ(k, len[i]);
		for (j = 0; j < NSIZES * 3; j++)
			ET_CHECK(i == j || b[i] + len[i] <= b[j] ||
				 b[j] + len[j] <= b[i]);
	}
	for (i = 0; i < NSIZES * 3; i++)
		etm_line_free(b[i]);
	etm_line_free(NULL);
	ET_CHECK(etm_line_calloc(SIZE_MAX / 704 + 1, 704) == NULL);
	ET_CHECK(etm_line_calloc(1, SIZE_MAX - ETM_LINE) == NULL);
	ET_CHECK(etm_line_calloc(2, SIZE_MAX / 2) == NULL);
}

/* Table @p of @len bytes: on a line, zeroed, every byte writable. */
static void check_table(uint8_t *p, size_t len)
{
	size_t k;

	ET_CHECK(p != NULL);
	if (!p)
		return;
	ET_EQ((uintptr_t)p % ETM_LINE, 0);
	for (k = 0; k < len && !p[k]; k++)
		;
	ET_EQ(k, len);
	memset(p, 0xa5, len);
}

/* Huge tables: a table of ETM_HUGE_MIN bytes, and one of 2.75 MiB (the
 * cycle-accurate memo's, across two huge pages), start one line past a
 * huge page boundary on Linux (the mapping's start; the line before the
 * table says where it came from), also after ETM_NO_HUGE_TABLES is set
 * to "0"; with it "1", and below ETM_HUGE_MIN, they come from calloc()
 * (whose address may happen to sit there too: not checked). Every table
 * is zeroed and writable whichever way it came, and freed by
 * etm_line_free(). */
static void t_huge(void)
{
	static const size_t len[] = { ETM_HUGE_MIN, 4096u * 704u,
				      ETM_HUGE_MIN - 1 };
	uint8_t *b[3];
	int off, i;

	for (off = 0; off < 3; off++) {
		if (off == 1)
			ET_EQ(setenv("ETM_NO_HUGE_TABLES", "1", 1), 0);
		if (off == 2)
			ET_EQ(setenv("ETM_NO_HUGE_TABLES", "0", 1), 0);
		for (i = 0; i < 3; i++) {
			b[i] = etm_line_calloc(1, len[i]);
			check_table(b[i], len[i]);
		}
#if defined(__linux__)
		if (off != 1) {
			ET_EQ(((uintptr_t)b[0] - ETM_LINE) % ETM_HUGE_PAGE, 0);
			ET_EQ(((uintptr_t)b[1] - ETM_LINE) % ETM_HUGE_PAGE, 0);
		}
#endif
		ET_CHECK(b[0] + len[0] <= b[1] || b[1] + len[1] <= b[0]);
		for (i = 0; i < 3; i++)
			etm_line_free(b[i]);
	}
	unsetenv("ETM_NO_HUGE_TABLES");
}

int main(void)
{
	ETEST(t_skew);
	ETEST(t_too_big);
	ETEST(t_line);
	ETEST(t_huge);
	return etest_end();
}
