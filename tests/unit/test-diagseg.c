/* tests/unit/test-diagseg.c - diagnostics segments (etm_diag_alloc_segment,
 * etm_diag_append), as parallel decode uses them: a random item stream cut
 * into segments at random points and appended in order gives the same
 * counts as one diagnostics object seeing every item, and leaves the same
 * state (checked by feeding more items to both afterwards); the same with
 * the elements given in batches of random lengths (etm_diag_elems_byid(),
 * as the listing formatter gives them), to segments and to a whole; all of
 * it again with packed segments (etm_diag_pack_segment(), counts kept in
 * the slot words: parallel decode of several sources), also with addresses
 * above 2^32 (kept in the table); a whole fed in batches against one fed
 * item by item with addresses above 2^63 (tagged slot values); and counts past what a packed slot holds
 * (moved to the table), against a count derived by hand. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"
#include "probe/diag_int.h"

#define NITEMS 20000

static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Halfwords of the address space the branches go to: 4096 gives each of
 * the diagnostics' 1024 slots 4 values, 16384 gives them 16 (more than a
 * segment keeps per slot: the rest go to its table). */
static unsigned span = 4096;
static uint64_t loop_to = 0x100;
/* branch targets also 2^32 higher (1: values a packed slot cannot hold)
 * or 2^63 higher (2: values a whole's slot holds tagged, which turn its
 * batch fast path off) */
static int high;
/* branches into an instruction counted over all seeds */
static uint64_t mid_total;

/* Items of trace ID 0x10 (and some of 0x11, ignored): ranges over a small
 * address space so that branch targets hit recent 4-byte instructions, sync
 * changes and errors. */
static void gen(struct etm_item *it, uint32_t *s, uint64_t *pc)
{
	unsigned r = rng(s) % 100;
	struct etm_elem *e = &it->elem;

	memset(it, 0, sizeof(*it));
	it->kind = etm_item_elem;
	e->id = rng(s) % 20 ? 0x10 : 0x11;
	if (r < 80) {
		unsigned n = 1 + rng(s) % 4;

		if (rng(s) % 3) /* a branch, half of them back (a loop) */
			*pc = rng(s) % 2 ? loop_to : (loop_to = (rng(s) % span) * 2);
		if (high && rng(s) % 4 == 0)
			*pc += (uint64_t)1 << (high == 2 ? 63 : 32);
		e->kind = etmk_range;
		e->start = *pc;
		e->last_size = rng(s) % 2 ? 4 : 2;
		e->last_addr = *pc + 2 * (n - 1);
		e->end = e->last_addr + e->last_size;
		e->ninsn = n;
		e->last_cls = rng(s) % 50 ? etmc_other : etmc_undefined;
		e->last_atom = 1;
		e->last_exec = 1;
		*pc = e->end;
	} else if (r < 85) {
		e->kind = etmk_trace_on;
	} else if (r < 90) {
		e->kind = etmk_nosync;
	} else if (r < 94) {
		e->kind = etmk_nomem;
	} else {
		static const int errs[] = { etme_bad_packet, etme_mismatch,
					    etme_retstack_empty, etme_truncated };

		e->kind = etmk_error;
		e->err = errs[rng(s) % 4];
	}
	if (rng(s) % 50 == 0) { /* a packet item now and then */
		it->kind = etm_item_packet;
		it->pkt.id = 0x10;
		it->pkt.type = rng(s) % 4 ? etmp_atom : etmp_error;
	}
}

static int same_counts(const struct etm_diag *a, const struct etm_diag *b)
{
	struct etm_diag_counts x, y;

	etm_diag_counts(a, &x, sizeof(x));
	etm_diag_counts(b, &y, sizeof(y));
	return !memcmp(&x, &y, sizeof(x));
}

/* Elements queued for a batch (of trace ID 0x10: byid[0x10] is the
 * diagnostics object; 0x11 has none). */
struct batch {
	struct etm_diag *byid[128];
	struct etm_elem els[64];
	size_t n;
	int packed; /* byid[] holds packed segments */
};

static void batch_flush(struct batch *b)
{
	if (b->packed)
		etm_diag_elems_packed(b->byid, b->els, b->n);
	else
		etm_diag_elems_byid(b->byid, b->els, b->n);
	b->n = 0;
}

/* Item @it to @b's object: elements queued (up to a random batch end),
 * packets in order after the queued elements. */
static void batch_item(struct batch *b, const struct etm_item *it,
		       uint32_t *s)
{
	if (it->kind != etm_item_elem) {
		batch_flush(b);
		etm_diag_item(b->byid[0x10], it);
		return;
	}
	b->els[b->n++] = it->elem;
	if (b->n == 64 || rng(s) % 8 == 0)
		batch_flush(b);
}

/* A segment for one(): packed or not. */
static struct etm_diag *segment(const struct etm_config *cfg, int packed)
{
	struct etm_diag *d = etm_diag_alloc_segment(cfg, NULL);

	if (d && packed && etm_diag_pack_segment(d) < 0) {
		etm_diag_free(d);
		return NULL;
	}
	return d;
}

static void one(uint32_t seed, unsigned maxseg, int packed)
{
	struct etm_config cfg;
	struct etm_diag *whole, *cat, *seg, *bcat;
	struct batch bw = { .n = 0 }, bs = { .n = 0 };
	struct etm_item it;
	uint32_t s = seed, bsr = seed;
	uint64_t pc = 0x100;
	unsigned i, left = 0;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	whole = etm_diag_alloc(&cfg, NULL);
	cat = etm_diag_alloc(&cfg, NULL);
	seg = segment(&cfg, packed);
	bcat = etm_diag_alloc(&cfg, NULL);
	bw.byid[0x10] = etm_diag_alloc(&cfg, NULL);
	bs.byid[0x10] = segment(&cfg, packed);
	bs.packed = packed;
	ET_CHECK(whole && cat && seg && bcat && bw.byid[0x10] && bs.byid[0x10]);
	for (i = 0; i < NITEMS; i++) {
		if (!left) {
			ET_EQ(etm_diag_append(cat, seg), 0);
			etm_diag_reset_segment(seg);
			batch_flush(&bs);
			ET_EQ(etm_diag_append(bcat, bs.byid[0x10]), 0);
			etm_diag_reset_segment(bs.byid[0x10]);
			left = 1 + rng(&s) % maxseg;
		}
		left--;
		gen(&it, &s, &pc);
		etm_diag_item(whole, &it);
		etm_diag_item(seg, &it);
		batch_item(&bw, &it, &bsr);
		batch_item(&bs, &it, &bsr);
	}
	ET_EQ(etm_diag_append(cat, seg), 0);
	batch_flush(&bw);
	batch_flush(&bs);
	ET_EQ(etm_diag_append(bcat, bs.byid[0x10]), 0);
	ET_CHECK(same_counts(whole, cat));
	ET_CHECK(same_counts(whole, bw.byid[0x10]));
	ET_CHECK(same_counts(whole, bcat));
	{
		struct etm_diag_counts c;

		etm_diag_counts(whole, &c, sizeof(c));
		mid_total += c.mid_insn;
	}
	/* the state after the appends: more items give the same counts */
	for (i = 0; i < 2000; i++) {
		gen(&it, &s, &pc);
		etm_diag_item(whole, &it);
		etm_diag_item(cat, &it);
	}
	ET_CHECK(same_counts(whole, cat));
	ET_EQ(etm_diag_append(seg, cat), -etme_invalid);
	etm_diag_free(whole);
	etm_diag_free(cat);
	etm_diag_free(seg);
	etm_diag_free(bcat);
	etm_diag_free(bw.byid[0x10]);
	etm_diag_free(bs.byid[0x10]);
}

static void test_segments(void)
{
	uint32_t seed;

	for (seed = 1; seed <= 40; seed++) {
		span = seed % 3 ? 4096 : 16384;
		high = seed % 5 == 0;
		one(seed * 2654435761u, seed % 4 ? 50 : 3000, 0);
		one(seed * 2654435761u, seed % 4 ? 50 : 3000, 1);
	}
	high = 0;
	ET_CHECK(mid_total > 0); /* the stream has what segments keep pending */
}

/* Branch targets also 2^63 higher (slot values with the tag bit, which a
 * segment cannot tell from its pending ones; a whole fed in batches leaves
 * its fast path for them): a whole fed item by item and one fed in batches
 * give the same counts. */
static void test_whole_tagged(void)
{
	struct etm_config cfg;
	struct etm_diag *whole;
	struct batch bw = { .n = 0 };
	struct etm_item it;
	uint32_t seed, s, bsr;
	uint64_t pc;
	unsigned i;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	high = 2;
	for (seed = 1; seed <= 8; seed++) {
		whole = etm_diag_alloc(&cfg, NULL);
		bw.byid[0x10] = etm_diag_alloc(&cfg, NULL);
		ET_CHECK(whole && bw.byid[0x10]);
		s = bsr = seed * 2654435761u;
		pc = 0x100;
		for (i = 0; i < NITEMS; i++) {
			gen(&it, &s, &pc);
			etm_diag_item(whole, &it);
			batch_item(&bw, &it, &bsr);
		}
		batch_flush(&bw);
		ET_CHECK(same_counts(whole, bw.byid[0x10]));
		etm_diag_free(whole);
		etm_diag_free(bw.byid[0x10]);
	}
	high = 0;
}

/* A range of ID 0x10 from @start over @n 2-byte instructions ending in one
 * of @last_size bytes. */
static struct etm_elem range(uint64_t start, unsigned n, unsigned last_size)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.id = 0x10;
	e.kind = etmk_range;
	e.start = start;
	e.last_addr = start + 2 * (n - 1);
	e.last_size = (uint8_t)last_size;
	e.end = e.last_addr + last_size;
	e.ninsn = n;
	e.last_cls = etmc_other;
	e.last_atom = e.last_exec = 1;
	return e;
}

/* More lookups of one slot's values than a packed slot counts: a 4-byte
 * instruction at 0x2000 ends the range before the segment; in it, 280000
 * ranges: the first 100000 start at 0x2002 (two bytes into it: each is a
 * branch into an instruction; the slot's pending value in wide[]), then
 * one in four at 0x2802 (the same slot, 0x2800 / 2 % 1024 = 0, no
 * instruction there; it takes wide[], 0x2002's lookups go on in alt[]),
 * the rest at 0x2002; none writes the slot. By hand: mid_insn 100000 +
 * 180000 * 3 / 4 = 235000, in a whole and in segments appended, packed or
 * not, fed one by one or in batches. */
static void test_full_counts(void)
{
	struct etm_config cfg;
	struct etm_elem r0 = range(0x1ffc, 3, 4), e;
	struct etm_diag_counts c;
	struct etm_diag *whole, *cat[4], *seg[4];
	struct batch b[2];
	unsigned k, v;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	whole = etm_diag_alloc(&cfg, NULL);
	ET_CHECK(whole != NULL);
	etm_diag_elem(whole, &r0);
	for (v = 0; v < 4; v++) {
		cat[v] = etm_diag_alloc(&cfg, NULL);
		seg[v] = segment(&cfg, v & 1);
		ET_CHECK(cat[v] && seg[v]);
		etm_diag_elem(cat[v], &r0);
	}
	memset(b, 0, sizeof(b));
	for (v = 0; v < 2; v++) {
		b[v].byid[0x10] = seg[2 + v];
		b[v].packed = (int)v;
	}
	for (k = 0; k < 280000; k++) {
		e = range(k >= 100000 && k % 4 == 3 ? 0x2802 : 0x2002, 1, 2);
		etm_diag_elem(whole, &e);
		etm_diag_elem(seg[0], &e);
		etm_diag_elem(seg[1], &e);
		for (v = 0; v < 2; v++) {
			b[v].els[b[v].n++] = e;
			if (b[v].n == 64)
				batch_flush(&b[v]);
		}
	}
	for (v = 0; v < 2; v++)
		batch_flush(&b[v]);
	etm_diag_counts(whole, &c, sizeof(c));
	ET_EQ(c.mid_insn, 235000);
	for (v = 0; v < 4; v++) {
		ET_EQ(etm_diag_append(cat[v], seg[v]), 0);
		etm_diag_counts(cat[v], &c, sizeof(c));
		ET_EQ(c.mid_insn, 235000);
		ET_CHECK(same_counts(whole, cat[v]));
		etm_diag_free(cat[v]);
		etm_diag_free(seg[v]);
	}
	/* a segment fed already is not packed afterwards */
	seg[0] = etm_diag_alloc_segment(&cfg, NULL);
	etm_diag_elem(seg[0], &r0);
	ET_EQ(etm_diag_pack_segment(seg[0]), -etme_invalid);
	ET_EQ(etm_diag_pack_segment(whole), -etme_invalid);
	etm_diag_free(seg[0]);
	etm_diag_free(whole);
}

int main(void)
{
	etest_run("diag segments appended = whole", test_segments);
	etest_run("diag counts past a packed slot's", test_full_counts);
	etest_run("diag whole in batches, tagged addresses", test_whole_tagged);
	return etest_end();
}
