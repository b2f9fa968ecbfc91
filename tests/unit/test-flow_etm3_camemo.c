/* tests/unit/test-flow_etm3_camemo.c - cycle-accurate ETMv3 atom runs
 * through the walk memo (flow_etm3_camemo.c): the ranges a replayed walk
 * gives, with their cycles taken from the atoms' W counts (before, between
 * and after E/N atoms, the carry from earlier runs, saturation) and their
 * offsets, derived by hand below; the same with the memo off (the cache
 * off: every run walked); three walks under one set all kept. */
#include <stdint.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>

#include "etest.h"
#include "flow/flow_etm3_int.h"
#include "packet/pktdec.h"

/* A32 at 0x1000: mov r0, #1; nop; nop; b 0x1000 (imm24 = (0x1000 -
 * (0x100c + 8)) / 4 = -5: 0xeafffffb). Every pass of the loop is one range
 * of 4 instructions ended by a taken direct branch. */
static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3, 0x00, 0x00,
				0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
				0xfb, 0xff, 0xff, 0xea };

#define MAXR 64

struct ranges {
	struct etm_elem r[MAXR];
	int n;
};

static void take(struct etm_flow *f, struct ranges *out)
{
	struct etm_elem el;

	while (etm_flow_next(f, &el, sizeof(el)) == 0)
		if (el.kind == etmk_range && out->n < MAXR)
			out->r[out->n++] = el;
}

/* One run of @n atoms (bit i of @bits: atom i is N), atom i with @w[i] W
 * atoms before it (since the atom before), @tail W atoms after the last;
 * one atom a packet, packet j at input offset @off0 + j. */
static void run(struct etm_flow *f, struct ranges *out, unsigned n,
		uint64_t bits, const uint16_t *w, uint32_t tail, uint64_t off0)
{
	static struct etm_atom_run r;
	struct etm3_flow *e = f->impl;
	unsigned j, s = 0;

	memset(&r, 0, sizeof(r));
	r.n = n;
	r.npkt = n;
	r.bits = bits;
	r.w_tail = tail;
	/* slot j + 1: atom j's packet (j) over the W sum (pktdec.h) */
	for (j = 0; j < n; j++) {
		s += w[j];
		r.cw[j + 1] = (uint16_t)(j << ETM_ATOM_RUN_WBITS | s);
	}
	r.off0 = off0;
	etm_flow_qstart(f);
	ET_EQ(etm_e3_run(e, &r), 0);
	take(f, out);
}

static const uint16_t w1[32] = { 1, 0, 2, 1, 1, 0, 2, 1, 1, 0, 2, 1,
				 1, 0, 2, 1, 3, 1, 0, 2, 3, 1, 0, 2,
				 3, 1, 0, 2, 3, 1, 0, 2 };
static const uint16_t ones[16] = { 1, 1, 1, 1, 1, 1, 1, 1,
				   1, 1, 1, 1, 1, 1, 1, 1 };
static const uint16_t twos[8] = { 2, 2, 2, 2, 2, 2, 2, 2 };
static const uint16_t w4[8] = { 2, 0, 3, 1, 1, 1, 1, 1 };

/* The runs, in order, and the ranges they give:
 * R1: carry 5; 32 E atoms, W 1 0 2 1 (x4) then 3 1 0 2 (x4), 7 after.
 *     8 ranges 0x1000..0x1010 of 4 instructions: the first has the carry
 *     and its atoms' W, 5 + 1 + 0 + 2 + 1 = 9, then 4, 4, 4, then 3 + 1 +
 *     0 + 2 = 6 (x4); range k at offset 1000 + 4k. With the memo: atoms
 *     0-15 walked and kept, atoms 16-31 replayed (the same E/N bits, other
 *     W).
 * R2: carry 7 (R1's tail); 16 E, W 1 each: 7 + 4 = 11, then 4, 4, 4;
 *     offsets 2000 + 4k (replayed from atom 0: the carry in atom 0's W).
 * R3: carry 0; E E N E E E N E, W 2 each, 4 after: mov nop executed, the
 *     nop at 0x1008 failed (N), then the branch at 0x100c taken: 0x1000
 *     3 insns (last failed) 6 cycles at 3000, 0x100c 1 insn 2 at 3003,
 *     again at 3004 and 3007.
 * R4: carry 4; the same atoms, W 2 0 3 1 1 1 1 1: 4 + 2 + 0 + 3 = 9, 1,
 *     1 + 1 + 1 = 3, 1; offsets 4000, 4003, 4004, 4007 (replayed).
 * R5, R6: E E, W 1 1, then E E, W 2 2: one range 0x1000 of 4 insns
 *     continued across the runs (its offset that of its first atom, 5000),
 *     1 + 1 + 2 + 2 = 6.
 * R7, R8: the same walks replayed (the second going on in the pending
 *     range), W 3 0 and 1 after, then 0 5: 3 + 0 + 1 + 0 + 5 = 9, at 7000.
 * R9: carry 0; 16 E, W 1 each: 4 ranges of 4 cycles, 9000 + 4k.
 * R10: carry 2^40 (more than 32 bits): the first range saturates at
 *     0xffffffff, then 4, 4, 4; 10000 + 4k. */
static const struct {
	uint64_t start;
	uint32_t ninsn, cycles;
	uint8_t exec;
	uint64_t off;
} want[] = {
	{ 0x1000, 4, 9, 1, 1000 },
	{ 0x1000, 4, 4, 1, 1004 },
	{ 0x1000, 4, 4, 1, 1008 },
	{ 0x1000, 4, 4, 1, 1012 },
	{ 0x1000, 4, 6, 1, 1016 },
	{ 0x1000, 4, 6, 1, 1020 },
	{ 0x1000, 4, 6, 1, 1024 },
	{ 0x1000, 4, 6, 1, 1028 },
	{ 0x1000, 4, 11, 1, 2000 },
	{ 0x1000, 4, 4, 1, 2004 },
	{ 0x1000, 4, 4, 1, 2008 },
	{ 0x1000, 4, 4, 1, 2012 },
	{ 0x1000, 3, 6, 0, 3000 },
	{ 0x100c, 1, 2, 1, 3003 },
	{ 0x1000, 3, 6, 0, 3004 },
	{ 0x100c, 1, 2, 1, 3007 },
	{ 0x1000, 3, 9, 0, 4000 },
	{ 0x100c, 1, 1, 1, 4003 },
	{ 0x1000, 3, 3, 0, 4004 },
	{ 0x100c, 1, 1, 1, 4007 },
	{ 0x1000, 4, 6, 1, 5000 },
	{ 0x1000, 4, 9, 1, 7000 },
	{ 0x1000, 4, 4, 1, 9000 },
	{ 0x1000, 4, 4, 1, 9004 },
	{ 0x1000, 4, 4, 1, 9008 },
	{ 0x1000, 4, 4, 1, 9012 },
	{ 0x1000, 4, UINT32_MAX, 1, 10000 },
	{ 0x1000, 4, 4, 1, 10004 },
	{ 0x1000, 4, 4, 1, 10008 },
	{ 0x1000, 4, 4, 1, 10012 },
};

/* A cycle-accurate ETMv3 flow over @code at 0x1000 in @img, with the memo
 * on or off (@cache), synchronised at 0x1000 in A32 (as an I-sync would
 * leave it), into *@fp (NULL: a check failed). */
static void ca_flow(struct etm_image *img, int cache, struct etm_flow **fp)
{
	struct etm_config cfg;
	struct etm_flow *f;
	struct etm3_flow *e;

	*fp = NULL;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmcr = 1u << 12; /* cycle-accurate */
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	ET_CHECK(img && etm_image_add_buffer(img, etm_space_any, 0x1000, code,
					     sizeof(code)) == 0);
	f = etm_flow_alloc(&cfg, img);
	ET_CHECK(f != NULL);
	if (!f)
		return;
	*fp = f;
	etm_flow_set_cache(f, cache);
	e = f->impl;
	ET_EQ(e->ca, 1);
	e->synced = e->ever_synced = 1;
	etm_e3_set_addr(e, 0x1000, etmi_a32);
}

static void decode(int cache, struct ranges *out)
{
	static const uint16_t w7[2] = { 3, 0 }, w8[2] = { 0, 5 };
	struct etm_image *img = etm_image_alloc();
	struct etm_flow *f;
	struct etm3_flow *e;

	memset(out, 0, sizeof(*out));
	ca_flow(img, cache, &f);
	if (!f)
		return;
	e = f->impl;
	e->carry = 5;
	run(f, out, 32, 0, w1, 7, 1000);
	ET_EQ(e->carry, 7);
	run(f, out, 16, 0, ones, 0, 2000);
	run(f, out, 8, 0x44, twos, 4, 3000);
	run(f, out, 8, 0x44, w4, 0, 4000);
	run(f, out, 2, 0, ones, 0, 5000);
	run(f, out, 2, 0, twos, 0, 6000);
	run(f, out, 2, 0, w7, 1, 7000);
	run(f, out, 2, 0, w8, 0, 8000);
	run(f, out, 16, 0, ones, 0, 9000);
	e->carry = 1ull << 40;
	run(f, out, 16, 0, ones, 0, 10000);
	ET_EQ(e->carry, 0);
	ET_EQ(e->last_w, 1);
	/* the memo was used: the walk going on in the pending range at
	 * 0x1008 (R6) was kept */
	if (cache)
		ET_EQ(etm_e3_camemo_count(e, 0x1008, 1, 2), 1);
	else
		ET_CHECK(e->camemo == NULL);
	ET_EQ(etm_flow_finish(f), 0);
	take(f, out);
	etm_flow_free(f);
	etm_image_free(img);
}

static void check(const struct ranges *g)
{
	size_t i;

	ET_EQ(g->n, (int)(sizeof(want) / sizeof(want[0])));
	for (i = 0; i < sizeof(want) / sizeof(want[0]) && (int)i < g->n; i++) {
		const struct etm_elem *r = &g->r[i];

		ET_EQ(r->start, want[i].start);
		ET_EQ(r->ninsn, want[i].ninsn);
		ET_EQ(r->end, want[i].start + 4 * want[i].ninsn);
		ET_EQ(r->has_cycles, 1);
		ET_EQ(r->cycles, want[i].cycles);
		ET_EQ(r->last_exec, want[i].exec);
		ET_EQ(r->offset, want[i].off);
	}
}

static void memo_cycles(void)
{
	static struct ranges g;

	decode(1, &g);
	check(&g);
}

static void walk_cycles(void)
{
	static struct ranges g;

	decode(0, &g);
	check(&g);
}

/* Three E/N patterns of 16 atoms from 0x1000 (not going on in a pending
 * range: each run ends after a taken branch), so three walks under one
 * start, in one set of the memo, in turn twice: A all E; B the nop at
 * 0x1008 failed in the first pass (atom 2 N); C the same in the second
 * pass (atom 6 N). A failed instruction ends its range, so A gives 4
 * ranges of 4, B 0x1000 3 (the last failed), 0x100c 1, then 3 of 4, C
 * one of 4, 0x1000 3, 0x100c 1, two of 4; one W atom an atom (no carry):
 * cycles = instructions. The third walk's miss moves the first one to
 * the neighbour set, so all three are kept (with two ways only, each
 * miss would evict the walk needed next) and the second turn replays
 * them. */
static const struct {
	uint64_t start;
	uint32_t ninsn;
} conflict_want[3][5] = {
	{ { 0x1000, 4 }, { 0x1000, 4 }, { 0x1000, 4 }, { 0x1000, 4 } },
	{ { 0x1000, 3 }, { 0x100c, 1 }, { 0x1000, 4 }, { 0x1000, 4 }, { 0x1000, 4 } },
	{ { 0x1000, 4 }, { 0x1000, 3 }, { 0x100c, 1 }, { 0x1000, 4 }, { 0x1000, 4 } },
};

static void decode_conflict(int cache, struct ranges *out)
{
	static const uint64_t pat[3] = { 0, 1u << 2, 1u << 6 };
	struct etm_image *img = etm_image_alloc();
	struct etm_flow *f;
	struct etm3_flow *e;
	unsigned t;

	memset(out, 0, sizeof(*out));
	ca_flow(img, cache, &f);
	if (!f)
		return;
	e = f->impl;
	for (t = 0; t < 6; t++)
		run(f, out, 16, pat[t % 3], ones, 0, 1000 * (t + 1));
	if (cache)
		ET_EQ(etm_e3_camemo_count(e, 0x1000, 0, 16), 3);
	ET_EQ(etm_flow_finish(f), 0);
	take(f, out);
	etm_flow_free(f);
	etm_image_free(img);
}

static void check_conflict(const struct ranges *g)
{
	unsigned t, j, n = 0, at;

	ET_EQ(g->n, 28);
	for (t = 0; t < 6; t++) {
		at = 0;
		for (j = 0; j < 5 && conflict_want[t % 3][j].ninsn; j++, n++) {
			const struct etm_elem *r = &g->r[n];

			if ((int)n >= g->n)
				return;
			ET_EQ(r->start, conflict_want[t % 3][j].start);
			ET_EQ(r->ninsn, conflict_want[t % 3][j].ninsn);
			ET_EQ(r->cycles, r->ninsn);
			ET_EQ(r->offset, 1000 * (t + 1) + at);
			at += r->ninsn;
		}
	}
}

static void memo_conflict(void)
{
	static struct ranges g, w;

	decode_conflict(1, &g);
	check_conflict(&g);
	decode_conflict(0, &w);
	check_conflict(&w);
}

int main(void)
{
	ETEST(memo_cycles);
	ETEST(walk_cycles);
	ETEST(memo_conflict);
	return etest_end();
}
