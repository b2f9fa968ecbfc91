/* output/diag.c - configuration-mismatch diagnostics: per-source symptom
 * counts from decoded items, a one-line warning naming the likely cause,
 * and a probe that decodes the start of a trace with configuration
 * variants to find one that fits better. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>
#include <etmtrace/insn.h>

/* Recent 4-byte instruction addresses, direct-mapped: a branch target two
 * bytes into one of them is not an instruction boundary. */
#define DIAG_WIDE 1024

struct etm_diag {
	struct etm_config cfg;
	const struct etm_image *img;
	struct etm_diag_counts c;
	int synced, saw_packets;
	uint64_t last_end;        /* end of the previous range */
	uint64_t wide[DIAG_WIDE]; /* address + 1 (0 = empty) */
	/* A segment (etm_diag_alloc_segment()) starts from an unknown state:
	 * what depends on it is kept pending until etm_diag_append(). */
	int seg;
	int sync_known, end_known; /* synced / last_end are known */
	int pend_sync;             /* first nosync before synced was known */
	uint64_t pend_pkterr;      /* pkt_errors counted before a packet */
	int pend_first;            /* first range, start first_start */
	uint64_t first_start;
	uint64_t known[DIAG_WIDE / 64];   /* wide[] slots written */
	uint64_t touched[DIAG_WIDE / 64]; /* written or looked up */
	struct diag_pend *pend;           /* lookups of slots not written yet: a
				   * hash table by value (v = 0: empty) */
	size_t npend, pendcap;            /* used, capacity (a power of 2) */
	uint32_t id;                      /* the source's trace ID */
	uint32_t pn[DIAG_WIDE];           /* lookups of the pending value in wide[] */
	/* a second pending value per slot (0 = none) and its lookups: loops
	 * whose branch targets share a slot alternate between two values */
	uint64_t alt[DIAG_WIDE];
	uint32_t altn[DIAG_WIDE];
};

/* In a segment, wide[] slots not written yet hold DIAG_UNKNOWN, or the value
 * the latest lookup wanted with DIAG_TAG set (counted in pn[]): loops look
 * for the same value again and again. Addresses stay far below the tag. */
#define DIAG_TAG ((uint64_t)1 << 63)
#define DIAG_UNKNOWN (~(uint64_t)0)

/* A pending lookup: @n ranges found slot value @v (address + 1) wanted. */
struct diag_pend {
	uint64_t v, n;
};

struct etm_diag *etm_diag_alloc(const struct etm_config *cfg,
				const struct etm_image *img)
{
	struct etm_diag *d;

	if (!cfg)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	etm_config_from_user(&d->cfg, cfg, cfg->size);
	d->img = img;
	d->c.size = sizeof(d->c);
	d->sync_known = d->end_known = 1;
	d->id = etm_cfg_trace_id(&d->cfg);
	return d;
}

struct etm_diag *etm_diag_alloc_segment(const struct etm_config *cfg,
					const struct etm_image *img)
{
	struct etm_diag *d = etm_diag_alloc(cfg, img);

	if (d) {
		d->seg = 1;
		d->sync_known = d->end_known = 0;
		memset(d->wide, 0xff, sizeof(d->wide)); /* DIAG_UNKNOWN */
	}
	return d;
}

void etm_diag_free(struct etm_diag *d)
{
	if (d)
		free(d->pend);
	free(d);
}

static unsigned diag_slot_idx(uint64_t addr)
{
	return (unsigned)((addr >> 1) % DIAG_WIDE);
}

static uint64_t *diag_slot(struct etm_diag *d, uint64_t addr)
{
	return &d->wide[diag_slot_idx(addr)];
}

static size_t pend_hash(uint64_t v, size_t cap)
{
	return (size_t)((v * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* A lookup of slot value @v (never 0) in the state before the segment:
 * counted per distinct value, so memory is bounded by the branch targets
 * (addresses in the image), not by the trace. */
static void pend_add(struct etm_diag *d, uint64_t v, uint64_t n)
{
	size_t i, j;

	if (2 * (d->npend + 1) > d->pendcap) {
		size_t cap = d->pendcap ? 2 * d->pendcap : 64;
		struct diag_pend *t = calloc(cap, sizeof(*t));

		if (!t)
			return; /* no memory: the lookup is lost */
		for (i = 0; i < d->pendcap; i++) {
			if (!d->pend[i].v)
				continue;
			for (j = pend_hash(d->pend[i].v, cap); t[j].v;
			     j = (j + 1) & (cap - 1))
				;
			t[j] = d->pend[i];
		}
		free(d->pend);
		d->pend = t;
		d->pendcap = cap;
	}
	for (j = pend_hash(v, d->pendcap); d->pend[j].v && d->pend[j].v != v;
	     j = (j + 1) & (d->pendcap - 1))
		;
	if (!d->pend[j].v) {
		d->pend[j].v = v;
		d->npend++;
	}
	d->pend[j].n += n;
}

/* Segment: lookup of value @v in slot @i, not written in the segment and
 * not pending with @v (out of line: the hot path stays that of a whole). */
static __attribute__((noinline)) void pend_slot(struct etm_diag *d,
						unsigned i, uint64_t v)
{
	uint64_t w = d->wide[i];
	uint32_t n = 1;

	if (w != DIAG_UNKNOWN) {
		/* the slot's pending value becomes the second one */
		if (d->alt[i] == v)
			n += d->altn[i];
		else if (d->alt[i])
			pend_add(d, d->alt[i], d->altn[i]);
		d->alt[i] = w & ~DIAG_TAG;
		d->altn[i] = d->pn[i];
	}
	d->touched[i / 64] |= (uint64_t)1 << (i % 64);
	d->wide[i] = v | DIAG_TAG;
	d->pn[i] = n;
}

/* Segment: slot @i, not written in the segment yet, is written now: its
 * pending lookups go to the table. */
static __attribute__((noinline)) void pend_known(struct etm_diag *d,
						 unsigned i)
{
	if (d->wide[i] != DIAG_UNKNOWN)
		pend_add(d, d->wide[i] & ~DIAG_TAG, d->pn[i]);
	if (d->alt[i])
		pend_add(d, d->alt[i], d->altn[i]);
	d->alt[i] = 0;
	d->known[i / 64] |= (uint64_t)1 << (i % 64);
	d->touched[i / 64] |= (uint64_t)1 << (i % 64);
}

/* Classify the instruction at @addr; 0 if it cannot be read. */
static int diag_insn(const struct etm_image *img, uint64_t addr,
		     enum etm_isa isa, struct etm_insn *in)
{
	uint8_t b[4];
	size_t n;

	if (!img)
		return 0;
	n = etm_image_read(img, etm_space_any, addr, b, sizeof(b));
	return etm_insn_decode(in, isa, addr, b, n) > 0;
}

/* Whether a T32 instruction at @addr may sit in an IT block: an IT
 * instruction among the eight halfwords before it (an IT block holds up
 * to four instructions of up to four bytes; conservative). */
static int diag_maybe_it(const struct etm_image *img, uint64_t addr)
{
	uint8_t b[16];
	unsigned i;

	if (addr < 16 || etm_image_read(img, etm_space_any, addr - 16, b,
					16) != 16)
		return 1;
	for (i = 0; i < 16; i += 2)
		if (b[i + 1] == 0xbf && (b[i] & 0x0f))
			return 1;
	return 0;
}

/* Per range: table lookups, and an image read only for N atoms (rare),
 * so the checks cost little next to decoding. */
static void diag_range(struct etm_diag *d, const struct etm_elem *e)
{
	unsigned marks;

	d->c.ranges++;
	d->c.insns += e->ninsn;
	/* a branch target inside a recent 4-byte instruction */
	if (!d->end_known) {
		d->pend_first = e->start >= 2;
		d->first_start = e->start;
		d->end_known = 1;
	} else if (e->start != d->last_end && e->start >= 2) {
		unsigned i = diag_slot_idx(e->start - 2);
		uint64_t w = d->wide[i], v = e->start - 2 + 1;

		if (w == v)
			d->c.mid_insn++;
		else if (w == (v | DIAG_TAG)) /* segment: pending again */
			d->pn[i]++;
		else if (w >= DIAG_TAG) /* segment: not written yet */
			pend_slot(d, i, v);
	}
	d->last_end = e->end;
	if (e->last_size == 4) {
		unsigned i = diag_slot_idx(e->last_addr);

		if (d->wide[i] >= DIAG_TAG)
			pend_known(d, i);
		d->wide[i] = e->last_addr + 1;
	}
	marks = etm_diag_elem_marks(d->img, e);
	if (marks & etm_mark_undef)
		d->c.undef++;
	if (marks & etm_mark_n_uncond)
		d->c.n_uncond++;
}

unsigned etm_diag_elem_marks(const struct etm_image *img,
			     const struct etm_elem *e)
{
	struct etm_insn in;
	unsigned m = 0;

	if (e->kind != etmk_range)
		return 0;
	if (e->last_cls == etmc_undefined)
		m |= etm_mark_undef;
	if (e->last_atom && !e->last_exec &&
	    diag_insn(img, e->last_addr, e->isa, &in) && !in.cond &&
	    (e->isa == etmi_a32 || !diag_maybe_it(img, e->last_addr)))
		m |= etm_mark_n_uncond;
	return m;
}

static void diag_error(struct etm_diag *d, int err)
{
	switch (err) {
	case etme_bad_opc:
	case etme_bad_packet:
	case etme_truncated:
		if (!d->saw_packets) {
			d->c.pkt_errors++;
			d->pend_pkterr += d->seg;
		}
		break;
	case etme_mismatch:
	case etme_bad_insn:
	case etme_retstack_empty:
		d->c.mismatch++;
		break;
	default:
		break;
	}
}

void etm_diag_item(struct etm_diag *d, const struct etm_item *it)
{
	if (!d || !it)
		return;
	if (it->kind == etm_item_elem) {
		etm_diag_elem(d, &it->elem);
		return;
	}
	if (it->pkt.id != d->id)
		return;
	d->saw_packets = 1;
	d->c.packets++;
	d->c.pkt_errors += it->pkt.type == etmp_error;
}

void etm_diag_elem(struct etm_diag *d, const struct etm_elem *e)
{
	if (!d || !e || e->id != d->id)
		return;
	switch (e->kind) {
	case etmk_range:
		diag_range(d, e);
		break;
	case etmk_trace_on:
		d->synced = 1;
		d->sync_known = 1;
		break;
	case etmk_nosync:
		if (e->err == etme_halted)
			break; /* a restart sync not captured: no evidence of a
				 * wrong configuration */
		if (d->sync_known)
			d->c.sync_lost += d->synced;
		else
			d->pend_sync = 1;
		d->synced = 0;
		d->sync_known = 1;
		break;
	case etmk_nomem:
		d->c.nomem++;
		break;
	case etmk_error:
		diag_error(d, e->err);
		break;
	default:
		break;
	}
}

void etm_diag_reset_segment(struct etm_diag *d)
{
	unsigned i;
	uint64_t m;

	if (!d || !d->seg)
		return;
	for (i = 0; i < DIAG_WIDE / 64; i++)
		for (m = d->touched[i]; m; m &= m - 1) {
			unsigned k = i * 64 + (unsigned)__builtin_ctzll(m);

			d->wide[k] = DIAG_UNKNOWN;
			d->alt[k] = 0;
		}
	memset(d->known, 0, sizeof(d->known));
	memset(d->touched, 0, sizeof(d->touched));
	memset(&d->c, 0, sizeof(d->c));
	d->c.size = sizeof(d->c);
	d->synced = d->saw_packets = 0;
	d->last_end = 0;
	d->sync_known = d->end_known = 0;
	d->pend_sync = d->pend_first = 0;
	d->pend_pkterr = 0;
	d->first_start = 0;
	if (d->npend)
		memset(d->pend, 0, d->pendcap * sizeof(*d->pend));
	d->npend = 0;
}

int etm_diag_append(struct etm_diag *d, const struct etm_diag *s)
{
	const struct etm_diag_counts *c = &s->c;
	uint64_t m;
	size_t i;

	if (!d || !s || d->seg || !s->seg)
		return -etme_invalid;
	/* lookups against the state before the segment, then its writes */
	if (s->pend_first && d->last_end != s->first_start &&
	    *diag_slot(d, s->first_start - 2) == s->first_start - 2 + 1)
		d->c.mid_insn++;
	for (i = 0; s->npend && i < s->pendcap; i++)
		if (s->pend[i].v && *diag_slot(d, s->pend[i].v - 1) == s->pend[i].v)
			d->c.mid_insn += s->pend[i].n;
	for (i = 0; i < DIAG_WIDE / 64; i++)
		for (m = s->touched[i] & ~s->known[i]; m; m &= m - 1) {
			size_t k = i * 64 + (unsigned)__builtin_ctzll(m);

			if (d->wide[k] == (s->wide[k] & ~DIAG_TAG))
				d->c.mid_insn += s->pn[k];
			if (s->alt[k] && d->wide[k] == s->alt[k])
				d->c.mid_insn += s->altn[k];
		}
	if (s->pend_sync)
		d->c.sync_lost += d->synced;
	if (s->sync_known)
		d->synced = s->synced;
	if (s->end_known)
		d->last_end = s->last_end;
	for (i = 0; i < DIAG_WIDE / 64; i++)
		for (m = s->known[i]; m; m &= m - 1) {
			size_t k = i * 64 + (unsigned)__builtin_ctzll(m);

			d->wide[k] = s->wide[k];
		}
	d->c.pkt_errors += c->pkt_errors - (d->saw_packets ? s->pend_pkterr : 0);
	d->saw_packets |= s->saw_packets;
	d->c.packets += c->packets;
	d->c.sync_lost += c->sync_lost;
	d->c.insns += c->insns;
	d->c.ranges += c->ranges;
	d->c.nomem += c->nomem;
	d->c.mismatch += c->mismatch;
	d->c.n_uncond += c->n_uncond;
	d->c.undef += c->undef;
	d->c.mid_insn += c->mid_insn;
	return 0;
}

int etm_diag_counts(const struct etm_diag *d, struct etm_diag_counts *c,
		    size_t size)
{
	if (!d || !c || size < sizeof(size_t))
		return -etme_invalid;
	if (size > sizeof(d->c))
		size = sizeof(d->c);
	memcpy(c, &d->c, size);
	c->size = size;
	return 0;
}

int etm_diag_warning(const struct etm_diag *d, char *buf, size_t n)
{
	const struct etm_diag_counts *c = &d->c;
	uint64_t bad = c->pkt_errors + c->sync_lost;
	uint64_t img = c->mismatch + c->n_uncond + c->undef + c->mid_insn;

	/* (a trace that decodes next to nothing before it fails: fewer than
	 * 16 instructions a failure) */
	if (bad && (bad >= 4 || c->insns < 16 * bad))
		return snprintf(buf, n, "%llu malformed packets, %llu losses "
					"of sync: wrong protocol or ETMCR/ETMIDR "
					"(cycle-accurate, Context ID size, branch "
					"encoding)?",
				(unsigned long long)c->pkt_errors,
				(unsigned long long)c->sync_lost);
	if (img)
		return snprintf(buf, n, "trace disagrees with the image (%llu "
					"flow mismatches, %llu N atoms on "
					"unconditional instructions, %llu undefined "
					"instructions, %llu branches into an "
					"instruction): wrong image or load address?",
				(unsigned long long)c->mismatch,
				(unsigned long long)c->n_uncond,
				(unsigned long long)c->undef,
				(unsigned long long)c->mid_insn);
	if (c->nomem && c->nomem * 10 >= c->ranges)
		return snprintf(buf, n, "%llu traced addresses are not in the "
					"image: image missing or at the wrong "
					"address?",
				(unsigned long long)c->nomem);
	if (n)
		buf[0] = 0;
	return 0;
}

/* Symptom score and instruction count of decoding @buf with @cfg
 * (score -1 if it cannot be decoded at all). */
struct diag_fit {
	int64_t score;
	uint64_t insns;
	uint64_t parse_bad, packets; /* packet-level symptoms, packets */
	int async;                   /* an A-sync of the source was seen */
};

static uint64_t diag_score(const struct etm_diag_counts *c)
{
	return c->pkt_errors + c->sync_lost + c->mismatch + c->n_uncond +
	       c->undef + c->mid_insn + c->nomem / 4;
}

static struct diag_fit diag_fit(enum etm_input_format fmt,
				const struct etm_config *cfg,
				const struct etm_image *img,
				const uint8_t *buf, size_t n)
{
	struct etm_decoder *dec = etm_decoder_alloc(fmt, etm_dec_elements);
	struct etm_diag *d = etm_diag_alloc(cfg, img);
	struct etm_item *it = malloc(sizeof(*it));
	struct diag_fit fit = { -1, 0, 0, 0, 0 };
	int rc = -etme_nomem;

	if (dec && d && it)
		rc = etm_decoder_add_source(dec, cfg, img);
	if (!rc) {
		etm_decoder_set_packets(dec, 1);
		/* a wrong configuration makes bad packets: that is what is
		 * measured, not a lost frame alignment */
		etm_decoder_set_realign(dec, 0);
		rc = etm_decoder_push(dec, buf, n);
	}
	while (!rc) {
		rc = etm_decoder_next(dec, it, sizeof(*it));
		if (rc == -etme_again)
			rc = etm_decoder_finish(dec);
		else if (!rc)
			etm_diag_item(d, it);
		if (!rc && it->kind != etm_item_elem && it->pkt.id == d->id &&
		    it->pkt.type == etmp_async)
			fit.async = 1;
	}
	if (rc == -etme_eos) {
		fit.score = (int64_t)diag_score(&d->c);
		fit.insns = d->c.insns;
		fit.parse_bad = d->c.pkt_errors + d->c.sync_lost;
		fit.packets = d->c.packets;
	}
	free(it);
	etm_diag_free(d);
	etm_decoder_free(dec);
	return fit;
}

/* Whether @v fits clearly better than the configured @o and than the best
 * variant so far @b: far fewer symptoms, not far fewer instructions. */
static int diag_better(struct diag_fit v, struct diag_fit o, struct diag_fit b)
{
	if (v.score < 0 || !v.insns || v.insns * 2 < o.insns)
		return 0;
	if (!(v.score == 0 ? o.score > 0 : v.score * 4 <= o.score))
		return 0;
	return v.score < b.score || (v.score == b.score && v.insns > b.insns);
}

/* Timestamps of variant bits 6:5: 0 as configured, 1 off, 2 on (64-bit
 * binary), 3 on (48-bit Gray): ETMCR[28], ETMCCER[29:28]. */
static void diag_ts_variant(struct etm_config *out, unsigned ts)
{
	if (!ts)
		return;
	out->etmcr &= ~(1u << 28);
	out->etmccer &= ~(3u << 28);
	if (ts >= 2)
		out->etmcr |= 1u << 28;
	if (ts == 2)
		out->etmccer |= 3u << 28;
}

/* Variant @v of @cfg: bit 0 cycle-accurate, bits 2:1 Context ID size,
 * bit 3 ETMv3 alternative branch encoding / PTM return stack, bit 4 the
 * other protocol, bits 6:5 timestamps (diag_ts_variant()). */
static int diag_variant(const struct etm_config *cfg, unsigned v,
			struct etm_config *out)
{
	*out = *cfg;
	diag_ts_variant(out, (v >> 5) & 3);
	if (v & 16)
		out->protocol = cfg->protocol == etm_proto_ptm ?
					etm_proto_etmv3 :
					etm_proto_ptm;
	out->etmcr &= ~((1u << 12) | (3u << 14) | (1u << 29));
	out->etmcr |= (v & 1) << 12 | ((v >> 1) & 3) << 14;
	if (out->protocol == etm_proto_ptm) {
		out->etmcr |= ((v >> 3) & 1) << 29;
		if (cfg->protocol != etm_proto_ptm)
			out->etmidr = 0x411cf312; /* PFT 1.1 */
		if (v & 8)
			out->etmcr &= ~(1u << 8); /* not with the stack */
	} else {
		if (cfg->protocol != etm_proto_etmv3 || (v & 8) !=
								(unsigned)etm_cfg_alt_branch(cfg) << 3)
			out->etmidr = 0x410cf250 | (v & 8) << 17; /* v3.5 */
	}
	return etm_config_check(out, NULL) == 0;
}

/* Whether @v fits better than @b with no margins (@cfg was a guess):
 * fewer symptoms, or as few and more instructions. */
static int diag_fewer(struct diag_fit v, struct diag_fit b)
{
	if (v.score < 0)
		return 0;
	if (b.score < 0 || (v.insns && !b.insns))
		return 1;
	if (!v.insns && b.insns)
		return 0;
	if (!v.insns) /* no image: only how the packets parse tells */
		return v.parse_bad < b.parse_bad ||
		       (v.parse_bad == b.parse_bad && v.packets > b.packets);
	return v.score < b.score || (v.score == b.score && v.insns > b.insns);
}

/* Whether variant @v changes what @keep (ETM_PROBE_KEEP_*) holds fixed. */
static int diag_kept(const struct etm_config *cfg, const struct etm_config *v,
		     unsigned keep)
{
	return ((keep & ETM_PROBE_KEEP_PROTOCOL) && v->protocol != cfg->protocol) ||
	       ((keep & ETM_PROBE_KEEP_ETMCR) && v->etmcr != cfg->etmcr) ||
	       ((keep & ETM_PROBE_KEEP_ETMIDR) && v->etmidr != cfg->etmidr);
}

int etm_diag_probe(enum etm_input_format fmt, const struct etm_config *cfg,
		   const struct etm_image *img, const uint8_t *buf, size_t n,
		   struct etm_config *best)
{
	return etm_diag_probe_keep(fmt, cfg, img, buf, n, 0, best);
}

/* The fits of the probe's configurations, computed on several threads. */
struct diag_probe {
	enum etm_input_format fmt;
	const struct etm_image *img;
	const uint8_t *buf;
	size_t n;
	struct etm_config v[129]; /* [0] as configured, then the variants */
	struct diag_fit f[129];
	unsigned nv, next;
	pthread_mutex_t mu;
};

static void *diag_probe_worker(void *arg)
{
	struct diag_probe *p = arg;
	unsigned i;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->nv)
			return NULL;
		p->f[i] = diag_fit(p->fmt, &p->v[i], p->img, p->buf, p->n);
	}
}

/* Fill p->f for p->v on @jobs threads (this one included). */
static void diag_probe_fits(struct diag_probe *p, unsigned jobs)
{
	pthread_t th[16];
	unsigned i, nth = 0;

	pthread_mutex_init(&p->mu, NULL);
	if (jobs > 16)
		jobs = 16;
	for (i = 1; i < jobs && i < p->nv; i++)
		if (pthread_create(&th[nth], NULL, diag_probe_worker, p) == 0)
			nth++;
	diag_probe_worker(p);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p->mu);
}

/* The variants of @cfg to try after it in p->v: not one equal to @cfg, or
 * with the timestamps @cfg has equal to variant i & 31 (it would fit as
 * that one did: never better). */
static void diag_probe_variants(struct diag_probe *p,
				const struct etm_config *cfg, unsigned keep)
{
	struct etm_config w;
	unsigned i;

	for (i = 0; i < 128; i++) {
		struct etm_config *v = &p->v[p->nv];

		if (!diag_variant(cfg, i, v) || diag_kept(cfg, v, keep) ||
		    !memcmp(v, cfg, sizeof(*cfg)) ||
		    (i >= 32 && diag_variant(cfg, i & 31, &w) &&
		     !diag_kept(cfg, &w, keep) && !memcmp(v, &w, sizeof(w))))
			continue;
		p->nv++;
	}
}

int etm_diag_probe_keep(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, struct etm_config *best)
{
	return etm_diag_probe_jobs(fmt, cfg, img, buf, n, keep, 1, best);
}

int etm_diag_probe_jobs(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, unsigned jobs,
			struct etm_config *best)
{
	struct diag_probe *p;
	struct diag_fit b;
	unsigned i;

	if (!cfg || !best || (!buf && n))
		return -etme_invalid;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -etme_nomem;
	*p = (struct diag_probe){ .fmt = fmt, .img = img, .buf = buf, .n = n };
	*best = *cfg;
	p->v[p->nv++] = *cfg;
	p->f[0] = diag_fit(fmt, cfg, img, buf, n);
	/* The A-sync search does not depend on the configuration: without
	 * one, every ETMv3 or PTM variant decodes what @cfg did (bytes out
	 * of sync, nothing else), and none can fit better. */
	if (p->f[0].score >= 0 && !p->f[0].async &&
	    (cfg->protocol == etm_proto_etmv3 ||
	     cfg->protocol == etm_proto_ptm)) {
		free(p);
		return 0;
	}
	diag_probe_variants(p, cfg, keep);
	p->next = 1;
	diag_probe_fits(p, jobs ? jobs : 1);
	/* the choice in the variants' order, as on one thread */
	b = p->f[0];
	for (i = 1; i < p->nv; i++)
		if ((keep & ETM_PROBE_GUESS) ? diag_fewer(p->f[i], b) :
					       diag_better(p->f[i], p->f[0], b)) {
			b = p->f[i];
			*best = p->v[i];
		}
	free(p);
	return memcmp(best, cfg, sizeof(*best)) != 0;
}

int etm_diag_config_diff(const struct etm_config *cfg,
			 const struct etm_config *o, char *buf, size_t n)
{
	size_t len = 0;
	int r;

#define DIFF(cond, ...)                                                     \
	do {                                                                \
		if (!(cond))                                                \
			break;                                              \
		r = snprintf(buf + (len < n ? len : n),                     \
			     len < n ? n - len : 0, "%s", len ? ", " : ""); \
		len += (size_t)r;                                           \
		r = snprintf(buf + (len < n ? len : n),                     \
			     len < n ? n - len : 0, __VA_ARGS__);           \
		len += (size_t)r;                                           \
	} while (0)
	if (n)
		buf[0] = 0;
	DIFF(cfg->protocol != o->protocol, "protocol %s",
	     etm_protocol_name(o->protocol));
	DIFF(etm_cfg_cycle_acc(cfg) != etm_cfg_cycle_acc(o),
	     "cycle-accurate %s", etm_cfg_cycle_acc(o) ? "on" : "off");
	DIFF(etm_cfg_ctxid_bytes(cfg) != etm_cfg_ctxid_bytes(o),
	     "%d-byte Context ID", etm_cfg_ctxid_bytes(o));
	DIFF(o->protocol == etm_proto_etmv3 &&
		     etm_cfg_alt_branch(cfg) != etm_cfg_alt_branch(o),
	     "%s branch encoding",
	     etm_cfg_alt_branch(o) ? "alternative" : "original");
	DIFF(etm_cfg_timestamps(cfg) != etm_cfg_timestamps(o) ||
		     (etm_cfg_timestamps(o) &&
		      (etm_cfg_ts_64bit(cfg) != etm_cfg_ts_64bit(o) ||
		       etm_cfg_ts_binary(cfg) != etm_cfg_ts_binary(o))),
	     "timestamps %s", !etm_cfg_timestamps(o) ? "off" : etm_cfg_ts_64bit(o) ? "on (64-bit binary)" :
										     "on (48-bit Gray)");
	DIFF(etm_cfg_ret_stack(cfg) != etm_cfg_ret_stack(o),
	     "return stack %s", etm_cfg_ret_stack(o) ? "on" : "off");
#undef DIFF
	return (int)len;
}
