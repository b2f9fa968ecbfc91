/* tests/roundtrip/rt.c - one round-trip case: options from the seed, the
 * generated execution encoded by libetmtrace's encoder, decoded by the
 * public decoder API in random chunk sizes, and compared item by item. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static uint64_t rt_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int rt_pct(uint64_t *s, unsigned pct)
{
	return rt_rand(s) % 100 < pct;
}

static int rt_push(struct rt_list *l, const struct rt_rec *r)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct rt_rec *p = realloc(l->r, cap * sizeof(*p));

		if (!p)
			return -1;
		l->r = p;
		l->cap = cap;
	}
	l->r[l->n++] = *r;
	return 0;
}

/* ETMCR / ETMIDR / ETMCCER and encoder / generator options for a source. */
static void rt_pick(struct rt_src *s, uint64_t *rs, unsigned id, int ptm)
{
	struct etm_config *c = &s->cfg;
	static const uint32_t encfl[] = { ETM_ENC_ATOM_SINGLE, ETM_ENC_FULL_ADDR,
					  ETM_ENC_RANDOM, ETM_ENC_EXC_FULL_ADDR };
	unsigned i, cid = (unsigned)(rt_rand(rs) % 4);

	etm_config_init(c);
	c->protocol = ptm ? etm_proto_ptm : etm_proto_etmv3;
	c->traceid = id;
	c->etmcr = cid << 14;
	if (rt_pct(rs, 50))
		c->etmcr |= 1u << 12; /* cycle accurate */
	if (rt_pct(rs, 35))
		c->etmcr |= 1u << 28; /* timestamps */
	if (rt_pct(rs, 25))
		c->etmcr |= 1u << 30; /* VMID */
	if (ptm && rt_pct(rs, 50))
		c->etmcr |= 1u << 29; /* return stack */
	else if (rt_pct(rs, 15))
		c->etmcr |= 1u << 8; /* branch broadcast */
	c->etmccer = (rt_pct(rs, 50) ? 1u << 29 : 0) |
		     (rt_pct(rs, 70) ? 1u << 28 : 0) | (1u << 22);
	if (ptm && rt_pct(rs, 30))
		c->etmccer |= 1u << 24; /* DMB/DSB waypoints */
	if (ptm)
		c->etmidr = 0x411cf312; /* PFT 1.1 */
	else
		/* ETMv3.3, 3.4 or 3.5; ETMIDR[20] alternative encoding
		 * (used from v3.4 on) */
		c->etmidr = 0x410cf200 | ((3 + (uint32_t)(rt_rand(rs) % 3)) << 4) |
			    (rt_pct(rs, 40) ? 1u << 20 : 0);
	memset(&s->eo, 0, sizeof(s->eo));
	s->eo.size = sizeof(s->eo);
	s->eo.cfg = *c;
	s->eo.seed = rt_rand(rs);
	for (i = 0; i < 4; i++)
		if (rt_pct(rs, 25))
			s->eo.flags |= encfl[i];
	if (rt_pct(rs, 30))
		s->eo.isync_period = 64 + (uint32_t)(rt_rand(rs) % 2000);
	if (rt_pct(rs, 30))
		s->eo.async_period = 100 + (uint32_t)(rt_rand(rs) % 4000);
	memset(&s->go, 0, sizeof(s->go));
	s->go.size = sizeof(s->go);
	s->go.seed = rt_rand(rs);
	s->go.proto = c->protocol;
	s->go.ninsn = 200 + (uint32_t)(rt_rand(rs) % 1500);
	s->go.nfuncs = 2 + (uint32_t)(rt_rand(rs) % 12);
	s->go.ctxid_bytes = etm_cfg_ctxid_bytes(c);
	s->go.flags = (uint32_t)(rt_rand(rs) & (ETM_GEN_ALL & ~ETM_GEN_LONG));
	if (rt_pct(rs, 10))
		s->go.flags |= ETM_GEN_LONG;
	if (!(c->etmcr & (1u << 30)))
		s->go.flags &= ~ETM_GEN_VMID;
}

void rt_describe(const struct rt_case *c, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "%s chunks=%d",
				      c->coresight ? "coresight" : "raw",
				      c->chunk_mode);
	int i;

	for (i = 0; i < c->nsrc && len < n; i++) {
		const struct rt_src *s = &c->src[i];

		len += (size_t)snprintf(buf + len, n - len,
					" | id=0x%02x %s etmcr=0x%08x etmidr=0x%08x "
					"etmccer=0x%08x enc=0x%x isync=%u async=%u gen=0x%x "
					"ninsn=%u",
					etm_cfg_trace_id(&s->cfg),
					etm_protocol_name(s->cfg.protocol), s->cfg.etmcr,
					s->cfg.etmidr, s->cfg.etmccer, s->eo.flags,
					s->eo.isync_period, s->eo.async_period, s->go.flags,
					s->go.ninsn);
	}
}

static void rt_classify(struct rt_src *s, uint64_t addr, enum etm_isa isa,
			struct etm_insn *in)
{
	uint8_t b[4];
	size_t n = etm_image_read(s->img, etm_space_secure, addr, b, 4);

	if (etm_insn_decode(in, isa, addr, b, n) < 0)
		memset(in, 0, sizeof(*in));
}

/* The expected flow: what a correct decoder must reconstruct. */
static int rt_expect(struct rt_src *s, const struct etm_ev *ev, size_t nev)
{
	int on = 0, ptm = s->cfg.protocol == etm_proto_ptm;
	int eret_pkt = ptm || etm_cfg_arch_minor(&s->cfg) >= 5;
	uint32_t ctxid = 0;
	uint8_t vmid = 0, ns = 0, hyp = 0;
	uint64_t cum = 0;
	struct etm_insn in;
	struct rt_rec r;
	size_t i;

	for (i = 0; i < nev; i++) {
		memset(&r, 0, sizeof(r));
		switch (ev[i].kind) {
		case etmev_trace_on:
			on = 1;
			cum = 0;
			s->on_exp++;
			ns = ev[i].ns;
			hyp = ev[i].hyp;
			break;
		case etmev_trigger:
			s->trig_exp += on;
			break;
		case etmev_trace_off:
			on = 0;
			break;
		case etmev_context:
			ctxid = ev[i].ctxid;
			vmid = ev[i].vmid;
			break;
		case etmev_timestamp:
			/* ETMv3 timestamps from v3.5 (IHI 0014Q §7.3.7) */
			if (on && etm_cfg_timestamps(&s->cfg) &&
			    (ptm || etm_cfg_arch_minor(&s->cfg) >= 5) &&
			    s->nts_exp < 4096)
				s->ts_exp[s->nts_exp++] = ev[i].timestamp;
			break;
		case etmev_insn:
			if (!on)
				break;
			cum += ev[i].cycles;
			r.kind = 1;
			r.addr = ev[i].addr;
			r.isa = (uint8_t)ev[i].isa;
			r.exec = ev[i].exec;
			rt_classify(s, r.addr, ev[i].isa, &in);
			r.n_known = !ptm || etm_insn_is_waypoint(&in, &s->cfg);
			s->eret_exp += eret_pkt && in.exc_return && r.exec;
			r.ctxid = ctxid;
			r.vmid = vmid;
			r.ns = ns;
			r.hyp = hyp;
			r.cum = cum;
			ns = ev[i].ns;
			hyp = ev[i].hyp;
			if (rt_push(&s->exp, &r))
				return -1;
			break;
		case etmev_exception:
			if (!on)
				break;
			if (ev[i].cancel && s->exp.n && s->exp.r[s->exp.n - 1].kind == 1)
				s->exp.n--; /* traced, then cancelled */
			r.kind = 2;
			r.exc = ev[i].exc_num;
			ns = ev[i].ns;
			hyp = ev[i].hyp;
			if (rt_push(&s->exp, &r))
				return -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

static int rt_build(struct rt_src *s)
{
	const struct etm_ev *ev;
	struct etm_enc *e;
	size_t nev, i, n;
	const uint8_t *p;
	int err = 0;

	s->gen = etm_gen_alloc(&s->go, sizeof(s->go));
	s->img = etm_image_alloc();
	if (!s->gen || !s->img || etm_gen_add_to_image(s->gen, s->img) < 0)
		return -1;
	ev = etm_gen_events(s->gen, &nev);
	e = etm_enc_alloc(&s->eo, sizeof(s->eo), s->img);
	if (!e)
		return -1;
	for (i = 0; i < nev && !err; i++)
		err = etm_enc_put(e, &ev[i]);
	if (!err)
		err = etm_enc_finish(e);
	p = etm_enc_data(e, &n);
	s->bytes = malloc(n ? n : 1);
	if (!err && s->bytes) {
		memcpy(s->bytes, p, n);
		s->nbytes = n;
	}
	etm_enc_free(e);
	if (err || !s->bytes) {
		snprintf(s->badmsg, sizeof(s->badmsg), "encoder: %s",
			 etm_errstr(err));
		return -1;
	}
	return rt_expect(s, ev, nev);
}

static struct rt_src *rt_src_of(struct rt_case *c, unsigned id)
{
	int i;

	for (i = 0; i < c->nsrc; i++)
		if (etm_cfg_trace_id(&c->src[i].cfg) == id)
			return &c->src[i];
	return NULL;
}

static void rt_range(struct rt_src *s, const struct etm_elem *el)
{
	struct etm_walk w;
	struct etm_insn in;
	struct rt_rec r;
	uint32_t k = 0;
	int ptm = s->cfg.protocol == etm_proto_ptm;

	if (el->has_cycles)
		s->act_cum += el->cycles;
	if (etm_walk_init(&w, s->img, el) < 0)
		return;
	while (etm_walk_next(&w, &in) == 0) {
		int last = ++k == el->ninsn;

		memset(&r, 0, sizeof(r));
		r.kind = 1;
		r.addr = in.addr;
		r.isa = (uint8_t)el->isa;
		r.exec = last ? el->last_exec : 1;
		r.ctxid = el->ctxid;
		r.has_ctxid = el->has_ctxid;
		r.vmid = el->vmid;
		r.has_vmid = el->has_vmid;
		r.ns = el->ns;
		r.hyp = el->hyp;
		r.has_cum = last && el->has_cycles && (!ptm || el->last_atom);
		r.cum = s->act_cum;
		rt_push(&s->act, &r);
	}
}

static void rt_elem(struct rt_case *c, const struct etm_elem *el)
{
	struct rt_src *s = rt_src_of(c, el->id);
	struct rt_rec r;

	if (!s)
		return;
	switch (el->kind) {
	case etmk_range:
		rt_range(s, el);
		break;
	case etmk_exception:
		memset(&r, 0, sizeof(r));
		r.kind = 2;
		r.exc = el->exc_num;
		if (el->has_cycles)
			s->act_cum += el->cycles;
		rt_push(&s->act, &r);
		break;
	case etmk_exc_return:
		s->eret_act++;
		break;
	case etmk_event:
		s->trig_act++;
		break;
	case etmk_trace_on:
		s->on_act++;
		s->act_cum = 0;
		break;
	case etmk_timestamp:
		if (el->has_cycles)
			s->act_cum += el->cycles;
		if (s->nts_act < 4096)
			s->ts_act[s->nts_act++] = el->timestamp;
		break;
	case etmk_error:
	case etmk_nomem:
		if (!s->bad++)
			snprintf(s->badmsg, sizeof(s->badmsg),
				 "decoder %s at offset %llu (%s) addr 0x%llx",
				 etm_elem_kind_name(el->kind),
				 (unsigned long long)el->offset,
				 etm_errname(el->err),
				 (unsigned long long)el->addr);
		break;
	default:
		break;
	}
}

static size_t rt_chunk(struct rt_case *c, uint64_t *rs, size_t left)
{
	size_t k = left;

	switch (c->chunk_mode) {
	case 1: k = 1; break;
	case 2: k = 1 + rt_rand(rs) % 16; break;
	case 3: k = 1 + rt_rand(rs) % 4096; break;
	default: break;
	}
	return k < left ? k : left;
}

/* FNV-1a over @v's bytes. */
static uint64_t rt_mix(uint64_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Every field of @el into hash @h. */
static uint64_t rt_ehash(uint64_t h, const struct etm_elem *el)
{
	const uint64_t f[] = {
		el->offset, el->kind, el->id, el->start, el->end, el->isa,
		el->ninsn, el->last_addr, el->last_size, el->last_cls,
		el->last_link, el->last_exec, el->last_atom, el->has_cycles,
		el->cycles, el->exc_num, el->exc_cancel, el->ret_addr,
		el->has_ret, el->addr, el->reason, el->has_ctxid,
		el->has_vmid, el->ctxid, el->vmid, el->ns, el->hyp,
		el->timestamp, (uint64_t)(int64_t)el->err
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		h = rt_mix(h, f[i]);
	return h;
}

static int rt_drain(struct rt_case *c, struct etm_decoder *d,
		    struct etm_item *it)
{
	int r;

	while ((r = etm_decoder_next(d, it, sizeof(*it))) == 0) {
		if (it->kind != etm_item_elem)
			continue;
		c->ehash = rt_ehash(c->ehash, &it->elem);
		if (!c->nocache)
			rt_elem(c, &it->elem);
	}
	return r;
}

static int rt_decode(struct rt_case *c, const uint8_t *buf, size_t n,
		     uint64_t *rs)
{
	struct etm_decoder *d;
	struct etm_item *it = malloc(sizeof(*it));
	size_t pos = 0;
	int i, r = 0;

	d = etm_decoder_alloc(c->coresight ? etm_fmt_coresight : etm_fmt_raw,
			      etm_dec_elements);
	if (!d || !it)
		goto fail;
	for (i = 0; i < c->nsrc; i++)
		if (etm_decoder_add_source(d, &c->src[i].cfg, c->src[i].img) < 0)
			goto fail;
	c->ehash = 0xcbf29ce484222325ull;
	etm_decoder_set_cache(d, !c->nocache);
	while (pos < n) {
		size_t k = rt_chunk(c, rs, n - pos);

		if (etm_decoder_push(d, buf + pos, k) < 0)
			goto fail;
		pos += k;
		if (rt_drain(c, d, it) != -etme_again)
			goto fail;
	}
	etm_decoder_finish(d);
	r = rt_drain(c, d, it) == -etme_eos ? 0 : -1;
	etm_decoder_free(d);
	free(it);
	return r;
fail:
	etm_decoder_free(d);
	free(it);
	return -1;
}

static void rt_print_rec(FILE *out, const char *tag, size_t k,
			 const struct rt_list *l)
{
	const struct rt_rec *r;

	if (k >= l->n) {
		fprintf(out, "    %s[%zu] (end)\n", tag, k);
		return;
	}
	r = &l->r[k];
	if (r->kind == 2)
		fprintf(out, "    %s[%zu] exception %u\n", tag, k, r->exc);
	else
		fprintf(out, "    %s[%zu] %08llX %c%s ctx=%x vmid=%u ns=%u hyp=%u "
			     "cum=%llu%s\n",
			tag, k, (unsigned long long)r->addr,
			r->isa == etmi_a32 ? 'A' : 'T', r->exec ? "" : " N",
			r->ctxid, r->vmid, r->ns, r->hyp, (unsigned long long)r->cum,
			r->has_cum ? "*" : "");
}

/* First difference between expected and decoded, or -1. */
static long rt_diff(const struct rt_src *s, const char **what)
{
	int ca = etm_cfg_cycle_acc(&s->cfg);
	size_t k;

	for (k = 0; k < s->exp.n && k < s->act.n; k++) {
		const struct rt_rec *e = &s->exp.r[k], *a = &s->act.r[k];

		*what = "kind/address/ISA";
		if (e->kind != a->kind || (e->kind == 1 && (e->addr != a->addr ||
							    e->isa != a->isa)))
			return (long)k;
		*what = "exception number";
		if (e->kind == 2 && e->exc != a->exc)
			return (long)k;
		if (e->kind == 2)
			continue;
		*what = "E/N";
		if (e->n_known && e->exec != a->exec)
			return (long)k;
		*what = "context ID";
		if (etm_cfg_ctxid_bytes(&s->cfg) &&
		    (!a->has_ctxid || a->ctxid != e->ctxid))
			return (long)k;
		*what = "VMID";
		if (etm_cfg_vmid(&s->cfg) && (!a->has_vmid || a->vmid != e->vmid))
			return (long)k;
		*what = "security state (NS/Hyp)";
		if (e->ns != a->ns || e->hyp != a->hyp)
			return (long)k;
		*what = "cycle count";
		if (ca && a->has_cum && a->cum != e->cum)
			return (long)k;
	}
	*what = "length";
	return s->exp.n == s->act.n ? -1 : (long)k;
}

static int rt_check_src(struct rt_case *c, struct rt_src *s, FILE *out)
{
	uint64_t m = etm_cfg_ts_64bit(&s->cfg) ? ~0ull : (1ull << 48) - 1;
	const char *what = "";
	long k = s->bad ? 0 : rt_diff(s, &what);
	size_t i;

	if (s->bad)
		what = s->badmsg;
	if (k < 0 && s->on_exp != s->on_act) {
		what = "trace-on count";
		k = 0;
	}
	if (k < 0 && s->eret_exp != s->eret_act) {
		what = "exception-return count";
		k = 0;
	}
	if (k < 0 && s->trig_exp != s->trig_act) {
		what = "trigger count";
		k = 0;
	}
	if (k < 0 && s->nts_exp != s->nts_act) {
		what = "timestamp count";
		k = 0;
	}
	for (i = 0; k < 0 && i < s->nts_exp; i++)
		if ((s->ts_exp[i] & m) != (s->ts_act[i] & m)) {
			what = "timestamp value";
			k = 0;
		}
	if (k < 0)
		return 0;
	fprintf(out, "  source id=0x%02x: mismatch in %s at item %ld "
		     "(expected %zu items, decoded %zu)\n",
		etm_cfg_trace_id(&s->cfg),
		what, k, s->exp.n, s->act.n);
	for (i = k > 4 ? (size_t)k - 4 : 0; i <= (size_t)k + 2; i++) {
		rt_print_rec(out, "exp", i, &s->exp);
		rt_print_rec(out, "dec", i, &s->act);
	}
	(void)c;
	return 1;
}

static int rt_setup(struct rt_case *c, uint64_t *rs)
{
	int i;

	c->coresight = rt_pct(rs, 35);
	c->nsrc = c->coresight ? 1 + (int)(rt_rand(rs) % RT_MAX_SRC) : 1;
	c->chunk_mode = (int)(rt_rand(rs) % 4);
	for (i = 0; i < c->nsrc; i++) {
		unsigned id = 0x10 + 0x11 * (unsigned)i +
			      (unsigned)(rt_rand(rs) % 0x10);

		rt_pick(&c->src[i], rs, id, (int)(rt_rand(rs) & 1));
		if (rt_build(&c->src[i]))
			return -1;
	}
	return 0;
}

/* Interleave the sources into CoreSight frames in random-sized runs. */
static uint8_t *rt_frames(struct rt_case *c, uint64_t *rs, size_t *n)
{
	struct etm_fenc *f = etm_fenc_alloc(rt_pct(rs, 50) ? ETM_FENC_RANDOM : 0,
					    rt_rand(rs));
	size_t pos[RT_MAX_SRC] = { 0 }, total;
	const uint8_t *p;
	uint8_t *buf = NULL;
	int i, more = 1;

	if (!f)
		return NULL;
	while (more) {
		more = 0;
		for (i = 0; i < c->nsrc; i++) {
			struct rt_src *s = &c->src[i];
			size_t k = 1 + rt_rand(rs) % 40;

			if (pos[i] + k > s->nbytes)
				k = s->nbytes - pos[i];
			etm_fenc_put(f, etm_cfg_trace_id(&s->cfg), s->bytes + pos[i], k);
			pos[i] += k;
			more |= pos[i] < s->nbytes;
		}
	}
	if (etm_fenc_finish(f) == 0) {
		p = etm_fenc_data(f, &total);
		buf = malloc(total);
		if (buf) {
			memcpy(buf, p, total);
			*n = total;
		}
	}
	etm_fenc_free(f);
	return buf;
}

static void rt_free(struct rt_case *c)
{
	int i;

	for (i = 0; i < RT_MAX_SRC; i++) {
		etm_gen_free(c->src[i].gen);
		etm_image_free(c->src[i].img);
		free(c->src[i].bytes);
		free(c->src[i].exp.r);
		free(c->src[i].act.r);
	}
	free(c);
}

static void rt_dump(const uint8_t *buf, size_t n, uint64_t seed)
{
	const char *dir = getenv("ETM_RT_DUMP");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/rt-%llu.bin", dir,
		 (unsigned long long)seed);
	f = fopen(path, "wb");
	if (f) {
		fwrite(buf, 1, n, f);
		fclose(f);
	}
}

/* ETM_RT_DUMP: also the program regions of source @s, as rt-SEED-ADDR.bin */
static void rt_dump_mem(const struct rt_src *s, uint64_t seed)
{
	const char *dir = getenv("ETM_RT_DUMP");
	const uint8_t *b;
	uint64_t addr;
	char path[512];
	size_t i, n;
	FILE *f;

	for (i = 0; dir && i < etm_gen_nregions(s->gen); i++) {
		etm_gen_region(s->gen, i, &addr, &b, &n);
		snprintf(path, sizeof(path), "%s/rt-%llu-%llx.bin", dir,
			 (unsigned long long)seed, (unsigned long long)addr);
		f = fopen(path, "wb");
		if (f) {
			fwrite(b, 1, n, f);
			fclose(f);
		}
	}
}

static void rt_count(const struct rt_case *c, size_t n, struct rt_stats *st)
{
	int i, b;
	size_t k;

	if (!st)
		return;
	st->bytes += n;
	st->coresight += c->coresight;
	for (i = 0; i < c->nsrc; i++) {
		const struct rt_src *s = &c->src[i];

		st->sources++;
		for (k = 0; k < s->exp.n; k++) {
			const struct rt_rec *r = &s->exp.r[k];

			st->insns += r->kind == 1;
			st->excs += r->kind == 2;
			st->halts += r->kind == 2 && r->exc == 1;
			st->isa_changes += k && r->kind == 1 &&
					   r[-1].kind == 1 && r->isa != r[-1].isa;
		}
		for (b = 0; b < 16; b++)
			st->feat[b] += (s->go.flags >> b) & 1;
	}
}

int rt_run_case(uint64_t seed, FILE *out, int verbose, struct rt_stats *st)
{
	struct rt_case *c = calloc(1, sizeof(*c));
	uint64_t rs = seed;
	uint8_t *frames = NULL;
	const uint8_t *buf;
	char desc[1024];
	int i, bad = 0;
	size_t n = 0;

	if (!c)
		return -1;
	c->seed = seed;
	if (rt_setup(c, &rs)) {
		rt_describe(c, desc, sizeof(desc));
		fprintf(out, "SETUP FAIL seed=%llu: %s\n  options: %s\n",
			(unsigned long long)seed, c->src[0].badmsg, desc);
		rt_free(c);
		return -1;
	}
	if (c->coresight) {
		buf = frames = rt_frames(c, &rs, &n);
	} else {
		buf = c->src[0].bytes;
		n = c->src[0].nbytes;
	}
	rt_dump(buf, n, seed);
	rt_dump_mem(&c->src[0], seed);
	if (!buf || rt_decode(c, buf, n, &rs)) {
		fprintf(out, "DECODE API FAIL seed=%llu\n", (unsigned long long)seed);
		bad = 1;
	}
	rt_describe(c, desc, sizeof(desc));
	if (verbose)
		fprintf(out, "seed=%llu bytes=%zu options: %s\n",
			(unsigned long long)seed, n, desc);
	for (i = 0; i < c->nsrc && !bad; i++) {
		if (!rt_check_src(c, &c->src[i], out))
			continue;
		bad = 1;
		fprintf(out, "FAIL roundtrip seed=%llu\n  options: %s\n"
			     "  replay: ETM_RT_SEED=%llu ./test-roundtrip\n",
			(unsigned long long)seed, desc, (unsigned long long)seed);
	}
	/* every other case again without the block cache and walk memo:
	 * the same elements, field for field, in other chunks */
	if (!bad && !(seed & 1)) {
		uint64_t h = c->ehash;

		c->nocache = 1;
		if (rt_decode(c, buf, n, &rs) || c->ehash != h) {
			bad = 1;
			fprintf(out, "FAIL roundtrip seed=%llu: elements differ "
				     "without the block cache / walk memo\n"
				     "  options: %s\n",
				(unsigned long long)seed,
				desc);
		}
	}
	rt_count(c, n, st);
	free(frames);
	rt_free(c);
	return bad;
}
