/* tests/recovery/recovery.c - damage a generated trace and measure what the
 * decoder recovers: instructions outside the damaged synchronisation
 * period must come back exactly; differences must follow an error or gap
 * element. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/encode.h>
#include <etmtrace/error.h>
#include <etmtrace/verify.h>

#include "recovery.h"

#define RC_NONE UINT64_MAX

/* One decoded instruction; off is the (clean) input offset of the packet
 * that produced it, seq its rank among the instructions of that packet,
 * ord its rank among all instructions of its source. */
struct rc_ins {
	uint64_t off, addr;
	uint32_t seq, idx, ord;
	uint8_t id, matched;
};

/* A marker in the output: error / gap element, A-sync or I-sync packet. */
enum { rc_mk_err = 1,
       rc_mk_async,
       rc_mk_isync };
struct rc_mark {
	uint64_t off;
	uint32_t idx;
	uint8_t id, kind;
};

struct rc_out {
	struct rc_ins *ins;
	size_t nins, icap;
	struct rc_mark *mk;
	size_t nmk, mcap;
	uint64_t last_off[128]; /* per trace ID: offset and rank of */
	uint32_t seq[128];      /* the last instruction */
	uint32_t nord[128];     /* per trace ID: instructions */
};

/* The damage: @len clean bytes at @pos replaced by @ins new bytes; the
 * clean bytes [start, end) are damaged (formatted input: from the start
 * of the frame, whose aux byte and partial form spoil all of it). */
struct rc_dmg {
	size_t pos, len, ins;
	uint64_t start, end;
};

struct rc_src {
	struct etm_config cfg;
	struct etm_gen *gen;
	struct etm_image *img;
};

struct rc_trace {
	int nsrc;
	struct rc_src src[2];
	/* formatted input: offsets where the formatter switches (back) to
	 * each source, its resynchronisation points */
	uint64_t *idchg[2];
	size_t nidchg[2];
	enum etm_input_format fmt;
	uint8_t *buf;
	size_t n;
	struct rc_out clean;
	/* the clean instruction addresses of each source in output order */
	uint64_t *cseq[2];
	int verify; /* damaged decodes go through etm_verify */
};

static uint64_t rc_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

const char *rc_damage_name(enum rc_damage d)
{
	static const char *const n[rc_ndamage] = {
		"bit flip",
		"byte drop",
		"garbage insert",
		"truncation",
		"frame lost",
	};

	return d < rc_ndamage ? n[d] : "?";
}

static void rc_out_free(struct rc_out *o)
{
	free(o->ins);
	free(o->mk);
	memset(o, 0, sizeof(*o));
}

static int rc_add_ins(struct rc_out *o, uint8_t id, uint64_t off,
		      uint64_t addr, uint32_t idx)
{
	if (o->nins == o->icap) {
		size_t cap = o->icap ? 2 * o->icap : 4096;
		struct rc_ins *p = realloc(o->ins, cap * sizeof(*p));

		if (!p)
			return -1;
		o->ins = p;
		o->icap = cap;
	}
	id &= 0x7f;
	if (off != o->last_off[id])
		o->seq[id] = 0;
	o->last_off[id] = off;
	o->ins[o->nins++] = (struct rc_ins){ off, addr, o->seq[id]++, idx,
					     o->nord[id]++, id, 0 };
	return 0;
}

static int rc_add_mark(struct rc_out *o, uint8_t id, uint64_t off,
		       uint32_t idx, uint8_t kind)
{
	if (o->nmk == o->mcap) {
		size_t cap = o->mcap ? 2 * o->mcap : 256;
		struct rc_mark *p = realloc(o->mk, cap * sizeof(*p));

		if (!p)
			return -1;
		o->mk = p;
		o->mcap = cap;
	}
	o->mk[o->nmk++] = (struct rc_mark){ off, idx, id, kind };
	return 0;
}

/* Clean offset of damaged-stream offset @o. */
static uint64_t rc_map(const struct rc_dmg *d, uint64_t o)
{
	if (!d || o < d->pos)
		return o;
	if (o < d->pos + d->ins)
		return d->pos;
	return o - d->ins + d->len;
}

static const struct etm_image *rc_img(const struct rc_trace *t, unsigned id)
{
	int i;

	for (i = 0; i < t->nsrc; i++)
		if (etm_cfg_trace_id(&t->src[i].cfg) == id)
			return t->src[i].img;
	return NULL;
}

/* Record item @it (output index @idx) into @o. */
static int rc_item(const struct rc_trace *t, const struct etm_item *it,
		   uint32_t idx, const struct rc_dmg *d, struct rc_out *o)
{
	const struct etm_elem *e = &it->elem;
	struct etm_walk w;
	struct etm_insn in;
	uint64_t off;

	if (!it->is_elem) {
		if (it->pkt.type != etmp_async && it->pkt.type != etmp_isync)
			return 0;
		return rc_add_mark(o, it->pkt.id, rc_map(d, it->pkt.offset),
				   idx, it->pkt.type == etmp_async ? rc_mk_async : rc_mk_isync);
	}
	off = rc_map(d, e->offset);
	if (e->kind == etmk_error || e->kind == etmk_nosync ||
	    e->kind == etmk_nomem)
		return rc_add_mark(o, e->id, off, idx, rc_mk_err);
	if (e->kind != etmk_range ||
	    etm_walk_init(&w, rc_img(t, e->id), e) < 0)
		return 0;
	while (etm_walk_next(&w, &in) == 0)
		if (rc_add_ins(o, e->id, off, in.addr, idx) < 0)
			return -1;
	return 0;
}

/* Decode @n bytes of @buf (offsets mapped back through @d). */
/* Pass the items the verify filter has released to rc_item(). */
static int rc_vdrain(const struct rc_trace *t, struct etm_verify *v,
		     uint32_t *idx, const struct rc_dmg *d, struct rc_out *o)
{
	struct etm_item it;
	int rc;

	while ((rc = etm_verify_next(v, &it)) == 0)
		if (rc_item(t, &it, (*idx)++, d, o) < 0)
			return -etme_nomem;
	return rc == -etme_again || rc == -etme_eos ? 0 : rc;
}

static int rc_decode(const struct rc_trace *t, const uint8_t *buf, size_t n,
		     const struct rc_dmg *d, struct rc_out *o)
{
	struct etm_decoder *dec = etm_decoder_alloc(t->fmt, etm_dec_elements);
	struct etm_verify *v = NULL;
	struct etm_item it;
	uint32_t idx = 0;
	int i, rc = 0;

	memset(o, 0, sizeof(*o));
	memset(o->last_off, 0xff, sizeof(o->last_off));
	if (!dec)
		return -1;
	for (i = 0; i < t->nsrc && !rc; i++)
		rc = etm_decoder_add_source(dec, &t->src[i].cfg,
					    t->src[i].img);
	etm_decoder_set_packets(dec, 1);
	if (d && t->verify && !(v = etm_verify_alloc(0)))
		rc = -1;
	if (!rc)
		rc = etm_decoder_push(dec, buf, n);
	while (!rc) {
		rc = etm_decoder_next(dec, &it, sizeof(it));
		if (rc == -etme_again) {
			rc = etm_decoder_finish(dec);
			continue;
		}
		if (rc == -etme_eos && v) {
			etm_verify_finish(v);
			rc = rc_vdrain(t, v, &idx, d, o);
			if (rc == 0)
				rc = -etme_eos;
			break;
		}
		if (rc == 0 && v) {
			/* busy: take what is released, then put again */
			while ((rc = etm_verify_put(v, &it)) == -etme_busy &&
			       rc_vdrain(t, v, &idx, d, o) == 0)
				;
			if (rc == 0)
				rc = rc_vdrain(t, v, &idx, d, o);
			continue;
		}
		if (rc == 0)
			rc = rc_item(t, &it, idx++, d, o);
	}
	etm_decoder_free(dec);
	etm_verify_free(v);
	return rc == -etme_eos ? 0 : -1;
}

static int rc_cmp(const void *va, const void *vb);
static int rc_seqs(const struct rc_out *o, int nsrc, uint64_t **seq);

/* Generate and encode the execution of source @s; bytes appended to @out. */
static int rc_encode(struct rc_src *s, enum etm_protocol proto, unsigned id,
		     uint32_t ninsn, uint64_t seed, uint8_t **out, size_t *n)
{
	struct etm_gen_opts go;
	struct etm_enc_opts eo;
	const struct etm_ev *ev;
	const uint8_t *data;
	struct etm_enc *e;
	size_t nev, i;
	int rc = 0;

	memset(&go, 0, sizeof(go));
	go.size = sizeof(go);
	go.seed = seed;
	go.proto = proto;
	go.flags = ETM_GEN_ALL;
	go.ninsn = ninsn;
	go.ctxid_bytes = 4;
	etm_config_init(&s->cfg);
	s->cfg.protocol = proto;
	s->cfg.traceid = id;
	s->cfg.etmcr = (3u << 14) | (1u << 28) | (seed & 1 ? 1u << 12 : 0);
	if (proto == etm_proto_ptm && (seed & 2))
		s->cfg.etmcr |= 1u << 29; /* return stack */
	s->cfg.etmccer = 1u << 28;
	s->cfg.etmidr = proto == etm_proto_ptm ? 0x411cf312 : 0x411cf250;
	s->gen = etm_gen_alloc(&go, sizeof(go));
	s->img = etm_image_alloc();
	if (!s->gen || !s->img || etm_gen_add_to_image(s->gen, s->img) < 0)
		return -1;
	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = s->cfg;
	eo.seed = seed;
	eo.isync_period = 256;
	eo.async_period = 1024;
	e = etm_enc_alloc(&eo, sizeof(eo), s->img);
	if (!e)
		return -1;
	ev = etm_gen_events(s->gen, &nev);
	for (i = 0; i < nev && !rc; i++)
		rc = etm_enc_put(e, &ev[i]);
	if (!rc)
		rc = etm_enc_finish(e);
	data = etm_enc_data(e, n);
	*out = rc ? NULL : malloc(*n ? *n : 1);
	if (*out)
		memcpy(*out, data, *n);
	etm_enc_free(e);
	return *out ? 0 : -1;
}

/* Interleave two streams in CoreSight frames, in chunks of 1-64 bytes (a
 * corrupted ID byte misroutes data only until the next ID change). */
static int rc_framed(struct rc_trace *t, uint8_t *const b[2],
		     const size_t n[2], uint64_t seed)
{
	struct etm_fenc *f = etm_fenc_alloc(0, seed);
	size_t pos[2] = { 0, 0 }, fn;
	const uint8_t *fd;
	int k;

	if (!f)
		return -1;
	while (pos[0] < n[0] || pos[1] < n[1]) {
		/* pick a source in proportion to what it has left, so
		 * both stay active (and IDs keep changing) to the end */
		k = rc_rand(&seed) % (n[0] - pos[0] + n[1] - pos[1]) <
				    n[0] - pos[0] ?
			    0 :
			    1;
		fn = 1 + rc_rand(&seed) % 64;
		if (fn > n[k] - pos[k])
			fn = n[k] - pos[k];
		etm_fenc_put(f, etm_cfg_trace_id(&t->src[k].cfg),
			     b[k] + pos[k], fn);
		pos[k] += fn;
	}
	etm_fenc_finish(f);
	fd = etm_fenc_data(f, &fn);
	t->buf = malloc(fn);
	if (t->buf)
		memcpy(t->buf, fd, fn);
	t->n = fn;
	etm_fenc_free(f);
	return t->buf ? 0 : -1;
}

/* Record where each source's data resumes after another ID's data. */
static int rc_idchanges(struct rc_trace *t)
{
	struct etm_dfmt *df = etm_dfmt_alloc(etm_fmt_coresight, 0);
	struct etm_dfmt_item it;
	unsigned last = 0;
	int k;

	if (!df || etm_dfmt_push(df, t->buf, t->n) < 0)
		goto fail;
	for (k = 0; k < 2; k++) {
		t->idchg[k] = malloc(t->n / 16 * sizeof(uint64_t) + 8);
		if (!t->idchg[k])
			goto fail;
	}
	etm_dfmt_finish(df);
	while (etm_dfmt_next(df, &it, sizeof(it)) == 0) {
		if (it.kind != etm_dfmt_data)
			continue;
		k = it.run.id - 0x10;
		if (it.run.id != last && k >= 0 && k < 2 &&
		    t->nidchg[k] < t->n / 16 + 1)
			t->idchg[k][t->nidchg[k]++] = it.run.offset;
		last = it.run.id;
	}
	etm_dfmt_free(df);
	return 0;
fail:
	etm_dfmt_free(df);
	return -1;
}

struct rc_trace *rc_trace_alloc(enum etm_protocol proto, int formatted,
				uint32_t ninsn, uint64_t seed)
{
	struct rc_trace *t = calloc(1, sizeof(*t));
	uint8_t *b[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	int i, rc = t ? 0 : -1;

	if (t) {
		t->nsrc = formatted ? 2 : 1;
		t->fmt = formatted ? etm_fmt_coresight : etm_fmt_raw;
	}
	for (i = 0; t && i < t->nsrc && !rc; i++)
		rc = rc_encode(&t->src[i], proto, 0x10 + (unsigned)i, ninsn,
			       seed + (uint64_t)i * 1000003u, &b[i], &n[i]);
	if (!rc && formatted) {
		rc = rc_framed(t, b, n, seed);
		if (!rc)
			rc = rc_idchanges(t);
		free(b[0]);
	} else if (!rc) {
		t->buf = b[0];
		t->n = n[0];
	}
	free(b[1]);
	if (!rc)
		rc = rc_decode(t, t->buf, t->n, NULL, &t->clean);
	if (!rc)
		rc = rc_seqs(&t->clean, t->nsrc, t->cseq);
	if (!rc) /* sorted once; trials match against a copy */
		qsort(t->clean.ins, t->clean.nins, sizeof(*t->clean.ins),
		      rc_cmp);
	if (rc) {
		rc_trace_free(t);
		return NULL;
	}
	return t;
}

void rc_trace_free(struct rc_trace *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < 2; i++) {
		free(t->idchg[i]);
		free(t->cseq[i]);
		etm_gen_free(t->src[i].gen);
		etm_image_free(t->src[i].img);
	}
	rc_out_free(&t->clean);
	free(t->buf);
	free(t);
}

void rc_trace_set_verify(struct rc_trace *t, int on)
{
	t->verify = on;
}

size_t rc_trace_size(const struct rc_trace *t)
{
	return t->n;
}

uint64_t rc_trace_insns(const struct rc_trace *t)
{
	return t->clean.nins;
}

/* Damaged synchronisation period of source @k: from the last A-sync /
 * I-sync at or before the damage (@lo_idx: its output index; elements
 * output after it may hold instructions of later packets) to the first
 * I-sync (offset @hi) after the first A-sync that follows the damage -
 * with formatted input, that follows the formatter switching back to the
 * source after the damage (a corrupted ID byte misroutes data until then). */
static void rc_window(const struct rc_trace *t, int k, const struct rc_dmg *d,
		      uint32_t *lo_idx, uint64_t *hi)
{
	const struct rc_out *c = &t->clean;
	unsigned id = etm_cfg_trace_id(&t->src[k].cfg);
	uint64_t as = RC_NONE, end = d->end;
	size_t i;

	for (i = 0; i < t->nidchg[k] && end != RC_NONE; i++)
		/* idchg holds the offset of the first data byte after the ID
		 * change; the ID byte itself is one or two bytes before it
		 * (two: across a frame's aux byte, or a delayed change), so
		 * only a run starting 3 bytes after the damage surely was
		 * switched to by an undamaged ID byte */
		if (t->idchg[k][i] > d->end + 2) {
			end = t->idchg[k][i];
			break;
		}
	if (t->nidchg[k] && i == t->nidchg[k])
		end = RC_NONE;
	*lo_idx = 0;
	*hi = RC_NONE;
	for (i = 0; i < c->nmk; i++) {
		const struct rc_mark *m = &c->mk[i];

		if (m->id != id || m->kind == rc_mk_err)
			continue;
		if (m->off <= d->start)
			*lo_idx = m->idx;
		else if (m->kind == rc_mk_async && m->off >= end &&
			 as == RC_NONE)
			as = m->off;
		else if (m->kind == rc_mk_isync && as != RC_NONE &&
			 m->off > as) {
			*hi = m->off;
			return;
		}
	}
}

/* Damaged copy of the trace; NULL if @k does not apply or no memory. */
static uint8_t *rc_damage(const struct rc_trace *t, enum rc_damage k,
			  uint64_t *rs, struct rc_dmg *d, size_t *n)
{
	size_t p = (size_t)(rc_rand(rs) % t->n), i;
	uint8_t *b;

	memset(d, 0, sizeof(*d));
	/* frames are lost whole; formatted input in memory has no byte-level
	 * resynchronisation (frame boundaries are implicit), so byte drops
	 * and insertions apply to raw input only */
	if ((k == rc_frame) == (t->fmt == etm_fmt_raw) &&
	    (k == rc_frame || k == rc_drop || k == rc_insert))
		return NULL;
	if (k == rc_frame)
		p &= ~(size_t)15;
	d->pos = p;
	d->end = p + 1;
	if (k == rc_drop || k == rc_frame) {
		d->len = k == rc_frame ? 16 : 1 + rc_rand(rs) % 8;
		if (d->len > t->n - p)
			d->len = t->n - p;
		d->end = p + d->len;
	} else if (k == rc_insert) {
		d->ins = 1 + rc_rand(rs) % 64;
	} else if (k == rc_truncate) {
		d->end = RC_NONE;
	}
	d->start = t->fmt == etm_fmt_raw ? p : p & ~(size_t)15;
	b = malloc(t->n + d->ins + 1);
	if (!b)
		return NULL;
	memcpy(b, t->buf, p);
	for (i = 0; i < d->ins; i++)
		b[p + i] = (uint8_t)rc_rand(rs);
	*n = k == rc_truncate ? p : t->n - d->len + d->ins;
	if (k != rc_truncate)
		memcpy(b + p + d->ins, t->buf + p + d->len, t->n - p - d->len);
	if (k == rc_flip)
		b[p] ^= (uint8_t)(1u << (rc_rand(rs) % 8));
	return b;
}

/* Clean offset of the marker output at index @idx (0 if none). */
static uint64_t rc_sync_off(const struct rc_out *c, uint32_t idx)
{
	size_t i;

	for (i = 0; i < c->nmk; i++)
		if (c->mk[i].idx == idx)
			return c->mk[i].off;
	return 0;
}

static int rc_cmp(const void *va, const void *vb)
{
	const struct rc_ins *a = va, *b = vb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return 0;
}

/* The instruction addresses of each of @nsrc sources (trace IDs 0x10..)
 * of @o in output order, into malloc'd @seq[]. */
static int rc_seqs(const struct rc_out *o, int nsrc, uint64_t **seq)
{
	size_t i;
	int k;

	for (k = 0; k < nsrc; k++) {
		seq[k] = malloc(((size_t)o->nord[0x10 + k] + 1) * sizeof(**seq));
		if (!seq[k])
			return -1;
	}
	for (i = 0; i < o->nins; i++) {
		k = o->ins[i].id - 0x10;
		if (k >= 0 && k < nsrc)
			seq[k][o->ins[i].ord] = o->ins[i].addr;
	}
	return 0;
}

/* Instructions also match by position: those in the longest common prefix
 * and the longest common suffix of a source's clean and damaged address
 * sequences are the same instructions. The (offset, rank) key alone does
 * not always find them: an ETMv3 range runs over many packets and has the
 * offset of its first, so after a resynchronisation the same instructions
 * come in a range that starts at the I-sync instead of one that started
 * before the damage. */
static void rc_match_pos(const struct rc_trace *t, struct rc_ins *c,
			 struct rc_out *o, uint64_t *const dseq[2])
{
	size_t pre[2], suf[2], nc[2], nd[2], i;
	int k;

	for (k = 0; k < t->nsrc; k++) {
		const uint64_t *a = t->cseq[k], *b = dseq[k];
		size_t m;

		nc[k] = t->clean.nord[0x10 + k];
		nd[k] = o->nord[0x10 + k];
		m = nc[k] < nd[k] ? nc[k] : nd[k];
		for (pre[k] = 0; pre[k] < m && a[pre[k]] == b[pre[k]]; pre[k]++)
			;
		for (suf[k] = 0; suf[k] < m - pre[k] &&
				 a[nc[k] - 1 - suf[k]] == b[nd[k] - 1 - suf[k]];
		     suf[k]++)
			;
	}
	for (i = 0; i < t->clean.nins; i++) {
		k = c[i].id - 0x10;
		if (c[i].ord < pre[k] || c[i].ord >= nc[k] - suf[k])
			c[i].matched = 1;
	}
	for (i = 0; i < o->nins; i++) {
		k = o->ins[i].id - 0x10;
		if (k >= 0 && k < t->nsrc &&
		    (o->ins[i].ord < pre[k] || o->ins[i].ord >= nd[k] - suf[k]))
			o->ins[i].matched = 1;
	}
}

/* Mark the instructions present in both sorted lists. */
static void rc_match(struct rc_ins *a, size_t na, struct rc_ins *b, size_t nb)
{
	size_t i = 0, j = 0;
	int c;

	while (i < na && j < nb) {
		c = rc_cmp(&a[i], &b[j]);
		if (c == 0) {
			a[i++].matched = 1;
			b[j++].matched = 1;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
}

/* Output index of the first error / gap element of source @id (or of the
 * deformatter, id 0) at or after clean offset @lo; UINT32_MAX if none. */
static uint32_t rc_first_err(const struct rc_out *o, unsigned id, uint64_t lo)
{
	size_t i;

	for (i = 0; i < o->nmk; i++)
		if (o->mk[i].kind == rc_mk_err && o->mk[i].off >= lo &&
		    (o->mk[i].id == id || o->mk[i].id == 0))
			return o->mk[i].idx;
	return UINT32_MAX;
}

static void rc_count(const struct rc_trace *t, struct rc_ins *c,
		     struct rc_out *o, const struct rc_dmg *d,
		     struct rc_stats *st, int verbose)
{
	uint64_t lo[2], hi[2];
	uint32_t fe[2], lo_idx[2];
	size_t i, lost = 0;
	int k, silent = 0;

	for (k = 0; k < t->nsrc; k++) {
		unsigned id = etm_cfg_trace_id(&t->src[k].cfg);

		rc_window(t, k, d, &lo_idx[k], &hi[k]);
		lo[k] = rc_sync_off(&t->clean, lo_idx[k]);
		fe[k] = rc_first_err(o, id, lo[k]);
	}
	for (i = 0; i < t->clean.nins; i++) {
		k = c[i].id - 0x10;
		if (c[i].idx < lo_idx[k] || c[i].off >= hi[k]) {
			st->outside++;
			st->recovered += c[i].matched;
			if (verbose && !c[i].matched && !lost++)
				printf("  lost: id 0x%x insn 0x%llx at offset "
				       "%llu (damage %zu-%llu, window "
				       "%llu..%llu)\n",
				       c[i].id,
				       (unsigned long long)c[i].addr,
				       (unsigned long long)c[i].off, d->pos,
				       (unsigned long long)d->end,
				       (unsigned long long)lo[k],
				       (unsigned long long)hi[k]);
		} else {
			st->inside++;
			st->inside_kept += c[i].matched;
		}
	}
	for (i = 0; i < o->nins; i++) {
		if (o->ins[i].matched)
			continue;
		k = o->ins[i].id - 0x10;
		st->invented++;
		if (k < 0 || k >= t->nsrc)
			continue;
		if (o->ins[i].off < lo[k] || o->ins[i].off >= hi[k])
			st->invented_outside++;
		if (fe[k] < o->ins[i].idx)
			continue;
		st->silent++;
		st->undetected += fe[k] == UINT32_MAX;
		if (verbose && !silent)
			printf("  silent: insn 0x%llx at offset %llu (damage "
			       "at %zu, window %llu..%llu)\n",
			       (unsigned long long)o->ins[i].addr,
			       (unsigned long long)o->ins[i].off, d->pos,
			       (unsigned long long)lo[k],
			       (unsigned long long)hi[k]);
		silent = 1;
	}
	st->silent_trials += silent;
	for (i = 0; i < o->nmk; i++)
		st->errors += o->mk[i].kind == rc_mk_err;
}

int rc_trial(const struct rc_trace *t, enum rc_damage k, uint64_t rng_seed,
	     struct rc_stats *st, int verbose)
{
	struct rc_dmg d;
	struct rc_out o;
	struct rc_ins *c;
	uint64_t *dseq[2] = { NULL, NULL };
	uint8_t *b;
	size_t n = 0;
	int rc;

	b = rc_damage(t, k, &rng_seed, &d, &n);
	if (!b)
		return -1;
	rc = rc_decode(t, b, n, &d, &o);
	free(b);
	c = malloc((t->clean.nins + 1) * sizeof(*c));
	if (rc == 0)
		rc = rc_seqs(&o, t->nsrc, dseq);
	if (rc < 0 || !c) {
		free(c);
		free(dseq[0]);
		free(dseq[1]);
		rc_out_free(&o);
		return -1;
	}
	memcpy(c, t->clean.ins, t->clean.nins * sizeof(*c));
	qsort(o.ins, o.nins, sizeof(*o.ins), rc_cmp);
	rc_match(c, t->clean.nins, o.ins, o.nins);
	rc_match_pos(t, c, &o, dseq);
	free(dseq[0]);
	free(dseq[1]);
	rc_count(t, c, &o, &d, st, verbose);
	st->trials++;
	free(c);
	rc_out_free(&o);
	return 0;
}
