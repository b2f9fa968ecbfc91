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

/* A block @a of @bc, looked up with @img: its instruction count (-1 if
 * the lookup fails). */
static long lookup_n(struct etm_bcache *bc, const struct etm_image *img,
		     uint64_t a)
{
	const struct etm_block *b;

	if (etm_bcache_lookup(bc, img, etm_space_any, a, etmi_a32, &b) < 0)
		return -1;
	return b->ninsn;
}

/* A block displaced from its slot by another of the same slot is kept in
 * the other slot of the pair and found there: two blocks used in turn are
 * built once each. Seen through a second image the cache is not told
 * about, where each address holds an SVC (a stop: blocks of 1): a block
 * built again has 1 instruction, one found has ETM_BLOCK_MAX (A32 zero
 * words, ANDEQ: no stop). A third block of the slot drops the older
 * one. */
static void victim_slot(void)
{
	static uint8_t zeros[0x4000], svcs[0x4000];
	struct etm_image *img = etm_image_alloc(), *img2 = etm_image_alloc();
	struct etm_bcache *bc = etm_bcache_alloc(4, ETM_STOP_BRANCHES);
	uint64_t a = 0x10000, same[3];
	size_t n = 0, i;

	ET_CHECK(img && img2 && bc);
	for (i = 0; i < sizeof(svcs); i += 4) {
		svcs[i + 3] = 0xef; /* EF000000: SVC #0 */
	}
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x10000, zeros,
				   sizeof(zeros)),
	      0);
	ET_EQ(etm_image_add_buffer(img2, etm_space_any, 0x10000, svcs,
				   sizeof(svcs)),
	      0);
	/* three addresses of one slot, not ending in the next block's range */
	for (i = 4; n < 3 && i < 0x3e00; i += 4)
		if (etm_bcache_slot(bc, a + i, etmi_a32, etm_space_any) ==
		    etm_bcache_slot(bc, a, etmi_a32, etm_space_any))
			same[n++] = a + i;
	ET_EQ(n, 3);
	ET_EQ(lookup_n(bc, img, same[0]), ETM_BLOCK_MAX);
	ET_EQ(lookup_n(bc, img, same[1]), ETM_BLOCK_MAX);
	for (i = 0; i < 4; i++) {
		ET_EQ(lookup_n(bc, img2, same[0]), ETM_BLOCK_MAX);
		ET_EQ(lookup_n(bc, img2, same[1]), ETM_BLOCK_MAX);
	}
	/* same[1] was found last: same[0] is dropped */
	ET_EQ(lookup_n(bc, img2, same[2]), 1);
	ET_EQ(lookup_n(bc, img2, same[1]), ETM_BLOCK_MAX);
	ET_EQ(lookup_n(bc, img2, same[0]), 1);
	etm_bcache_free(bc);
	etm_image_free(img);
	etm_image_free(img2);
}

/* Blocks found in the victim slot count towards growing as builds do: two
 * blocks of one slot used in turn in a cache that can grow make it grow
 * (once 2^ETM_BCACHE_LOG2_FIRST / 4 + 1 = 17 misses have been counted at
 * the first size), instead of being swapped for ever: 16 misses (eight
 * rounds of the two) leave it at its first size, the 17th grows it. */
static void swaps_grow(void)
{
	static uint8_t zeros[0x4000];
	struct etm_image *img = etm_image_alloc();
	struct etm_bcache *bc = etm_bcache_alloc(14, ETM_STOP_BRANCHES);
	uint64_t a = 0x10000, b = 0;
	size_t i;

	ET_CHECK(img && bc);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x10000, zeros,
				   sizeof(zeros)),
	      0);
	ET_EQ(bc->log2, ETM_BCACHE_LOG2_FIRST);
	for (i = 4; !b && i < 0x3e00; i += 4)
		if (etm_bcache_slot(bc, a + i, etmi_a32, etm_space_any) ==
		    etm_bcache_slot(bc, a, etmi_a32, etm_space_any))
			b = a + i;
	ET_CHECK(b);
	for (i = 0; i < (1u << ETM_BCACHE_LOG2_FIRST) / 8; i++) {
		ET_EQ(lookup_n(bc, img, a), ETM_BLOCK_MAX);
		ET_EQ(lookup_n(bc, img, b), ETM_BLOCK_MAX);
	}
	ET_EQ(bc->log2, ETM_BCACHE_LOG2_FIRST);
	ET_EQ(lookup_n(bc, img, a), ETM_BLOCK_MAX);
	ET_EQ(lookup_n(bc, img, b), ETM_BLOCK_MAX);
	ET_EQ(bc->log2, ETM_BCACHE_LOG2_FIRST + 2);
	etm_bcache_free(bc);
	etm_image_free(img);
}

/* Whatever the cache keeps, a lookup gives the block etm_block_build()
 * makes: random A32 and T32 addresses in random code, a cache of 16
 * entries (slots shared all the time) and one that grows. */
static void lookups_as_built(void)
{
	static uint8_t code[0x1000];
	struct etm_image *img = etm_image_alloc();
	uint32_t s = 12345;
	unsigned log2, k;
	size_t i;

	ET_CHECK(img);
	for (i = 0; i < sizeof(code); i++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		code[i] = (uint8_t)s;
	}
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x8000, code,
				   sizeof(code)),
	      0);
	for (log2 = 1; log2 <= 12; log2 += 11) {
		struct etm_bcache *bc = etm_bcache_alloc(log2, ETM_STOP_PTM);

		ET_CHECK(bc);
		for (k = 0; k < 20000; k++) {
			const struct etm_block *b;
			struct etm_block w;
			enum etm_isa isa;
			uint64_t a;
			int r1, r2;

			s ^= s << 13;
			s ^= s >> 17;
			s ^= s << 5;
			isa = s & 1 ? etmi_t32 : etmi_a32;
			/* few addresses: blocks come back */
			a = 0x8000 + ((s >> 8) % 64) * 4 + (isa == etmi_t32 ? 2 * (s >> 20 & 1) : 0);
			r1 = etm_bcache_lookup(bc, img, etm_space_any, a, isa, &b);
			r2 = etm_block_build(&w, img, etm_space_any, a, isa, ETM_STOP_PTM);
			ET_EQ(r1, r2);
			if (r1 < 0)
				continue;
			ET_EQ(b->start, w.start);
			ET_EQ(b->end, w.end);
			ET_EQ(b->isa, w.isa);
			ET_EQ(b->ninsn, w.ninsn);
			ET_EQ(b->size4, w.size4);
			ET_EQ(b->stop, w.stop);
			ET_EQ(b->nomem, w.nomem);
			ET_EQ(b->last.addr, w.last.addr);
			ET_EQ(b->last.cls, w.last.cls);
			ET_EQ(b->last.target, w.last.target);
		}
		etm_bcache_free(bc);
	}
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
	ETEST(victim_slot);
	ETEST(swaps_grow);
	ETEST(lookups_as_built);
	return etest_end();
}
