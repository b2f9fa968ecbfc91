/* tests/unit/test-pktrec.c - compact packet records (etm_decoder_next_packets,
 * etm_pkt_next_recs) are the packets of next(), in the
 * same order, with the fields etmtrace/packet.h documents: random raw trace
 * of both protocols and several configurations in random chunks, batch
 * sizes and mixed next() calls, and TC2's CoreSight buffer (all sources,
 * and each source alone). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

#define MAXREC 400000

static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* The record etmtrace/packet.h documents for @pkt (written from the
 * header comment, not from the library's conversion). */
static void expect_pkt(struct etm_pkt_rec *r, const struct etm_packet *p)
{
	memset(r, 0, sizeof(*r));
	r->offset = p->offset;
	r->type = (uint8_t)p->type;
	r->id = p->id;
	r->size = p->size > 255 ? 255 : (uint8_t)p->size;
	if (p->type == etmp_atom) {
		r->value = p->atom_bits;
		r->count = p->atom_count;
	} else if (p->type == etmp_branch) {
		r->value = (uint32_t)p->addr;
		r->count = p->has_exc;
	} else if (p->type == etmp_isync) {
		r->value = (uint32_t)p->addr;
		r->count = p->reason;
	} else if (p->type == etmp_waypoint) {
		r->value = (uint32_t)p->addr;
	} else if (p->type == etmp_ctxid) {
		r->value = p->ctxid;
	} else if (p->type == etmp_vmid) {
		r->value = p->vmid;
	} else if (p->type == etmp_timestamp) {
		r->value = (uint32_t)p->timestamp;
	} else if (p->type == etmp_cycle_count) {
		r->value = p->cycle_count;
	} else if (p->type == etmp_error) {
		r->value = (uint32_t)p->err;
	} else if (p->type == etmp_data || p->type == etmp_ooo_data) {
		r->value = p->dvalue;
	}
}

/* An item of etm_decoder_next() in packet mode as a record: a packet, or a
 * deformatter error (type etmp_error, id 0). */
static void expect_item(struct etm_pkt_rec *r, const struct etm_item *it)
{
	if (it->kind != etm_item_elem) {
		expect_pkt(r, &it->pkt);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->offset = it->elem.offset;
	r->type = etmp_error;
	r->value = (uint32_t)it->elem.err;
}

static int rec_eq(const struct etm_pkt_rec *a, const struct etm_pkt_rec *b)
{
	return a->offset == b->offset && a->value == b->value &&
	       a->type == b->type && a->id == b->id && a->size == b->size &&
	       a->count == b->count;
}

struct recs {
	struct etm_pkt_rec *r;
	size_t n;
};

static void add(struct recs *v, const struct etm_pkt_rec *r)
{
	if (v->n < MAXREC)
		v->r[v->n++] = *r;
}

/* Reference: every item of etm_decoder_next(), chunks of @chunk bytes. */
static int run_items(struct etm_decoder *d, const uint8_t *in, size_t len,
		     size_t chunk, struct recs *out)
{
	struct etm_item it;
	struct etm_pkt_rec r;
	size_t pos = 0;
	int err;

	for (;;) {
		while ((err = etm_decoder_next(d, &it, sizeof(it))) == 0) {
			expect_item(&r, &it);
			add(out, &r);
		}
		if (err != -etme_again)
			return err == -etme_eos ? 0 : err;
		if (pos == len) {
			etm_decoder_finish(d);
			continue;
		}
		size_t k = len - pos < chunk ? len - pos : chunk;

		if (etm_decoder_push(d, in + pos, k) < 0)
			return -1;
		pos += k;
	}
}

/* Records in batches of random size, sometimes one next() item between,
 * chunks of random size. */
static int run_recs(struct etm_decoder *d, const uint8_t *in, size_t len,
		    uint32_t *s, struct recs *out)
{
	struct etm_pkt_rec buf[64], r;
	struct etm_item it;
	size_t pos = 0;
	int n, i;

	for (;;) {
		if (rng(s) % 8 == 0) {
			n = etm_decoder_next(d, &it, sizeof(it));
			if (n == 0) {
				expect_item(&r, &it);
				add(out, &r);
				continue;
			}
		} else {
			n = etm_decoder_next_packets(d, buf,
						     1 + rng(s) % 64);
			for (i = 0; i < n; i++)
				add(out, &buf[i]);
			if (n > 0)
				continue;
		}
		if (n == -etme_eos)
			return 0;
		if (n != -etme_again)
			return n;
		if (pos == len) {
			etm_decoder_finish(d);
			continue;
		}
		size_t k = 1 + rng(s) % 3000;

		if (k > len - pos)
			k = len - pos;
		if (etm_decoder_push(d, in + pos, k) < 0)
			return -1;
		pos += k;
	}
}

static int same(const struct recs *a, const struct recs *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (!rec_eq(&a->r[i], &b->r[i]))
			return 0;
	return 1;
}

/* Raw bytes that make many packets: A-syncs, atoms, branches (some with
 * exception bytes), I-syncs, timestamps, context IDs, junk. */
static size_t make_raw(uint8_t *b, size_t n, uint32_t *s)
{
	static const uint8_t pick[] = {
		0x80, 0x84, 0x88, 0xc0, 0x90, 0x92, 0x82, 0xa4, 0xfc, 0x01,
		0x03, 0x81, 0x7f, 0x0c, 0x66, 0x76, 0x72, 0x42, 0x6e, 0x3c,
		0x08, 0x04, 0x70, 0x8e, 0x9a, 0xff, 0x41, 0xc1, 0x21
	};
	size_t len = 0;

	while (len < n) {
		uint32_t r = rng(s);

		if (r % 50 == 0 && len + 6 <= n) {
			memcpy(b + len, "\0\0\0\0\0\x80", 6);
			len += 6;
		} else {
			b[len++] = r % 4 ? pick[(r >> 8) % sizeof(pick)] :
					   (uint8_t)(r >> 16);
		}
	}
	return len;
}

static void raw_cfg(struct etm_config *c, unsigned k)
{
	etm_config_init(c);
	c->traceid = 0x10;
	if (k & 1) {
		c->protocol = etm_proto_ptm;
		c->etmidr = 0x411CF312;
		c->etmccer = 0x34C01AC2;
		c->etmcr = k & 2 ? 0x1000 : 0;      /* cycle-accurate */
		c->etmcr |= k & 4 ? 0x10000000 : 0; /* timestamps */
	} else {
		c->protocol = etm_proto_etmv3;
		c->etmidr = k & 4 ? 0x411CF250 : 0x410CF250; /* alt branch */
		c->etmccer = 0x344008F2;
		c->etmcr = k & 2 ? 0x1000 : 0;
		c->etmcr |= 0x4000; /* 1-byte ctxid */
	}
}

static void test_raw_random(void)
{
	static uint8_t in[1 << 18];
	struct recs a = { 0 }, b = { 0 };
	struct etm_config cfg;
	uint32_t s = 12345;
	unsigned k;

	a.r = malloc(MAXREC * sizeof(*a.r));
	b.r = malloc(MAXREC * sizeof(*b.r));
	ET_CHECK(a.r && b.r);
	for (k = 0; k < 16; k++) {
		size_t len = make_raw(in, 20000 + rng(&s) % sizeof(in) / 2, &s);
		struct etm_decoder *d1, *d2;

		raw_cfg(&cfg, k);
		d1 = etm_decoder_alloc(etm_fmt_raw, etm_dec_packets);
		d2 = etm_decoder_alloc(etm_fmt_raw, etm_dec_packets);
		ET_CHECK(d1 && d2);
		ET_EQ(etm_decoder_add_source(d1, &cfg, NULL), 0);
		ET_EQ(etm_decoder_add_source(d2, &cfg, NULL), 0);
		a.n = b.n = 0;
		ET_EQ(run_items(d1, in, len, 1 + k * 997, &a), 0);
		ET_EQ(run_recs(d2, in, len, &s, &b), 0);
		ET_CHECK(a.n > 1000 && a.n < MAXREC);
		ET_EQ(a.n, b.n);
		ET_CHECK(same(&a, &b));
		ET_EQ(etm_decoder_packet_count(d1),
		      etm_decoder_packet_count(d2));
		etm_decoder_free(d1);
		etm_decoder_free(d2);
	}
	/* wrong mode / arguments */
	{
		struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw,
							  etm_dec_elements);
		struct etm_pkt_rec r;

		ET_EQ(etm_decoder_next_packets(d, &r, 1), -etme_invalid);
		ET_EQ(etm_decoder_next_packets(NULL, &r, 1), -etme_invalid);
		etm_decoder_free(d);
	}
	free(a.r);
	free(b.r);
}

/* The parser-level batch functions against next() on the same bytes. */
static void test_parser_recs(void)
{
	static uint8_t in[1 << 16];
	struct etm_pkt_rec r, exp, batch[17];
	struct etm_packet pkt;
	struct etm_config cfg;
	uint32_t s = 777;
	unsigned k;

	for (k = 0; k < 8; k++) {
		size_t len = make_raw(in, sizeof(in), &s), i = 0, m = 0;
		struct etm_pkt_decoder *e1 = NULL, *e2 = NULL;
		struct etm_pkt_decoder *p1 = NULL, *p2 = NULL;
		int n, j;

		raw_cfg(&cfg, k);
		if (k & 1) {
			p1 = etm_pkt_alloc(&cfg);
			p2 = etm_pkt_alloc(&cfg);
			ET_CHECK(p1 && p2);
			etm_pkt_push(p1, in, len, 100);
			etm_pkt_push(p2, in, len, 100);
			etm_pkt_finish(p1);
			etm_pkt_finish(p2);
		} else {
			e1 = etm_pkt_alloc(&cfg);
			e2 = etm_pkt_alloc(&cfg);
			ET_CHECK(e1 && e2);
			etm_pkt_push(e1, in, len, 100);
			etm_pkt_push(e2, in, len, 100);
			etm_pkt_finish(e1);
			etm_pkt_finish(e2);
		}
		for (;;) {
			unsigned want = 1 + rng(&s) % 17;

			n = p2 ? etm_pkt_next_recs(p2, batch, want) :
				 etm_pkt_next_recs(e2, batch, want);
			if (n < 0)
				break;
			for (j = 0; j < n; j++, i++) {
				int e = p1 ?
						etm_pkt_next(p1, &pkt, sizeof(pkt)) :
						etm_pkt_next(e1, &pkt, sizeof(pkt));

				ET_EQ(e, 0);
				expect_pkt(&exp, &pkt);
				r = batch[j];
				if (!rec_eq(&r, &exp))
					m++;
			}
		}
		ET_EQ(n, -etme_eos);
		ET_EQ(m, 0);
		ET_CHECK(i > 1000);
		ET_EQ(p1 ? etm_pkt_next(p1, &pkt, sizeof(pkt)) :
			   etm_pkt_next(e1, &pkt, sizeof(pkt)),
		      -etme_eos);
		etm_pkt_free(p1);
		etm_pkt_free(p2);
		etm_pkt_free(e1);
		etm_pkt_free(e2);
	}
}

/* TC2: all five sources in CoreSight frames, fast frames path. */
static void test_tc2(void)
{
	char dir[1024], err[256];
	struct etm_snapshot *snap = NULL;
	struct recs a = { 0 }, b = { 0 };
	uint8_t *in;
	size_t len, i;
	uint32_t s = 99;
	FILE *f;

	if (!etest_shared("snapshots/TC2/cstrace.bin", dir, sizeof(dir))) {
		etest_skip("TC2 not available");
		return;
	}
	in = malloc(1 << 20);
	a.r = malloc(MAXREC * sizeof(*a.r));
	b.r = malloc(MAXREC * sizeof(*b.r));
	ET_CHECK(in && a.r && b.r);
	f = fopen(dir, "rb");
	ET_CHECK(f);
	len = fread(in, 1, 1 << 20, f);
	fclose(f);
	ET_CHECK(etest_shared("snapshots/TC2", dir, sizeof(dir)));
	ET_EQ(etm_snapshot_load(&snap, dir, err, sizeof(err)), 0);
	{
		struct etm_decoder *d1 = etm_decoder_alloc(etm_fmt_coresight,
							   etm_dec_packets);
		struct etm_decoder *d2 = etm_decoder_alloc(etm_fmt_coresight,
							   etm_dec_packets);

		for (i = 0; i < snap->nsources; i++) {
			ET_EQ(etm_decoder_add_source(d1, &snap->sources[i].cfg,
						     NULL),
			      0);
			ET_EQ(etm_decoder_add_source(d2, &snap->sources[i].cfg,
						     NULL),
			      0);
		}
		ET_EQ(run_items(d1, in, len, 4096, &a), 0);
		ET_EQ(run_recs(d2, in, len, &s, &b), 0);
		ET_CHECK(a.n > 10000);
		ET_EQ(a.n, b.n);
		ET_CHECK(same(&a, &b));
		etm_decoder_free(d1);
		etm_decoder_free(d2);
	}
	/* one source at a time (the frames path for a single ID): its
	 * records are those of the five-source decode with its ID */
	for (i = 0; i < snap->nsources; i++) {
		struct etm_decoder *d = etm_decoder_alloc(etm_fmt_coresight,
							  etm_dec_packets);
		unsigned id = snap->sources[i].cfg.traceid;
		struct recs c = { b.r, 0 };
		size_t j, k = 0, bad = 0;

		ET_EQ(etm_decoder_add_source(d, &snap->sources[i].cfg, NULL),
		      0);
		ET_EQ(run_recs(d, in, len, &s, &c), 0);
		for (j = 0; j < a.n; j++) {
			if (a.r[j].id != id)
				continue;
			if (k >= c.n || !rec_eq(&a.r[j], &c.r[k]))
				bad++;
			k++;
		}
		ET_EQ(k, c.n);
		ET_EQ(bad, 0);
		etm_decoder_free(d);
	}
	etm_snapshot_free(snap);
	free(in);
	free(a.r);
	free(b.r);
}

int main(void)
{
	ETEST(test_raw_random);
	ETEST(test_parser_recs);
	ETEST(test_tc2);
	return etest_end();
}
