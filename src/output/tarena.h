/* output/tarena.h - an append-only arena of formatted text that staged
 * output may point into (library-internal). The range cache of
 * output/lcache.c keeps its texts here, and a parallel decode's worker that
 * formats ahead of its turn stages references to them (wbuf_ref()) instead
 * of copying the text: the blocks a staged piece points into are pinned
 * until the piece is written or dropped, by whichever thread does it. The
 * arena is bounded (TARENA_BLKS blocks of TARENA_BLK bytes): once every
 * block is full and pinned, nothing more is allocated (the caller formats
 * and copies as it did before). A block is reused, oldest first, only when
 * no piece pins it; what was in it is then stale (tarena_valid()). */
#ifndef ETM_OUTPUT_TARENA_H
#define ETM_OUTPUT_TARENA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TARENA_BLK (256u << 10)
#define TARENA_BLKS 16 /* at most; a staged piece's pins fit 64 bits */

struct tarena_blk {
	char *mem;
	uint32_t gen;     /* advanced when the block is reused */
	atomic_uint pins; /* staged pieces pointing into it */
};

struct tarena {
	atomic_uint refs; /* the owner and each staged piece with pins */
	unsigned n, cur;  /* blocks allocated, being filled */
	size_t used;      /* bytes of blk[cur] taken */
	struct tarena_blk blk[TARENA_BLKS];
};

/* Where an allocation is: its block and that block's generation. */
struct tarena_loc {
	uint32_t blk, gen;
};

/* A new arena held once by the caller (NULL: no memory). */
struct tarena *tarena_new(void);
/* Drop one hold; the last frees the arena. Any thread. */
void tarena_release(struct tarena *a);
/* One more hold (a staged piece). */
void tarena_hold(struct tarena *a);
/* @n bytes (n <= TARENA_BLK) that stay put while their block is valid;
 * NULL if every block is full and pinned. Owner thread only. */
char *tarena_alloc(struct tarena *a, size_t n, struct tarena_loc *at);
/* Whether what tarena_alloc() gave at @at is still there. Owner only. */
static inline int tarena_valid(const struct tarena *a, struct tarena_loc at)
{
	return at.blk < a->n && a->blk[at.blk].gen == at.gen;
}
/* Pin block @blk (owner thread) and unpin it (any thread). */
void tarena_pin(struct tarena *a, uint32_t blk);
void tarena_unpin(struct tarena *a, uint32_t blk);

#endif
