/* image/bcache.c - straight-line block builder and a bounded direct-mapped
 * cache of blocks keyed by (address, ISA, space). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/bits.h"
#include "common/pagebuf.h"
#include "image/bcache.h"
#include "image/image_int.h"

/* Largest supported cache: 2^16 entries (about 8 MiB). */
#define ETM_BCACHE_LOG2_MAX 16

struct etm_bcache *etm_bcache_alloc(unsigned log2_entries, uint32_t stop_mask)
{
	struct etm_bcache *bc;

	if (log2_entries > ETM_BCACHE_LOG2_MAX)
		log2_entries = ETM_BCACHE_LOG2_MAX;
	bc = calloc(1, sizeof(*bc));
	if (!bc)
		return NULL;
	bc->log2_max = log2_entries;
	bc->log2 = log2_entries < ETM_BCACHE_LOG2_FIRST ? log2_entries :
							  ETM_BCACHE_LOG2_FIRST;
	bc->e = etm_line_calloc((size_t)1 << bc->log2, sizeof(*bc->e));
	if (!bc->e) {
		free(bc);
		return NULL;
	}
	bc->stop_mask = stop_mask;
	return bc;
}

/* Slot @slot holds a block: listed for etm_bcache_clear(). */
static void bcache_dirty(struct etm_bcache *bc, size_t slot)
{
	if (bc->ndirty < ETM_BCACHE_DIRTY)
		bc->dirty[bc->ndirty] = (uint32_t)slot;
	if (bc->ndirty <= ETM_BCACHE_DIRTY)
		bc->ndirty++;
}

/* Four times the size (at most the full size), the blocks kept moved to
 * their new slots; without memory the cache stays as it is. Blocks handed
 * out before are not valid after (as after any other lookup). */
static void bcache_grow(struct etm_bcache *bc)
{
	struct etm_bcache old = *bc;
	size_t i;

	bc->fills = 0;
	bc->ndirty = 0; /* the blocks move: listed again below */
	bc->log2 = bc->log2 + 2 < bc->log2_max ? bc->log2 + 2 : bc->log2_max;
	bc->e = etm_line_calloc((size_t)1 << bc->log2, sizeof(*bc->e));
	if (!bc->e) {
		*bc = old;
		bc->fills = 0;
		return;
	}
	for (i = 0; i < (size_t)1 << old.log2; i++) {
		const struct etm_bcache_entry *o = &old.e[i];

		size_t slot;

		if (!o->valid)
			continue;
		slot = etm_bcache_slot(bc, o->blk.start, o->blk.isa,
				       (enum etm_space)o->space);
		bc->e[slot] = *o;
		bcache_dirty(bc, slot);
	}
	etm_line_free(old.e);
}

void etm_bcache_free(struct etm_bcache *bc)
{
	if (!bc)
		return;
	etm_line_free(bc->e);
	free(bc);
}

void etm_bcache_clear(struct etm_bcache *bc)
{
	size_t i;

	if (!bc)
		return;
	if (bc->ndirty > ETM_BCACHE_DIRTY)
		memset(bc->e, 0, ((size_t)1 << bc->log2) * sizeof(*bc->e));
	else
		for (i = 0; i < bc->ndirty; i++)
			bc->e[bc->dirty[i]].valid = 0;
	bc->ndirty = 0;
}

/* Bytes at @a for one instruction: from the zero-copy window [*p, *p+*avail)
 * when it holds 4 bytes, else refreshed by peek or copied into @buf (reads
 * that span regions or come from the callback). Returns bytes available. */
static size_t block_fetch(const struct etm_image *img, enum etm_space space,
			  uint64_t a, const uint8_t **p, size_t *avail,
			  uint8_t buf[4])
{
	if (*avail >= 4)
		return *avail;
	*avail = etm_image_peek(img, space, a, p);
	if (*avail >= 4)
		return *avail;
	*avail = 0;
	*p = buf;
	return etm_image_read(img, space, a, buf, 4);
}

int etm_block_build(struct etm_block *blk, const struct etm_image *img,
		    enum etm_space space, uint64_t addr, enum etm_isa isa,
		    uint32_t stop_mask)
{
	const uint8_t *p = NULL;
	size_t avail = 0;
	uint8_t buf[4];
	uint64_t a = addr;
	int sz;

	if (!blk)
		return -etme_invalid;
	if (isa != etmi_a32 && isa != etmi_t32 && isa != etmi_tee)
		return -etme_invalid;
	memset(blk, 0, sizeof(*blk));
	blk->start = addr;
	blk->isa = isa;
	while (blk->ninsn < ETM_BLOCK_MAX) {
		struct etm_insn insn;
		size_t n = 0;

		if (img)
			n = block_fetch(img, space, a, &p, &avail, buf);
		sz = -etme_again;
		if (n >= 2)
			sz = etm_insn_decode(&insn, isa, a, p, n);
		if (sz < 0) {
			if (!blk->ninsn)
				return -etme_nomap;
			blk->nomem = 1;
			break;
		}
		if (sz == 4)
			blk->size4 |= 1ull << blk->ninsn;
		blk->ninsn++;
		blk->last = insn;
		blk->last_mark = etm_insn_last_mark(&insn);
		a += (unsigned)sz;
		if (avail) {
			p += sz;
			avail -= (size_t)sz;
		}
		if ((stop_mask >> insn.cls) & 1) {
			blk->stop = 1;
			break;
		}
	}
	blk->end = a;
	return 0;
}

/* The block of (addr, isa, space) in the victim slot of its own (the
 * other of the pair, where a block displaced from its slot goes): swapped
 * into its slot, *@blk set, 1; else 0. Two blocks a loop uses that share a
 * slot would otherwise be rebuilt in turn (TC2 PTM, 16384 slots: 73 builds
 * of ~700 instructions each per pass over the same trace). */
static int bcache_victim(struct etm_bcache *bc, uint64_t addr,
			 enum etm_isa isa, enum etm_space space,
			 const struct etm_block **blk)
{
	size_t slot = etm_bcache_slot(bc, addr, isa, space);
	struct etm_bcache_entry *e = &bc->e[slot], *v, t;

	if (!bc->log2)
		return 0;
	v = &bc->e[slot ^ 1];
	if (!v->valid || v->blk.start != addr || v->blk.isa != isa ||
	    v->space != (uint8_t)space)
		return 0;
	t = *e;
	*e = *v;
	*v = t; /* both slots held blocks: listed already */
	*blk = &e->blk;
	return 1;
}

int etm_bcache_fill(struct etm_bcache *bc, const struct etm_image *img,
		    enum etm_space space, uint64_t addr, enum etm_isa isa,
		    const struct etm_block **blk)
{
	struct etm_bcache_entry *e;
	size_t slot;
	int err;

	if (!bc || !blk)
		return -etme_invalid;
	/* a block found in the victim slot counts towards growing as a
	 * build does: a cache that swaps two blocks in turn is too small */
	if (bc->log2 < bc->log2_max && ++bc->fills > ((size_t)1 << bc->log2) / 4)
		bcache_grow(bc);
	if (bcache_victim(bc, addr, isa, space, blk))
		return 0;
	slot = etm_bcache_slot(bc, addr, isa, space);
	e = &bc->e[slot];
	bcache_dirty(bc, slot);
	if (e->valid && bc->log2) { /* the block there: the victim slot */
		bc->e[slot ^ 1] = *e;
		bcache_dirty(bc, slot ^ 1);
	}
	e->valid = 0;
	err = etm_block_build(&e->blk, img, space, addr, isa, bc->stop_mask);
	if (err < 0)
		return err;
	e->valid = 1;
	e->space = (uint8_t)space;
	*blk = &e->blk;
	return 0;
}
