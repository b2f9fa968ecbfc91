/* tests/unit/test-elem_hold.c - the element hold of the frame realignment
 * (realign/elem_hold_ring.c, decoder/elem_hold.c): its ready scan over the ring, by hand-derived cases; and on TC2 (CoreSight frames, realignment on) pushed in pieces,
 * no element comes out before an element made after it lies
 * ETM_DFMT_REACH (912) bytes past it in the input pushed so far. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "decoder/dec_int.h"
#include "realign/elem_hold.h"
#include "etest.h"

#define REACH 912 /* ETM_DFMT_REACH: 512 + 24 * 16 + 16 */

/* A ring of elements with these offsets (the rest zero). */
static void ring(struct etm_elem *el, size_t n, const uint64_t *off)
{
	size_t i;

	memset(el, 0, n * sizeof(*el));
	for (i = 0; i < n; i++)
		el[i].offset = off[i];
}

/* An element is ready when its offset + 912 <= the latest offset, in ring
 * order only: the first one that is not stops the scan. */
static void ready_prefix(void)
{
	static const uint64_t o[8] = { 0, 10, 44, 45, 5 };
	struct etm_elem off[8];

	ring(off, 8, o);

	/* latest 956: 0, 10 and 44 (44 + 912 = 956) are; 45 is not, and 5
	 * after it waits behind it */
	ET_EQ(etm_realign_hold_ready(off, 7, 0, 5, 956), 3);
	ET_EQ(etm_realign_hold_ready(off, 7, 1, 5, 956), 3);
	/* below 912 nothing can be; at 912 only offset 0 */
	ET_EQ(etm_realign_hold_ready(off, 7, 0, 5, 911), 0);
	ET_EQ(etm_realign_hold_ready(off, 7, 0, 5, 912), 1);
	/* nothing waiting */
	ET_EQ(etm_realign_hold_ready(off, 7, 5, 5, 10000), 5);
	/* everything far enough: all five */
	ET_EQ(etm_realign_hold_ready(off, 7, 0, 5, 45 + REACH), 5);
}

/* Longer runs: offsets 0..19. */
static void ready_long_runs(void)
{
	uint64_t o[32] = { 0 };
	struct etm_elem off[32];
	size_t i;

	for (i = 0; i < 20; i++)
		o[i] = i;
	ring(off, 32, o);
	ET_EQ(etm_realign_hold_ready(off, 31, 0, 20, REACH + 19), 20);
	/* 0..8 */
	ET_EQ(etm_realign_hold_ready(off, 31, 0, 20, REACH + 8), 9);
	/* 0..7 */
	ET_EQ(etm_realign_hold_ready(off, 31, 0, 20, REACH + 7), 8);
	/* from 3: 3..7 */
	ET_EQ(etm_realign_hold_ready(off, 31, 3, 20, REACH + 7), 8);
	/* one far offset stops it there, whatever follows */
	off[3].offset = 900;
	ET_EQ(etm_realign_hold_ready(off, 31, 0, 20, REACH + 10), 3);
	/* and with only five waiting */
	ET_EQ(etm_realign_hold_ready(off, 31, 0, 5, REACH + 10), 3);
}

/* Indices past the ring's end wrap: a ring of 16, indices 12..23 in slots
 * 12..15 and 0..7, offset 10 * index. */
static void ready_wraps(void)
{
	uint64_t o[16];
	struct etm_elem off[16];
	size_t i;

	for (i = 12; i < 24; i++)
		o[i & 15] = 10 * i;
	ring(off, 16, o);
	/* latest 912 + 185: offsets up to 185, indices 12..18 */
	ET_EQ(etm_realign_hold_ready(off, 15, 12, 24, REACH + 185), 19);
	ET_EQ(etm_realign_hold_ready(off, 15, 12, 24, REACH + 230), 24);
	ET_EQ(etm_realign_hold_ready(off, 15, 12, 24, REACH + 119), 12);
}

struct seen {
	uint64_t off;    /* the element's offset */
	uint64_t pushed; /* input pushed when it came out (0: after finish) */
};

/* Drain @d into @v (grown as needed); elements that come out now had
 * @pushed bytes of input behind them. Returns 0, or -1 on an error. */
static int drain(struct etm_decoder *d, struct seen **v, size_t *n,
		 size_t *cap, uint64_t pushed)
{
	const struct etm_elem *els;
	int r, i;

	while ((r = etm_decoder_next_elems(d, &els, 64)) > 0) {
		if (*n + (size_t)r > *cap) {
			*cap = 2 * (*n + (size_t)r);
			*v = realloc(*v, *cap * sizeof(**v));
			if (!*v)
				return -1;
		}
		for (i = 0; i < r; i++) {
			(*v)[*n].off = els[i].offset;
			(*v)[(*n)++].pushed = pushed;
		}
	}
	return r == -etme_again || r == -etme_eos ? 0 : -1;
}

/* Every element out before the end of the input: an element after it in
 * the output (no damage: none is retracted) lies 912 bytes or more past
 * it and came from the input pushed by then. */
static void tc2_release_rule(void)
{
	char path[4096], err[256];
	struct etm_snapshot *s;
	struct etm_decoder *d;
	struct etm_image *img[8] = { NULL };
	struct seen *v = NULL;
	size_t n = 0, cap = 0, i, j, early = 0;
	static uint8_t buf[256];
	uint64_t pushed = 0;
	FILE *f;
	size_t k;

	if (!etest_shared("snapshots/TC2/cstrace.bin", path, sizeof(path))) {
		etest_skip("TC2 snapshot missing");
		return;
	}
	*strrchr(path, '/') = 0;
	ET_CHECK(etm_snapshot_load(&s, path, err, sizeof(err)) == 0);
	ET_EQ(s->buffers[0].format, etm_fmt_coresight);
	ET_CHECK(s->nsources >= 2 && s->nsources <= 8);
	d = etm_decoder_alloc(etm_fmt_coresight, etm_dec_elements);
	ET_CHECK(d != NULL);
	for (i = 0; i < s->nsources; i++) {
		img[i] = etm_image_alloc();
		ET_CHECK(img[i] != NULL);
		ET_EQ(etm_snapshot_add_memory(&s->sources[i], img[i], err,
					      sizeof(err)),
		      0);
		ET_EQ(etm_decoder_add_source(d, &s->sources[i].cfg, img[i]), 0);
	}
	f = fopen(s->buffers[0].files[0], "rb");
	ET_CHECK(f != NULL);
	while ((k = fread(buf, 1, sizeof(buf), f)) > 0) {
		ET_EQ(etm_decoder_push(d, buf, k), 0);
		pushed += k;
		ET_EQ(drain(d, &v, &n, &cap, pushed), 0);
	}
	fclose(f);
	etm_decoder_finish(d);
	ET_EQ(drain(d, &v, &n, &cap, 0), 0);
	for (i = 0; i < n && v[i].pushed; i++) {
		uint64_t far = 0;

		for (j = i + 1; j < n; j++)
			if (v[j].off < v[i].pushed && v[j].off > far)
				far = v[j].off;
		ET_CHECK(far >= v[i].off + REACH);
		early++;
	}
	printf("  %zu elements, %zu out before the end of the input\n", n,
	       early);
	ET_CHECK(early > n / 2);
	free(v);
	etm_decoder_free(d);
	for (i = 0; i < s->nsources; i++)
		etm_image_free(img[i]);
	etm_snapshot_free(s);
}

int main(void)
{
	ETEST(ready_prefix);
	ETEST(ready_long_runs);
	ETEST(ready_wraps);
	ETEST(tc2_release_rule);
	return etest_end();
}
