/* listing/text_arena.h - an append-only arena of formatted text that staged
 * output may point into (library-internal). The range cache of
 * listing/line_cache.c keeps its texts here, and a parallel decode's worker that
 * formats ahead of its turn stages references to them (wbuf_ref()) instead
 * of copying the text: the blocks a staged piece points into are pinned
 * until the piece is written or dropped, by whichever thread does it. The
 * arena is bounded (TEXT_ARENA_BLKS blocks of TEXT_ARENA_BLK bytes): once every
 * block is full and pinned, nothing more is allocated (the caller formats
 * and copies as it did before). A block is reused, oldest first, only when
 * no piece pins it; what was in it is then stale (text_arena_valid()). */
#ifndef ETM_LISTING_TEXT_ARENA_H
#define ETM_LISTING_TEXT_ARENA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TEXT_ARENA_BLK (256u << 10)
#define TEXT_ARENA_BLKS 16 /* at most; a staged piece's pins fit 64 bits */

struct text_arena_blk {
	char *mem;
	uint32_t gen;     /* advanced when the block is reused */
	atomic_uint pins; /* staged pieces pointing into it */
};

struct text_arena {
	atomic_uint refs; /* the owner and each staged piece with pins */
	unsigned n, cur;  /* blocks allocated, being filled */
	size_t used;      /* bytes of blk[cur] taken */
	/* blocks unpinned to no pins so far (any thread), and its value at
	 * the last search that found every block pinned (owner): until it
	 * moves, every block is still pinned and no search is made (a
	 * parallel decode's formatter ahead of its turn asks on every range
	 * it caches, 12% of them with all 16 blocks pinned) */
	atomic_uint freed;
	unsigned full_at;
	int full;
	struct text_arena_blk blk[TEXT_ARENA_BLKS];
};

/* Where an allocation is: its block and that block's generation. */
struct text_arena_loc {
	uint32_t blk, gen;
};

/* A new arena held once by the caller (NULL: no memory). */
struct text_arena *text_arena_new(void);
/* Drop one hold; the last frees the arena. Any thread. */
void text_arena_release(struct text_arena *a);
/* One more hold (a staged piece). */
void text_arena_hold(struct text_arena *a);
/* @n bytes (n <= TEXT_ARENA_BLK) that stay put while their block is valid;
 * NULL if every block is full and pinned. Owner thread only. */
char *text_arena_alloc(struct text_arena *a, size_t n, struct text_arena_loc *at);
/* Whether what text_arena_alloc() gave at @at is still there. Owner only. */
static inline int text_arena_valid(const struct text_arena *a, struct text_arena_loc at)
{
	return at.blk < a->n && a->blk[at.blk].gen == at.gen;
}
/* Pin block @blk (owner thread) and unpin it (any thread). */
void text_arena_pin(struct text_arena *a, uint32_t blk);
void text_arena_unpin(struct text_arena *a, uint32_t blk);

#endif
