/* tests/unit/test-data_rt.c - ETMv3 data trace round trip: the generator's
 * loads and stores (ETM_GEN_DATA) encoded under every data setting (address
 * only, value only, both, data-only mode with each; random encodings,
 * cycle-accurate, periodic syncs), decoded; the decoded transfers must be
 * the ground truth etm_enc_data_expect() derives from the generated events
 * (instruction, direction, address, value, size, order), and the
 * instructions the same as the same execution traced without data.
 * ETM_DRT_CASES / ETM_DRT_BASE: number of cases, first seed;
 * ETM_DRT_SEED=N: one case, verbose. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "etest.h"

#if defined(__SANITIZE_ADDRESS__)
#define DRT_DEFAULT_CASES 5000
#else
#define DRT_DEFAULT_CASES 10000
#endif

/* ETMCR data settings: [3] address, [2] value, [20] data-only. */
static const uint32_t drt_etmcr[] = { 0x0c, 0x08, 0x04, 0x0010000c,
				      0x00100008, 0x00100004 };

struct drt_out {
	struct etm_data_xfer *x; /* decoded transfers */
	size_t nx, capx;
	uint64_t *ins; /* executed instruction addresses (bit 0: failed) */
	size_t nins, capins;
	unsigned errors;
	size_t chunks; /* chunked decode: chunks planned */
};

static void *drt_grow(void *p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return p;
	*cap = need * 2 + 64;
	p = realloc(p, *cap * sz);
	if (!p)
		abort();
	return p;
}

static void drt_elem(struct drt_out *o, const struct etm_elem *el,
		     const struct etm_image *img)
{
	struct etm_data_xfer *t;
	struct etm_walk w;
	struct etm_insn in;
	uint32_t i = 0;

	if (el->kind == etmk_error)
		o->errors++;
	if (el->kind == etmk_range && etm_walk_init(&w, img, el) == 0) {
		while (etm_walk_next(&w, &in) == 0) {
			o->ins = drt_grow(o->ins, &o->capins, o->nins + 1,
					  sizeof(*o->ins));
			o->ins[o->nins++] = in.addr |
					    (++i == el->ninsn && !el->last_exec);
		}
	}
	if (el->kind != etmk_data)
		return;
	o->x = drt_grow(o->x, &o->capx, o->nx + 1, sizeof(*o->x));
	t = &o->x[o->nx++];
	memset(t, 0, sizeof(*t));
	t->has_insn = (el->dflags & ETM_DATA_INSN) != 0;
	t->insn = t->has_insn ? el->addr : 0;
	t->has_addr = (el->dflags & ETM_DATA_ADDR) != 0;
	t->daddr = t->has_addr ? el->daddr : 0;
	t->has_value = (el->dflags & ETM_DATA_VALUE) != 0;
	t->value = t->has_value ? el->dvalue : 0;
	t->size = el->dsize;
	t->dir = !(el->dflags & ETM_DATA_DIR)  ? '?' :
		 (el->dflags & ETM_DATA_WRITE) ? 'W' :
						 'R';
	t->flags = (uint8_t)(((el->dflags & ETM_DATA_SUPPRESSED) ? ETM_EVD_SUPPRESSED : 0) |
			     ((el->dflags & ETM_DATA_FAILED) ? ETM_EVD_FAILED : 0));
}

/* Decode @buf in chunks of about @target bytes, each on its own decoder,
 * their outputs stitched (etmtrace/chunk.h): the results into @o. */
static int drt_chunked(struct etm_decoder *d, const uint8_t *buf, size_t n,
		       uint64_t target, const struct etm_image *img,
		       struct drt_out *o, size_t *nchunks)
{
	struct etest_mem in = { buf, n };
	struct etm_chunk *ch = NULL;
	const struct etm_elem *els;
	uint64_t want = 0;
	size_t nc = 0, i;
	int k, r = 0;

	if (etm_chunk_plan(d, etest_mem_read, &in, n, target, 0, &ch, &nc) < 0)
		return -1;
	*nchunks = nc;

	for (i = 0; i < nc && !r; i++) {
		struct etm_chunk_dec *c;

		if (ch[i].offset != want)
			continue; /* run through by its predecessor */
		c = etm_chunk_dec_alloc(d, etest_mem_read, &in, n, target, ch[i].offset,
					ch[i].length);
		if (!c) {
			r = -1;
			break;
		}
		while ((k = etm_chunk_dec_next(c, &els, 256)) > 0)
			while (k--)
				drt_elem(o, els++, img);
		if (k != -etme_eos)
			r = -1;
		want = etm_chunk_dec_next_chunk(c);
		etm_chunk_dec_free(c);
	}
	free(ch);
	return r;
}

/* Encode @ev under @cfg, decode (@chunk: in chunks of about that many
 * bytes); the results into @o. */
static int drt_run(const struct etm_config *cfg, uint32_t flags,
		   uint32_t isync, uint64_t seed, const struct etm_ev *ev,
		   size_t nev, const struct etm_image *img, struct drt_out *o,
		   uint64_t chunk)
{
	struct etm_enc_opts eo;
	struct etm_enc *e;
	struct etm_decoder *d;
	struct etm_item it;
	const uint8_t *buf;
	size_t i, n;
	int r;

	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = *cfg;
	eo.flags = flags;
	eo.seed = seed;
	eo.isync_period = isync;
	eo.async_period = chunk ? (uint32_t)chunk / 4 : 0;
	e = etm_enc_alloc(&eo, sizeof(eo), img);
	if (!e)
		return -1;
	for (i = 0; i < nev; i++)
		if ((r = etm_enc_put(e, &ev[i])) < 0) {
			printf("seed %llu: event %zu kind %d: %s\n",
			       (unsigned long long)seed, i, ev[i].kind, etm_errname(-r));
			etm_enc_free(e);
			return -1;
		}
	etm_enc_finish(e);
	buf = etm_enc_data(e, &n);
	d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	if (d && chunk && etm_decoder_add_source(d, cfg, img) == 0) {
		size_t nc = 0;

		r = drt_chunked(d, buf, n, chunk, img, o, &nc);
		o->chunks += nc;
		etm_decoder_free(d);
		etm_enc_free(e);
		return r;
	}
	if (!d || (!chunk && etm_decoder_add_source(d, cfg, img) < 0) ||
	    etm_decoder_push(d, buf, n) < 0) {
		etm_decoder_free(d);
		etm_enc_free(e);
		return -1;
	}
	etm_decoder_finish(d);
	while ((r = etm_decoder_next(d, &it, sizeof(it))) == 0)
		if (it.kind == etm_item_elem)
			drt_elem(o, &it.elem, img);
	etm_decoder_free(d);
	etm_enc_free(e);
	return r == -etme_eos ? 0 : -1;
}

static void drt_print(const char *tag, size_t i, const struct etm_data_xfer *t)
{
	printf("  %s %zu: insn %s0x%llx %c addr %s0x%llx value %s0x%x size %u flags %u\n",
	       tag, i, t->has_insn ? "" : "-", (unsigned long long)t->insn,
	       t->dir, t->has_addr ? "" : "-", (unsigned long long)t->daddr,
	       t->has_value ? "" : "-", t->value, t->size, t->flags);
}

static int drt_same(const struct etm_data_xfer *a, const struct etm_data_xfer *b)
{
	return a->has_insn == b->has_insn && a->insn == b->insn &&
	       a->has_addr == b->has_addr && a->daddr == b->daddr &&
	       a->has_value == b->has_value && a->value == b->value &&
	       a->size == b->size && a->dir == b->dir && a->flags == b->flags;
}

struct drt_stats {
	unsigned long long xfers, ooo_cases, flow_checked, chunks;
	unsigned long fails;
};

/* One case; returns 0 if it passed. */
static int drt_case(uint64_t seed, int verbose, struct drt_stats *st)
{
	struct etm_gen_opts go;
	struct etm_gen *g;
	struct etm_image *img = etm_image_alloc();
	struct etm_config cfg, off;
	struct drt_out dec, plain;
	struct etm_data_xfer *want;
	const struct etm_ev *ev;
	size_t nev, nwant, i;
	uint32_t flags = 0, isync = 0;
	int bad = 0;

	memset(&go, 0, sizeof(go));
	go.size = sizeof(go);
	go.seed = seed;
	go.proto = etm_proto_etmv3;
	go.flags = ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_DATA;
	if (seed % 3 == 0)
		go.flags |= ETM_GEN_EXC | ETM_GEN_CANCEL | ETM_GEN_GAPS;
	if (seed % 5 == 1)
		go.flags |= ETM_GEN_CYCLES;
	go.ninsn = seed % 16 == 5 ? 1500 : 120 + (uint32_t)(seed % 7) * 20;
	g = etm_gen_alloc(&go, sizeof(go));
	if (!g || !img || etm_gen_add_to_image(g, img) < 0) {
		etm_gen_free(g);
		etm_image_free(img);
		return -1;
	}
	ev = etm_gen_events(g, &nev);
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.traceid = 0x10;
	cfg.etmidr = 0x410cf250;
	cfg.etmcr = drt_etmcr[seed % 6] | ((go.flags & ETM_GEN_CYCLES) ? 0x1000 : 0);
	if (seed % 4 == 2)
		flags |= ETM_ENC_RANDOM;
	if (seed % 7 == 3)
		isync = 64 + (uint32_t)(seed % 200);
	nwant = etm_enc_data_expect(&cfg, ev, nev, NULL, 0);
	want = calloc(nwant + 1, sizeof(*want));
	etm_enc_data_expect(&cfg, ev, nev, want, nwant);
	memset(&dec, 0, sizeof(dec));
	memset(&plain, 0, sizeof(plain));
	/* every 16th case longer and decoded in chunks of ~400 bytes
	 * (A-syncs every 100), as the parallel runner and decode_chunk() do */
	if (drt_run(&cfg, flags, isync, seed, ev, nev, img, &dec,
		    seed % 16 == 5 ? 400 : 0) < 0)
		bad = 1;
	st->chunks += dec.chunks;
	for (i = 0; !bad && i < nwant && i < dec.nx; i++)
		if (!drt_same(&want[i], &dec.x[i]))
			break;
	if (bad || i < nwant || dec.nx != nwant || dec.errors) {
		printf("seed %llu (etmcr 0x%x): %zu transfers expected, %zu "
		       "decoded, first difference at %zu, %u errors\n",
		       (unsigned long long)seed, cfg.etmcr, nwant, dec.nx, i,
		       dec.errors);
		if (i < nwant)
			drt_print("want", i, &want[i]);
		if (i < dec.nx)
			drt_print("got ", i, &dec.x[i]);
		bad = 1;
	}
	/* the instruction flow is the same without data trace (data-only
	 * mode has none to compare) */
	if (!bad && !etm_cfg_data_only(&cfg) && seed % 4 == 0) {
		off = cfg;
		off.etmcr &= ~0x0cu;
		if (drt_run(&off, flags, isync, seed, ev, nev, img, &plain, 0) < 0 ||
		    plain.nins != dec.nins ||
		    memcmp(plain.ins, dec.ins, dec.nins * sizeof(*dec.ins))) {
			printf("seed %llu: instruction flow differs with data "
			       "trace (%zu vs %zu instructions)\n",
			       (unsigned long long)seed, dec.nins, plain.nins);
			bad = 1;
		}
		st->flow_checked++;
	}
	if (verbose)
		for (i = 0; i < nwant; i++)
			drt_print("want", i, &want[i]);
	st->xfers += nwant;
	for (i = 0; i < nev; i++)
		if (ev[i].kind == etmev_data_value) {
			st->ooo_cases++;
			break;
		}
	free(want);
	free(dec.x);
	free(dec.ins);
	free(plain.x);
	free(plain.ins);
	etm_gen_free(g);
	etm_image_free(img);
	return bad;
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static void t_data_roundtrip(void)
{
	unsigned long n = env_ul("ETM_DRT_CASES", DRT_DEFAULT_CASES);
	unsigned long base = env_ul("ETM_DRT_BASE", 1), i;
	const char *one = getenv("ETM_DRT_SEED");
	struct drt_stats st;

	memset(&st, 0, sizeof(st));
	if (one && *one) {
		ET_EQ(drt_case(strtoull(one, NULL, 0), 1, &st), 0);
		return;
	}
	for (i = 0; i < n && st.fails < 10; i++)
		st.fails += drt_case(base + i, 0, &st) != 0;
	printf("data round trip: %lu cases, %llu transfers, %llu cases with "
	       "out-of-order data, %llu flows compared with data off, %llu "
	       "chunks decoded apart, %lu failed\n",
	       i, st.xfers, st.ooo_cases, st.flow_checked, st.chunks, st.fails);
	ET_EQ(st.fails, 0);
	ET_CHECK(st.xfers > i); /* transfers in most cases */
	ET_CHECK(st.ooo_cases > 0);
	if (n >= 100)
		ET_CHECK(st.chunks > 4 * (n / 16)); /* several per chunked case */
}

int main(void)
{
	ETEST(t_data_roundtrip);
	return etest_end();
}
