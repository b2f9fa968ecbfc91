/* tests/fuzz/test-diag.c - configuration-mismatch diagnostics: a wrong
 * protocol, cycle-accurate or Context ID setting, or an image that does not
 * match the trace (N atom on an unconditional branch, branch target inside
 * an instruction, atoms left over at a periodic I-sync) are counted, warned
 * about, and the probe names the right configuration; its shortcuts on one
 * thread choose what the threaded probe does (t_probe_agree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/encode.h>
#include <etmtrace/error.h>

#include "etest.h"

#define ETMV35 0x410cf250u
#define PFT11 0x411cf312u

static struct etm_config mkcfg(enum etm_protocol p, uint32_t etmcr)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = p;
	c.etmcr = etmcr;
	c.etmidr = p == etm_proto_ptm ? PFT11 : ETMV35;
	c.traceid = 0x10;
	return c;
}

struct trace {
	struct etm_gen *gen;
	struct etm_image *img;
	uint8_t *buf;
	size_t n;
};

/* Encode events @ev (or, with @ev NULL, a generated execution) for @c. */
static int encode(struct trace *t, const struct etm_config *c,
		  const struct etm_ev *ev, size_t nev, uint32_t isync_period)
{
	struct etm_enc_opts o;
	struct etm_enc *e;
	const uint8_t *d;
	size_t i;
	int rc = 0;

	if (!ev) {
		struct etm_gen_opts g;

		memset(&g, 0, sizeof(g));
		g.size = sizeof(g);
		g.seed = 7;
		g.proto = c->protocol;
		g.flags = ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_EXC |
			  ETM_GEN_CTX | ETM_GEN_CYCLES;
		g.ninsn = 3000;
		g.ctxid_bytes = 4;
		t->gen = etm_gen_alloc(&g, sizeof(g));
		t->img = etm_image_alloc();
		if (!t->gen || !t->img ||
		    etm_gen_add_to_image(t->gen, t->img) < 0)
			return -1;
		ev = etm_gen_events(t->gen, &nev);
	}
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cfg = *c;
	o.isync_period = isync_period;
	e = etm_enc_alloc(&o, sizeof(o), t->img);
	if (!e)
		return -1;
	for (i = 0; i < nev && !rc; i++)
		rc = etm_enc_put(e, &ev[i]);
	if (!rc)
		rc = etm_enc_finish(e);
	d = etm_enc_data(e, &t->n);
	t->buf = malloc(t->n + 1);
	if (t->buf)
		memcpy(t->buf, d, t->n);
	etm_enc_free(e);
	return rc || !t->buf ? -1 : 0;
}

static void trace_free(struct trace *t)
{
	etm_gen_free(t->gen);
	etm_image_free(t->img);
	free(t->buf);
}

/* Decode @t with @c over @img; fills the counts and the warning. */
static void diagnose(const struct trace *t, const struct etm_config *c,
		     const struct etm_image *img, struct etm_diag_counts *k,
		     char *warn, size_t wn, unsigned *mismatch_elems)
{
	struct etm_decoder *dec = etm_decoder_alloc(etm_fmt_raw,
						    etm_dec_elements);
	struct etm_diag *d = etm_diag_alloc(c, img);
	struct etm_item it;
	int rc;

	*mismatch_elems = 0;
	rc = dec && d ? etm_decoder_add_source(dec, c, img) : -1;
	if (!rc)
		rc = etm_decoder_push(dec, t->buf, t->n);
	while (!rc) {
		rc = etm_decoder_next(dec, &it, sizeof(it));
		if (rc == -etme_again) {
			rc = etm_decoder_finish(dec);
			continue;
		}
		if (rc)
			break;
		etm_diag_item(d, &it);
		*mismatch_elems += it.kind == etm_item_elem && it.elem.kind == etmk_error &&
				   it.elem.err == etme_mismatch;
	}
	etm_diag_counts(d, k, sizeof(*k));
	etm_diag_warning(d, warn, wn);
	etm_diag_free(d);
	etm_decoder_free(dec);
}

/* A generated trace decoded with the right configuration: no symptom, no
 * warning, and the probe keeps the configuration. */
static void t_clean(void)
{
	static const uint32_t cr[] = { 0, 1u << 12, 3u << 14 };
	unsigned p, i, me;

	for (p = 0; p < 2; p++)
		for (i = 0; i < 3; i++) {
			struct etm_config c = mkcfg(p ? etm_proto_ptm :
							etm_proto_etmv3,
						    cr[i]);
			struct etm_diag_counts k;
			struct etm_config best;
			struct trace t = { 0 };
			char w[300];

			ET_EQ(encode(&t, &c, NULL, 0, 256), 0);
			diagnose(&t, &c, t.img, &k, w, sizeof(w), &me);
			ET_CHECK(k.insns >= 2500);
			ET_EQ(w[0], 0);
			ET_EQ(me, 0);
			ET_EQ(etm_diag_probe(etm_fmt_raw, &c, t.img, t.buf,
					     t.n, &best),
			      0);
			trace_free(&t);
		}
}

/* Encode with @right, decode with @wrong: a warning, and the probe finds
 * @right's protocol / cycle-accurate / Context ID setting again. */
static void wrong_config(const struct etm_config *right,
			 const struct etm_config *wrong)
{
	struct etm_diag_counts k;
	struct etm_config best;
	struct trace t = { 0 };
	char w[300];
	unsigned me;

	ET_EQ(encode(&t, right, NULL, 0, 256), 0);
	diagnose(&t, wrong, t.img, &k, w, sizeof(w), &me);
	if (getenv("ETM_DIAG_VERBOSE"))
		printf("%s cr %x as %s cr %x: %llu insns, %llu pkt errors, "
		       "%llu mismatches: %s\n",
		       etm_protocol_name(right->protocol), right->etmcr,
		       etm_protocol_name(wrong->protocol), wrong->etmcr,
		       (unsigned long long)k.insns,
		       (unsigned long long)k.pkt_errors,
		       (unsigned long long)k.mismatch, w);
	ET_CHECK(w[0] != 0);
	ET_EQ(etm_diag_probe(etm_fmt_raw, wrong, t.img, t.buf, t.n, &best), 1);
	ET_EQ(best.protocol, right->protocol);
	ET_EQ(etm_cfg_cycle_acc(&best), etm_cfg_cycle_acc(right));
	ET_EQ(etm_cfg_ctxid_bytes(&best), etm_cfg_ctxid_bytes(right));
	ET_CHECK(etm_diag_config_diff(wrong, &best, w, sizeof(w)) > 0);
	trace_free(&t);
}

static void t_wrong_protocol(void)
{
	struct etm_config e3 = mkcfg(etm_proto_etmv3, 0);
	struct etm_config ptm = mkcfg(etm_proto_ptm, 0);

	wrong_config(&e3, &ptm);
	wrong_config(&ptm, &e3);
}

static void t_wrong_cycle_acc(void)
{
	struct etm_config ca = mkcfg(etm_proto_ptm, 1u << 12);
	struct etm_config no = mkcfg(etm_proto_ptm, 0);
	struct etm_config e3ca = mkcfg(etm_proto_etmv3, 1u << 12);
	struct etm_config e3no = mkcfg(etm_proto_etmv3, 0);

	wrong_config(&ca, &no);
	wrong_config(&no, &ca);
	wrong_config(&e3ca, &e3no);
}

static void t_wrong_ctxid(void)
{
	struct etm_config c4 = mkcfg(etm_proto_ptm, 3u << 14);
	struct etm_config c0 = mkcfg(etm_proto_ptm, 0);
	struct etm_config e4 = mkcfg(etm_proto_etmv3, 3u << 14);
	struct etm_config e0 = mkcfg(etm_proto_etmv3, 0);

	wrong_config(&c4, &c0);
	wrong_config(&c0, &c4);
	wrong_config(&e4, &e0);
}

static struct etm_ev ev_insn(uint64_t addr, enum etm_isa isa, int exec,
			     uint64_t target)
{
	struct etm_ev ev = { .kind = etmev_insn, .addr = addr, .isa = isa, .exec = (uint8_t)exec, .target = target, .target_isa = isa };

	return ev;
}

static struct etm_image *image_of(uint64_t addr, const uint8_t *b, size_t n)
{
	struct etm_image *img = etm_image_alloc();

	if (img && etm_image_add_buffer(img, etm_space_any, addr, b, n) < 0) {
		etm_image_free(img);
		return NULL;
	}
	return img;
}

/* Image: 0x1000 3 x MOV r0,r0; 0x100c BNE 0x1000; 0x1010 B . The trace
 * has BNE failing (N atom). Decoded over an image where 0x100c is B 0x1000
 * (unconditional), the N atom cannot be: hand-derived count 1. */
static void t_n_uncond(void)
{
	uint8_t code[20] = {
		0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
		0x00, 0x00, 0xa0, 0xe1, 0xfb, 0xff, 0xff, 0x1a,
		0xfe, 0xff, 0xff, 0xea
	};
	struct etm_ev ev[8] = { { .kind = etmev_trace_on, .reason = 1 } };
	unsigned p, i, me;

	ev[1] = ev_insn(0x1000, etmi_a32, 1, 0);
	ev[2] = ev_insn(0x1004, etmi_a32, 1, 0);
	ev[3] = ev_insn(0x1008, etmi_a32, 1, 0);
	ev[4] = ev_insn(0x100c, etmi_a32, 0, 0);
	for (i = 5; i < 8; i++)
		ev[i] = ev_insn(0x1010, etmi_a32, 1, 0);
	for (p = 0; p < 2; p++) {
		struct etm_config c = mkcfg(p ? etm_proto_ptm :
						etm_proto_etmv3,
					    0);
		struct trace t = { .img = image_of(0x1000, code, 20) };
		struct etm_image *bad;
		struct etm_diag_counts k;
		char w[300];

		ET_EQ(encode(&t, &c, ev, 8, 0), 0);
		diagnose(&t, &c, t.img, &k, w, sizeof(w), &me);
		ET_EQ(k.n_uncond, 0);
		ET_EQ(w[0], 0);
		code[15] = 0xea; /* BNE -> B */
		bad = image_of(0x1000, code, 20);
		code[15] = 0x1a;
		diagnose(&t, &c, bad, &k, w, sizeof(w), &me);
		ET_EQ(k.n_uncond, 1);
		ET_CHECK(strstr(w, "image") != NULL);
		etm_image_free(bad);
		trace_free(&t);
	}
}

/* T32 at 0x2000: BL.W 0x2010 (4 bytes), 6 x NOP, 0x2010 BX r0. The trace
 * branches by BX r0 to 0x2002, the middle of the BL.W that it executed:
 * not an instruction boundary (count 1). */
static void t_mid_insn(void)
{
	static const uint8_t code[20] = {
		0x00, 0xf0, 0x06, 0xf8, 0x00, 0xbf, 0x00, 0xbf,
		0x00, 0xbf, 0x00, 0xbf, 0x00, 0xbf, 0x00, 0xbf,
		0x00, 0x47, 0x00, 0xbf
	};
	struct etm_ev ev[11] = { { .kind = etmev_trace_on, .reason = 1 } };
	unsigned p, i, me;

	ev[1] = ev_insn(0x2000, etmi_t32, 1, 0);
	ev[2] = ev_insn(0x2010, etmi_t32, 1, 0x2002);
	ev[3] = ev_insn(0x2002, etmi_t32, 1, 0); /* 4-byte from hw 2 */
	for (i = 4; i < 9; i++)                  /* NOPs 0x2006-0x200e */
		ev[i] = ev_insn(0x2006 + 2 * (i - 4), etmi_t32, 1, 0);
	ev[9] = ev_insn(0x2010, etmi_t32, 1, 0x2000);
	ev[10] = ev_insn(0x2000, etmi_t32, 1, 0);
	for (p = 0; p < 2; p++) {
		struct etm_config c = mkcfg(p ? etm_proto_ptm :
						etm_proto_etmv3,
					    0);
		struct trace t = { .img = image_of(0x2000, code, 20) };
		struct etm_diag_counts k;
		char w[300];

		ET_EQ(encode(&t, &c, ev, 11, 0), 0);
		diagnose(&t, &c, t.img, &k, w, sizeof(w), &me);
		ET_EQ(k.mid_insn, 1);
		ET_CHECK(strstr(w, "image") != NULL);
		trace_free(&t);
	}
}

/* By hand. ETMv3 (shared/docs/etmv3.md): A-sync; I-sync 08 21 00 30 00 00 (trace
 * on, 0x3000 A32); then 20 x (P-header 0x94 = five E atoms, periodic
 * I-sync 08 01 00 30 00 00). PTM (shared/docs/ptm.md §4, §5.1): A-sync; I-sync
 * 08 00 30 00 00 21; then 20 x (atom 0x84 = one E, periodic I-sync
 * 08 00 30 00 00 01). */
static void loop_trace(struct trace *t, int ptm)
{
	static const uint8_t head[2][12] = {
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
		  0x08, 0x21, 0x00, 0x30, 0x00, 0x00 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
		  0x08, 0x00, 0x30, 0x00, 0x00, 0x21 }
	};
	static const uint8_t loop[2][7] = {
		{ 0x94, 0x08, 0x01, 0x00, 0x30, 0x00, 0x00 },
		{ 0x84, 0x08, 0x00, 0x30, 0x00, 0x00, 0x01 },
	};
	unsigned i;

	t->n = 12 + 20 * 7;
	t->buf = malloc(t->n);
	if (!t->buf)
		return;
	memcpy(t->buf, head[ptm], 12);
	for (i = 0; i < 20; i++)
		memcpy(t->buf + 12 + i * 7, loop[ptm], 7);
}

/* A32 at 0x3000: 4 x MOV r0,r0 then B 0x3000, looped 20 times with a
 * periodic I-sync at 0x3000 after each pass (100 instructions). Decoded
 * over an image whose B goes to 0x3004, the decoder's position after the
 * branch (0x3004) disagrees with every I-sync (0x3000): atoms left over,
 * 20 mismatch elements (hand count). */
static void t_isync_leftover(void)
{
	uint8_t code[20] = {
		0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
		0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
		0xfa, 0xff, 0xff, 0xea
	};
	unsigned p, me;

	for (p = 0; p < 2; p++) {
		struct etm_config c = mkcfg(p ? etm_proto_ptm :
						etm_proto_etmv3,
					    0);
		struct trace t = { .img = image_of(0x3000, code, 20) };
		struct etm_image *bad;
		struct etm_diag_counts k;
		char w[300];

		loop_trace(&t, (int)p);
		ET_CHECK(t.buf != NULL);
		diagnose(&t, &c, t.img, &k, w, sizeof(w), &me);
		ET_EQ(k.insns, 100);
		ET_EQ(k.mismatch, 0);
		ET_EQ(me, 0);
		code[16] = 0xfb; /* B 0x3000 -> B 0x3004 */
		bad = image_of(0x3000, code, 20);
		code[16] = 0xfa;
		diagnose(&t, &c, bad, &k, w, sizeof(w), &me);
		if (getenv("ETM_DIAG_VERBOSE"))
			printf("leftover %s: %llu insns, %u mismatches, %s\n",
			       etm_protocol_name(c.protocol),
			       (unsigned long long)k.insns, me, w);
		ET_EQ(me, 20);
		ET_EQ(k.mismatch, 20);
		ET_CHECK(strstr(w, "image") != NULL);
		etm_image_free(bad);
		trace_free(&t);
	}
}

/* The configuration probe on one thread (each variant decoded only while
 * it can still be chosen, variants that differ in the timestamps alone from
 * one whose decode read no timestamp header taken as decoded alike,
 * CoreSight frames deformatted once for all) picks what the threaded probe
 * picks, which decodes every variant in full from the bytes: encoded traces
 * of ETMv3 and PTM in many configurations, raw and in frames with a second
 * source, whole, cut and with bytes changed, with and without the image,
 * guessed and configured. */
static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A generated execution of @ninsn instructions, with timestamps, encoded
 * for @c (encode()). */
static int encode_gen(struct trace *t, const struct etm_config *c,
		      uint64_t seed, unsigned ninsn)
{
	struct etm_gen_opts g;
	const struct etm_ev *ev;
	size_t nev;

	memset(&g, 0, sizeof(g));
	g.size = sizeof(g);
	g.seed = seed;
	g.proto = c->protocol;
	g.flags = ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_EXC | ETM_GEN_CTX |
		  ETM_GEN_CYCLES | ETM_GEN_TS;
	g.ninsn = ninsn;
	g.ctxid_bytes = etm_cfg_ctxid_bytes(c);
	t->gen = etm_gen_alloc(&g, sizeof(g));
	t->img = etm_image_alloc();
	if (!t->gen || !t->img || etm_gen_add_to_image(t->gen, t->img) < 0)
		return -1;
	ev = etm_gen_events(t->gen, &nev);
	return encode(t, c, ev, nev, 0);
}

/* @t's trace as ID 0x10 in CoreSight frames, with ID 0x22 bytes between. */
static uint8_t *frame(const struct trace *t, uint64_t seed, size_t *n)
{
	struct etm_fenc *f = etm_fenc_alloc(ETM_FENC_RANDOM, seed);
	uint8_t other[40];
	const uint8_t *d;
	uint8_t *out = NULL;
	size_t i, k;

	for (i = 0; i < sizeof(other); i++)
		other[i] = (uint8_t)(i * 37 + 1);
	for (i = 0; f && i < t->n; i += k) {
		k = t->n - i < 97 ? t->n - i : 97;
		if (etm_fenc_put(f, 0x10, t->buf + i, k) < 0 ||
		    etm_fenc_put(f, 0x22, other, (i / 97) % 40) < 0)
			break;
	}
	if (f && etm_fenc_finish(f) == 0) {
		d = etm_fenc_data(f, n);
		out = malloc(*n + 1);
		if (out)
			memcpy(out, d, *n);
	}
	etm_fenc_free(f);
	return out;
}

static int probes; /* compared by t_probe_agree */

/* The probe on one thread and on three agree for @buf cut to @n, and with
 * bytes changed. */
static void agree(enum etm_input_format fmt, const struct etm_config *guess,
		  const struct etm_image *img, uint8_t *buf, size_t n,
		  uint32_t *s)
{
	static const unsigned keeps[] = { ETM_PROBE_GUESS, 0,
					  ETM_PROBE_GUESS |
						  ETM_PROBE_KEEP_PROTOCOL };
	struct etm_config b1, b3;
	unsigned k, round;
	int r1, r3;

	for (round = 0; round < 2; round++) {
		if (round && n) /* damage: a few bytes changed */
			for (k = 0; k < 1 + n / 400; k++)
				buf[rng(s) % n] ^= (uint8_t)(1u << (rng(s) % 8));
		for (k = 0; k < 3; k++) {
			const struct etm_image *im = (rng(s) & 1) ? img : NULL;

			r1 = etm_diag_probe_jobs(fmt, guess, im, buf, n,
						 keeps[k], 1, &b1);
			r3 = etm_diag_probe_jobs(fmt, guess, im, buf, n,
						 keeps[k], 3, &b3);
			ET_EQ(r1, r3);
			ET_CHECK(!memcmp(&b1, &b3, sizeof(b1)));
			probes++;
		}
	}
}

static void t_probe_agree(void)
{
	/* ETMCR: cycle-accurate (12), Context ID size (15:14), timestamps
	 * (28), PTM return stack (29), branch broadcast (8) */
	static const uint32_t crs[] = { 0, 1u << 12, 3u << 14, 1u << 28,
					(1u << 28) | (1u << 12) | (1u << 14),
					1u << 29, 1u << 8 };
	static const size_t cuts[] = { 0, 3000, 600, 150 };
	uint32_t s = 12345;
	unsigned p, i, c;

	for (p = 0; p < 2; p++)
		for (i = 0; i < sizeof(crs) / sizeof(crs[0]); i++) {
			struct etm_config cfg, guess;
			struct trace t = { 0 };
			uint8_t *fr;
			size_t nfr;

			etm_config_init(&cfg);
			cfg.protocol = p ? etm_proto_ptm : etm_proto_etmv3;
			cfg.etmidr = p ? 0x411cf312u : 0x410cf250u;
			cfg.etmcr = crs[i];
			if (crs[i] & (1u << 28))
				cfg.etmccer = (i & 1) ? 3u << 28 : 0;
			cfg.traceid = 0x10;
			if (etm_config_check(&cfg, NULL) < 0)
				continue;
			ET_EQ(encode_gen(&t, &cfg, 100 + i, 1500), 0);
			/* the guess of a trace file: the defaults */
			etm_config_init(&guess);
			guess.protocol = etm_proto_etmv3;
			guess.etmidr = 0x410cf250u;
			guess.traceid = 0x10;
			fr = frame(&t, i, &nfr);
			ET_CHECK(fr);
			for (c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
				size_t n = cuts[c] && cuts[c] < t.n ? cuts[c] : t.n;
				size_t m = cuts[c] && cuts[c] < nfr ? cuts[c] : nfr;

				agree(etm_fmt_raw, &guess, t.img, t.buf, n,
				      &s);
				agree(etm_fmt_coresight, &guess, t.img, fr, m,
				      &s);
			}
			free(fr);
			trace_free(&t);
		}
	ET_CHECK(probes >= 300);
}

int main(void)
{
	ETEST(t_clean);
	ETEST(t_wrong_protocol);
	ETEST(t_wrong_cycle_acc);
	ETEST(t_wrong_ctxid);
	ETEST(t_n_uncond);
	ETEST(t_mid_insn);
	ETEST(t_isync_leftover);
	ETEST(t_probe_agree);
	return etest_end();
}
