/* tests/fuzz/test-probe.c - the configuration probe on one thread (each
 * variant decoded only while it can still be chosen, variants that differ
 * in the timestamps alone from one whose decode read no timestamp header
 * taken as decoded alike, CoreSight frames deformatted once for all) picks
 * what the threaded probe picks, which decodes every variant in full from
 * the bytes: encoded traces of ETMv3 and PTM in many configurations, raw
 * and in frames with a second source, whole, cut and with bytes changed,
 * with and without the image, guessed and configured. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/encode.h>
#include <etmtrace/error.h>

#include "etest.h"

struct trace {
	struct etm_gen *gen;
	struct etm_image *img;
	uint8_t *buf;
	size_t n;
};

static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A generated execution of @ninsn instructions encoded for @c. */
static int encode(struct trace *t, const struct etm_config *c, uint64_t seed,
		  unsigned ninsn)
{
	struct etm_gen_opts g;
	struct etm_enc_opts o;
	struct etm_enc *e;
	const struct etm_ev *ev;
	const uint8_t *d;
	size_t i, nev;
	int rc = 0;

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
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cfg = *c;
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
	return rc < 0 || !t->buf ? -1 : 0;
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

static int total; /* probes compared */

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
			total++;
		}
	}
}

static void t_agree(void)
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
			ET_EQ(encode(&t, &cfg, 100 + i, 1500), 0);
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
			free(t.buf);
			etm_image_free(t.img);
			etm_gen_free(t.gen);
		}
	ET_CHECK(total >= 300);
}

int main(void)
{
	ETEST(t_agree);
	return etest_end();
}
