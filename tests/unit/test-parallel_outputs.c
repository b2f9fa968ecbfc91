/* tests/unit/test-parallel_outputs.c - the library's parallel outputs equal
 * their one-thread forms: etm_listing_run() on 1, 2 and 4 threads writes
 * the same bytes (text, canon, jsonl) as etm_listing_item() of every item
 * of a streamed decode on the calling thread, and counts the same
 * instructions; an error of the write callback stops the run with that
 * value. etm_cov_run() on 1 and 3 threads gives the same saved coverage as
 * etm_cov_add_elems() of every element, and its side consumer sees every
 * element once, its parts appended in input order. Input: synthetic ETMv3
 * and PTM trace from the encoder (raw, one source), long enough to be cut
 * into several chunks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "etest.h"

struct src {
	struct etm_config cfg;
	struct etm_image *img;
	struct etest_mem in;
};

static struct etm_decoder *dec(const struct src *s)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);

	if (d && etm_decoder_add_source(d, &s->cfg, s->img) < 0) {
		etm_decoder_free(d);
		d = NULL;
	}
	return d;
}

static struct etm_listing *listing(const struct src *s,
				   enum etm_listing_format f, struct etest_text *t,
				   struct etm_listing_source *ls)
{
	struct etm_listing_opts o;
	struct etm_listing *l = NULL;

	ls->id = s->cfg.traceid;
	ls->cfg = &s->cfg;
	ls->img = s->img;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.format = f;
	o.src = ls;
	o.nsrc = 1;
	o.write = etest_text_put;
	o.write_ctx = t;
	if (etm_listing_alloc(&l, &o) < 0)
		return NULL;
	return l;
}

static int list_item(void *ctx, const struct etm_item *it)
{
	return etm_listing_item(ctx, it);
}

static void check_listing(const struct src *s, enum etm_listing_format f)
{
	static const unsigned jobs[] = { 1, 2, 4 };
	struct etm_listing_source ls;
	struct etest_text ref = { 0 };
	struct etm_listing *l = listing(s, f, &ref, &ls);
	struct etm_decoder *d = dec(s);
	uint64_t insns;
	size_t j;

	ET_CHECK(l && d);
	/* the reference: every item on this thread, in order */
	ET_EQ(etm_decoder_run(d, etest_mem_read, (void *)&s->in, s->in.n, 1, list_item, l),
	      0);
	ET_EQ(etm_listing_flush(l), 0);
	insns = etm_listing_insns(l);
	ET_CHECK(insns > 100000 && ref.n > 0);
	etm_listing_free(l);
	etm_decoder_free(d);
	for (j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		struct etest_text t = { 0 };

		l = listing(s, f, &t, &ls);
		d = dec(s);
		ET_CHECK(l && d);
		ET_EQ(etm_listing_run(l, d, etest_mem_read, (void *)&s->in, s->in.n,
				      jobs[j]),
		      0);
		ET_EQ(etm_listing_flush(l), 0);
		ET_EQ(etm_listing_insns(l), insns);
		ET_EQ(t.n, ref.n);
		ET_CHECK(t.n == ref.n && memcmp(t.s, ref.s, t.n) == 0);
		etm_listing_free(l);
		etm_decoder_free(d);
		free(t.s);
	}
	{ /* the write callback's error ends the run */
		struct etest_text t = { .fail_at = ref.n / 2 };

		l = listing(s, f, &t, &ls);
		d = dec(s);
		ET_EQ(etm_listing_run(l, d, etest_mem_read, (void *)&s->in, s->in.n, 2),
		      -5);
		ET_CHECK(t.n < ref.n && memcmp(t.s, ref.s, t.n) == 0);
		etm_listing_free(l);
		etm_decoder_free(d);
		free(t.s);
	}
	free(ref.s);
}

/* The side consumer: elements counted per part; parts appended in order. */
struct side_part {
	uint64_t n, first_off;
};

struct side_total {
	uint64_t n, last_off, parts, out_of_order;
};

static void *side_open(void *ctx)
{
	struct side_part *p = calloc(1, sizeof(*p));

	(void)ctx;
	if (p)
		p->first_off = UINT64_MAX;
	return p;
}

static int side_elems(void *part, const struct etm_elem *els, size_t n)
{
	struct side_part *p = part;

	if (n && p->first_off == UINT64_MAX)
		p->first_off = els[0].offset;
	p->n += n;
	return 0;
}

static int side_append(void *ctx, void *part)
{
	struct side_total *t = ctx;
	struct side_part *p = part;

	if (p->n) {
		if (t->parts && p->first_off < t->last_off)
			t->out_of_order++;
		t->last_off = p->first_off;
		t->parts++;
	}
	t->n += p->n;
	return 0;
}

static void side_free(void *ctx, void *part)
{
	(void)ctx;
	free(part);
}

struct cov_ref {
	struct etm_cov *cov;
	uint64_t n;
};

static int cov_item(void *ctx, const struct etm_item *it)
{
	struct cov_ref *r = ctx;

	if (it->kind != etm_item_elem)
		return 0;
	r->n++;
	return etm_cov_add_elems(r->cov, &it->elem, 1) < 0 ? -1 : 0;
}

static struct etm_cov *cov_new(const struct src *s)
{
	struct etm_cov *c = etm_cov_alloc();

	if (c && etm_cov_set_source(c, s->cfg.traceid, s->cfg.protocol,
				    s->img) < 0) {
		etm_cov_free(c);
		c = NULL;
	}
	return c;
}

/* One coverage run of @s on @jobs threads, checked against the one-thread
 * reference (@rs saved, @ref_n elements): the number of parts joined in
 * *@parts. */
static void cov_run_checked(const struct src *s, unsigned jobs,
			    const struct etest_text *rs, uint64_t ref_n, uint64_t *parts)
{
	struct side_total tot = { 0 };
	const struct etm_cov_run_side side = { side_open, side_elems, side_append,
					       side_free, &tot };
	struct etm_cov *c = cov_new(s);
	struct etm_decoder *d = dec(s);
	struct etest_text t = { 0 };

	ET_CHECK(c && d);
	ET_EQ(etm_cov_run(c, d, etest_mem_read, (void *)&s->in, s->in.n, jobs,
			  &side),
	      0);
	ET_EQ(etm_cov_end(c), 0);
	ET_EQ(etm_cov_save(c, etest_text_put, &t), 0);
	ET_CHECK(t.n == rs->n && memcmp(t.s, rs->s, t.n) == 0);
	ET_EQ(tot.n, ref_n);
	ET_EQ(tot.out_of_order, 0);
	etm_decoder_free(d);
	etm_cov_free(c);
	free(t.s);
	*parts = tot.parts;
}

/* Without a side consumer, on 3 threads: the reference's saved coverage
 * too; a side consumer lacking a callback is refused before anything
 * runs. */
static void cov_run_plain(const struct src *s, const struct etest_text *rs)
{
	struct side_total tot = { 0 };
	const struct etm_cov_run_side half = { side_open, side_elems, NULL,
					       side_free, &tot };
	struct etm_cov *c = cov_new(s);
	struct etm_decoder *d = dec(s);
	struct etest_text t = { 0 };

	ET_CHECK(c && d);
	ET_EQ(etm_cov_run(c, d, etest_mem_read, (void *)&s->in, s->in.n, 3,
			  &half),
	      -etme_invalid);
	ET_EQ(tot.n, 0);
	ET_EQ(etm_cov_run(c, d, etest_mem_read, (void *)&s->in, s->in.n, 3,
			  NULL),
	      0);
	ET_EQ(etm_cov_end(c), 0);
	ET_EQ(etm_cov_save(c, etest_text_put, &t), 0);
	ET_CHECK(t.n == rs->n && memcmp(t.s, rs->s, t.n) == 0);
	etm_decoder_free(d);
	etm_cov_free(c);
	free(t.s);
}

static void check_cov(const struct src *s)
{
	struct cov_ref ref = { cov_new(s), 0 };
	struct etest_text rs = { 0 };
	struct etm_decoder *d = dec(s);
	uint64_t parts = 0;
	int tries;

	ET_CHECK(ref.cov && d);
	ET_EQ(etm_decoder_run(d, etest_mem_read, (void *)&s->in, s->in.n, 1, cov_item,
			      &ref),
	      0);
	etm_decoder_free(d);
	ET_EQ(etm_cov_end(ref.cov), 0);
	ET_EQ(etm_cov_save(ref.cov, etest_text_put, &rs), 0);
	ET_CHECK(ref.n > 1000 && rs.n > 0);
	cov_run_checked(s, 1, &rs, ref.n, &parts);
	ET_EQ(parts, 1);
	parts = 0;
	/* Whether the input is cut into parts depends on the scheduler: where
	 * a worker reaches the next chunk's start before that chunk's worker
	 * has decoded its head (one thread starved on a loaded machine), the
	 * two join into one part. Every run must equal the reference; at
	 * least one of a few must have been cut, or the parallel path went
	 * untested. */
	for (tries = 0; tries < 8 && parts < 2; tries++)
		cov_run_checked(s, 3, &rs, ref.n, &parts);
	ET_CHECK(parts > 1); /* the input was cut */
	cov_run_plain(s, &rs);
	free(rs.s);
	etm_cov_free(ref.cov);
}

static void synth(enum etm_protocol proto)
{
	struct etm_gen_opts go;
	struct etm_enc_opts eo;
	struct etm_gen *g;
	struct etm_enc *e;
	struct src s;
	const struct etm_ev *ev;
	size_t nev, i;

	s.img = etm_image_alloc();
	ET_CHECK(s.img != NULL);
	memset(&go, 0, sizeof(go));
	go.size = sizeof(go);
	go.seed = 11;
	go.proto = proto;
	go.flags = ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_EXC;
	go.ninsn = 400000;
	g = etm_gen_alloc(&go, sizeof(go));
	ET_CHECK(g != NULL);
	ET_EQ(etm_gen_add_to_image(g, s.img), 0);
	etm_config_init(&s.cfg);
	s.cfg.protocol = proto;
	s.cfg.traceid = 0x10;
	s.cfg.etmidr = proto == etm_proto_ptm ? 0x411CF312 : 0x410CF250;
	s.cfg.etmccer = proto == etm_proto_ptm ? 0x34C01AC2 : 0x344008F2;
	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = s.cfg;
	eo.isync_period = 1024;
	eo.async_period = 4096;
	e = etm_enc_alloc(&eo, sizeof(eo), s.img);
	ET_CHECK(e != NULL);
	ev = etm_gen_events(g, &nev);
	for (i = 0; i < nev; i++)
		ET_EQ(etm_enc_put(e, &ev[i]), 0);
	ET_EQ(etm_enc_finish(e), 0);
	s.in.b = etm_enc_data(e, &s.in.n);
	ET_CHECK(s.in.n > (256u << 10));
	check_listing(&s, etm_listing_text);
	check_listing(&s, etm_listing_canon);
	check_listing(&s, etm_listing_jsonl);
	check_cov(&s);
	etm_enc_free(e);
	etm_gen_free(g);
	etm_image_free(s.img);
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
	ETEST(synth_etm3);
	ETEST(synth_ptm);
	return etest_end();
}
