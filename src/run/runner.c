/* run/runner.c - etm_decoder_run_ops() and the calling thread's part of a
 * parallel decode: whole-input decode on the calling thread (run/seq.c),
 * or cut at sync points over worker threads (run/worker.c) with
 * convergence checks so that the output is identical to a
 * single-threaded decode. Items are consumed on the worker that decoded
 * them, into opaque pieces of output; the calling thread receives the
 * pieces in input order, without those a chunk produced before it
 * converged. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/pagebuf.h"
#include "common/sbuf.h"
#include "decoder/clone.h"
#include "run/cut.h"
#include "run/runner.h"

void etm_run_notify(struct prun *r, const struct pchunk *c)
{
	pthread_cond_broadcast(&r->cv);
	if (!c || c == r->head)
		pthread_cond_signal(&r->cv_caller);
}

void etm_run_set_head(struct prun *r, struct pchunk *c)
{
	r->head = c;
	if (c) /* its worker may deliver: drain() looks without the lock */
		__atomic_store_n(&c->turn, 1, __ATOMIC_RELEASE);
}

void etm_run_fail(struct prun *r, int err)
{
	if (!r->err)
		r->err = err;
	r->stop = 1;
	etm_run_notify(r, NULL);
}

void etm_run_fail_locked(struct prun *r, int err)
{
	pthread_mutex_lock(&r->mu);
	etm_run_fail(r, err);
	pthread_mutex_unlock(&r->mu);
}

void etm_run_list_free(struct prun *r, struct ppiece *n)
{
	struct ppiece *next;

	for (; n; n = next) {
		next = n->next;
		if (n->p)
			r->ops->drop(r->octx, n->p);
		free(n->raw);
		free(n);
	}
}

void etm_run_chunk_free(struct prun *r, struct pchunk *c)
{
	unsigned i;

	etm_run_list_free(r, c->qh);
	for (i = 0; i < c->nck; i++)
		free(c->ck[i].state);
	free(c->ck);
	free(c);
}

static void chunk_remove(struct prun *r, struct pchunk *c)
{
	etm_run_set_head(r, c->next);
	if (!r->head)
		r->tail = NULL;
	if (!c->claimed)
		r->nlive--;
	etm_run_chunk_free(r, c);
	pthread_cond_broadcast(&r->cv);
}

int etm_run_deliver_step(struct prun *r, int done_only, uint64_t *bytes)
{
	struct pchunk *c = r->head;
	struct ppiece *n;
	size_t used;
	int ret, eos;

	if (r->stop)
		return -1;
	if (!c || r->live || r->emitting)
		return 0;
	if (c->vd && (!c->taken || c->finished)) {
		chunk_remove(r, c);
		return 1;
	}
	if (c->vd || (!c->finished && (done_only || r->ops->live)))
		return 0; /* with ops->live its worker delivers it */
	if (c->qh && !c->qh->p) {
		/* raw: its predecessor's worker consumes them first */
		etm_run_fail(r, -etme_internal);
		return -1;
	}
	if (c->qh) {
		n = c->qh;
		c->qh = n->next;
		if (!c->qh)
			c->qt = NULL;
		c->qbytes -= n->bytes;
		r->emitting = 1; /* no one else delivers meanwhile */
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		ret = 0;
		used = n->end > c->skip_to ? n->bytes : 0;
		/* else before the convergence */
		if (used)
			ret = r->ops->emit(r->octx, n->p);
		else
			r->ops->drop(r->octx, n->p);
		free(n);
		pthread_mutex_lock(&r->mu);
		r->emitting = 0;
		*bytes += used;
		pthread_cond_broadcast(&r->cv);
		if (ret < 0)
			etm_run_fail(r, ret);
		return 1;
	}
	if (!c->done)
		return 0;
	eos = c->at_eos;
	r->npackets += c->pk_end - c->pk_skip;
	chunk_remove(r, c);
	if (eos) { /* all delivered */
		r->stop = 1;
		etm_run_notify(r, NULL);
		return -1;
	}
	return 1;
}

/* The calling thread: pieces of the chunks in input order, those that no
 * worker delivers (run/live.c). */
static void consume(struct prun *r)
{
	int s;
	double t;

	pthread_mutex_lock(&r->mu);
	while ((s = etm_run_deliver_step(r, 0, &r->emit_caller)) >= 0) {
		if (s)
			continue;
		t = etm_run_now();
		pthread_cond_wait(&r->cv_caller, &r->mu);
		r->caller_wait += etm_run_now() - t;
	}
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

double etm_run_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

double etm_run_cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void run_free(struct prun *r, struct pwork *w, unsigned nw)
{
	unsigned i;

	while (r->head)
		chunk_remove(r, r->head);
	for (i = 0; w && i < nw; i++) {
		etm_run_defer_free(&w[i]);
		etm_run_work_free(&w[i]);
	}
	free(w);
}

/* The figures of a parallel run on the @nth workers @w. */
static void run_stats(const struct prun *r, const struct pwork *w,
		      unsigned nth, double t0, double t1,
		      struct etm_run_stats *st)
{
	unsigned i;

	st->threads = nth;
	st->wall = t1 - t0;
	st->plan = r->plan;
	st->head_redundant = r->head_redundant;
	st->converge_max = r->conv_max;
	st->chunks = r->nchunks;
	st->chunks_void = r->nvoid;
	st->chunks_claimed = r->nclaimed;
	st->emit_caller = r->emit_caller;
	for (i = 0; i < nth; i++) {
		struct etm_run_thread t = w[i].st;

		t.idle_end = t1 > w[i].t_end ? t1 - w[i].t_end : 0;
		st->worker_cpu += t.cpu;
		st->worker_wait += t.wait;
		st->worker_idle_end += t.idle_end;
		st->decoded += t.decoded;
		st->emit_live += w[i].emitted;
		if (st->thread && i < st->threads_cap)
			st->thread[i] = t;
	}
}

/* Decode on r->jobs worker threads; the calling thread delivers. */
static int run_parallel(struct prun *r, struct etm_decoder *d,
			struct etm_run_stats *st)
{
	double t0 = etm_run_now(), c0 = etm_run_cpu(), t1;
	struct pwork *w = calloc(r->jobs, sizeof(*w));
	pthread_t *th = calloc(r->jobs, sizeof(*th));
	unsigned i, nth = 0;

	if (!w || !th) {
		free(w);
		free(th);
		return -etme_nomem;
	}
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	pthread_cond_init(&r->cv_caller, NULL);
	for (i = 0; i < r->jobs; i++) {
		w[i].r = r;
		w[i].buf = etm_skewed_alloc(PAR_READ > ETM_CUT_SEARCH ? PAR_READ :
									ETM_CUT_SEARCH);
		w[i].sb = malloc(sizeof(*w[i].sb));
		if (!w[i].buf || !w[i].sb ||
		    pthread_create(&th[i], NULL, etm_run_worker, &w[i]) != 0) {
			etm_run_fail_locked(r, -etme_nomem);
			break;
		}
		nth++;
	}
	consume(r);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	t1 = etm_run_now();
	if (st) {
		run_stats(r, w, nth, t0, t1, st);
		st->caller_cpu = etm_run_cpu() - c0;
		st->caller_wait = r->caller_wait;
	}
	run_free(r, w, r->jobs);
	etm_decoder_set_packet_count(d, r->npackets);
	free(th);
	pthread_cond_destroy(&r->cv_caller);
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
	return r->err;
}

int etm_run_decode(struct etm_decoder *d, etm_read_fn rd, void *rctx,
		   uint64_t size, unsigned jobs, const struct etm_run_ops *ops,
		   void *octx, etm_item_fn fn, void *fctx,
		   struct etm_run_stats *st)
{
	struct prun r;
	double t0, c0;
	int ret;

	if (st) {
		struct etm_run_thread *th = st->thread;
		unsigned cap = st->threads_cap;

		memset(st, 0, sizeof(*st));
		st->thread = th;
		st->threads_cap = cap;
		st->bytes = size;
	}
	memset(&r, 0, sizeof(r));
	r.tmpl = d;
	r.tmpl_w = d;
	r.rd = rd;
	r.rctx = rctx;
	r.ops = ops;
	r.octx = octx;
	r.size = size;
	r.frames = etm_decoder_format(d) == etm_fmt_coresight;
	r.cut_align = etm_decoder_cut_align(d);
	r.batch = ops && ops->elems && etm_decoder_elems_ok(d);
	if (jobs > 1 && etm_decoder_format(d) != etm_fmt_tpiu &&
	    !etm_decoder_serial(d) &&
	    etm_decoder_format(d) != etm_fmt_tpiu_nofsync &&
	    size > PAR_MIN_INPUT && etm_run_can_cut(&r)) {
		r.jobs = jobs;
		/* the head chunk's queue is drained as it fills: about one
		 * queue per job is full at a time */
		r.chunk_limit = (ops->budget ? ops->budget : PAR_BUDGET) / jobs;
		return run_parallel(&r, d, st);
	}
	if (fn) {
		r.ops = NULL; /* items straight to the callback */
		r.batch = 0;
	}
	t0 = etm_run_now();
	c0 = etm_run_cpu();
	ret = etm_run_seq(&r, fn, fctx);
	if (st) {
		st->wall = etm_run_now() - t0;
		st->caller_cpu = etm_run_cpu() - c0;
		st->decoded = size;
	}
	return ret;
}

static int run_ops_check(const struct etm_decoder *d, etm_read_fn rd,
			 const struct etm_run_ops *ops)
{
	return d && rd && ops && ops->open && ops->item && ops->cut &&
	       ops->emit && ops->drop && ops->close;
}

int etm_decoder_run_ops(struct etm_decoder *d, etm_read_fn rd, void *rctx,
			uint64_t size, unsigned jobs,
			const struct etm_run_ops *ops, void *ctx)
{
	if (!run_ops_check(d, rd, ops))
		return -etme_invalid;
	return etm_run_decode(d, rd, rctx, size, jobs, ops, ctx, NULL, NULL,
			      NULL);
}

int etm_decoder_run_ops_stats(struct etm_decoder *d, etm_read_fn rd,
			      void *rctx, uint64_t size, unsigned jobs,
			      const struct etm_run_ops *ops, void *ctx,
			      struct etm_run_stats *st)
{
	if (!run_ops_check(d, rd, ops))
		return -etme_invalid;
	return etm_run_decode(d, rd, rctx, size, jobs, ops, ctx, NULL, NULL,
			      st);
}
