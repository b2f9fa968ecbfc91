/* tests/unit/etest_cov.h - what the coverage unit tests share: the
 * seven-instruction A32 program their elements run over, a range element
 * over it, a growing string the saved form is written into, and the count
 * of one branch pair (header only). */
#ifndef ETM_TESTS_ETEST_COV_H
#define ETM_TESTS_ETEST_COV_H

#include <stdlib.h>
#include <string.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>
#include <etmtrace/image.h>

/* 0x1000 cmp r0, #0 / 0x1004 moveq r0, #1 / 0x1008 bne 0x1000 /
 * 0x100c bl 0x1018 / 0x1010 b 0x1000 / 0x1014 nop / 0x1018 bx lr */
static const uint32_t etest_cov_prog[] = { 0xe3500000, 0x03a00001, 0x1afffffc, 0xeb000001,
					   0xeafffffa, 0xe320f000, 0xe12fff1e };

/* An image holding etest_cov_prog at 0x1000 (NULL on failure). */
static inline struct etm_image *etest_cov_image(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[sizeof(etest_cov_prog)];
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(etest_cov_prog[i / 4] >> (8 * (i % 4)));
	if (img && etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b)))
		return NULL;
	return img;
}

/* A32 range of source @id: @n instructions from @start, the last one
 * executed if @exec, told by an atom. */
static inline struct etm_elem etest_cov_range(unsigned id, uint64_t start, uint32_t n, int exec)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = etmk_range;
	e.id = (uint8_t)id;
	e.isa = etmi_a32;
	e.start = start;
	e.end = start + 4 * n;
	e.ninsn = n;
	e.last_addr = e.end - 4;
	e.last_exec = (uint8_t)exec;
	e.last_atom = 1;
	return e;
}

/* A growing NUL-terminated string; etest_sbuf_write() is a save writer. */
struct etest_sbuf {
	char *b;
	size_t n;
};

static inline int etest_sbuf_write(void *ctx, const char *s, size_t n)
{
	struct etest_sbuf *sb = ctx;
	char *p = realloc(sb->b, sb->n + n + 1);

	if (!p)
		return -etme_nomem;
	memcpy(p + sb->n, s, n);
	sb->n += n;
	p[sb->n] = 0;
	sb->b = p;
	return 0;
}

/* The pair count (@from, @to) among @n pairs @p, 0 if absent. */
static inline uint64_t etest_cov_pair_count(const struct etm_cov_pair *p, size_t n, uint64_t from,
					    uint64_t to)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i].from == from && p[i].to == to)
			return p[i].count;
	return 0;
}

#endif
