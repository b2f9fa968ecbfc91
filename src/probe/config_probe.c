/* probe/config_probe.c - the configuration probe: decode the start of a
 * trace with the configuration and its variants (etm_diag_*() counting
 * the symptoms) and take the variant that fits best. Formatted input is
 * deformatted once for all of them (decoder/dfmt_replay.h); on one thread a
 * variant is decoded only while it can still be chosen. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/diag.h>
#include <etmtrace/error.h>

#include "decoder/dfmt_replay.h"
#include "probe/probe_fit.h"

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
	} else if (cfg->protocol != etm_proto_etmv3 || !cfg->etmidr) {
		out->etmidr = 0x410cf250 | (v & 8) << 17; /* v3.5 */
	} else if ((v & 8) != (unsigned)etm_cfg_alt_branch(cfg) << 3) {
		/* the ETM the ETMIDR names: the alternative branch encoding
		 * exists from ETMv3.4 on (ETMIDR[20] is ignored below) */
		if (etm_cfg_arch_major(cfg) != 2 || etm_cfg_arch_minor(cfg) < 4)
			return 0;
		out->etmidr = (cfg->etmidr & ~(1u << 20)) | (v & 8) << 17;
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
	struct diag_input in;
	const struct etm_image *img;
	struct etm_config v[129]; /* [0] as configured, then the variants */
	struct diag_fit f[129];
	unsigned nv, next;
	/* the threads' bound: that of the configured fit p->f[0] (looser than
	 * the best so far of one thread, so a variant the choice could take
	 * is never stopped; diag_probe_bound()) */
	struct diag_bound bd;
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
		p->f[i] = etm_probe_fit(&p->in, &p->v[i], p->img, &p->bd);
	}
}

/* Fill p->f for p->v on @jobs threads of their own; this one waits (it
 * works only if none could be made): the calling thread's CPU time is a
 * parallel decode's serial share (etmtrace/runstats.h), and the variants
 * are not serial work. */
static void diag_probe_fits(struct diag_probe *p, unsigned jobs)
{
	pthread_t th[16];
	unsigned i, nth = 0;

	pthread_mutex_init(&p->mu, NULL);
	if (jobs > 16)
		jobs = 16;
	for (i = 0; i < jobs && i + 1 < p->nv; i++)
		if (pthread_create(&th[nth], NULL, diag_probe_worker, p) == 0)
			nth++;
	if (!nth)
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

/* Whether @a and @b differ in the timestamp bits alone (ETMCR[28],
 * ETMCCER[29:28]), both ETMv3 or PTM. */
static int diag_ts_only(const struct etm_config *a, const struct etm_config *b)
{
	struct etm_config x = *a, y = *b;

	if (a->protocol != b->protocol || (a->protocol != etm_proto_etmv3 &&
					   a->protocol != etm_proto_ptm))
		return 0;
	x.etmcr &= ~(1u << 28);
	y.etmcr &= ~(1u << 28);
	x.etmccer &= ~(3u << 28);
	y.etmccer &= ~(3u << 28);
	return !memcmp(&x, &y, sizeof(x));
}

/* A configuration before variant @i that decodes as it does: one that
 * differs in the timestamps alone and whose decode never read a
 * timestamp header (so it is the same decode, the same fit); -1 if none. */
static int diag_probe_same(const struct diag_probe *p, unsigned i)
{
	unsigned j;

	for (j = 0; j < i; j++)
		if (p->f[j].ts_free && diag_ts_only(&p->v[j], &p->v[i]))
			return (int)j;
	return -1;
}

/* The bound a variant must stay within to be chosen over @b, the best so
 * far (p->f[0]: as configured); 0 if none can be (a variant fits better
 * only with a quarter of the configured symptoms, so none when there are
 * none). No image: no instructions, only the packet-level symptoms
 * decide (diag_fewer()). */
static int diag_probe_bound(const struct diag_probe *p, unsigned keep,
			    struct diag_fit b, struct diag_bound *bd)
{
	int64_t o = p->f[0].score;

	bd->on = 0;
	bd->max = 0;
	if (!(keep & ETM_PROBE_GUESS)) {
		if (o <= 0)
			return 0;
		bd->on = 1;
		bd->max = (uint64_t)(b.score < o / 4 ? b.score : o / 4);
	} else if (b.score >= 0 && b.insns) {
		bd->on = 1;
		bd->max = (uint64_t)b.score;
	} else if (b.score >= 0 && (!p->img || !etm_image_count(p->img))) {
		bd->on = 2;
		bd->max = b.parse_bad;
	}
	return 1;
}

int etm_diag_probe_keep(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, struct etm_config *best)
{
	return etm_diag_probe_jobs(fmt, cfg, img, buf, n, keep, 1, best);
}

/* The runner-up so far: the best of the fits that decode otherwise than
 * the best @b (a different symptom score or instruction count). */
static void diag_rank_note(struct diag_fit v, const struct etm_config *vc,
			   struct diag_fit b, struct etm_probe_rank *rk,
			   struct diag_fit *second)
{
	if (v.score < 0 || (v.score == b.score && v.insns == b.insns) ||
	    !diag_fewer(v, *second))
		return;
	*second = v;
	rk->has_next = 1;
	rk->next = *vc;
	rk->next_errors = v.errors;
	rk->next_insns = v.insns;
}

/* The choice over p->v in the variants' order (on one thread each variant
 * decoded only while it can still be chosen, or with @rk be the
 * runner-up); returns the best fit, its configuration in *@best. */
static struct diag_fit diag_probe_choose(struct diag_probe *p, unsigned keep,
					 unsigned jobs, struct etm_config *best,
					 struct etm_probe_rank *rk)
{
	struct diag_fit b = p->f[0], second = { -1, 0, 0, 0, 0, 0, 0 };
	unsigned i;

	for (i = 1; i < p->nv; i++) {
		if (jobs <= 1) {
			struct diag_bound bd;
			int same = diag_probe_same(p, i);

			/* with @rk, bounded by the runner-up unless the best
			 * decodes cleanly: then only a clean rival counts */
			if (!diag_probe_bound(p, keep, rk && b.score ? second : b,
					      &bd) &&
			    !rk)
				break;
			p->f[i] = same >= 0 ? p->f[same] :
					      etm_probe_fit(&p->in, &p->v[i], p->img, &bd);
		}
		if ((keep & ETM_PROBE_GUESS) ? diag_fewer(p->f[i], b) :
					       diag_better(p->f[i], p->f[0], b)) {
			if (rk)
				diag_rank_note(b, best, p->f[i], rk, &second);
			b = p->f[i];
			*best = p->v[i];
		} else if (rk) {
			diag_rank_note(p->f[i], &p->v[i], b, rk, &second);
		}
	}
	return b;
}

/* etm_diag_probe_jobs(), and with @rk the runner-up. */
static int diag_probe_run(enum etm_input_format fmt,
			  const struct etm_config *cfg,
			  const struct etm_image *img, const uint8_t *buf,
			  size_t n, unsigned keep, unsigned jobs,
			  struct etm_config *best, struct etm_probe_rank *rk)
{
	struct diag_probe *p;
	struct diag_fit b;

	if (!cfg || !best || (!buf && n))
		return -etme_invalid;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -etme_nomem;
	*p = (struct diag_probe){ .in = { fmt, buf, n, NULL, 0 }, .img = img };
	*best = *cfg;
	p->v[p->nv++] = *cfg;
	/* formatted input deformatted once, for @cfg and the variants */
	p->in.replay_id = etm_cfg_trace_id(cfg);
	if (fmt != etm_fmt_raw)
		p->in.replay = etm_dec_replay_record(fmt, p->in.replay_id, buf, n);
	/* as configured: on the calling thread while the variants' threads
	 * wait for its bound, so in batches when there are threads (one
	 * thread reads ts_free, which only the item path tells) */
	p->f[0] = b = jobs > 1 && etm_probe_fit_batchable(cfg) ?
			      etm_probe_fit_batch(&p->in, cfg, img) :
			      etm_probe_fit(&p->in, cfg, img, NULL);
	/* The A-sync search does not depend on the configuration: without
	 * one, every ETMv3 or PTM variant decodes what @cfg did (bytes out
	 * of sync, nothing else), and none can fit better. */
	if (p->f[0].score >= 0 && !p->f[0].async &&
	    (cfg->protocol == etm_proto_etmv3 ||
	     cfg->protocol == etm_proto_ptm))
		goto out;
	if (diag_probe_bound(p, keep, p->f[0], &p->bd) || rk) /* else none wins */
		diag_probe_variants(p, cfg, keep);
	if (rk) /* the runner-up may fit worse than @cfg */
		p->bd.on = 0;
	p->next = 1;
	if (jobs > 1)
		diag_probe_fits(p, jobs);
	b = diag_probe_choose(p, keep, jobs, best, rk);
out:
	etm_dec_replay_free(p->in.replay);
	if (rk) {
		rk->best = *best;
		rk->best_errors = b.score < 0 ? UINT64_MAX : b.errors;
		rk->best_insns = b.insns;
	}
	free(p);
	return memcmp(best, cfg, sizeof(*best)) != 0;
}

int etm_diag_probe_jobs(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, unsigned jobs,
			struct etm_config *best)
{
	return diag_probe_run(fmt, cfg, img, buf, n, keep, jobs, best, NULL);
}

int etm_diag_probe_rank(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, struct etm_probe_rank *rk)
{
	struct etm_config best;

	if (!rk)
		return -etme_invalid;
	memset(rk, 0, sizeof(*rk));
	rk->size = sizeof(*rk);
	return diag_probe_run(fmt, cfg, img, buf, n, keep | ETM_PROBE_GUESS, 1,
			      &best, rk);
}
