/* run/defer.c - a chunk's head consumed once (run/runner.h): the worker of
 * a chunk keeps the elements of its head raw, a piece per checkpoint; the
 * predecessor's worker, once its decoder has converged with one of those
 * checkpoints, consumes the raw pieces after it in their place and drops
 * the ones before. Only the input up to the convergence is then decoded
 * twice, and none of the output is formatted twice (with text output,
 * formatting costs several times the decode). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/grow.h"
#include "run/runner.h"

/* Keep a head raw until chunks converge, then when they converged on
 * average at least this far into it (a quarter): then the output
 * formatted twice otherwise costs more than copying the elements (text
 * output of dense synthetic trace, 4 elements of 128 bytes per input byte
 * converging within 1 KiB of a 12 KiB head, took 3.5% more instructions
 * kept raw; TC2's five sources converge 21 KiB into 64 KiB heads on
 * average). */
#define DEFER_SHARE 4

int etm_run_defer_pays(const struct prun *r, const struct pchunk *c)
{
	return r->batch && c->start &&
	       (!r->nconv || r->head_redundant / r->nconv * DEFER_SHARE >=
				     c->head_end - c->start);
}

size_t etm_run_defer_max(const struct prun *r)
{
	size_t m = r->chunk_limit / 4;

	if (m > PAR_RAW_HEAD)
		m = PAR_RAW_HEAD;
	if (!r->nconv && m > PAR_RAW_BLIND)
		m = PAR_RAW_BLIND;
	return m;
}

/* Pieces of output in order, and the bytes they hold. */
struct plist {
	struct ppiece *h, *t;
	size_t bytes;
};

int etm_run_defer_add(struct pwork *w, const struct etm_elem *els, size_t n)
{
	struct etm_elem *x = etm_grow(w->raw, &w->rawcap, w->nraw + n,
				      sizeof(*x), 1024);

	if (!x)
		return -etme_nomem;
	w->raw = x;
	memcpy(w->raw + w->nraw, els, n * sizeof(*els));
	w->nraw += n;
	return 0;
}

struct etm_elem *etm_run_spare_take(struct pwork *w, size_t *cap)
{
	unsigned i, best = 0;
	struct etm_elem *x;

	if (!w->nspare)
		return malloc(*cap * sizeof(*x));
	for (i = 1; i < w->nspare; i++)
		if (w->spare_cap[i] > w->spare_cap[best])
			best = i;
	x = w->spare[best];
	*cap = w->spare_cap[best];
	w->spare_elems -= *cap;
	w->nspare--;
	w->spare[best] = w->spare[w->nspare];
	w->spare_cap[best] = w->spare_cap[w->nspare];
	return x;
}

void etm_run_spare_put(struct pwork *w, struct etm_elem *x, size_t cap)
{
	if (!x)
		return;
	if (w->nspare == PAR_RAW_SPARE ||
	    cap > PAR_RAW_HEAD / sizeof(*x) - w->spare_elems) {
		free(x);
		return;
	}
	w->spare[w->nspare] = x;
	w->spare_cap[w->nspare++] = cap;
	w->spare_elems += cap;
}

void etm_run_defer_free(struct pwork *w)
{
	while (w->nspare)
		free(w->spare[--w->nspare]);
	w->spare_elems = 0;
}

int etm_run_defer_flush(struct pwork *w)
{
	struct prun *r = w->r;
	struct ppiece *n;
	struct etm_elem *raw = w->raw;

	if (!w->nraw)
		return 0;
	n = calloc(1, sizeof(*n));
	if (!n) {
		etm_run_fail_locked(r, -etme_nomem);
		return -1;
	}
	/* the buffer goes with the piece; the next one as large */
	n->raw = raw;
	n->nraw = w->nraw;
	n->end = w->piece_end;
	n->rawcap = w->rawcap;
	n->bytes = sizeof(*n) + w->rawcap * sizeof(*raw);
	w->raw_bytes += w->nraw * sizeof(*raw);
	w->nraw = 0;
	w->raw = etm_run_spare_take(w, &w->rawcap);
	if (!w->raw)
		w->rawcap = 0;
	pthread_mutex_lock(&r->mu);
	if (r->stop || w->out->vd) {
		pthread_mutex_unlock(&r->mu);
		free(raw);
		free(n);
		return -1;
	}
	etm_run_enqueue(r, w->out, n);
	pthread_mutex_unlock(&r->mu);
	return 0;
}

void etm_run_defer_discard(struct pwork *w)
{
	w->nraw = 0;
}

/* The consumer's output since its last cut, as a piece ending at @end,
 * to @l. Returns 0 or -1 to stop. */
static int take(struct pwork *w, uint64_t end, struct plist *l)
{
	int ret;
	struct ppiece *n = etm_run_cut(w, end, &ret);

	if (!n)
		return ret;
	if (l->t)
		l->t->next = n;
	else
		l->h = n;
	l->t = n;
	l->bytes += n->bytes;
	return 0;
}

/* Consume raw piece @rp in batches as the decoder gives them, cut where
 * the consumer asks and at its end. Returns 0 or -1 to stop. */
static int consume_raw(struct pwork *w, const struct ppiece *rp,
		       struct plist *l)
{
	size_t i = 0, k;
	int err;

	while (i < rp->nraw) {
		k = rp->nraw - i > PAR_BATCH ? PAR_BATCH : rp->nraw - i;
		err = w->r->ops->elems(w->cs, rp->raw + i, k);
		i += k;
		if (err < 0) {
			etm_run_fail_locked(w->r, err);
			return -1;
		}
		if (err > 0 && take(w, rp->end, l) < 0)
			return -1;
	}
	return take(w, rp->end, l);
}

/* Take the raw pieces leading s's queue (caller holds the lock). */
static struct ppiece *detach_raw(struct pchunk *s)
{
	struct ppiece **t, *raw, *rest;

	for (t = &s->qh; *t && !(*t)->p; t = &(*t)->next)
		s->qbytes -= (*t)->bytes;
	rest = *t;
	*t = NULL;
	raw = t == &s->qh ? NULL : s->qh;
	s->qh = rest;
	if (!rest)
		s->qt = NULL;
	return raw;
}

int etm_run_defer_consume(struct pwork *w, struct pchunk *s, uint64_t pos)
{
	struct prun *r = w->r;
	struct plist l = { 0 };
	struct ppiece *raw, *n;
	int ret = 0;

	pthread_mutex_lock(&r->mu);
	while (!r->stop && !s->vd && !s->head_done)
		etm_run_wait(w);
	if (r->stop || s->vd) {
		pthread_mutex_unlock(&r->mu);
		return -1;
	}
	raw = detach_raw(s);
	pthread_mutex_unlock(&r->mu);
	for (n = raw; n && !ret; n = n->next)
		if (n->end > pos)
			ret = consume_raw(w, n, &l);
	for (n = raw; n; n = n->next) { /* their buffers kept as spares */
		etm_run_spare_put(w, n->raw, n->rawcap);
		n->raw = NULL;
	}
	etm_run_list_free(r, raw);
	pthread_mutex_lock(&r->mu);
	if (ret < 0 || r->stop || s->vd) {
		pthread_mutex_unlock(&r->mu);
		etm_run_list_free(r, l.h);
		return -1;
	}
	if (l.h) {
		l.t->next = s->qh;
		if (!s->qh)
			s->qt = l.t;
		s->qh = l.h;
		s->qbytes += l.bytes;
	}
	r->rate_out += l.bytes;
	etm_run_notify(r, s);
	pthread_mutex_unlock(&r->mu);
	return 0;
}
