/* output/tarena.c - append-only text arena with pinned blocks (see
 * tarena.h). */
#include <stdlib.h>

#include "output/tarena.h"

struct tarena *tarena_new(void)
{
	struct tarena *a = calloc(1, sizeof(*a));

	if (a)
		atomic_init(&a->refs, 1);
	return a;
}

void tarena_hold(struct tarena *a)
{
	atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
}

void tarena_release(struct tarena *a)
{
	unsigned i;

	if (!a || atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (i = 0; i < a->n; i++)
		free(a->blk[i].mem);
	free(a);
}

void tarena_pin(struct tarena *a, uint32_t blk)
{
	atomic_fetch_add_explicit(&a->blk[blk].pins, 1, memory_order_relaxed);
}

void tarena_unpin(struct tarena *a, uint32_t blk)
{
	/* release: the writer's reads of the block come before its reuse */
	atomic_fetch_sub_explicit(&a->blk[blk].pins, 1, memory_order_release);
}

/* The block to fill next: a new one while under the cap, else the oldest
 * that no staged piece pins (its contents become stale); -1 if none. */
static int next_block(struct tarena *a)
{
	unsigned k, i;

	if (a->n < TARENA_BLKS) {
		a->blk[a->n].mem = malloc(TARENA_BLK);
		if (a->blk[a->n].mem)
			return (int)a->n++;
	}
	for (k = 1; k <= a->n; k++) {
		i = (a->cur + k) % a->n;
		if (!atomic_load_explicit(&a->blk[i].pins, memory_order_acquire)) {
			a->blk[i].gen++;
			return (int)i;
		}
	}
	return -1;
}

char *tarena_alloc(struct tarena *a, size_t n, struct tarena_loc *at)
{
	char *p;
	int b;

	if (n > TARENA_BLK)
		return NULL;
	if (!a->n || a->used + n > TARENA_BLK) {
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
