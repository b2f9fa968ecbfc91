/* tests/unit/test-bcache.c - straight-line block builder and the bounded
 * block cache (hand-made blocks, equivalence on the TC2 kernel dump). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>

#include "etest.h"
#include "image/bcache.h"

/* T32 at 0x1000:
 *   0x1000 2001      MOVS r0, #1     (2)
 *   0x1002 F8D1 0000 LDR.W r0, [r1]  (4)
 *   0x1006 BF00      NOP             (2)
 *   0x1008 F3BF 8F6F ISB             (4)
 *   0x100C 4770      BX lr           (2)
 * size4 = bits 1 and 3 = 0xA. */
static const uint8_t t32_code[] = {
	0x01, 0x20, 0xD1, 0xF8, 0x00, 0x00, 0x00, 0xBF,
	0xBF, 0xF3, 0x6F, 0x8F, 0x70, 0x47
};

static struct etm_image *t32_image(size_t n)
{
	struct etm_image *img = etm_image_alloc();

	if (img && etm_image_add_buffer(img, etm_space_any, 0x1000, t32_code,
					n) < 0) {
		etm_image_free(img);
		return NULL;
	}
	return img;
}

static void t32_block(void)
{
	static const uint64_t addrs[] = { 0x1000, 0x1002, 0x1006, 0x1008,
					  0x100C };
	struct etm_image *img = t32_image(sizeof(t32_code));
	struct etm_block b;
	uint32_t i;

	ET_CHECK(img);
	/* ETMv3 stops at branches only: the whole run, ending at BX lr */
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1000, etmi_t32,
			      ETM_STOP_BRANCHES),
	      0);
	ET_EQ(b.start, 0x1000);
	ET_EQ(b.end, 0x100E);
	ET_EQ(b.ninsn, 5);
	ET_EQ(b.size4, 0xA);
	ET_EQ(b.stop, 1);
	ET_EQ(b.nomem, 0);
	ET_EQ(b.last.addr, 0x100C);
	ET_EQ(b.last.cls, etmc_br_indirect);
	for (i = 0; i < 5; i++)
		ET_EQ(etm_block_addr(&b, i), addrs[i]);
	/* PTM: ISB is a waypoint, the block ends there */
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1000, etmi_t32,
			      ETM_STOP_PTM),
	      0);
	ET_EQ(b.ninsn, 4);
	ET_EQ(b.end, 0x100C);
	ET_EQ(b.last.cls, etmc_isb);
	ET_EQ(b.stop, 1);
	/* starting mid-run */
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1006, etmi_t32,
			      ETM_STOP_PTM),
	      0);
	ET_EQ(b.ninsn, 2);
	ET_EQ(b.size4, 0x2);
	/* unreadable first instruction; no image at all */
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x0FFE, etmi_t32,
			      ETM_STOP_PTM),
	      -etme_nomap);
	ET_EQ(etm_block_build(&b, NULL, etm_space_any, 0x1000, etmi_t32,
			      ETM_STOP_PTM),
	      -etme_nomap);
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1000, etmi_jazelle,
			      ETM_STOP_PTM),
	      -etme_invalid);
	etm_image_free(img);
}

/* Region ends after hw1 of the LDR.W (4 bytes: 2001 F8D1): the 32-bit
 * instruction straddles the end, so the block is MOVS only, nomem. */
static void straddle(void)
{
	struct etm_image *img = t32_image(4);
	struct etm_block b;

	ET_CHECK(img);
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1000, etmi_t32,
			      ETM_STOP_BRANCHES),
	      0);
	ET_EQ(b.ninsn, 1);
	ET_EQ(b.end, 0x1002);
	ET_EQ(b.nomem, 1);
	ET_EQ(b.stop, 0);
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1002, etmi_t32,
			      ETM_STOP_BRANCHES),
	      -etme_nomap);
	/* the rest in an adjacent region: readable across the boundary */
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x1004, t32_code + 4,
				   sizeof(t32_code) - 4),
	      0);
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x1000, etmi_t32,
			      ETM_STOP_BRANCHES),
	      0);
	ET_EQ(b.ninsn, 5);
	ET_EQ(b.end, 0x100E);
	etm_image_free(img);
}

/* 100 A32 NOPs (E320F000) at 0x8000: blocks are split at ETM_BLOCK_MAX =
 * 64 instructions (256 bytes); the second block has 36 and ends at the
 * end of memory. */
static void long_run(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t code[400];
	struct etm_block b;
	int i;

	ET_CHECK(img);
	for (i = 0; i < 100; i++)
		memcpy(code + 4 * i, "\x00\xF0\x20\xE3", 4);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x8000, code, 400), 0);
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x8000, etmi_a32,
			      ETM_STOP_BRANCHES),
	      0);
	ET_EQ(b.ninsn, ETM_BLOCK_MAX);
	ET_EQ(b.end, 0x8100);
	ET_EQ(b.stop, 0);
	ET_EQ(b.nomem, 0);
	ET_EQ(b.size4, ~0ull);
	ET_EQ(etm_block_addr(&b, 63), 0x80FC);
	ET_EQ(etm_block_build(&b, img, etm_space_any, 0x8100, etmi_a32,
			      ETM_STOP_BRANCHES),
	      0);
	ET_EQ(b.ninsn, 36);
	ET_EQ(b.end, 0x8190);
	ET_EQ(b.nomem, 1);
	etm_image_free(img);
}

static int same_block(const struct etm_block *a, const struct etm_block *b)
{
	return a->start == b->start && a->end == b->end && a->isa == b->isa &&
	       a->ninsn == b->ninsn && a->size4 == b->size4 &&
	       a->stop == b->stop && a->nomem == b->nomem &&
	       a->last.addr == b->last.addr &&
	       a->last.opcode == b->last.opcode &&
	       a->last.cls == b->last.cls && a->last.target == b->last.target;
}

/* Cached lookups equal uncached builds on random kernel addresses; a
 * small cache (2^6 entries) with a pool of 500 addresses forces both hits
 * and evictions. Each lookup picks A32 or T32 at random, so one address
 * is looked up under both keys. */
static void kernel_equivalence(void)
{
	char path[512];
	const char *p = etest_shared("snapshots/TC2/kernel_dump.bin", path,
				     sizeof(path));
	struct etm_image *img;
	struct etm_bcache *bc;
	uint64_t pool[500];
	uint32_t seed = 1;
	int k, bad = 0;

	if (!p) {
		etest_skip("kernel_dump.bin not found");
		return;
	}
	img = etm_image_alloc();
	ET_CHECK(img);
	ET_EQ(etm_image_add_file(img, etm_space_any, 0xC0008000, p, 0, 0), 0);
	bc = etm_bcache_alloc(6, ETM_STOP_PTM);
	ET_CHECK(bc);
	for (k = 0; k < 500; k++) {
		seed = seed * 1103515245 + 12345;
		pool[k] = 0xC0008000 + ((seed >> 4) % 327680 & ~1u);
	}
	for (k = 0; k < 20000; k++) {
		const struct etm_block *cb;
		struct etm_block ub;
		enum etm_isa isa;
		uint64_t a;
		int e1, e2;

		seed = seed * 1103515245 + 12345;
		a = pool[(seed >> 8) % 500];
		isa = (seed >> 30) & 1 ? etmi_t32 : etmi_a32;
		if (k == 10000)
			etm_bcache_clear(bc);
		e1 = etm_bcache_lookup(bc, img, etm_space_any, a, isa, &cb);
		e2 = etm_block_build(&ub, img, etm_space_any, a, isa,
				     ETM_STOP_PTM);
		if (e1 != e2 || (!e1 && !same_block(cb, &ub)))
			bad++;
	}
	ET_EQ(bad, 0);
	etm_bcache_free(bc);
	etm_image_free(img);
}

/* Keys differ by ISA: the same address as A32 and as T32. */
static void cache_keys(void)
{
	struct etm_image *img = t32_image(sizeof(t32_code));
	struct etm_bcache *bc = etm_bcache_alloc(0, ETM_STOP_BRANCHES);
	const struct etm_block *b;

	ET_CHECK(img && bc);
	ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x1000, etmi_t32, &b),
	      0);
	ET_EQ(b->ninsn, 5);
	ET_EQ(b->isa, etmi_t32);
	/* A32 at 0x1000: F8D12001 (cond 1111, not BLX/RFE/barrier: other),
	 * BF000000 (cond 1011, bits 27:24 = 1111: SVCLT, a stop) */
	ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x1000, etmi_a32, &b),
	      0);
	ET_EQ(b->isa, etmi_a32);
	ET_EQ(b->ninsn, 2);
	ET_EQ(b->stop, 1);
	ET_EQ(b->last.cls, etmc_exc_gen);
	ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x1000, etmi_t32, &b),
	      0);
	ET_EQ(b->ninsn, 5);
	ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x2000, etmi_t32, &b),
	      -etme_nomap);
	ET_EQ(etm_bcache_lookup(NULL, img, etm_space_any, 0x1000, etmi_t32,
				&b),
	      -etme_invalid);
	etm_bcache_free(bc);
	/* oversize request is clamped, not refused */
	bc = etm_bcache_alloc(63, ETM_STOP_BRANCHES);
	ET_CHECK(bc);
	ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x1000, etmi_t32, &b),
	      0);
	etm_bcache_free(bc);
	etm_bcache_free(NULL);
	etm_image_free(img);
}

/* Entries of @bc still valid. */
static size_t valid_entries(const struct etm_bcache *bc)
{
	size_t i, n = 0;

	for (i = 0; i < (size_t)1 << bc->log2; i++)
		n += bc->e[i].valid;
	return n;
}

/* etm_bcache_clear() drops every block whatever was filled before: a few
 * (cleared slot by slot), more than it lists (the whole cache zeroed), and
 * across the cache's growth (its blocks move to new slots). Blocks of
 * A32 zero words (ANDEQ: no stop) at distinct addresses 4 apart. */
static void clear_drops_all(void)
{
	static const size_t fills[] = { 1, 10, ETM_BCACHE_DIRTY, ETM_BCACHE_DIRTY + 1, 5000 };
	static uint8_t zeros[1u << 16];
	struct etm_image *img = etm_image_alloc();
	struct etm_bcache *bc = etm_bcache_alloc(14, ETM_STOP_BRANCHES);
	const struct etm_block *b;
	size_t k, i;

	ET_CHECK(img && bc);
	if (!img || !bc)
		return;
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x10000, zeros, sizeof(zeros)), 0);
	for (k = 0; k < sizeof(fills) / sizeof(fills[0]); k++) {
		for (i = 0; i < fills[k]; i++)
			ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x10000 + 4 * (i % 16000),
						etmi_a32, &b),
			      0);
		ET_CHECK(valid_entries(bc) > 0);
		etm_bcache_clear(bc);
		ET_EQ(valid_entries(bc), 0);
		/* and the cache still works */
		ET_EQ(etm_bcache_lookup(bc, img, etm_space_any, 0x10000, etmi_a32, &b), 0);
		ET_EQ(b->ninsn, ETM_BLOCK_MAX);
		etm_bcache_clear(bc);
	}
	etm_bcache_free(bc);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t32_block);
	ETEST(straddle);
	ETEST(long_run);
	ETEST(kernel_equivalence);
	ETEST(cache_keys);
	ETEST(clear_drops_all);
	return etest_end();
}
