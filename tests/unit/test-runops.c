/* tests/unit/test-runops.c - etm_decoder_run_ops() hands the same elements
 * in the same order whether the consumer takes them one item at a time
 * (item) or in batches (elems), on 1, 2 and 3 threads, and the same as
 * etm_decoder_run() on one thread; batches are used only when the decoder
 * gives elements without packet items; etm_decoder_run() on 2 and 8
 * threads gives the items of a plain streamed decode. Inputs: TC2's
 * five-source CoreSight buffer replicated, and raw synthetic ETMv3 (not cycle-accurate: the
 * plain loop and walk memo) and PTM trace from the encoder. The same
 * inputs decoded chunk by chunk (etmtrace/chunk.h), each chunk on its own
 * decoder and stitched by the plan's rule, give the same elements. A
 * consumer that delivers its own output while live (etm_run_ops.live) on
 * 2, 4 and 8 threads too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "etest.h"

#define P 0x100000001b3ull

/* An order-dependent hash that pieces combine in input order:
 * h(a then b) = h(a) * P^n(b) + h(b). */
struct hsum {
	uint64_t h, pw, n;
	uint64_t packets;
	uint64_t item_calls, elems_calls;
	unsigned calls; /* calls since the last own cut */
};

static void mix(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 1099511628211ull;
}

static uint64_t ehash(const struct etm_elem *e)
{
	uint64_t h = 1469598103934665603ull;

	mix(&h, e->offset);
	mix(&h, (uint64_t)e->kind << 8 | e->id);
	mix(&h, e->start);
	mix(&h, e->end);
	mix(&h, (uint64_t)e->isa << 32 | e->ninsn);
	mix(&h, e->last_addr);
	mix(&h, (uint64_t)e->last_exec << 16 | (uint64_t)e->last_atom << 8 |
			e->has_cycles);
	mix(&h, e->cycles);
	mix(&h, (uint64_t)e->exc_num << 8 | e->exc_cancel);
	mix(&h, e->ret_addr);
	mix(&h, e->addr);
	mix(&h, (uint64_t)e->ctxid << 8 | e->vmid);
	mix(&h, (uint64_t)e->ns << 8 | e->hyp);
	mix(&h, e->timestamp);
	mix(&h, (uint64_t)(unsigned)e->err);
	return h;
}

static void hs_init(struct hsum *s)
{
	memset(s, 0, sizeof(*s));
	s->pw = 1;
}

static void hs_elem(struct hsum *s, const struct etm_elem *e)
{
	s->h = s->h * P + ehash(e);
	s->pw *= P;
	s->n++;
}

static void hs_add(struct hsum *to, const struct hsum *b)
{
	to->h = to->h * b->pw + b->h;
	to->pw *= b->pw;
	to->n += b->n;
	to->packets += b->packets;
	to->item_calls += b->item_calls;
	to->elems_calls += b->elems_calls;
}

/* Every 7th call asks for a cut: pieces of every size. */
static int own_cut(struct hsum *s)
{
	return ++s->calls % 7 == 0;
}

static void *c_open(void *ctx)
{
	struct hsum *s = malloc(sizeof(*s));

	(void)ctx;
	if (s)
		hs_init(s);
	return s;
}

static int c_item(void *state, const struct etm_item *it)
{
	struct hsum *s = state;

	s->item_calls++;
	if (it->kind == etm_item_elem)
		hs_elem(s, &it->elem);
	else
		s->packets++;
	return own_cut(s);
}

/* Elements handed to c_elems() on every thread: with those of the pieces
 * dropped (a chunk's output before its predecessor's decoder converged
 * with it), more than the run delivers. */
static uint64_t consumed;

static int c_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct hsum *s = state;
	size_t i;

	__atomic_add_fetch(&consumed, n, __ATOMIC_RELAXED);
	s->elems_calls++;
	for (i = 0; i < n; i++)
		hs_elem(s, &els[i]);
	return own_cut(s);
}

static int c_cut(void *state, void **piece, size_t *bytes)
{
	struct hsum *s = state, *p = malloc(sizeof(*p));

	if (!p)
		return -etme_nomem;
	*p = *s;
	hs_init(s);
	s->calls = p->calls;
	*piece = p;
	*bytes = sizeof(*p);
	return 0;
}

static int c_emit(void *ctx, void *piece)
{
	hs_add(ctx, piece);
	free(piece);
	return 0;
}

static void c_drop(void *ctx, void *piece)
{
	(void)ctx;
	free(piece);
}

static const struct etm_run_ops ops_item = {
	.open = c_open, .item = c_item, .cut = c_cut, .emit = c_emit, .drop = c_drop, .close = free
};

static const struct etm_run_ops ops_batch = {
	.open = c_open, .item = c_item, .cut = c_cut, .emit = c_emit, .drop = c_drop, .close = free, .elems = c_elems
};

/* With a small queue budget: a chunk's head keeps at most a quarter of
 * its queue limit raw (run/defer.c), the rest of the head is consumed in
 * place, so a dense head is kept partly raw. */
static const struct etm_run_ops ops_small = {
	.open = c_open, .item = c_item, .cut = c_cut, .emit = c_emit, .drop = c_drop, .close = free, .elems = c_elems, .budget = 256u << 10
};

/* A live consumer (etm_run_ops.live): while its worker delivers, the
 * elements go straight into the total, as the CLI's formatter writes its
 * text straight out; the order-dependent hash shows that everything
 * before them was emitted first, and nothing after. */
struct lstate {
	struct hsum s;
	struct hsum *out;
	int live;
};

static unsigned long live_calls, live_bad; /* bad: not alternating */

static void *l_open(void *ctx)
{
	struct lstate *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	hs_init(&l->s);
	l->out = ctx;
	l->live = 0;
	return l;
}

static int l_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct lstate *l = state;
	size_t i;

	if (!l->live)
		return c_elems(&l->s, els, n);
	__atomic_add_fetch(&consumed, n, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		hs_elem(l->out, &els[i]);
	return own_cut(&l->s);
}

static int l_item(void *state, const struct etm_item *it)
{
	struct lstate *l = state;

	if (!l->live)
		return c_item(&l->s, it);
	if (it->kind == etm_item_elem)
		hs_elem(l->out, &it->elem);
	else
		l->out->packets++;
	return own_cut(&l->s);
}

static int l_cut(void *state, void **piece, size_t *bytes)
{
	return c_cut(&((struct lstate *)state)->s, piece, bytes);
}

static int l_live(void *state, int on)
{
	struct lstate *l = state;

	if (l->live == on)
		__atomic_add_fetch(&live_bad, 1, __ATOMIC_RELAXED);
	l->live = on;
	__atomic_add_fetch(&live_calls, 1, __ATOMIC_RELAXED);
	return 0;
}

static const struct etm_run_ops ops_live = {
	.open = l_open, .item = l_item, .cut = l_cut, .emit = c_emit, .drop = c_drop, .close = free, .elems = l_elems, .live = l_live
};

static int ref_item(void *ctx, const struct etm_item *it)
{
	struct hsum *s = ctx;

	if (it->kind == etm_item_elem)
		hs_elem(s, &it->elem);
	else
		s->packets++;
	return 0;
}

/* A decoder for @fmt with @n sources; @packets: packet items on. */
static struct etm_decoder *dec(enum etm_input_format fmt,
			       const struct etm_config *cfg,
			       struct etm_image *const *img, size_t n,
			       int packets)
{
	struct etm_decoder *d = etm_decoder_alloc(fmt, etm_dec_elements);
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++)
		if (etm_decoder_add_source(d, &cfg[i], img[i]) < 0) {
			etm_decoder_free(d);
			return NULL;
		}
	if (packets)
		etm_decoder_set_packets(d, 1);
	return d;
}

/* Every chunk of a plan of @target bytes decoded on its own; the outputs
 * of chunk 0 and of the chunks each names next, concatenated, must be the
 * reference's elements. */
static void check_chunks(const struct hsum *ref, enum etm_input_format fmt,
			 const struct etm_config *cfg,
			 struct etm_image *const *img, size_t nsrc,
			 const struct etest_mem *in, uint64_t target)
{
	struct etm_decoder *d = dec(fmt, cfg, img, nsrc, 0);
	struct etm_chunk *ch = NULL;
	const struct etm_elem *els;
	struct hsum x, part;
	uint64_t want = 0;
	size_t n = 0, i, used = 0;
	int k;

	ET_CHECK(d != NULL);
	ET_EQ(etm_chunk_plan(d, etest_mem_read, (void *)in, in->n, target, 1, &ch, &n), 0);
	ET_CHECK(n >= 2);
	hs_init(&x);
	for (i = 0; i < n; i++) {
		struct etm_chunk_dec *c;

		/* contiguous, starting at sync points */
		ET_EQ(ch[i].offset, i ? ch[i - 1].offset + ch[i - 1].length : 0);
		if (i && fmt == etm_fmt_coresight)
			ET_CHECK((in->b[ch[i].offset] & 1) &&
				 in->b[ch[i].offset] != 0xff);
		if (i && fmt == etm_fmt_raw)
			ET_EQ(in->b[ch[i].offset + 5], 0x80);
		if (fmt == etm_fmt_coresight)
			ET_CHECK(ch[i].ids[0] != 0);
		c = etm_chunk_dec_alloc(d, etest_mem_read, (void *)in, in->n, target,
					ch[i].offset, ch[i].length);
		ET_CHECK(c != NULL);
		hs_init(&part);
		while ((k = etm_chunk_dec_next(c, &els, 256)) > 0)
			while (k--)
				hs_elem(&part, els++);
		ET_EQ(k, -etme_eos);
		if (ch[i].offset == want) {
			hs_add(&x, &part);
			want = etm_chunk_dec_next_chunk(c);
			used++;
		}
		etm_chunk_dec_free(c);
	}
	ET_EQ(ch[n - 1].offset + ch[n - 1].length, in->n);
	ET_EQ(want, in->n);
	ET_EQ(x.n, ref->n);
	ET_EQ(x.h, ref->h);
	printf("  %zu chunks of ~%llu bytes, %zu stitched: same elements\n",
	       n, (unsigned long long)target, used);
	free(ch);
	etm_decoder_free(d);
}

/* The reference without the runner: the whole input pushed to one
 * decoder and drained (packet items counted, elements hashed). */
static void ref_stream(struct hsum *ref, struct etm_decoder *d,
		       const struct etest_mem *in)
{
	struct etm_item it;
	int r;

	hs_init(ref);
	ET_EQ(etm_decoder_push(d, in->b, in->n), 0);
	for (r = 0; r == 0 || r == -etme_again;) {
		r = etm_decoder_next(d, &it, sizeof(it));
		if (r == -etme_again)
			r = etm_decoder_finish(d) < 0 ? -etme_internal : 1;
		else if (r == 0)
			ref_item(ref, &it);
		if (r == 1)
			r = 0;
	}
	ET_EQ(r, -etme_eos);
}

/* etm_decoder_run() on 2 and 8 threads (items copied to the calling
 * thread in blocks) gives the streamed decode's items and packet count;
 * on 8, the figures of etm_decoder_run_ops_stats() add up. */
/* @far: chunks converge a quarter or more into their heads (TC2's five
 * sources), so that their heads are kept raw and consumed only after the
 * convergence (run/defer.c): without void chunks, every element once. */
static void check_run_jobs(enum etm_input_format fmt,
			   const struct etm_config *cfg,
			   struct etm_image *const *img, size_t nsrc,
			   const struct etest_mem *in, int far)
{
	static const unsigned jobs[] = { 2, 8 };
	struct etm_run_thread th[8];
	struct etm_run_stats st;
	struct hsum ref, x;
	struct etm_decoder *d;
	uint64_t pk, sum;
	unsigned i, k;

	d = dec(fmt, cfg, img, nsrc, 1);
	ET_CHECK(d != NULL);
	ref_stream(&ref, d, in);
	pk = etm_decoder_packet_count(d);
	etm_decoder_free(d);
	ET_EQ(ref.packets, pk);
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		hs_init(&x);
		d = dec(fmt, cfg, img, nsrc, 1);
		ET_CHECK(d != NULL);
		ET_EQ(etm_decoder_run(d, etest_mem_read, (void *)in, in->n, jobs[i],
				      ref_item, &x),
		      0);
		ET_EQ(x.n, ref.n);
		ET_EQ(x.h, ref.h);
		ET_EQ(x.packets, ref.packets);
		ET_EQ(etm_decoder_packet_count(d), pk);
		etm_decoder_free(d);
		/* figures of a run_ops run */
		hs_init(&x);
		memset(&st, 0, sizeof(st));
		st.thread = th;
		st.threads_cap = 8;
		d = dec(fmt, cfg, img, nsrc, 0);
		ET_CHECK(d != NULL);
		consumed = 0;
		ET_EQ(etm_decoder_run_ops_stats(d, etest_mem_read, (void *)in, in->n,
						jobs[i], &ops_batch, &x, &st),
		      0);
		etm_decoder_free(d);
		ET_EQ(x.h, ref.h);
		if (far && !st.chunks_void)
			ET_EQ(consumed, ref.n);
		ET_CHECK(consumed >= ref.n);
		ET_EQ(st.threads, jobs[i]);
		ET_EQ(st.bytes, in->n);
		ET_CHECK(st.chunks >= 2);
		ET_CHECK(st.decoded >= st.bytes);
		ET_CHECK(st.head_redundant <= st.decoded - st.bytes);
		ET_CHECK(st.chunks_void + st.chunks_claimed < st.chunks);
		for (sum = 0, k = 0; k < jobs[i]; k++)
			sum += th[k].decoded;
		ET_EQ(sum, st.decoded);
		printf("  run_ops --jobs %u: %llu chunks (%llu void), %.1f%% "
		       "decoded twice, %.2f%% of the elements consumed twice\n",
		       jobs[i], (unsigned long long)st.chunks,
		       (unsigned long long)st.chunks_void,
		       100.0 * (double)(st.decoded - st.bytes) /
			       (double)st.bytes,
		       100.0 * (double)(consumed - ref.n) / (double)ref.n);
	}
	printf("  etm_decoder_run --jobs 2, 8: same items, %llu packets\n",
	       (unsigned long long)pk);
}

/* A live consumer (ops_live) on @jobs threads gets the reference's
 * elements (@pk: as packet items); some of them live, and the calls to
 * live() pair. */
static void check_live(const struct hsum *ref, enum etm_input_format fmt,
		       const struct etm_config *cfg,
		       struct etm_image *const *img, size_t nsrc,
		       const struct etest_mem *in, unsigned jobs, int pk)
{
	struct etm_run_stats st;
	struct hsum x;
	struct etm_decoder *d;

	hs_init(&x);
	memset(&st, 0, sizeof(st));
	live_calls = 0;
	d = dec(fmt, cfg, img, nsrc, pk);
	ET_CHECK(d != NULL);
	ET_EQ(etm_decoder_run_ops_stats(d, etest_mem_read, (void *)in, in->n, jobs,
					&ops_live, &x, &st),
	      0);
	etm_decoder_free(d);
	ET_EQ(x.n, ref->n);
	ET_EQ(x.h, ref->h);
	ET_CHECK(st.emit_live > 0);
	ET_CHECK(live_calls > 0 && live_calls % 2 == 0);
	ET_EQ(live_bad, 0);
	printf("  live --jobs %u%s: %.1f%% of the piece bytes emitted live, "
	       "%lu live stretches\n",
	       jobs, pk ? " (items)" : "",
	       100.0 * (double)st.emit_live /
		       (double)(st.emit_live + st.emit_caller),
	       live_calls / 2);
}

/* Every way gives the reference's elements; batches only where allowed. */
static void check_input(const char *what, enum etm_input_format fmt,
			const struct etm_config *cfg,
			struct etm_image *const *img, size_t nsrc,
			const struct etest_mem *in, int far)
{
	struct hsum ref, x;
	struct etm_decoder *d;
	unsigned jobs, pk, b;

	hs_init(&ref);
	d = dec(fmt, cfg, img, nsrc, 0);
	ET_CHECK(d != NULL);
	ET_EQ(etm_decoder_run(d, etest_mem_read, (void *)in, in->n, 1, ref_item, &ref), 0);
	etm_decoder_free(d);
	ET_CHECK(ref.n > 10000);
	check_chunks(&ref, fmt, cfg, img, nsrc, in, 64u << 10);
	check_chunks(&ref, fmt, cfg, img, nsrc, in, 200000);
	for (pk = 0; pk < 2; pk++)
		for (b = 0; b < 2; b++)
			for (jobs = 1; jobs <= 3; jobs++) {
				hs_init(&x);
				d = dec(fmt, cfg, img, nsrc, (int)pk);
				ET_CHECK(d != NULL);
				ET_EQ(etm_decoder_run_ops(d, etest_mem_read, (void *)in,
							  in->n, jobs,
							  b ? &ops_batch :
							      &ops_item,
							  &x),
				      0);
				etm_decoder_free(d);
				ET_EQ(x.n, ref.n);
				ET_EQ(x.h, ref.h);
				if (pk) {
					/* packet items: no batches */
					ET_EQ(x.elems_calls, 0);
					ET_CHECK(x.packets > 0);
				} else if (b) {
					ET_EQ(x.item_calls, 0);
					ET_CHECK(x.elems_calls > 0);
					/* (batches average 2-4 elements on
					 * these inputs: exceptions, I-syncs
					 * and source switches end them) */
					ET_CHECK(x.elems_calls < x.n);
				} else {
					ET_EQ(x.elems_calls, 0);
					ET_EQ(x.item_calls, x.n);
				}
			}
	for (jobs = 2; jobs <= 3; jobs++) {
		hs_init(&x);
		d = dec(fmt, cfg, img, nsrc, 0);
		ET_CHECK(d != NULL);
		ET_EQ(etm_decoder_run_ops(d, etest_mem_read, (void *)in, in->n, jobs,
					  &ops_small, &x),
		      0);
		etm_decoder_free(d);
		ET_EQ(x.n, ref.n);
		ET_EQ(x.h, ref.h);
	}
	for (pk = 0; pk < 2; pk++)
		for (jobs = 2; jobs <= 8; jobs *= 2)
			check_live(&ref, fmt, cfg, img, nsrc, in, jobs, (int)pk);
	check_run_jobs(fmt, cfg, img, nsrc, in, far);
	printf("  %s: %zu bytes, %llu elements each way\n", what, in->n,
	       (unsigned long long)ref.n);
}

static void tc2(void)
{
	char dir[4096], err[256];
	const char *sh = getenv("ETM_SHARED");
	struct etm_snapshot *s;
	struct etm_config cfg[8];
	struct etm_image *img[8] = { 0 };
	struct etest_mem in = { 0 };
	uint8_t *one = NULL, *all = NULL;
	size_t i, n = 0, k;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/snapshots/TC2", sh ? sh : ETM_TESTDATA);
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	ET_CHECK(s->nsources <= 8);
	for (i = 0; i < s->nsources; i++) {
		cfg[i] = s->sources[i].cfg;
		img[i] = etm_image_alloc();
		ET_CHECK(img[i] != NULL);
		ET_EQ(etm_snapshot_add_memory(&s->sources[i], img[i], err,
					      sizeof(err)),
		      0);
	}
	one = malloc(1 << 16);
	f = fopen(s->buffers[0].files[0], "rb");
	if (one && f)
		n = fread(one, 1, 1 << 16, f);
	if (f)
		fclose(f);
	ET_CHECK(n == 32768);
	/* 64 copies: 2 MiB, chunks for three threads */
	all = malloc(n * 64);
	ET_CHECK(all != NULL);
	for (k = 0; k < 64; k++)
		memcpy(all + k * n, one, n);
	in.b = all;
	in.n = n * 64;
	check_input("TC2 x64", s->buffers[0].format, cfg, img, s->nsources,
		    &in, 1);
	for (i = 0; i < s->nsources; i++)
		etm_image_free(img[i]);
	free(one);
	free(all);
	etm_snapshot_free(s);
}

/* Raw synthetic trace of @proto: a random program executed for 600 k
 * instructions, A-sync every 4 KiB and I-sync every 1 KiB (cut points). */
static void synth(enum etm_protocol proto)
{
	struct etm_gen_opts go;
	struct etm_enc_opts eo;
	struct etm_config cfg;
	struct etm_gen *g;
	struct etm_enc *e;
	struct etm_image *img = etm_image_alloc();
	const struct etm_ev *ev;
	const uint8_t *b;
	struct etest_mem in;
	size_t nev, i;

	ET_CHECK(img != NULL);
	memset(&go, 0, sizeof(go));
	go.size = sizeof(go);
	go.seed = 7;
	go.proto = proto;
	go.flags = ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_EXC |
		   (proto == etm_proto_etmv3 ? ETM_GEN_CANCEL : 0);
	go.ninsn = 600000;
	g = etm_gen_alloc(&go, sizeof(go));
	ET_CHECK(g != NULL);
	ET_EQ(etm_gen_add_to_image(g, img), 0);
	etm_config_init(&cfg);
	cfg.protocol = proto;
	cfg.traceid = 0x10;
	/* as TC2's: ETM 3.5 / PTM 1.1, not cycle-accurate */
	cfg.etmidr = proto == etm_proto_ptm ? 0x411CF312 : 0x410CF250;
	cfg.etmccer = proto == etm_proto_ptm ? 0x34C01AC2 : 0x344008F2;
	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = cfg;
	eo.isync_period = 1024;
	eo.async_period = 4096;
	e = etm_enc_alloc(&eo, sizeof(eo), img);
	ET_CHECK(e != NULL);
	ev = etm_gen_events(g, &nev);
	for (i = 0; i < nev; i++)
		ET_EQ(etm_enc_put(e, &ev[i]), 0);
	ET_EQ(etm_enc_finish(e), 0);
	b = etm_enc_data(e, &in.n);
	in.b = b;
	ET_CHECK(in.n > (256u << 10));
	check_input(proto == etm_proto_ptm ? "synthetic PTM" :
					     "synthetic ETMv3",
		    etm_fmt_raw, &cfg, &img, 1, &in, 0);
	etm_enc_free(e);
	etm_gen_free(g);
	etm_image_free(img);
}

static void synth_etm3(void)
{
	synth(etm_proto_etmv3);
}

static void synth_ptm(void)
{
	synth(etm_proto_ptm);
}

int main(void)
{
	ETEST(tc2);
	ETEST(synth_etm3);
	ETEST(synth_ptm);
	return etest_end();
}
