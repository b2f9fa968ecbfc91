/* tests/fuzz/fuzz-dfmt.c - fuzz target for the CoreSight frame deformatter:
 * header byte picks the format and chunk schedule; the output of a chunked
 * run must equal the one-shot run and stay within the input. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "fuzz.h"

struct dfmt_sum {
	uint64_t hash;
	size_t items, bytes;
};

static void check_item(const struct etm_dfmt_item *it, const uint8_t *in,
		       size_t n, uint64_t *last_off, struct dfmt_sum *s)
{
	uint64_t off;
	size_t i;

	/* data runs may be split differently by chunking: hash bytes, not
	 * items */
	s->items++;
	if (it->kind != etm_dfmt_data)
		s->hash = fz_hash(s->hash, &it->kind, sizeof(it->kind));
	switch (it->kind) {
	case etm_dfmt_data:
		FZ_ASSERT(it->run.id >= 0x01 && it->run.id <= 0x6f);
		FZ_ASSERT(it->run.size > 0 && it->run.data);
		FZ_ASSERT(it->run.offset < n &&
			  it->run.size <= n - it->run.offset);
		FZ_ASSERT(it->run.offset >= *last_off);
		for (i = 0; i < it->run.size; i++) {
			/* data bytes keep bits [7:1] of their input byte; bit 0
			 * may come from the aux byte */
			FZ_ASSERT(((it->run.data[i] ^ in[it->run.offset + i]) &
				   0xfe) == 0);
			off = it->run.offset + i;
			s->hash = fz_hash(s->hash, &it->run.id, 1);
			s->hash = fz_hash(s->hash, &it->run.data[i], 1);
			s->hash = fz_hash(s->hash, &off, sizeof(off));
		}
		*last_off = it->run.offset + it->run.size;
		s->bytes += it->run.size;
		break;
	case etm_dfmt_error:
		FZ_ASSERT(it->err > 0 && it->err < 64);
		FZ_ASSERT(it->offset <= n);
		s->hash = fz_hash(s->hash, &it->err, sizeof(it->err));
		s->hash = fz_hash(s->hash, &it->offset, sizeof(it->offset));
		break;
	case etm_dfmt_sync:
		FZ_ASSERT(it->offset <= n);
		s->hash = fz_hash(s->hash, &it->offset, sizeof(it->offset));
		break;
	default:
		FZ_ASSERT(0);
	}
}

static void drain(struct etm_dfmt *d, const uint8_t *in, size_t n,
		  uint64_t *last_off, struct dfmt_sum *s, int final)
{
	struct etm_dfmt_item it;
	int rc;

	for (;;) {
		memset(&it, 0, sizeof(it));
		rc = etm_dfmt_next(d, &it, sizeof(it));
		if (rc < 0) {
			FZ_ASSERT(rc == (final ? -etme_eos : -etme_again));
			return;
		}
		check_item(&it, in, n, last_off, s);
		/* bounded output: at most a few items per input byte */
		FZ_ASSERT(s->items <= 2 * n + 8);
	}
}

static struct dfmt_sum run(enum etm_input_format fmt, const uint8_t *in,
			   size_t n, uint8_t sel)
{
	struct etm_dfmt *d = etm_dfmt_alloc(fmt, 0);
	struct dfmt_sum s = { FZ_HASH_INIT, 0, 0 };
	uint64_t last_off = 0;
	size_t pos = 0;
	unsigned k = 0;

	FZ_ASSERT(d);
	while (pos < n) {
		size_t c = fz_chunk(sel, k++, n - pos);

		FZ_ASSERT(etm_dfmt_push(d, in + pos, c) == 0);
		drain(d, in, n, &last_off, &s, 0);
		pos += c;
	}
	FZ_ASSERT(etm_dfmt_finish(d) == 0);
	drain(d, in, n, &last_off, &s, 1);
	FZ_ASSERT(s.bytes <= n);
	etm_dfmt_free(d);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	enum etm_input_format fmt;
	struct dfmt_sum a, b;
	uint8_t sel;

	fmt = fz_u8(&in) & 1 ? etm_fmt_tpiu : etm_fmt_coresight;
	sel = fz_u8(&in);
	a = run(fmt, in.p, in.n, 0);
	if (sel) {
		b = run(fmt, in.p, in.n, sel);
		FZ_ASSERT(a.hash == b.hash && a.bytes == b.bytes);
	}
	return 0;
}
