/* run/worker.c - a worker thread of the parallel runner: decodes a chunk
 * (after its head, whose states it records as checkpoints), then runs on
 * into the following chunks until its decoder's state equals one of their
 * checkpoints (converged) or the input ends; its items are consumed into
 * pieces of output queued on its chunk. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/pagebuf.h"
#include "common/sbuf.h"
#include "decoder/clone.h"
#include "run/cut.h"
#include "common/grow.h"
#include "run/runner.h"

void etm_run_wait(struct pwork *w)
{
	double t = etm_run_now();

	pthread_cond_wait(&w->r->cv, &w->r->mu);
	w->st.wait += etm_run_now() - t;
}

/* Throw away the consumer's output since its last cut. */
static void discard(struct pwork *w)
{
	void *p = NULL;
	size_t bytes = 0;

	if (w->cs && w->r->ops->cut(w->cs, &p, &bytes) == 0 && p)
		w->r->ops->drop(w->r->octx, p);
	etm_run_defer_discard(w);
}

void etm_run_enqueue(struct prun *r, struct pchunk *c, struct ppiece *n)
{
	n->next = NULL;
	if (c->qt)
		c->qt->next = n;
	else
		c->qh = n;
	c->qt = n;
	c->qbytes += n->bytes;
	etm_run_notify(r, c);
}

/* Queue the consumer's output since its last cut on the output chunk,
 * waiting for room unless in the head phase (a head's output is bounded
 * and the predecessor may be waiting for its checkpoints). Returns 0, or
 * -1 to stop (run stopped or the output chunk went void). */
struct ppiece *etm_run_cut(struct pwork *w, uint64_t end, int *ret)
{
	struct prun *r = w->r;
	struct ppiece *n;
	void *p = NULL;
	size_t bytes = 0;
	int err = r->ops->cut(w->cs, &p, &bytes);

	*ret = 0;
	if (err < 0) {
		etm_run_fail_locked(r, err);
		*ret = -1;
		return NULL;
	}
	if (!p)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n) {
		r->ops->drop(r->octx, p);
		etm_run_fail_locked(r, -etme_nomem);
		*ret = -1;
		return NULL;
	}
	n->p = p;
	n->bytes = bytes + sizeof(*n);
	n->end = end;
	return n;
}

/* Queue the consumer's output since its last cut on the output chunk
 * (@last: the last cut of the worker's stretch), or emit it here if the
 * worker delivers (run/live.c), waiting for room unless in the head phase
 * (a head's output is bounded and the predecessor may be waiting for its
 * checkpoints) or it may deliver. Returns 0, or -1 to stop (run stopped
 * or the output chunk went void). */
static int flush_piece(struct pwork *w, int last)
{
	struct prun *r = w->r;
	struct pchunk *c = w->out;
	struct ppiece *n;
	int ret, lv;

	n = etm_run_cut(w, w->piece_end, &ret);
	for (;;) {
		lv = n || w->live ? etm_run_live_cut(w, n, last) : 0;
		if (lv)
			return lv < 0 ? -1 : 0;
		if (!n)
			return ret;
		pthread_mutex_lock(&r->mu);
		while (!r->stop && !c->vd && !etm_run_may_deliver(w) &&
		       ((!w->head && c->qbytes >= r->chunk_limit) ||
			(etm_run_live_due(w) && r->emitting)))
			etm_run_wait(w);
		if (r->stop || c->vd) {
			pthread_mutex_unlock(&r->mu);
			r->ops->drop(r->octx, n->p);
			free(n);
			return -1;
		}
		if (!etm_run_may_deliver(w))
			break;
		pthread_mutex_unlock(&r->mu);
	}
	etm_run_enqueue(r, c, n);
	w->out_bytes += n->bytes;
	pthread_mutex_unlock(&r->mu);
	return 0;
}

/* Drain the decoder into the consumer item by item. Returns 0 or -1 to
 * stop. */
static int drain_items(struct pwork *w)
{
	struct etm_item it;
	int n, err;

	for (;;) {
		n = etm_decoder_next(w->d, &it, sizeof(it));
		if (n == -etme_again || n == -etme_eos)
			return 0;
		if (n < 0) {
			etm_run_fail_locked(w->r, n);
			return -1;
		}
		err = w->r->ops->item(w->cs, &it);
		if (err < 0) {
			etm_run_fail_locked(w->r, err);
			return -1;
		}
		/* cut where the consumer asks, and to start delivering */
		if ((err > 0 || etm_run_live_due(w)) && flush_piece(w, 0) < 0)
			return -1;
	}
}

/* The turn flag of w's output chunk if the worker is to watch it (it may
 * start delivering when the flag is set: etm_run_live_due()), else NULL.
 * Only the worker itself changes what this depends on (w->live, w->rawp,
 * w->out), so it holds until its next cut. */
static const int *live_watch(const struct pwork *w)
{
	return w->r->ops->live && !w->live && !w->rawp ? &w->out->turn : NULL;
}

/* Drain the decoder into the consumer (elements in batches where
 * r->batch; in the head phase perhaps kept raw, run/defer.c). Returns 0
 * or -1 to stop. The loop runs per batch of a few elements (TC2's five
 * interleaved sources: about two; ITM: one), so what it reads is held in
 * locals: per batch, beyond the decoder and the consumer, one load of
 * the chunk's turn flag, and none while the worker delivers. */
static int drain(struct pwork *w)
{
	const struct etm_elem *els = NULL;
	struct etm_decoder *d = w->d;
	int (*elems)(void *, const struct etm_elem *, size_t);
	int raw = w->head && w->rawp, n, err;
	void *cs = w->cs;
	const int *turn = live_watch(w);

	if (!w->r->batch)
		return drain_items(w);
	elems = w->r->ops->elems;
	for (;;) {
		n = etm_decoder_next_elems(d, &els, PAR_BATCH);
		if (n < 0) {
			if (n == -etme_again || n == -etme_eos)
				return 0;
			etm_run_fail_locked(w->r, n);
			return -1;
		}
		err = raw ? etm_run_defer_add(w, els, (size_t)n) :
			    elems(cs, els, (size_t)n);
		/* cut where the consumer asks, and to start delivering */
		if (!err && (!turn || !__atomic_load_n(turn, __ATOMIC_ACQUIRE) ||
			     !etm_run_live_due(w)))
			continue;
		if (err < 0) {
			etm_run_fail_locked(w->r, err);
			return -1;
		}
		if (flush_piece(w, 0) < 0)
			return -1;
		turn = live_watch(w);
	}
}

/* A frame starting with 0xFF may be an FSYNC (run/cut.h): the decoder's
 * deformatter tells whether it met one since the chunk start (it hands
 * them to its byte path), so the input is not scanned for them. Asked
 * where states are compared (a checkpoint, a convergence test), after the
 * decoder took all the input pushed. */
static void check_frames(struct pwork *w)
{
	if (w->r->frames && !w->dirty && !etm_decoder_frames_fast(w->d))
		w->dirty = 1;
}

/* Decode [*pos, to). Returns 0 or -1 to stop. */
static int feed(struct pwork *w, uint64_t *pos, uint64_t to)
{
	while (*pos < to) {
		size_t n = to - *pos > PAR_READ ? PAR_READ : (size_t)(to - *pos);
		size_t got = w->r->rd(w->r->rctx, *pos, w->buf, n);

		if (got != n) {
			etm_run_fail_locked(w->r, -etme_io);
			return -1;
		}
		w->st.decoded += n;
		etm_decoder_push(w->d, w->buf, n);
		*pos += n;
		if (drain(w) < 0)
			return -1;
	}
	return 0;
}

/* End of input: release what the decoders keep back. */
static int feed_end(struct pwork *w)
{
	etm_decoder_finish(w->d);
	return drain(w);
}

/* The checkpoint of chunk s after @pos (run/cut.h). */
static uint64_t next_piece(const struct pchunk *s, uint64_t pos)
{
	return etm_cut_next_piece(s->start, s->head_end, pos);
}

/* Record the state at @pos as a checkpoint of the worker's own chunk. */
static void checkpoint(struct pwork *w, uint64_t pos)
{
	struct pchunk *c = w->out;
	struct pckpt *k;
	uint8_t *st;

	check_frames(w);
	etm_sbuf_reset(w->sb);
	etm_decoder_save(w->d, w->sb);
	if (w->sb->over)
		return; /* cannot be compared: no checkpoint */
	st = malloc(w->sb->len);
	if (!st)
		return;
	memcpy(st, w->sb->b, w->sb->len);
	pthread_mutex_lock(&w->r->mu);
	k = etm_grow(c->ck, &c->ckcap, c->nck + 1, sizeof(*k), 16);
	if (!k) {
		pthread_mutex_unlock(&w->r->mu);
		free(st);
		return;
	}
	c->ck = k;
	k = &c->ck[c->nck++];
	k->pos = pos;
	k->npackets = etm_decoder_packet_count(w->d);
	k->plain = !w->dirty;
	k->len = w->sb->len;
	k->state = st;
	pthread_cond_broadcast(&w->r->cv);
	pthread_mutex_unlock(&w->r->mu);
}

/* Head phase of chunk c: decode up to head_end with a checkpoint at every
 * piece boundary, cutting the output there: when the predecessor's
 * decoder converges with one of these checkpoints, it stops there and the
 * pieces before it are dropped (so no item is delivered twice, and only
 * the input up to the convergence is decoded twice). */
static int run_head(struct pwork *w, struct pchunk *c, uint64_t *pos)
{
	size_t raw_max = c->raw_max;
	unsigned i;
	int ret = 0;

	w->head = 1;
	w->raw_bytes = 0;
	while (*pos < c->head_end && !ret) {
		w->piece_end = next_piece(c, *pos);
		w->rawp = c->defer && w->raw_bytes < raw_max;
		ret = feed(w, pos, w->piece_end);
		if (!ret)
			ret = w->rawp ? etm_run_defer_flush(w) : flush_piece(w, 0);
		if (!ret)
			checkpoint(w, *pos);
	}
	w->head = w->rawp = 0;
	w->piece_end = UINT64_MAX;
	pthread_mutex_lock(&w->r->mu);
	c->head_done = 1;
	for (i = 0; i < c->nck && !c->ck[i].plain; i++)
		;
	if (i == c->nck && !ret) {
		/* nothing to converge with: the predecessor decodes it all */
		c->vd = 1;
		w->r->nvoid++;
		ret = -1;
	}
	etm_run_notify(w->r, c);
	pthread_mutex_unlock(&w->r->mu);
	return ret;
}

/* Wait for chunk s's checkpoint at @pos; NULL if there is none (s void,
 * its head ended before, our own chunk @c went void, or the run stopped).
 * Caller holds the lock. */
static const struct pckpt *wait_ckpt(struct pwork *w, struct pchunk *c,
				     struct pchunk *s, uint64_t pos)
{
	unsigned i = 0;

	for (;;) {
		for (; i < s->nck; i++) {
			if (s->ck[i].pos == pos)
				return &s->ck[i];
			if (s->ck[i].pos > pos)
				return NULL;
		}
		if (w->r->stop || s->vd || s->head_done || c->vd)
			return NULL;
		etm_run_wait(w);
	}
}

/* Run on into successor s up to its head end, comparing states at its
 * checkpoints. Returns 1 if converged (at *@pos: s's output from there on
 * is used), 0 if not, -1 to stop. */
static int try_converge(struct pwork *w, struct pchunk *s, uint64_t *pos)
{
	struct prun *r = w->r;
	const struct pckpt *k;
	int eq = 0, stop;

	while (*pos < s->head_end) {
		if (feed(w, pos, next_piece(s, *pos)) < 0)
			return -1;
		check_frames(w);
		etm_sbuf_reset(w->sb);
		etm_decoder_save(w->d, w->sb);
		pthread_mutex_lock(&r->mu);
		k = wait_ckpt(w, w->out, s, *pos);
		eq = k && k->plain && !w->dirty && !w->sb->over &&
		     k->len == w->sb->len && !memcmp(k->state, w->sb->b, k->len);
		stop = r->stop || w->out->vd;
		if (eq && !stop) {
			/* the same state: the same items from here on */
			s->skip_to = *pos;
			s->pk_skip = k->npackets;
			r->head_redundant += *pos - s->start;
			etm_run_converged(r, *pos - s->start);
		}
		pthread_mutex_unlock(&r->mu);
		if (stop)
			return -1;
		if (eq)
			return 1;
	}
	return 0;
}

/* Chunk c's worker is done with it (@ret < 0: failed or void; @eos: its
 * output ends the decode; @pos: where its decoder stopped). */
static void finish_chunk(struct pwork *w, struct pchunk *c, int ret, int eos,
			 uint64_t pos)
{
	struct prun *r = w->r;

	if (ret < 0)
		discard(w);
	etm_run_live_end(w);
	pthread_mutex_lock(&r->mu);
	if (!w->d)
		etm_run_fail(r, -etme_nomem);
	if (ret >= 0) {
		c->done = 1;
		c->at_eos = eos;
		c->pk_end = etm_decoder_packet_count(w->d);
		r->rate_bytes += pos - c->start;
		r->rate_out += w->out_bytes + 1;
	}
	c->finished = 1;
	if (r->ops->live && !r->stop) /* this worker delivers it next */
		pthread_cond_broadcast(&r->cv);
	else
		etm_run_notify(r, c);
	pthread_mutex_unlock(&r->mu);
}

/* Decode chunk c, then run on into the following chunks until converged
 * with one of them or at the end of input. */
static void work_chunk(struct pwork *w, struct pchunk *c)
{
	struct prun *r = w->r;
	struct pchunk *s = c;
	uint64_t pos = c->start;
	int ret = 0, eos = 0, claim, conv = 0;

	w->out = c;
	w->out_bytes = 0;
	w->piece_end = UINT64_MAX;
	w->st.chunks++;
	w->dirty = 0;
	/* the worker's decoder is reused (warm block caches) except for the
	 * first chunk, whose output is used as is and must start fresh */
	if (w->d && c->start)
		etm_decoder_restart(w->d, c->start);
	else {
		etm_decoder_free(w->d);
		w->d = etm_decoder_clone(r->tmpl, c->start);
	}
	if (!w->d)
		ret = -1;
	if (!ret && c->start)
		ret = run_head(w, c, &pos);
	if (!ret)
		ret = feed(w, &pos, c->end);
	while (!ret) {
		if (s->end >= r->size) {
			ret = feed_end(w);
			eos = 1;
			break;
		}
		pthread_mutex_lock(&r->mu);
		if (!s->next && !etm_run_chunk_create(r, w->buf))
			etm_run_fail(r, -etme_nomem);
		s = s->next;
		claim = s && !s->taken;
		if (claim) {
			/* no worker on it yet: simply decode on into it
			 * rather than wait for its checkpoints */
			s->taken = s->vd = s->finished = 1;
			s->claimed = 1;
			r->nclaimed++;
			r->nlive--; /* not a chunk of its own any more */
			etm_run_notify(r, s);
		}
		pthread_mutex_unlock(&r->mu);
		if (!s)
			ret = -1;
		else if (claim)
			ret = 0;
		else
			ret = try_converge(w, s, &pos);
		conv = ret == 1;
		if (ret)
			break;
		/* not converged in s's head: s is decoded here instead */
		pthread_mutex_lock(&r->mu);
		r->nvoid += !s->vd;
		s->vd = 1;
		etm_run_notify(r, s);
		pthread_mutex_unlock(&r->mu);
		ret = feed(w, &pos, s->end);
	}
	if (ret >= 0)
		ret = flush_piece(w, 1);
	if (ret >= 0 && conv && s->defer) /* s's head after the convergence */
		ret = etm_run_defer_consume(w, s, pos);
	finish_chunk(w, c, ret, eos, pos);
}

void etm_run_work_free(struct pwork *w)
{
	etm_decoder_free(w->d);
	etm_skewed_free(w->buf);
	free(w->sb);
	free(w->raw);
	w->d = NULL;
	w->buf = NULL;
	w->sb = NULL;
	w->raw = NULL;
}

void *etm_run_worker(void *arg)
{
	struct pwork *w = arg;
	struct prun *r = w->r;
	struct pchunk *c;
	int ret;

	w->cs = r->ops->open(r->octx);
	pthread_mutex_lock(&r->mu);
	if (!w->cs)
		etm_run_fail(r, -etme_nomem);
	while (!r->stop) {
		for (c = r->head; c && (c->taken || c->vd); c = c->next)
			;
		if (!c && r->next_start < r->size && r->nlive <= r->jobs) {
			c = etm_run_chunk_create(r, w->buf);
			if (!c)
				etm_run_fail(r, -etme_nomem);
		}
		if (c) {
			c->taken = 1;
			c->defer = etm_run_defer_pays(r, c);
			c->raw_max = etm_run_defer_max(r);
			pthread_mutex_unlock(&r->mu);
			work_chunk(w, c);
			pthread_mutex_lock(&r->mu);
			/* deliver the chunks finished ahead of their turn that
			 * are next now, rather than wake the calling thread */
			while ((ret = etm_run_deliver_step(r, 1, &w->emitted)) > 0)
				;
			if (!ret) /* the rest is the calling thread's */
				pthread_cond_signal(&r->cv_caller);
			continue;
		}
		if (r->next_start >= r->size)
			break;
		etm_run_wait(w);
	}
	pthread_mutex_unlock(&r->mu);
	if (w->cs)
		r->ops->close(w->cs);
	w->cs = NULL;
	/* its decoder and buffers freed here, by the workers at once, not
	 * one after the other by the calling thread after the join (its
	 * serial share; run_free() frees those of a worker that never ran) */
	etm_run_work_free(w);
	w->st.cpu = etm_run_cpu();
	w->t_end = etm_run_now();
	return NULL;
}
