/* image/bcache.h - bounded cache of straight-line instruction blocks, keyed by
 * (address, ISA, space): the run from an address up to and including the next
 * instruction that stops a block. Owned by one flow decoder. */
#ifndef ETM_IMAGE_BCACHE_H
#define ETM_IMAGE_BCACHE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/insn.h>

/* Most instructions in one block; longer straight runs are split. */
#define ETM_BLOCK_MAX 64

/* A straight-line block starting at start. Instruction i (0-based) is at
 * start + sum of sizes of instructions before it; bit i of size4 is 1 when
 * instruction i is 4 bytes (always 1 for A32). */
struct etm_block {
	uint64_t start;
	uint64_t end; /* address after the last instruction */
	enum etm_isa isa;
	uint32_t ninsn; /* 1..ETM_BLOCK_MAX */
	uint64_t size4;
	struct etm_insn last; /* the last instruction, fully classified */
	uint8_t stop;         /* 1: last is a stop instruction (see below) */
	uint8_t nomem;        /* 1: the block ends because memory at end is unreadable */
	uint8_t last_mark;    /* etm_insn_last_mark() of last */
};

/* The struct etm_elem last_mark of a range ending in classified
 * instruction @in (ETM_LAST_KNOWN and what it is). */
static inline uint8_t etm_insn_last_mark(const struct etm_insn *in)
{
	unsigned m = ETM_LAST_KNOWN;

	if (in->link && (in->cls == etmc_br_direct || in->cls == etmc_br_indirect))
		m |= ETM_LAST_CALL;
	if (in->cls == etmc_br_indirect)
		m |= ETM_LAST_INDIRECT |
		     (in->is_return || in->exc_return ? ETM_LAST_RETURN : 0);
	return (uint8_t)m;
}

/* Which classes end a block: bit (1u << enum etm_insn_class). */
#define ETM_STOP_BRANCHES ((1u << etmc_br_direct) | (1u << etmc_br_indirect) | \
			   (1u << etmc_exc_gen) | (1u << etmc_undefined))
#define ETM_STOP_PTM ((1u << etmc_br_direct) | (1u << etmc_br_indirect) | \
		      (1u << etmc_isb))
/* PTM with ETMCCER[24]: DMB/DSB are waypoints too. */
#define ETM_STOP_PTM_DMB (ETM_STOP_PTM | (1u << etmc_barrier))

struct etm_bcache_entry {
	struct etm_block blk;
	uint8_t valid;
	uint8_t space;
};

/* The cache (defined here for the inline lookup; use the functions). */
/* Slots filled since the last clear that etm_bcache_clear() zeroes one
 * by one (more: the whole cache): a flow decoder that switches images at
 * each Context ID change clears its cache each time, and a process that
 * ran a few blocks must not cost a memset of the whole cache. */
#define ETM_BCACHE_DIRTY 1024

struct etm_bcache {
	uint32_t stop_mask;
	unsigned log2; /* 2^log2 entries now */
	unsigned log2_max;
	size_t fills; /* blocks built at this size */
	struct etm_bcache_entry *e;
	size_t ndirty; /* > ETM_BCACHE_DIRTY: too many (or moved) to list */
	uint32_t dirty[ETM_BCACHE_DIRTY];
};

/* Allocate a cache of 2^@log2_entries entries (bounded memory) whose blocks
 * end at instructions whose class is in @stop_mask. It starts with at most
 * 2^ETM_BCACHE_LOG2_FIRST entries and grows fourfold (keeping its blocks)
 * each time it has built a quarter as many blocks as it has entries, up to
 * its full size: a short trace does not pay for zeroing the whole cache,
 * and a program's blocks do not evict each other for long in a
 * direct-mapped cache filled far past a quarter (TC2 ETMv3 0x10: 756
 * blocks, at a full fill count 1,309 rebuilds in 32 passes). NULL on no
 * memory. */
#define ETM_BCACHE_LOG2_FIRST 6
struct etm_bcache *etm_bcache_alloc(unsigned log2_entries, uint32_t stop_mask);
void etm_bcache_free(struct etm_bcache *bc);
/* Drop every entry. */
void etm_bcache_clear(struct etm_bcache *bc);

/* Build (uncached) the block at @addr into @blk. Returns 0, -etme_nomap if
 * the first instruction cannot be read. */
int etm_block_build(struct etm_block *blk, const struct etm_image *img,
		    enum etm_space space, uint64_t addr, enum etm_isa isa,
		    uint32_t stop_mask);

/* Slot of (addr, isa, space): Fibonacci hash of the halfword address. */
static inline size_t etm_bcache_slot(const struct etm_bcache *bc,
				     uint64_t addr, enum etm_isa isa,
				     enum etm_space space)
{
	uint64_t h = (addr >> 1) ^ ((uint64_t)isa << 60) ^
		     ((uint64_t)space << 56);

	if (!bc->log2)
		return 0;
	return (size_t)((h * 0x9E3779B97F4A7C15ull) >> (64 - bc->log2));
}

/* Build the block of (addr, isa, space) into its slot (a miss of
 * etm_bcache_lookup()). Returns 0, -etme_nomap, -etme_invalid. */
int etm_bcache_fill(struct etm_bcache *bc, const struct etm_image *img,
		    enum etm_space space, uint64_t addr, enum etm_isa isa,
		    const struct etm_block **blk);

/* Cached lookup: *@blk points into the cache (valid until the next lookup).
 * Returns 0, -etme_nomap. */
static inline int etm_bcache_lookup(struct etm_bcache *bc,
				    const struct etm_image *img,
				    enum etm_space space, uint64_t addr,
				    enum etm_isa isa,
				    const struct etm_block **blk)
{
	const struct etm_bcache_entry *e;

	if (bc && blk) {
		e = &bc->e[etm_bcache_slot(bc, addr, isa, space)];
		if (e->valid && e->blk.start == addr && e->blk.isa == isa &&
		    e->space == (uint8_t)space) {
			*blk = &e->blk;
			return 0;
		}
	}
	return etm_bcache_fill(bc, img, space, addr, isa, blk);
}

/* Bits set in @v (SWAR: the build targets CPUs without POPCNT). */
static inline unsigned etm_popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((v * 0x0101010101010101ull) >> 56);
}

/* Address of instruction @i (0-based, < ninsn) of @blk. */
static inline uint64_t etm_block_addr(const struct etm_block *blk, uint32_t i)
{
	uint64_t before = i >= 64 ? blk->size4 : blk->size4 & ((1ull << i) - 1);

	if (blk->isa == etmi_a32)
		return blk->start + 4ull * i;
	return blk->start + 2ull * i + 2ull * etm_popcount64(before);
}

#endif
