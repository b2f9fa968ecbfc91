/* tests/unit/test-frames.c - the deformatter's fast path for CoreSight
 * frames (src/source/frames.c, taken by the decoder) gives exactly the
 * packets the deformatter's byte path gives:
 * random frames with ID changes (aux-bit rule included), reserved IDs,
 * FSYNCs and partial frames, pushed in random chunk sizes, are compared with
 * the deformatter feeding the packet parsers directly; and the bulk path's
 * test of the IDs a frame names (runs of known IDs, one comparison per
 * known ID) against the table of known IDs, ID by ID, and the bulk
 * loop's decision where the known IDs are runs against its rule, ID by ID. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "decoder/realign.h"
#include "etest.h"
#include "source/dfmt_bulk.h"
#include "source/frames.h"

#define MAXIT 800000

struct rec {
	int is_elem, err;
	unsigned type, id, size;
	uint64_t offset;
	uint8_t raw[ETM_PKT_MAX_RAW];
};

static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void cfg_for(struct etm_config *c, unsigned id)
{
	etm_config_init(c);
	c->protocol = id == 0x10 ? etm_proto_ptm : etm_proto_etmv3;
	c->etmidr = id == 0x10 ? 0x411CF312 : 0x410CF250;
	c->traceid = id;
}

/* Random formatted input: mostly valid frames for IDs 0x10 / 0x11 / 0x12
 * (0x12 has no source), some 0x00 and reserved 0x71 IDs, FSYNC runs, and
 * bytes that make trace packets (A-syncs, atoms, branches). */
static size_t make_input(uint8_t *b, size_t n, uint32_t *s)
{
	static const uint8_t ids[] = { 0x10, 0x11, 0x12, 0x10, 0x11, 0x00, 0x71 };
	static const uint8_t data[] = { 0x00, 0x80, 0x08, 0x84, 0x01, 0xc3, 0x90 };
	size_t len = 0;
	unsigned k;

	while (len + 16 <= n) {
		uint32_t r = rng(s);

		if (r % 97 == 0) { /* 1-4 FSYNCs */
			for (k = 0; k < 1 + (r >> 8) % 4 && len + 4 <= n; k++) {
				memcpy(b + len, "\xff\xff\xff\x7f", 4);
				len += 4;
			}
			continue;
		}
		for (k = 0; k < 15; k++) {
			r = rng(s);
			b[len + k] = r % 3 ? data[r % sizeof(data)] : (uint8_t)r;
			if (k % 2 == 0) {
				b[len + k] &= 0xfe;
				if (r % 5 == 0)
					b[len + k] = (uint8_t)(ids[(r >> 8) %
								   sizeof(ids)]
								       << 1 |
							       1);
			}
		}
		b[len + 15] = (uint8_t)rng(s);
		len += 16;
	}
	return len;
}

static int add(struct rec *v, size_t *nv, const struct etm_item *it)
{
	struct rec *r = &v[*nv];

	if (*nv >= MAXIT)
		return -1;
	memset(r, 0, sizeof(*r));
	r->is_elem = it->kind == etm_item_elem;
	if (r->is_elem) {
		r->type = it->elem.kind;
		r->offset = it->elem.offset;
		r->err = it->elem.err;
	} else {
		r->type = it->pkt.type;
		r->id = it->pkt.id;
		r->offset = it->pkt.offset;
		r->size = it->pkt.size;
		r->err = it->pkt.err;
		memcpy(r->raw, it->pkt.raw, it->pkt.raw_len);
	}
	(*nv)++;
	return 0;
}

/* The decoder over @in in chunks of random size, with sources for the
 * IDs in @ids (bit 0: 0x10, bit 1: 0x11). */
static size_t run_decoder(const uint8_t *in, size_t n, uint32_t *s,
			  struct rec *v, unsigned ids)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_coresight,
						  etm_dec_packets);
	struct etm_config c;
	struct etm_item it;
	size_t pos = 0, nv = 0;

	int big = rng(s) % 4 == 0;

	/* the deformatter's own rules (no realignment on bad packets) */
	etm_decoder_set_realign(d, etm_realign_off);

	cfg_for(&c, 0x10);
	if (ids & 1)
		etm_decoder_add_source(d, &c, NULL);
	cfg_for(&c, 0x11);
	if (ids & 2)
		etm_decoder_add_source(d, &c, NULL);
	while (pos < n) {
		/* small chunks, or large ones (the single-ID bulk path) */
		size_t k = 1 + rng(s) % (big ? 70000 : 700);

		if (k > n - pos)
			k = n - pos;
		etm_decoder_push(d, in + pos, k);
		pos += k;
		while (etm_decoder_next(d, &it, sizeof(it)) == 0)
			add(v, &nv, &it);
	}
	etm_decoder_finish(d);
	while (etm_decoder_next(d, &it, sizeof(it)) == 0)
		add(v, &nv, &it);
	etm_decoder_free(d);
	return nv;
}

static void drain_parser(struct etm_pkt_decoder *p, struct etm_pkt_decoder *e,
			 struct rec *v, size_t *nv)
{
	struct etm_item it;

	memset(&it, 0, sizeof(it));
	while ((p ? etm_pkt_next(p, &it.pkt, sizeof(it.pkt)) :
		    etm_pkt_next(e, &it.pkt, sizeof(it.pkt))) == 0)
		add(v, nv, &it);
}

/* Reference: the deformatter's runs pushed to the parsers one by one, its
 * errors as error elements (the decoder's documented behaviour). */
static size_t run_reference(const uint8_t *in, size_t n, struct rec *v,
			    unsigned ids)
{
	struct etm_dfmt *df = etm_dfmt_alloc(etm_fmt_coresight, 0);
	struct etm_config c;
	struct etm_pkt_decoder *p;
	struct etm_pkt_decoder *e;
	struct etm_dfmt_item x;
	struct etm_item it;
	size_t nv = 0;
	int r;

	uint8_t live[128] = { 0 };

	live[0x10] = (ids & 1) != 0; /* the decoder's sources (realignment) */
	live[0x11] = (ids & 2) != 0;
	etm_dfmt_seen_ids(df, live);
	cfg_for(&c, 0x10);
	p = etm_pkt_alloc(&c);
	cfg_for(&c, 0x11);
	e = etm_pkt_alloc(&c);
	etm_dfmt_push(df, in, n);
	while ((r = etm_dfmt_next(df, &x, sizeof(x))) == 0 ||
	       (r == -etme_again && etm_dfmt_finish(df) == 0)) {
		if (r)
			continue; /* input drained: finish, go on */
		if (x.kind == etm_dfmt_error) {
			memset(&it, 0, sizeof(it));
			it.kind = etm_item_elem;
			/* a partial last frame (the deformatter says so
			 * only at finish) is the end of the buffer: a note */
			it.elem.kind = x.err == etme_truncated ? etmk_buffer_end : etmk_error;
			it.elem.offset = x.offset;
			it.elem.err = x.err;
			add(v, &nv, &it);
		} else if (x.kind == etm_dfmt_data && x.run.id == 0x10 &&
			   (ids & 1)) {
			etm_pkt_push(p, x.run.data, x.run.size, x.run.offset);
			drain_parser(p, NULL, v, &nv);
		} else if (x.kind == etm_dfmt_data && x.run.id == 0x11 &&
			   (ids & 2)) {
			etm_pkt_push(e, x.run.data, x.run.size, x.run.offset);
			drain_parser(NULL, e, v, &nv);
		}
	}
	etm_pkt_finish(p); /* sources are finished in ID order */
	drain_parser(p, NULL, v, &nv);
	etm_pkt_finish(e);
	drain_parser(NULL, e, v, &nv);
	etm_pkt_free(p);
	etm_pkt_free(e);
	etm_dfmt_free(df);
	return nv;
}

static void t_frames_equal_dfmt(void)
{
	static struct rec a[MAXIT], b[MAXIT];
	static uint8_t in[1 << 18];
	uint32_t s = 12345;
	unsigned round;

	for (round = 0; round < 180; round++) {
		/* a few inputs larger than the staging buffer */
		size_t max = round % 8 == 0 ? sizeof(in) : sizeof(in) / 4;
		size_t n = make_input(in, 1000 + rng(&s) % (max - 1000), &s),
		       na, nb, i;
		unsigned ids = 1 + round % 3; /* one source or both */

		if (round % 5 == 0)
			n -= rng(&s) % 16; /* a cut last frame */
		na = run_decoder(in, n, &s, a, ids);
		nb = run_reference(in, n, b, ids);
		ET_CHECK(nb > 0 && nb < MAXIT);
		ET_EQ(na, nb);
		for (i = 0; i < na; i++) {
			ET_EQ(a[i].is_elem, b[i].is_elem);
			ET_EQ(a[i].type, b[i].type);
			ET_EQ(a[i].offset, b[i].offset);
			ET_EQ(a[i].size, b[i].size);
			ET_EQ(a[i].err, b[i].err);
			ET_EQ(a[i].id, b[i].id);
			ET_CHECK(!memcmp(a[i].raw, b[i].raw, sizeof(a[i].raw)));
		}
	}
}

/* The frame names known IDs only, from the table, ID byte by ID byte (IDs
 * of 0x70 and above are judged before the test: not known here), and an
 * ID in byte 14 has no auxiliary bit 7. */
static int known_by_table(const struct etm_frames *x, const uint8_t *f,
			  unsigned idm)
{
	unsigned k;

	if ((idm & 0x4000) && (f[15] & 0x80))
		return 0;
	for (k = 0; k < 16; k += 2)
		if ((idm >> k & 1) && (f[k] >> 1 >= 0x70 || !x->known[f[k] >> 1]))
			return 0;
	return 1;
}

/* Known sets of 1 to 6 runs (the runs test takes up to three, the
 * comparisons up to 16 IDs, the table the rest), random frames whose ID
 * bytes are mostly near the known IDs: each test answers as the table. */
static void t_ids_known_runs(void)
{
	struct etm_frames *x = etm_frames_alloc();
	uint32_t s = 777;
	unsigned round, i, nruns[7] = { 0 }, ntrue = 0, nfalse = 0;

	ET_CHECK(x != NULL);
	for (round = 0; round < 3000; round++) {
		unsigned nr = 1 + round % 6, r, id;
		uint8_t f[16];

		etm_frames_init(x);
		memset(x->known, 0, sizeof(x->known));
		for (r = 0; r < nr; r++) {
			unsigned a = rng(&s) % 0x70,
				 len = 1 + rng(&s) % (round % 2 ? 3 : 12);

			for (id = a; id < a + len && id < 0x70; id++)
				x->known[id] = 1;
		}
		x->known[0x7b] = x->known[0x7d] = 1;
		etm_frames_known_changed(x);
		nruns[x->nkrun]++;
		for (i = 0; i < 200; i++) {
			unsigned k, idm = 0, want, got;

			for (k = 0; k < 16; k++)
				f[k] = (uint8_t)rng(&s);
			for (k = 0; k < 16; k += 2) {
				if (rng(&s) % 3)
					continue;
				/* an ID byte: a known ID, one next to it, any */
				id = rng(&s) % 0x70;
				if (rng(&s) % 2)
					while (!x->known[id])
						id = (id + 1) % 0x70;
				if (rng(&s) % 4 == 0)
					id = (id + (rng(&s) % 2 ? 1 : 0x6f)) % 0x70;
				f[k] = (uint8_t)(2 * id + 1);
				idm |= 1u << k;
			}
			want = (unsigned)known_by_table(x, f, idm);
			got = (unsigned)etm_frames_ids_known(x, f, idm);
			ET_EQ(got, want);
			ntrue += want;
			nfalse += !want;
			if (x->nkrun && x->nkvec < ETM_FR_KMANY) {
				/* the same frame by the comparisons */
				unsigned keep = x->nkrun;

				x->nkrun = 0;
				ET_EQ((unsigned)etm_frames_ids_known(x, f, idm), want);
				x->nkrun = keep;
			}
		}
	}
	/* every path was taken, both answers given */
	ET_CHECK(nruns[0] > 0 && nruns[1] > 0 && nruns[2] > 0 && nruns[3] > 0);
	ET_CHECK(ntrue > 10000 && nfalse > 10000);
	free(x);
}

/* The bulk loop's rule for a frame with ID changes, byte by byte (the
 * general path where any ID byte names an ID of 0x70 or above, or one
 * not known but for ID @t outside byte 14, or byte 14 is an ID with
 * auxiliary bit 7), and its ID changes to @t. */
static int bad_by_table(const struct etm_frames *x, const uint8_t *f,
			unsigned idm, int t, unsigned *vm)
{
	unsigned k;
	int bad = (idm & 0x4000) && (f[15] & 0x80);

	*vm = 0;
	for (k = 0; k < 16; k += 2) {
		unsigned id = f[k] >> 1;

		if (!(idm >> k & 1))
			continue;
		*vm |= (unsigned)(id == (unsigned)t) << k;
		if (id >= 0x70 || (!x->known[id] && (id != (unsigned)t || k == 14)))
			bad = 1;
	}
	return bad;
}

/* runs_bad() (known IDs as one to three runs, the single ID known or
 * not, frames naming it, known IDs, IDs next to them, IDs of 0x70 and
 * above, auxiliary bit 7) decides as the rule ID by ID. */
static void t_runs_bad(void)
{
	struct etm_frames *x = etm_frames_alloc();
	uint32_t s = 4242;
	unsigned round, i, nbad = 0, ngood = 0, nvm = 0;

	ET_CHECK(x != NULL);
	for (round = 0; round < 3000; round++) {
		unsigned nr = 1 + round % 3, r, id;
		int t = 1 + (int)(rng(&s) % 0x6f);
		uint8_t f[16];

		etm_frames_init(x);
		memset(x->known, 0, sizeof(x->known));
		for (r = 0; r < nr; r++) {
			unsigned a = rng(&s) % 0x70, len = 1 + rng(&s) % 4;

			for (id = a; id < a + len && id < 0x70; id++)
				x->known[id] = 1;
		}
		if (round % 4)
			x->known[t] = 1;
		x->known[0x7b] = x->known[0x7d] = 1;
		etm_frames_known_changed(x);
		if (!x->nkrun || !x->nkvec)
			continue;
		for (i = 0; i < 200; i++) {
			unsigned k, idm = 0, vm, want_vm;
			int want, got;

			for (k = 0; k < 16; k++)
				f[k] = (uint8_t)(rng(&s) & ~1u);
			f[15] = (uint8_t)rng(&s);
			for (k = 0; k < 16; k += 2) {
				unsigned c = rng(&s) % 8;

				if (c < 3)
					continue;
				id = rng(&s) % 0x70;
				if (c < 6)
					while (!x->known[id])
						id = (id + 1) % 0x70;
				if (c == 6)
					id = (unsigned)t;
				if (c == 7 && rng(&s) % 2)
					id = 0x70 + rng(&s) % 0x10;
				f[k] = (uint8_t)(2 * id + 1);
				idm |= 1u << k;
			}
			if (!idm)
				continue;
			want = bad_by_table(x, f, idm, t, &want_vm);
			got = etm_frames_runs_bad(x, f, idm, t, &vm);
			if (got < 0)
				return; /* no SSE2: no such test */
			ET_EQ(got, want);
			ET_EQ(vm, want_vm);
			nbad += (unsigned)want;
			ngood += (unsigned)!want;
			nvm += want_vm != 0;
		}
	}
	ET_CHECK(nbad > 10000 && ngood > 10000 && nvm > 10000);
	free(x);
}

int main(void)
{
	ETEST(t_frames_equal_dfmt);
	ETEST(t_ids_known_runs);
	ETEST(t_runs_bad);
	return etest_end();
}
