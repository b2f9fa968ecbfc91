/* cli/covctx.c - per-process coverage of a perf.data traced with Context
 * IDs (covctx.h). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/open.h>

#include "covctx.h"
#include "session.h"

int covctx_open(struct covctx *c, const struct session *s)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < COVCTX_MAX_ID; i++)
		c->cur[i] = -1;
	c->s = s;
	if (!s->cap || !etm_capture_ctx_images(s->cap, &c->fn, &c->arg))
		c->fn = NULL;
	return c->fn != NULL;
}

/* The coverage of process @pid, made at its first range with its sources
 * declared on its image. Returns its index or a negative error. */
static int covctx_proc(struct covctx *c, uint32_t pid)
{
	struct covctx_proc *np, *p;
	size_t k;
	int i;

	for (k = 0; k < c->n; k++)
		if (c->p[k].pid == pid)
			return (int)k;
	if (c->n > 1u << 20)
		return -etme_nomem;
	if (c->n == c->cap) {
		np = realloc(c->p, (c->cap ? 2 * c->cap : 8) * sizeof(*np));
		if (!np)
			return -etme_nomem;
		c->p = np;
		c->cap = c->cap ? 2 * c->cap : 8;
	}
	p = &c->p[c->n];
	p->pid = pid;
	p->img = c->fn(c->arg, pid);
	p->cov = etm_cov_alloc();
	if (!p->cov)
		return -etme_nomem;
	for (i = 0; i < c->s->nsrc; i++)
		etm_cov_set_source(p->cov, c->s->src[i].id,
				   c->s->src[i].cfg.protocol, p->img);
	return (int)c->n++;
}

/* Where element @el of its source is counted (-1: @dflt, the trace
 * before any Context ID): a range with a Context ID in its process's
 * coverage, other elements where the source's last range was. A switch
 * ends the run where the source was (a gap there: no branch or run joins
 * two processes). Returns the index, -1, or a negative error below -1. */
static int covctx_route(struct covctx *c, struct etm_cov *dflt,
			const struct etm_elem *el)
{
	struct etm_elem gap = { .kind = etmk_nosync, .id = el->id };
	int *cur = &c->cur[el->id], k = -1, r;

	if (el->kind != etmk_range)
		return *cur;
	if (el->has_ctxid && *cur >= 0 && c->p[*cur].pid == el->ctxid)
		return *cur;
	if (el->has_ctxid)
		k = covctx_proc(c, el->ctxid);
	if (k < -1)
		return k;
	if (k != *cur) {
		r = etm_cov_add_elems(*cur >= 0 ? c->p[*cur].cov : dflt, &gap, 1);
		if (r < 0)
			return r < -1 ? r : -etme_nomem;
	}
	return *cur = k;
}

int covctx_elems(struct covctx *c, struct etm_cov *dflt,
		 const struct etm_elem *els, size_t n)
{
	size_t i;
	int r = 0;

	for (i = 0; i < n && r >= 0; i++) {
		int k = els[i].id < COVCTX_MAX_ID ? covctx_route(c, dflt, &els[i]) : -1;

		if (k < -1)
			return k;
		r = etm_cov_add_elems(k >= 0 ? c->p[k].cov : dflt, &els[i], 1);
	}
	return r;
}

int covctx_end(struct covctx *c)
{
	size_t k;
	int r = 0;

	for (k = 0; k < c->n && r >= 0; k++)
		r = etm_cov_end(c->p[k].cov);
	return r;
}

int covctx_merge(const struct covctx *c, struct etm_cov *dst)
{
	size_t k;
	int r = 0;

	for (k = 0; k < c->n && r >= 0; k++)
		r = etm_cov_merge(dst, c->p[k].cov);
	return r;
}

void covctx_close(struct covctx *c)
{
	size_t k;

	for (k = 0; k < c->n; k++)
		etm_cov_free(c->p[k].cov);
	free(c->p);
	c->p = NULL;
	c->n = c->cap = 0;
	c->fn = NULL;
}
