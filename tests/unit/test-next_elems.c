/* tests/unit/test-next_elems.c - the batch element API
 * (etm_decoder_next_elems) gives exactly the elements of etm_decoder_next(),
 * in order, for any batch size, any input chunking and mixed with next()
 * calls; on TC2 (every source) and the built-in sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

struct sum {
	uint64_t h, n;
};

static void mix(struct sum *s, uint64_t v)
{
	s->h = (s->h ^ v) * 1099511628211ull;
}

static void add(struct sum *s, const struct etm_elem *e)
{
	mix(s, e->offset);
	mix(s, (uint64_t)e->kind << 8 | e->id);
	mix(s, e->start);
	mix(s, e->end);
	mix(s, (uint64_t)e->isa << 32 | e->ninsn);
	mix(s, e->last_addr);
	mix(s, (uint64_t)e->last_exec << 16 | (uint64_t)e->last_atom << 8 |
		       e->has_cycles);
	mix(s, e->cycles);
	mix(s, (uint64_t)e->exc_num << 8 | e->exc_cancel);
	mix(s, e->ret_addr);
	mix(s, e->addr);
	mix(s, (uint64_t)e->ctxid << 8 | e->vmid);
	mix(s, (uint64_t)e->ns << 8 | e->hyp);
	mix(s, e->timestamp);
	mix(s, (uint64_t)(unsigned)e->err);
	s->n++;
}

/* Decode source @src of snapshot @s in chunks of @chunk; @batch = 0:
 * etm_decoder_next() only; > 0: next_elems() with that max; < 0: the two
 * alternating, next_elems() with max -@batch. */
static void run(const struct etm_snapshot *s,
		const struct etm_snap_source *src, size_t chunk, int batch,
		struct sum *out)
{
	const struct etm_snap_buffer *b = &s->buffers[0];
	struct etm_decoder *d = etm_decoder_alloc(b->format, etm_dec_elements);
	struct etm_image *img = NULL;
	struct sum *sm = out;
	static uint8_t buf[1 << 16];
	char err[256];
	FILE *f;
	size_t n;
	int done = 0, turn = 0, r;

	ET_CHECK(d != NULL);
	img = etm_image_alloc();
	ET_CHECK(img != NULL);
	ET_EQ(etm_snapshot_add_memory(src, img, err, sizeof(err)), 0);
	ET_EQ(etm_decoder_add_source(d, &src->cfg, img), 0);
	f = fopen(b->files[0], "rb");
	ET_CHECK(f != NULL);
	if (!f || chunk > sizeof(buf))
		return;
	while (!done) {
		n = fread(buf, 1, chunk, f);
		if (n)
			ET_EQ(etm_decoder_push(d, buf, n), 0);
		else
			ET_EQ(etm_decoder_finish(d), 0);
		for (;;) {
			if (batch == 0 || (batch < 0 && (turn++ & 1))) {
				struct etm_item it;

				r = etm_decoder_next(d, &it, sizeof(it));
				if (r == 0) {
					ET_EQ(it.kind, etm_item_elem);
					add(sm, &it.elem);
				}
			} else {
				const struct etm_elem *els = NULL;
				int i;

				r = etm_decoder_next_elems(d, &els,
							   (size_t)(batch < 0 ? -batch : batch));
				ET_CHECK(r != 0);
				for (i = 0; i < r; i++)
					add(sm, &els[i]);
				if (r > 0) {
					ET_CHECK(r <= (batch < 0 ? -batch : batch));
					r = 0;
				}
			}
			if (r == -etme_again)
				break;
			if (r == -etme_eos) {
				done = 1;
				break;
			}
			ET_EQ(r, 0);
			if (r)
				break;
		}
		if (r != -etme_again && r != -etme_eos)
			break;
	}
	fclose(f);
	etm_decoder_free(d);
	etm_image_free(img);
}

static void check_snapshot(const char *dir)
{
	struct etm_snapshot *s;
	char err[256];
	size_t i;
	uint64_t total = 0;
	static const size_t chunks[] = { 7, 65536 };
	static const int batches[] = { 1, 3, 256, -1, -5 };

	if (etm_snapshot_load(&s, dir, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", dir, err);
		ET_CHECK(0);
		return;
	}
	for (i = 0; i < s->nsources; i++) {
		struct sum ref = { 1469598103934665603ull, 0 };
		size_t c, k;

		run(s, &s->sources[i], 65536, 0, &ref);
		total += ref.n;

		for (c = 0; c < 2; c++)
			for (k = 0; k < sizeof(batches) / sizeof(*batches);
			     k++) {
				struct sum x = { 1469598103934665603ull, 0 };

				run(s, &s->sources[i], chunks[c], batches[k],
				    &x);
				ET_EQ(x.n, ref.n);
				ET_EQ(x.h, ref.h);
			}
	}
	printf("  %s: %zu sources, %llu elements each way\n", dir,
	       s->nsources, (unsigned long long)total);
	ET_CHECK(total >= 10);
	etm_snapshot_free(s);
}

static void sample(void)
{
	char dir[4096];
	const char *src = getenv("ETM_SRCDIR");

	snprintf(dir, sizeof(dir), "%s/examples/sample", src ? src : ".");
	check_snapshot(dir);
}

static void tc2(void)
{
	char dir[4096];
	const char *sh = getenv("ETM_SHARED");

	snprintf(dir, sizeof(dir), "%s/snapshots/TC2", sh ? sh : ETM_TESTDATA);
	check_snapshot(dir);
}

static void packet_items_refused(void)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw,
						  etm_dec_elements);
	const struct etm_elem *els;

	ET_CHECK(d != NULL);
	etm_decoder_set_packets(d, 1);
	ET_EQ(etm_decoder_next_elems(d, &els, 4), -etme_invalid);
	etm_decoder_free(d);
	d = etm_decoder_alloc(etm_fmt_raw, etm_dec_packets);
	ET_EQ(etm_decoder_next_elems(d, &els, 4), -etme_invalid);
	etm_decoder_free(d);
}

int main(void)
{
	ETEST(sample);
	ETEST(tc2);
	ETEST(packet_items_refused);
	return etest_end();
}
