/* load/open_perf_ctx.c - per-process images inside an AUX piece of a
 * perf.data file. perf programs the ETM to trace the Context ID and sets
 * CONTEXTIDR to the pid at each switch, so the Context ID says whose
 * memory the next instructions are read from: the flow decoder asks at
 * each context change (etm_flow_set_ctx_images()) and this table answers
 * with the image of that pid's executable mappings (made at open from its
 * MMAP/MMAP2 records, like the image of a piece's own process). A pid with
 * no mapping gets an image of the --elf/--image files only, so its user
 * code decodes to "no memory" gaps, never to another process's
 * instructions; a note names it once (doc/perfdata.md). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "load/open_perf_int.h"

/* Pids noted as without an image: at most this many are named. */
#define PCTX_NOTED_MAX 32

struct cap_pid {
	uint32_t pid;
	const struct etm_image *img;
};

struct cap_pctx {
	struct etm_capture *cap;
	struct cap_pid *p; /* sorted by pid */
	size_t n;
	const struct etm_image *none; /* a pid without mappings */
	uint32_t noted[PCTX_NOTED_MAX];
	size_t nnoted;
};

static int pctx_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct cap_pid *)a)->pid;
	uint32_t y = ((const struct cap_pid *)b)->pid;

	return x < y ? -1 : x > y;
}

/* etm_ctx_image_fn: the image of the process whose pid is @ctxid. */
static const struct etm_image *pctx_image(void *arg, uint32_t ctxid)
{
	struct cap_pctx *t = arg;
	struct cap_pid key = { ctxid, NULL }, *hit;
	size_t k;

	hit = bsearch(&key, t->p, t->n, sizeof(*t->p), pctx_cmp);
	if (hit)
		return hit->img;
	for (k = 0; k < t->nnoted && t->noted[k] != ctxid; k++)
		;
	if (k == t->nnoted && t->nnoted < PCTX_NOTED_MAX) {
		t->noted[t->nnoted++] = ctxid;
		cap_note(t->cap, "no image for pid %u (Context ID %#x): no "
				 "executable mapping recorded; its trace decodes "
				 "to gaps%s",
			 ctxid, ctxid,
			 t->nnoted == PCTX_NOTED_MAX ? " (further pids not named)" :
						       "");
	}
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

/* The image of @pid, of the generation of its first mapping @m. */
static int pf_ctx_add(struct cap_ctx *c, struct pf *pf, struct cap_pctx *t,
		      const struct pf_map *m)
{
	uint32_t pid = m->pid;
	size_t k;

	for (k = 0; k < t->n; k++)
		if (t->p[k].pid == pid)
			return 0;
	t->p[t->n].pid = pid;
	return pf_image(c, pf, pid, pf_gen(pf, pid, m->ord), &t->p[t->n++].img);
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
	free(cap->pctx);
	cap->pctx = NULL;
}
