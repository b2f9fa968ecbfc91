/* listing/text_arena.c - append-only text arena with pinned blocks (see
 * text_arena.h). */
#include <stdlib.h>

#include "listing/text_arena.h"

struct text_arena *text_arena_new(void)
{
	struct text_arena *a = calloc(1, sizeof(*a));

	if (a)
		atomic_init(&a->refs, 1);
	return a;
}

void text_arena_hold(struct text_arena *a)
{
	atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
}

void text_arena_release(struct text_arena *a)
{
	unsigned i;

	if (!a || atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (i = 0; i < a->n; i++)
		free(a->blk[i].mem);
	free(a);
}

void text_arena_pin(struct text_arena *a, uint32_t blk)
{
	atomic_fetch_add_explicit(&a->blk[blk].pins, 1, memory_order_relaxed);
}

void text_arena_unpin(struct text_arena *a, uint32_t blk)
{
	/* release: the writer's reads of the block come before its reuse */
	if (atomic_fetch_sub_explicit(&a->blk[blk].pins, 1, memory_order_release) == 1)
		atomic_fetch_add_explicit(&a->freed, 1, memory_order_release);
}

/* The block to fill next: a new one while under the cap, else the oldest
 * that no staged piece pins (its contents become stale); -1 if none. */
static int next_block(struct text_arena *a)
{
	unsigned k, i, freed;

	if (a->n < TEXT_ARENA_BLKS) {
		a->blk[a->n].mem = malloc(TEXT_ARENA_BLK);
		if (a->blk[a->n].mem)
			return (int)a->n++;
	}
	/* read before the pins: an unpin after this is seen next time */
	freed = atomic_load_explicit(&a->freed, memory_order_acquire);
	if (a->full && freed == a->full_at)
		return -1; /* nothing unpinned since every block was pinned */
	for (k = 1, i = a->cur; k <= a->n; k++) {
		i = i + 1 < a->n ? i + 1 : 0;
		if (!atomic_load_explicit(&a->blk[i].pins, memory_order_acquire)) {
			a->blk[i].gen++;
			a->full = 0;
			return (int)i;
		}
	}
	a->full = 1;
	a->full_at = freed;
	return -1;
}

char *text_arena_alloc(struct text_arena *a, size_t n, struct text_arena_loc *at)
{
	char *p;
	int b;

	if (n > TEXT_ARENA_BLK)
		return NULL;
	if (!a->n || a->used + n > TEXT_ARENA_BLK) {
		b = next_block(a);
		if (b < 0)
			return NULL;
		a->cur = (unsigned)b;
		a->used = 0;
	}
	p = a->blk[a->cur].mem + a->used;
	a->used += n;
	at->blk = a->cur;
	at->gen = a->blk[a->cur].gen;
	return p;
}
