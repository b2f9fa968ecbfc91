/* tests/unit/test-text_arena.c - output staged by reference (listing/text_arena.h,
 * wbuf_ref()): the arena's bounds (every block full and pinned: nothing
 * more is allocated; a block unpinned is reused and what was in it is
 * stale, the rest stays; with every block pinned again, refused until one
 * is unpinned), and a staged piece of text and references,
 * written after the arena moved on, byte for byte what was put, against
 * the same bytes concatenated here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etest.h"
#include "listing/wbuf.h"

/* Fill arena @a with allocations of @n bytes of '#' until one fails (at
 * most @max); returns how many succeeded. */
static unsigned fill(struct text_arena *a, size_t n, unsigned max)
{
	struct text_arena_loc at;
	unsigned k = 0;
	char *p;

	while (k < max && (p = text_arena_alloc(a, n, &at))) {
		memset(p, '#', n);
		k++;
	}
	return k;
}

static void arena_bounds(void)
{
	struct text_arena *a = text_arena_new();
	struct text_arena_loc first, in3, in4, again;
	uint32_t b;
	char *p;

	ET_CHECK(a != NULL);
	p = text_arena_alloc(a, 100, &first);
	ET_CHECK(p && first.blk == 0 && text_arena_valid(a, first));
	ET_CHECK(text_arena_alloc(a, TEXT_ARENA_BLK + 1, &again) == NULL);
	/* every block pinned: the arena grows to its cap, then refuses */
	for (b = 0; b < TEXT_ARENA_BLKS; b++)
		text_arena_pin(a, b);
	/* 16 blocks of 256 KiB in 1 KiB pieces, less the 100 bytes taken */
	ET_EQ(fill(a, 1024, 100000), TEXT_ARENA_BLKS * (TEXT_ARENA_BLK / 1024) - 1);
	ET_EQ(a->n, TEXT_ARENA_BLKS);
	ET_CHECK(text_arena_valid(a, first));
	/* block 3 unpinned: reused (the oldest after the current one that no
	 * piece pins), what it held stale; block 4's text stays */
	in3 = (struct text_arena_loc){ 3, a->blk[3].gen };
	in4 = (struct text_arena_loc){ 4, a->blk[4].gen };
	text_arena_unpin(a, 3);
	p = text_arena_alloc(a, 1024, &again);
	ET_CHECK(p != NULL && again.blk == 3);
	ET_CHECK(!text_arena_valid(a, in3) && text_arena_valid(a, again));
	ET_CHECK(text_arena_valid(a, in4) && text_arena_valid(a, first));
	/* block 3 pinned again and filled: every block pinned, refused (the
	 * search not repeated until a block is unpinned); block 5 unpinned:
	 * reused next */
	text_arena_pin(a, 3);
	ET_EQ(fill(a, 1024, 100000), TEXT_ARENA_BLK / 1024 - 1);
	ET_CHECK(text_arena_alloc(a, 1024, &again) == NULL);
	ET_CHECK(text_arena_alloc(a, 1024, &again) == NULL);
	text_arena_unpin(a, 5);
	p = text_arena_alloc(a, 1024, &again);
	ET_CHECK(p != NULL && again.blk == 5);
	for (b = 0; b < TEXT_ARENA_BLKS; b++)
		if (b != 5)
			text_arena_unpin(a, b);
	text_arena_release(a);
}

static struct wbuf w, out; /* large: static */
static char want[1 << 20], got[1 << 20];
static size_t nwant;

static void both_put(const char *s, size_t n)
{
	wbuf_put(&w, s, n);
	memcpy(want + nwant, s, n);
	nwant += n;
}

static void both_ref(struct text_arena *a, const char *s, size_t n, uint32_t blk)
{
	wbuf_ref(&w, s, n, a, blk);
	memcpy(want + nwant, s, n);
	nwant += n;
}

/* Text from arena @a: @n bytes of @c, and where they are. */
static char *text(struct text_arena *a, size_t n, char c, struct text_arena_loc *at)
{
	char *p = text_arena_alloc(a, n, at);

	if (p)
		memset(p, c, n);
	return p;
}

/* Text between references: a block and more (the writer walks its text
 * blocks), a byte, nothing; references short (copied), contiguous (one
 * segment) and more than a block of segments holds. */
static void stage(struct text_arena *a)
{
	static char big[100000];
	struct text_arena_loc l1, l2, l3;
	char *r1 = text(a, 200, 'A', &l1), *r2 = text(a, 300, 'B', &l2);
	char *r3 = text(a, 80, 'C', &l3);
	unsigned i;

	ET_CHECK(r1 && r2 && r3 && r2 == r1 + 200);
	memset(big, 'x', sizeof(big));
	both_put(big, sizeof(big));
	both_ref(a, r1, 200, l1.blk);
	both_ref(a, r2, 300, l2.blk); /* right after r1: one segment */
	both_ref(a, r3, 10, l3.blk);  /* short: copied */
	both_put("y", 1);
	for (i = 0; i < WBLK_SEGS + 100; i++) {
		both_ref(a, i & 1 ? r3 : r1, i & 1 ? 80 : 64, l1.blk);
		if (i % 3 == 0)
			both_put("\n", 1);
	}
	both_put(big, 70000);
	both_ref(a, r2, 300, l2.blk);
	both_put("end\n", 4);
}

static void staged_text(void)
{
	struct wpool pool;
	struct wpiece p;
	struct text_arena *a = text_arena_new();
	FILE *f = tmpfile();
	uint32_t gen0;
	size_t n;

	ET_CHECK(a && f);
	wpool_init(&pool, 8);
	ET_CHECK(wbuf_init_mem(&w, &pool) == 0);
	wbuf_refs(&w);
	nwant = 0;
	stage(a);
	wbuf_take_piece(&w, &p);
	ET_CHECK(p.segs != NULL && p.arena == a && p.pins == 1);
	ET_EQ(a->blk[0].pins, 1);
	/* the arena moves on, many times round: the other blocks are reused,
	 * never the pinned one */
	gen0 = a->blk[0].gen;
	ET_EQ(fill(a, 4096, 10000), 10000);
	ET_CHECK(a->blk[0].gen == gen0 && a->blk[1].gen > 0);
	wbuf_init(&out, fileno(f));
	wbuf_write_piece(&out, &p);
	wbuf_flush(&out);
	ET_EQ(out.err, 0);
	wbuf_free_piece(&pool, &p);
	ET_EQ(a->blk[0].pins, 0);
	rewind(f);
	n = fread(got, 1, sizeof(got), f);
	ET_EQ(n, nwant);
	ET_CHECK(n == nwant && !memcmp(got, want, n));
	/* unpinned: reused */
	ET_EQ(fill(a, 4096, 10000), 10000);
	ET_CHECK(a->blk[0].gen != gen0);
	fclose(f);
	wbuf_fini(&w);
	text_arena_release(a);
	wpool_fini(&pool);
}

int main(void)
{
	ETEST(arena_bounds);
	ETEST(staged_text);
	return etest_end();
}
