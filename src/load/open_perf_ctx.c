/* load/open_perf_ctx.c - per-process images inside an AUX piece of a
 * perf.data file. perf programs the ETM to trace the Context ID and sets
 * CONTEXTIDR to the pid at each switch, so the Context ID says whose
 * memory the next instructions are read from: the flow decoder asks at
 * each context change (etm_flow_set_ctx_images()) and this table answers
 * with the image of that pid's executable mappings (made at open from its
 * MMAP/MMAP2 records, like the image of a piece's own process). A pid with
 * no mapping gets an image of the --elf/--image files only, so its user
 * code decodes to "no memory" gaps, never to another process's
 * instructions; a note names it once (doc/perfdata.md). A pid reused
 * after an EXIT is a new process: the table holds each generation of a
 * pid that mapped anything, and a Context ID is looked up in the
 * generation in force in the piece being decoded: that of where it
 * starts (its EXIT records before the AUX record that ends the previous
 * piece), unless the pid is reused inside the piece (then no image). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "load/open_perf_int.h"

/* Pids noted as without an image: at most this many are named. */
#define PCTX_NOTED_MAX 32

struct cap_pid {
	uint32_t pid;
	size_t gen; /* its EXIT records before its mapping */
	const struct etm_image *img;
};

struct cap_exit { /* an EXIT record: @pid's generation ends at @ord */
	uint32_t pid;
	size_t ord;
};

struct cap_pctx {
	struct etm_capture *cap;
	struct cap_pid *p; /* sorted by pid, generation */
	size_t n;
	struct cap_exit *exits; /* sorted by pid, place */
	size_t nexits;
	/* where each buffer's piece starts and ends (pf_ctx_piece()) */
	struct cap_span {
		size_t start, end;
	} * bord;
	size_t nbord;
	size_t cur, cur_end;          /* those of the piece loaded (etm_capture_load()) */
	const struct etm_image *none; /* a pid without mappings */
	uint32_t noted[PCTX_NOTED_MAX];
	size_t nnoted;
};

static int pctx_cmp(const void *a, const void *b)
{
	const struct cap_pid *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->gen < y->gen ? -1 : x->gen > y->gen;
}

static int exit_cmp(const void *a, const void *b)
{
	const struct cap_exit *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* EXIT records (pid, place) before (@pid, @ord) in the sorted list. */
static size_t exits_before(const struct cap_pctx *t, uint32_t pid, size_t ord)
{
	size_t lo = 0, hi = t->nexits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cap_exit *e = &t->exits[mid];

		if (e->pid < pid || (e->pid == pid && e->ord < ord))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Name pid @ctxid in a note once (the first PCTX_NOTED_MAX pids). */
static void pctx_note(struct cap_pctx *t, uint32_t ctxid, const char *why)
{
	size_t k;

	for (k = 0; k < t->nnoted && t->noted[k] != ctxid; k++)
		;
	if (k < t->nnoted || t->nnoted >= PCTX_NOTED_MAX)
		return;
	t->noted[t->nnoted++] = ctxid;
	cap_note(t->cap, "no image for pid %u (Context ID %#x): %s; its trace "
			 "decodes to gaps%s",
		 ctxid, ctxid, why,
		 t->nnoted == PCTX_NOTED_MAX ? " (further pids not named)" : "");
}

static const struct cap_pid *pctx_find(const struct cap_pctx *t, uint32_t pid,
				       size_t gen)
{
	struct cap_pid key = { pid, gen, NULL };

	return bsearch(&key, t->p, t->n, sizeof(*t->p), pctx_cmp);
}

/* etm_ctx_image_fn: the image of the process whose pid is @ctxid, in the
 * generation in force in the piece being decoded. If the pid EXITs inside
 * the piece and a later generation maps anything before its end, which
 * process a Context ID names is not known: no image (gaps, never the
 * other process's instructions). */
static const struct etm_image *pctx_image(void *arg, uint32_t ctxid)
{
	struct cap_pctx *t = arg;
	const struct cap_pid *hit;
	size_t first = exits_before(t, ctxid, 0);
	size_t g0 = exits_before(t, ctxid, t->cur) - first;
	size_t g1 = exits_before(t, ctxid, t->cur_end) - first, g;

	for (g = g0 + 1; g <= g1; g++)
		if (pctx_find(t, ctxid, g)) {
			pctx_note(t, ctxid, "the pid is reused inside an AUX "
					    "piece (EXIT and a new mapping)");
			return t->none;
		}
	hit = pctx_find(t, ctxid, g0);
	if (hit)
		return hit->img;
	pctx_note(t, ctxid, "no executable mapping recorded");
	return t->none;
}

/* Whether a decodable CPU of the metadata traces Context IDs. */
static int pf_traces_ctxid(const struct pf *pf)
{
	const struct etm_perf_info *in = etm_perf_info(pf->p);
	size_t i;

	for (i = 0; i < in->ncpus; i++)
		if (!in->cpus[i].unsupported &&
		    etm_cfg_ctxid_bytes(&in->cpus[i].cfg) > 0)
			return 1;
	return 0;
}

/* The image of @pid in the generation of its mapping @m (made once). */
static int pf_ctx_add(struct cap_ctx *c, struct pf *pf, struct cap_pctx *t,
		      const struct pf_map *m)
{
	uint32_t pid = m->pid;
	size_t k, gen = pf_gen(pf, pid, m->ord);

	for (k = 0; k < t->n; k++)
		if (t->p[k].pid == pid && t->p[k].gen == gen)
			return 0;
	t->p[t->n].pid = pid;
	t->p[t->n].gen = gen;
	return pf_image(c, pf, pid, gen, &t->p[t->n++].img);
}

/* The EXIT records, sorted for exits_before(). */
static int pf_ctx_exits(struct cap_pctx *t, const struct pf *pf)
{
	size_t k;

	t->exits = calloc(pf->ntasks ? pf->ntasks : 1, sizeof(*t->exits));
	if (!t->exits)
		return -etme_nomem;
	for (k = 0; k < pf->ntasks; k++)
		if (pf->tasks[k].kind == PT_EXIT) {
			t->exits[t->nexits].pid = pf->tasks[k].pid;
			t->exits[t->nexits++].ord = pf->tasks[k].ord;
		}
	qsort(t->exits, t->nexits, sizeof(*t->exits), exit_cmp);
	return 0;
}

int pf_ctx_piece(struct cap_ctx *c, size_t bi, size_t start, size_t end)
{
	struct cap_pctx *t = c->cap->pctx;
	struct cap_span *nb;

	if (!t)
		return 0;
	if (bi >= t->nbord) {
		nb = realloc(t->bord, (bi + 1) * sizeof(*nb));
		if (!nb)
			return cap_err(c, -etme_nomem, "out of memory");
		memset(nb + t->nbord, 0, (bi + 1 - t->nbord) * sizeof(*nb));
		t->bord = nb;
		t->nbord = bi + 1;
	}
	t->bord[bi].start = start;
	t->bord[bi].end = end;
	return 0;
}

void cap_pctx_load(struct etm_capture *cap, size_t bi)
{
	struct cap_pctx *t = cap->pctx;

	if (t && bi < t->nbord) {
		t->cur = t->bord[bi].start;
		t->cur_end = t->bord[bi].end;
	} else if (t) {
		t->cur = t->cur_end = 0;
	}
}

int pf_ctx_images(struct cap_ctx *c, struct pf *pf)
{
	struct cap_pctx *t;
	struct etm_image *none;
	size_t k;
	int r = 0;

	if ((c->o.flags & (ETM_OPEN_NO_IMAGES | ETM_OPEN_NO_CTX_IMAGES)) ||
	    !pf->nmaps || !pf_traces_ctxid(pf))
		return 0;
	t = calloc(1, sizeof(*t));
	if (t)
		t->p = calloc(pf->nmaps, sizeof(*t->p));
	none = cap_new_image(c->cap);
	if (!t || !t->p || !none) {
		if (t)
			free(t->p);
		free(t);
		return cap_err(c, -etme_nomem, "out of memory");
	}
	t->cap = c->cap;
	c->cap->pctx = t;
	r = pf_ctx_exits(t, pf);
	if (r < 0)
		return cap_err(c, r, "out of memory");
	for (k = 0; k < pf->nmaps && r >= 0; k++)
		r = pf_ctx_add(c, pf, t, &pf->maps[k]);
	if (r >= 0)
		r = cap_user_images(c, none);
	t->none = none;
	qsort(t->p, t->n, sizeof(*t->p), pctx_cmp);
	return r < 0 ? r : 0;
}

int cap_pctx_wire(struct etm_capture *cap, struct etm_decoder *dec,
		  const struct etm_capture_source *s)
{
	if (!cap->pctx || !etm_cfg_ctxid_bytes(&s->cfg) ||
	    (s->cfg.protocol != etm_proto_etmv3 && s->cfg.protocol != etm_proto_ptm))
		return 0;
	return etm_decoder_set_ctx_images(dec, s->id, pctx_image, cap->pctx);
}

int etm_capture_ctx_images(const struct etm_capture *cap, etm_ctx_image_fn *fn,
			   void **ctx)
{
	*fn = cap && cap->pctx ? pctx_image : NULL;
	*ctx = cap ? cap->pctx : NULL;
	return *fn != NULL;
}

void cap_pctx_free(struct etm_capture *cap)
{
	if (!cap->pctx)
		return;
	free(cap->pctx->p);
	free(cap->pctx->exits);
	free(cap->pctx->bord);
	free(cap->pctx);
	cap->pctx = NULL;
}
