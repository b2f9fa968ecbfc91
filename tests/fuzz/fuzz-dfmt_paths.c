/* tests/fuzz/fuzz-dfmt_paths.c - differential fuzz target for the CoreSight
 * deformatter's two paths over the same frame rules (source/frame_rules.h):
 * the byte path (etm_dfmt_alloc(), every byte through the frame assembler)
 * and the fast path (etm_dfmt_alloc_bulk(): whole aligned frames staged per
 * trace ID, handing over to the byte path where a frame needs it) must give
 * the same data bytes with the same trace IDs and input offsets, and the
 * same errors and syncs at the same offsets, in the same order. Header byte:
 * the fast path's chunk schedule (fz_chunk()). No realignment judge on
 * either path: frames naming a reserved ID realign by the frame structure
 * alone, which both paths share. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "fuzz.h"
#include "source/dfmt_bulk.h"

/* The output as one sequence: a hash of each event in order, and counts. */
struct paths_sum {
	uint64_t hash;
	size_t bytes, events;
};

static void put_byte(struct paths_sum *s, unsigned id, uint8_t b, uint64_t off)
{
	uint8_t k = 0;

	s->hash = fz_hash(s->hash, &k, 1);
	s->hash = fz_hash(s->hash, &id, sizeof(id));
	s->hash = fz_hash(s->hash, &b, 1);
	s->hash = fz_hash(s->hash, &off, sizeof(off));
	s->bytes++;
}

static void put_item(struct paths_sum *s, const struct etm_dfmt_item *it)
{
	uint8_t k = (uint8_t)(1 + it->kind);
	size_t i;

	if (it->kind == etm_dfmt_data) {
		for (i = 0; i < it->run.size; i++)
			put_byte(s, it->run.id, it->run.data[i],
				 it->run.offset + i);
		return;
	}
	s->hash = fz_hash(s->hash, &k, 1);
	s->hash = fz_hash(s->hash, &it->err, sizeof(it->err));
	s->hash = fz_hash(s->hash, &it->offset, sizeof(it->offset));
	s->events++;
}

/* Staged data of the fast path: each byte at its offset from the map. */
static void put_stage(struct paths_sum *s, const struct etm_dfmt_stage *st,
		      size_t n)
{
	size_t i, j, end;

	FZ_ASSERT(st->nseg > 0 && st->seg[0].pos == 0);
	for (j = 0; j < st->nseg; j++) {
		end = j + 1 < st->nseg ? st->seg[j + 1].pos : st->n;
		FZ_ASSERT(end > st->seg[j].pos && end <= st->n);
		for (i = st->seg[j].pos; i < end; i++) {
			FZ_ASSERT(st->seg[j].off + (i - st->seg[j].pos) < n);
			put_byte(s, st->id, st->data[i],
				 st->seg[j].off + (i - st->seg[j].pos));
		}
	}
}

/* Every trace ID decoded and live, as the fast path's hand-over tells the
 * byte path (etm_dfmt_seen_ids()). */
static void all_ids(uint8_t *sel)
{
	memset(sel, 0, 0x80);
	memset(sel + 1, 1, 0x6f);
}

static struct paths_sum byte_path(const uint8_t *in, size_t n)
{
	struct etm_dfmt *d = etm_dfmt_alloc(etm_fmt_coresight, 0);
	struct paths_sum s = { FZ_HASH_INIT, 0, 0 };
	struct etm_dfmt_item it;
	uint8_t sel[0x80];

	FZ_ASSERT(d);
	all_ids(sel);
	etm_dfmt_seen_ids(d, sel);
	FZ_ASSERT(etm_dfmt_push(d, in, n) == 0);
	while (memset(&it, 0, sizeof(it)), etm_dfmt_next(d, &it, sizeof(it)) == 0)
		put_item(&s, &it);
	FZ_ASSERT(etm_dfmt_finish(d) == 0);
	while (memset(&it, 0, sizeof(it)), etm_dfmt_next(d, &it, sizeof(it)) == 0)
		put_item(&s, &it);
	etm_dfmt_free(d);
	return s;
}

/* Drain the fast path; returns the last result (-etme_again/-etme_eos). */
static int fast_drain(struct etm_dfmt *d, const uint8_t *sel, size_t n,
		      struct paths_sum *s)
{
	struct etm_dfmt_item it;
	struct etm_dfmt_stage st;
	int r;

	for (;;) {
		memset(&it, 0, sizeof(it));
		r = etm_dfmt_next_bulk(d, sel, &it, &st);
		if (r == 1)
			put_stage(s, &st, n);
		else if (r == 0)
			put_item(s, &it);
		else
			return r;
		FZ_ASSERT(s->bytes + s->events <= 2 * n + 8);
	}
}

static struct paths_sum fast_path(const uint8_t *in, size_t n, uint8_t chunks)
{
	struct etm_dfmt *d = etm_dfmt_alloc_bulk(etm_fmt_coresight, 0);
	struct paths_sum s = { FZ_HASH_INIT, 0, 0 };
	uint8_t sel[0x80];
	size_t pos = 0, c;
	unsigned k = 0;

	FZ_ASSERT(d);
	all_ids(sel);
	while (pos < n) {
		c = fz_chunk(chunks, k++, n - pos);
		FZ_ASSERT(etm_dfmt_push(d, in + pos, c) == 0);
		FZ_ASSERT(fast_drain(d, sel, n, &s) == -etme_again);
		pos += c;
	}
	FZ_ASSERT(etm_dfmt_finish(d) == 0);
	FZ_ASSERT(fast_drain(d, sel, n, &s) == -etme_eos);
	etm_dfmt_free(d);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct paths_sum a, b;
	uint8_t chunks = fz_u8(&in);

	a = byte_path(in.p, in.n);
	b = fast_path(in.p, in.n, chunks);
	FZ_ASSERT(a.bytes == b.bytes);
	FZ_ASSERT(a.events == b.events);
	FZ_ASSERT(a.hash == b.hash);
	return 0;
}
