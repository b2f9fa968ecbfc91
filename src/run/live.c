/* run/live.c - ordered delivery by a worker (run/runner.h): the worker
 * whose chunk is next in input order emits the chunk's queued pieces and
 * its own pieces itself, and its consumer, told that it is live
 * (etm_run_ops.live), writes its output straight out. With text output of
 * dense trace (50-1100 bytes of text per input byte) the text of the chunk
 * being delivered is then written from the formatter's hot buffer, as with
 * one job, instead of going to memory blocks that the calling thread
 * writes later; only the chunks ahead of it keep their output in pieces. */
#include <pthread.h>
#include <stdlib.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "run/runner.h"

/* Whether w may deliver its chunk's output: the chunk is the first in
 * order (so its predecessor converged with it and is delivered), the
 * worker's output from here on is past that convergence (a head's pieces
 * before it are dropped) and not kept raw, and no one else is emitting. */
int etm_run_may_deliver(const struct pwork *w)
{
	const struct prun *r = w->r;
	const struct pchunk *c = w->out;

	return r->ops->live && c == r->head && !c->vd && !w->rawp &&
	       (!w->head || w->piece_end > c->skip_to) && !r->emitting &&
	       !r->live && !r->stop;
}

/* Emit piece @n (or drop it: output before @skip, where the predecessor's
 * decoder converged) and free it. Returns 0 or a negative error. */
static int emit_one(struct pwork *w, struct ppiece *n, uint64_t skip)
{
	struct prun *r = w->r;
	int ret = 0;

	if (!n->p) /* raw: the predecessor's worker consumed them first */
		ret = -etme_internal;
	else if (n->end <= skip)
		r->ops->drop(r->octx, n->p);
	else {
		ret = r->ops->emit(r->octx, n->p);
		w->emitted += n->bytes;
	}
	free(n->raw);
	free(n);
	return ret;
}

int etm_run_live_cut(struct pwork *w, struct ppiece *n, int last)
{
	struct prun *r = w->r;
	struct pchunk *c = w->out;
	struct ppiece *q = NULL, *next;
	uint64_t skip;
	int ret = 0;

	pthread_mutex_lock(&r->mu);
	if (!w->live && !etm_run_may_deliver(w)) {
		pthread_mutex_unlock(&r->mu);
		return 0;
	}
	if (!w->live) {
		r->live = w;
		w->live = 1;
		q = c->qh; /* queued before @n: out first */
		c->qh = c->qt = NULL;
		c->qbytes = 0;
	}
	skip = c->skip_to;
	pthread_mutex_unlock(&r->mu);
	for (; q && ret >= 0; q = next) {
		next = q->next;
		ret = emit_one(w, q, skip);
	}
	etm_run_list_free(r, q);
	if (n)
		w->out_bytes += n->bytes; /* chunk lengths follow it */
	if (n && ret >= 0)
		ret = emit_one(w, n, skip);
	else if (n)
		etm_run_list_free(r, n);
	if (ret >= 0 && !last && !w->cs_live) {
		ret = r->ops->live(w->cs, 1);
		w->cs_live = ret >= 0;
	}
	if (ret < 0) {
		etm_run_fail_locked(r, ret);
		return -1;
	}
	if (last)
		etm_run_live_end(w);
	return 1;
}

void etm_run_live_end(struct pwork *w)
{
	struct prun *r = w->r;

	if (!w->live)
		return;
	if (w->cs_live)
		r->ops->live(w->cs, 0);
	w->cs_live = w->live = 0;
	pthread_mutex_lock(&r->mu);
	r->live = NULL;
	/* (the calling thread is told once the chunk is finished, by
	 * etm_run_worker() after it delivered what it could) */
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}
