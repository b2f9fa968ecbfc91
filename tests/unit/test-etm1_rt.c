/* tests/unit/test-etm1_rt.c - ETMv1 round trip: a seeded execution from the
 * generator, encoded to pipeline-status samples (encode/enc_etm1.c) over
 * every port width, address packet offsets up to 14, context ID sizes and
 * versions, data trace off/address/value/both, cycle-accurate on/off,
 * branch output, FIFO latency 0/1, gaps (trace off/on, overflow, debug exit)
 * and triggers, decoded (flow/etm1*.c) and compared with the execution:
 * every traced instruction (address, ISA, executed), every exception,
 * triggers, context IDs, and cycle counts where the encoder added none.
 * Every other case is decoded again without the block cache, in 7-byte
 * chunks (records cut anywhere). ETM_RT_SEED=N replays one case verbosely;
 * ETM_RT_CASES sets the count (default 10000, 1000 under ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>
#include <etmtrace/etmv1.h>

#if defined(__SANITIZE_ADDRESS__)
#define E1RT_CASES 1000
#else
#define E1RT_CASES 10000
#endif

struct rec {
	uint64_t addr;
	uint8_t isa, exec, kind; /* kind 1 insn, 2 exception */
	uint16_t exc;
	uint64_t cum; /* cycles since the last trace-on (CA) */
	uint8_t has_cum;
};

struct list {
	struct rec *r;
	size_t n, cap;
};

static void add(struct list *l, struct rec r)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->r = realloc(l->r, l->cap * sizeof(*l->r));
		if (!l->r)
			exit(2);
	}
	l->r[l->n++] = r;
}

struct opts {
	struct etm_config cfg;
	struct etm_gen_opts go;
	int chunk;
};

static unsigned take_rnd(uint64_t *r, unsigned n)
{
	*r = *r * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(*r >> 33) % n;
}

static void pick(uint64_t seed, struct opts *o)
{
	uint64_t r = seed * 0x9E3779B97F4A7C15ull ^ 0xabcdef;
	static const unsigned ctx[4] = { 0, 1, 2, 3 }; /* ETMCR[15:14] */
	static const unsigned proto[5] = { 0, 1, 2, 3, 7 };

#define TAKE(n) take_rnd(&r, n)
	memset(o, 0, sizeof(*o));
	etm_config_init(&o->cfg);
	o->cfg.protocol = etm_proto_etmv1;
	o->cfg.traceid = 0x10;
	o->cfg.etmcr = TAKE(3) << 4;
	o->cfg.etmcr |= ctx[TAKE(4)] << 14;
	o->cfg.etmcr |= TAKE(4) << 2;
	o->cfg.etmcr |= TAKE(2) << 12;
	o->cfg.etmcr |= (unsigned)(TAKE(4) == 0) << 8;
	o->cfg.etmccr = proto[TAKE(5)] << 28;
	if (TAKE(2))
		o->cfg.flags |= ETM_CFG_E1_LATENCY1;
	o->go.size = sizeof(o->go);
	o->go.seed = seed;
	o->go.proto = etm_proto_etmv1;
	o->go.flags = ETM_GEN_ARM | ETM_GEN_EXC | ETM_GEN_B2B | ETM_GEN_CTX |
		      ETM_GEN_GAPS | ETM_GEN_CYCLES | ETM_GEN_TRIGGER;
	if (TAKE(2))
		o->go.flags |= ETM_GEN_THUMB;
	if (!TAKE(30))
		o->go.flags |= ETM_GEN_LONG;
	o->go.ninsn = 60 + TAKE(200);
	o->go.nfuncs = 2 + TAKE(6);
	o->go.ctxid_bytes = etm_cfg_ctxid_bytes(&o->cfg);
	o->go.min_cycles = 1;
	o->chunk = TAKE(2) ? 0 : 7;
#undef TAKE
}

/* The instruction after @ev and its ISA (for the exception rules). */
static uint64_t next_pc(const struct etm_image *img, const struct etm_ev *ev,
			enum etm_isa *isa)
{
	struct etm_insn in;
	uint8_t b[4];
	size_t n = etm_image_read(img, etm_space_any, ev->addr, b, 4);

	*isa = ev->isa;
	if (etm_insn_decode(&in, ev->isa, ev->addr, b, n) < 0)
		return ev->addr;
	if (ev->exec && in.cls == etmc_br_direct) {
		*isa = in.target_isa;
		return in.target;
	}
	if (ev->exec && in.cls == etmc_br_indirect) {
		*isa = ev->target_isa;
		return ev->target;
	}
	return ev->addr + in.size;
}

/* Each instruction takes a cycle; three after a branch (the two APO
 * cycles; the ARM7/9 pipeline refill): raises @ev's cycles to that. Returns
 * whether @ev is a taken branch. */
static int expect_insn(struct etm_ev *ev, const struct etm_image *img,
		       int prev_be)
{
	struct etm_insn in;
	uint8_t b[4];
	size_t k = etm_image_read(img, etm_space_any, ev->addr, b, 4);

	if (ev->cycles < (prev_be ? 3u : 1u))
		ev->cycles = prev_be ? 3 : 1;
	return etm_insn_decode(&in, ev->isa, ev->addr, b, k) >= 0 &&
	       ev->exec && (in.cls == etmc_br_direct || in.cls == etmc_br_indirect);
}

/* 1 if the instruction at @a is a load/store, 2 if an exception return */
static int at_pc(const struct etm_image *img, uint64_t a, enum etm_isa isa)
{
	struct etm_insn in;
	uint8_t b[4];
	size_t n = etm_image_read(img, etm_space_any, a, b, 4);

	if (etm_insn_decode(&in, isa, a, b, n) < 0)
		return 0;
	return in.exc_return ? 2 : etm_e1_data_bytes(&in) != 0;
}

/* The expected flow (ETMv1 semantics of doc/etmv1.md: an exception to the
 * data abort vector with a load/store at pc is that load/store, aborted). */
static void expect(struct etm_ev *evs, size_t n, const struct etm_image *img,
		   struct list *l, unsigned *ntrig, uint32_t *ctxs, size_t *nctx)
{
	int on = 0, prev_be = 1, k;
	uint64_t pc = 0, cum = 0;
	enum etm_isa pisa = etmi_a32;
	size_t i;

	*ntrig = 0;
	ctxs[0] = 0; /* the context ID before any change */
	*nctx = 1;
	for (i = 0; i < n; i++) {
		struct etm_ev *ev = &evs[i];

		switch (ev->kind) {
		case etmev_trace_on:
		case etmev_overflow:
			on = 1;
			prev_be = 1;
			cum = 0;
			break;
		case etmev_trace_off:
			on = 0;
			break;
		case etmev_trigger:
			(*ntrig)++;
			break;
		case etmev_context:
			if (*nctx < 4096)
				ctxs[(*nctx)++] = ev->ctxid;
			break;
		case etmev_exception:
			if (!on)
				break;
			/* ETMv1 has no exception packet: a BE to a vector
			 * reads as the load/store at pc aborting (data
			 * abort), or as the exception return at pc going
			 * there (doc/etmv1.md item 7) */
			k = at_pc(img, pc, pisa);
			if ((ev->exc_num == 12 && k == 1) || k == 2) {
				/* the encoder puts an exception's BE three
				 * cycles after the previous status */
				cum += 3;
				add(l, (struct rec){ pc, (uint8_t)pisa, 1, 1, 0,
						     cum, 0 });
			}
			if (k != 2) {
				add(l, (struct rec){ ev->addr, 0, 0, 2,
						     ev->exc_num, 0, 0 });
				cum = 0;
			}
			pc = ev->addr;
			pisa = etmi_a32;
			prev_be = 1;
			break;
		case etmev_insn:
			prev_be = expect_insn(ev, img, prev_be);
			if (!on)
				break;
			cum += ev->cycles;
			add(l, (struct rec){ ev->addr, (uint8_t)ev->isa,
					     ev->exec, 1, 0, cum, 0 });
			pc = next_pc(img, ev, &pisa);
			break;
		default:
			break;
		}
	}
}

struct dec {
	struct list l;
	unsigned ntrig, nerr;
	uint32_t ctx[4096];
	size_t nctx;
	uint64_t cum;
};

static void take(struct dec *o, const struct etm_image *img,
		 const struct etm_elem *el)
{
	struct etm_walk w;
	struct etm_insn in;
	uint32_t k = 0;

	switch (el->kind) {
	case etmk_range:
		o->cum += el->cycles;
		if (etm_walk_init(&w, img, el) < 0)
			return;
		while (etm_walk_next(&w, &in) == 0) {
			k++;
			add(&o->l, (struct rec){ in.addr, (uint8_t)el->isa,
						 k == el->ninsn ? el->last_exec : 1, 1, 0,
						 o->cum, k == el->ninsn });
		}
		return;
	case etmk_exception:
		add(&o->l, (struct rec){ el->addr, 0, 0, 2, el->exc_num, 0, 0 });
		o->cum = 0;
		return;
	case etmk_trace_on:
		o->cum = 0;
		return;
	case etmk_event:
		o->ntrig++;
		return;
	case etmk_context:
		if (o->nctx < 4096)
			o->ctx[o->nctx++] = el->ctxid;
		return;
	case etmk_error:
	case etmk_nomem:
	case etmk_nosync:
		o->nerr++;
		return;
	default:
		return;
	}
}

static int decode(const struct etm_config *cfg, const struct etm_image *img,
		  const uint8_t *b, size_t n, size_t chunk, int cache,
		  struct dec *o)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	struct etm_item it;
	size_t i, k;
	int err;

	memset(o, 0, sizeof(*o));
	if (!d || etm_decoder_add_source(d, cfg, img) < 0)
		return -1;
	etm_decoder_set_cache(d, cache);
	for (i = 0; i < n || !n; i += k) {
		k = chunk && chunk < n - i ? chunk : n - i;
		if (etm_decoder_push(d, b + i, k) < 0)
			return -1;
		while ((err = etm_decoder_next(d, &it, sizeof(it))) == 0)
			take(o, img, &it.elem);
		if (!n)
			break;
	}
	etm_decoder_finish(d);
	while ((err = etm_decoder_next(d, &it, sizeof(it))) == 0)
		take(o, img, &it.elem);
	etm_decoder_free(d);
	return err == -etme_eos ? 0 : -1;
}

static int same(const struct list *a, const struct list *b, int cyc,
		size_t *at)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++) {
		const struct rec *x = &a->r[i], *y = &b->r[i];

		if (x->kind != y->kind || x->addr != y->addr ||
		    (x->kind == 1 && (x->isa != y->isa || x->exec != y->exec)) ||
		    (x->kind == 2 && x->exc != y->exc) ||
		    (cyc && y->has_cum && x->cum != y->cum)) {
			*at = i;
			return 0;
		}
	}
	*at = i;
	return a->n == b->n;
}

static void show_rec(const struct list *l, size_t i)
{
	if (i < l->n)
		printf(" %d %llx e%d c%llu", l->r[i].kind,
		       (unsigned long long)l->r[i].addr, l->r[i].exec,
		       (unsigned long long)l->r[i].cum);
	else
		printf(" -");
}

/* The records around index @at, expected | decoded. */
static void show(const struct list *exp, const struct list *got, size_t at)
{
	size_t i;

	for (i = at > 3 ? at - 3 : 0; i < at + 4; i++) {
		printf("  %zu exp", i);
		show_rec(exp, i);
		printf(" | got");
		show_rec(got, i);
		printf("\n");
	}
}

/* The decoded context IDs are ones the execution had. */
static int ctx_ok(const struct dec *got, const uint32_t *ctxs, size_t nctx,
		  uint64_t seed)
{
	size_t i, j;

	for (i = 0; i < got->nctx; i++) {
		for (j = 0; j < nctx && ctxs[j] != got->ctx[i]; j++)
			;
		if (j == nctx) {
			printf("seed %llu: context 0x%x never set\n",
			       (unsigned long long)seed, got->ctx[i]);
			return 0;
		}
	}
	return 1;
}

static int run_case(uint64_t seed, int verbose, unsigned long long *ninsn)
{
	struct opts o;
	struct etm_gen *g;
	struct etm_image *img;
	struct etm_enc_opts eo;
	struct etm_enc *e;
	struct etm_ev *evs;
	const struct etm_ev *gev;
	struct list exp = { 0 };
	struct dec got, again;
	uint32_t ctxs[4096];
	size_t n, nb, at, nctx, i;
	unsigned ntrig;
	const uint8_t *b;
	int ok = 1, ca;

	pick(seed, &o);
	g = etm_gen_alloc(&o.go, sizeof(o.go));
	img = etm_image_alloc();
	if (!g || !img || etm_gen_add_to_image(g, img) < 0)
		return -1;
	gev = etm_gen_events(g, &n);
	evs = malloc((n + 1) * sizeof(*evs));
	memcpy(evs, gev, n * sizeof(*evs));
	expect(evs, n, img, &exp, &ntrig, ctxs, &nctx);
	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = o.cfg;
	eo.seed = seed;
	eo.flags = ETM_ENC_RANDOM;
	e = etm_enc_alloc(&eo, sizeof(eo), img);
	for (i = 0; e && i < n; i++)
		if (etm_enc_put(e, &evs[i]) < 0) {
			printf("seed %llu: encoder refused event %zu\n",
			       (unsigned long long)seed, i);
			ok = 0;
			break;
		}
	if (!e || etm_enc_finish(e) < 0)
		return -1;
	b = etm_enc_data(e, &nb);
	ca = etm_cfg_cycle_acc(&o.cfg) && !etm_e1_enc_stretched(e);
	if (decode(&o.cfg, img, b, nb, o.chunk, 1, &got) < 0)
		ok = 0;
	if (ok && (!same(&exp, &got.l, ca, &at) || got.ntrig != ntrig ||
		   got.nerr)) {
		ok = 0;
		printf("seed %llu: mismatch at %zu (exp %zu got %zu), triggers "
		       "%u/%u, errors %u; etmcr 0x%x etmccr 0x%x lat %d\n",
		       (unsigned long long)seed, at, exp.n, got.l.n, ntrig,
		       got.ntrig, got.nerr, o.cfg.etmcr, o.cfg.etmccr,
		       !!(o.cfg.flags & ETM_CFG_E1_LATENCY1));
		if (verbose)
			show(&exp, &got.l, at);
	}
	if (ok && !ctx_ok(&got, ctxs, nctx, seed))
		ok = 0;
	if (ok && seed % 2) {
		/* no block cache, 1-byte chunks: the same decode */
		if (decode(&o.cfg, img, b, nb, 1, 0, &again) < 0 ||
		    !same(&got.l, &again.l, 1, &at) || again.ntrig != got.ntrig) {
			printf("seed %llu: cache-off / bytewise decode differs\n",
			       (unsigned long long)seed);
			ok = 0;
		}
		free(again.l.r);
	}
	*ninsn += exp.n;
	free(got.l.r);
	free(exp.r);
	free(evs);
	etm_enc_free(e);
	etm_image_free(img);
	etm_gen_free(g);
	return ok ? 0 : 1;
}

int main(void)
{
	const char *s = getenv("ETM_RT_SEED"), *c = getenv("ETM_RT_CASES");
	unsigned long long ninsn = 0;
	unsigned long cases = c ? strtoul(c, NULL, 0) : E1RT_CASES, i, bad = 0;

	if (s)
		return run_case(strtoull(s, NULL, 0), 1, &ninsn) ? 1 : 0;
	for (i = 1; i <= cases; i++) {
		int r = run_case(i, 0, &ninsn);

		if (r < 0) {
			printf("seed %lu: setup failed\n", i);
			return 1;
		}
		bad += (unsigned long)r;
		if (bad > 10)
			break;
	}
	printf("etm1 round trip: %lu cases, %llu instructions, %lu failed\n",
	       i > cases ? cases : i, ninsn, bad);
	return bad ? 1 : 0;
}
