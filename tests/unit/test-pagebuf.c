/* tests/unit/test-pagebuf.c - read buffers that start half a page into
 * their page (etm_skewed_alloc(), common/pagebuf.h): for sizes below,
 * at and above malloc's mmap threshold (128 KiB by default, where malloc
 * hands out a pointer 16 bytes past a page start) the buffer's address
 * modulo 4096 is 2048, every one of its bytes can be written and read
 * back, several live buffers do not overlap, and free takes NULL; and the
 * tables of etm_line_calloc() start on a cache line, zeroed. */
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

int main(void)
{
	ETEST(t_skew);
	ETEST(t_too_big);
	ETEST(t_line);
	return etest_end();
}
