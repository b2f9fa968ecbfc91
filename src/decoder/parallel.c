/* decoder/parallel.c - etm_decoder_run() and etm_decoder_run_ops():
 * whole-input decode on the calling thread, or cut at sync points over
 * worker threads with convergence checks so that the output is identical
 * to a single-threaded decode. Items are consumed on the worker that
 * decoded them, into opaque pieces of output (run_ops: e.g. formatted
 * text; run: blocks of items); the calling thread receives the pieces in
 * input order, without those a chunk produced before it converged. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/sbuf.h"
#include "decoder/cut.h"
#include "decoder/decoder_int.h"

#define PAR_READ (256u << 10)      /* bytes read and pushed at once */
#define PAR_BATCH 256u             /* most elements per ops->elems call */
#define PAR_BLOCK 1024u            /* items per block (etm_decoder_run) */
#define PAR_BUDGET (40u << 20)     /* default: pieces buffered over all chunks */
#define PAR_MIN_INPUT (128u << 10) /* smaller input: one thread */
#define PAR_MIN_CHUNK (16u << 10)
#define PAR_MAX_CHUNK (32u << 20)
#define PAR_FIRST_CHUNK (256u << 10)

/* A queued piece of consumer output. */
struct ppiece {
	struct ppiece *next;
	void *p;
	size_t bytes;
};

/* A chunk decoder's state at input offset pos. */
struct pckpt {
	uint64_t pos, npackets;
	int plain; /* frames since the chunk start are plain */
	size_t len;
	uint8_t *state;
};

struct pchunk {
	struct pchunk *next;
	uint64_t start, end, head_end;
	int taken;              /* a worker started it */
	int finished;           /* its worker no longer touches it */
	int done;               /* all its output is queued */
	int vd;                 /* void: the predecessor decoded it */
	int at_eos;             /* its output ends the whole decode */
	int claimed;            /* decoded by a predecessor's run from the
				   * start (not counted in nlive) */
	struct ppiece *qh, *qt; /* output queue */
	size_t qbytes;
	uint64_t pk_skip, pk_end; /* packet counts: dropped, at the end */
	uint64_t pk_head;         /* packet count at head_end */
	struct pckpt *ck;
	unsigned nck, ckcap;
	int head_done;
};

struct prun {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct etm_decoder *tmpl;
	struct etm_decoder *tmpl_w; /* the same, for its packet count */
	etm_read_fn rd;
	void *rctx;
	const struct etm_run_ops *ops;
	void *octx;
	uint64_t size;
	int frames; /* CoreSight frame-formatted input */
	int batch;  /* elements in batches (ops->elems) */
	unsigned jobs;
	size_t chunk_limit; /* queued piece bytes per chunk */
	struct pchunk *head, *tail;
	unsigned nlive;
	uint64_t next_start; /* start of the next chunk to create */
	unsigned nchunks;    /* chunks created */
	uint64_t rate_bytes, rate_out;
	uint64_t npackets; /* packets of the consumed chunks */
	int stop, err;
};

/* Per-worker scratch. */
struct pwork {
	struct prun *r;
	struct etm_decoder *d;
	void *cs; /* consumer state (ops->open) */
	uint8_t *buf;
	struct etm_sbuf *sb;
	struct pchunk *out; /* chunk whose queue gets the output */
	uint64_t out_bytes; /* piece bytes queued on out by this worker */
	int head;           /* head phase: items are not consumed */
	int dirty;          /* a frame not known to be plain was seen */
};

static void run_fail(struct prun *r, int err)
{
	if (!r->err)
		r->err = err;
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
}

static void run_fail_locked(struct prun *r, int err)
{
	pthread_mutex_lock(&r->mu);
	run_fail(r, err);
	pthread_mutex_unlock(&r->mu);
}

/* Caller holds the lock (ops->drop must not call back into the run). */
static void chunk_free(struct prun *r, struct pchunk *c)
{
	struct ppiece *n;
	unsigned i;

	while ((n = c->qh)) {
		c->qh = n->next;
		r->ops->drop(r->octx, n->p);
		free(n);
	}
	for (i = 0; i < c->nck; i++)
		free(c->ck[i].state);
	free(c->ck);
	free(c);
}

/* Throw away the consumer's output since its last cut. */
static void discard(struct pwork *w)
{
	void *p = NULL;
	size_t bytes = 0;

	if (w->cs && w->r->ops->cut(w->cs, &p, &bytes) == 0 && p)
		w->r->ops->drop(w->r->octx, p);
}

/* Queue the consumer's output since its last cut on the output chunk,
 * waiting for room unless in the head phase. Returns 0, or -1 to stop (run
 * stopped or the output chunk went void). */
static int flush_piece(struct pwork *w)
{
	struct prun *r = w->r;
	struct pchunk *c = w->out;
	struct ppiece *n;
	void *p = NULL;
	size_t bytes = 0;
	int err;

	err = r->ops->cut(w->cs, &p, &bytes);
	if (err < 0) {
		run_fail_locked(r, err);
		return -1;
	}
	if (!p)
		return 0;
	n = malloc(sizeof(*n));
	if (!n) {
		r->ops->drop(r->octx, p);
		run_fail_locked(r, -etme_nomem);
		return -1;
	}
	n->next = NULL;
	n->p = p;
	n->bytes = bytes + sizeof(*n);
	pthread_mutex_lock(&r->mu);
	while (!r->stop && !c->vd && c->qbytes >= r->chunk_limit)
		pthread_cond_wait(&r->cv, &r->mu);
	if (r->stop || c->vd) {
		pthread_mutex_unlock(&r->mu);
		r->ops->drop(r->octx, p);
		free(n);
		return -1;
	}
	if (c->qt)
		c->qt->next = n;
	else
		c->qh = n;
	c->qt = n;
	c->qbytes += n->bytes;
	w->out_bytes += n->bytes;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return 0;
}

/* Drain the decoder into the consumer (elements in batches where
 * r->batch). Returns 0 or -1 to stop. */
static int drain(struct pwork *w)
{
	const struct etm_elem *els = NULL;
	struct etm_item it;
	int n, err;

	for (;;) {
		if (w->r->batch)
			n = etm_decoder_next_elems(w->d, &els, PAR_BATCH);
		else
			n = etm_decoder_next(w->d, &it, sizeof(it));
		if (n == -etme_again || n == -etme_eos)
			return 0;
		if (n < 0) {
			run_fail_locked(w->r, n);
			return -1;
		}
		if (w->head)
			continue; /* the predecessor's decoder delivers these */
		err = w->r->batch ? w->r->ops->elems(w->cs, els, (size_t)n) :
				    w->r->ops->item(w->cs, &it);
		if (err < 0) {
			run_fail_locked(w->r, err);
			return -1;
		}
		if (err > 0 && flush_piece(w) < 0)
			return -1;
	}
}

/* A frame starting with 0xFF may be an FSYNC (decoder/cut.h). */
static void check_frames(struct pwork *w, uint64_t off, size_t n)
{
	if (w->r->frames && !w->dirty && etm_cut_has_fsync(w->buf, off, n))
		w->dirty = 1;
}

/* Decode [*pos, to). Returns 0 or -1 to stop. */
static int feed(struct pwork *w, uint64_t *pos, uint64_t to)
{
	while (*pos < to) {
		size_t n = to - *pos > PAR_READ ? PAR_READ : (size_t)(to - *pos);
		size_t got = w->r->rd(w->r->rctx, *pos, w->buf, n);

		if (got != n) {
			run_fail_locked(w->r, -etme_io);
			return -1;
		}
		check_frames(w, *pos, n);
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

/* The checkpoint of chunk s after @pos (decoder/cut.h). */
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

	etm_sbuf_reset(w->sb);
	etm_decoder_save(w->d, w->sb);
	if (w->sb->over)
		return; /* cannot be compared: no checkpoint */
	st = malloc(w->sb->len);
	if (!st)
		return;
	memcpy(st, w->sb->b, w->sb->len);
	pthread_mutex_lock(&w->r->mu);
	if (c->nck == c->ckcap) {
		unsigned cap = c->ckcap ? 2 * c->ckcap : 16;
		struct pckpt *n = realloc(c->ck, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&w->r->mu);
			free(st);
			return;
		}
		c->ck = n;
		c->ckcap = cap;
	}
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
 * piece boundary, without consuming the items: when the predecessor's
 * decoder converges with one of these checkpoints, it runs on to head_end
 * and its output takes the place of the head's (so no item is consumed
 * twice); this chunk's own output starts at head_end. */
static int run_head(struct pwork *w, struct pchunk *c, uint64_t *pos)
{
	unsigned i;
	int ret = 0;

	w->head = 1;
	while (*pos < c->head_end && !ret) {
		ret = feed(w, pos, next_piece(c, *pos));
		if (!ret)
			checkpoint(w, *pos);
	}
	w->head = 0;
	pthread_mutex_lock(&w->r->mu);
	c->pk_head = etm_decoder_packet_count(w->d);
	c->head_done = 1;
	for (i = 0; i < c->nck && !c->ck[i].plain; i++)
		;
	if (i == c->nck && !ret) {
		/* nothing to converge with: the predecessor decodes it all */
		c->vd = 1;
		ret = -1;
	}
	pthread_cond_broadcast(&w->r->cv);
	pthread_mutex_unlock(&w->r->mu);
	return ret;
}

/* Wait for chunk s's checkpoint at @pos; NULL if there is none (s void,
 * its head ended before, our own chunk @c went void, or the run stopped).
 * Caller holds the lock. */
static const struct pckpt *wait_ckpt(struct prun *r, struct pchunk *c,
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
		if (r->stop || s->vd || s->head_done || c->vd)
			return NULL;
		pthread_cond_wait(&r->cv, &r->mu);
	}
}

/* Run on into successor s up to its head end, comparing states at its
 * checkpoints. Returns 1 if converged (then on to s's head end: s's output
 * starts there), 0 if not, -1 to stop. */
static int try_converge(struct pwork *w, struct pchunk *s, uint64_t *pos)
{
	struct prun *r = w->r;
	const struct pckpt *k;
	int eq = 0, stop;

	while (*pos < s->head_end) {
		if (feed(w, pos, next_piece(s, *pos)) < 0)
			return -1;
		etm_sbuf_reset(w->sb);
		etm_decoder_save(w->d, w->sb);
		pthread_mutex_lock(&r->mu);
		k = wait_ckpt(r, w->out, s, *pos);
		eq = k && k->plain && !w->dirty && !w->sb->over &&
		     k->len == w->sb->len && !memcmp(k->state, w->sb->b, k->len);
		stop = r->stop || w->out->vd;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			return -1;
		if (eq)
			break;
	}
	if (!eq)
		return 0;
	/* the same state: the same items as s's decoder up to its head end */
	if (feed(w, pos, s->head_end) < 0)
		return -1;
	pthread_mutex_lock(&r->mu);
	while (!r->stop && !s->head_done && !s->vd && !w->out->vd)
		pthread_cond_wait(&r->cv, &r->mu);
	s->pk_skip = s->pk_head;
	stop = r->stop || w->out->vd || !s->head_done;
	pthread_mutex_unlock(&r->mu);
	return stop ? -1 : 1;
}

/* First chunk start at or after @from (decoder/cut.h). Caller holds the
 * lock. */
static uint64_t find_start(struct prun *r, uint8_t *buf, uint64_t from)
{
	return etm_cut_find_start(r->frames, r->rd, r->rctx, r->size, buf, from);
}

/* Length of the next chunk: its output should fill about 3/4 of a chunk's
 * queue limit (at the output rate measured so far), and the rest of the
 * input should still make 2 chunks per job (load balance at the end). */
static uint64_t chunk_len(const struct prun *r)
{
	uint64_t len = PAR_FIRST_CHUNK, rest = r->size - r->next_start;

	if (r->rate_out) {
		double l = (double)r->chunk_limit * 0.75 *
			   (double)r->rate_bytes / (double)r->rate_out;

		len = l > PAR_MAX_CHUNK ? PAR_MAX_CHUNK : (uint64_t)l;
	}
	if (len > rest / (2 * r->jobs) && rest / (2 * r->jobs) >= PAR_FIRST_CHUNK)
		len = rest / (2 * r->jobs);
	if (len < PAR_MIN_CHUNK)
		len = PAR_MIN_CHUNK;
	if (len > PAR_MAX_CHUNK)
		len = PAR_MAX_CHUNK;
	/* stagger the first chunks so that a chunk's head is decoded well
	 * before its predecessor gets there */
	if (r->nchunks < r->jobs)
		len = len * (r->nchunks + 1) / r->jobs;
	return len;
}

/* Append the next chunk. Caller holds the lock. */
static struct pchunk *chunk_create(struct prun *r, uint8_t *buf)
{
	uint64_t len = chunk_len(r);
	struct pchunk *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	r->nchunks++;
	c->start = r->next_start;
	c->end = c->start + len >= r->size ? r->size :
					     find_start(r, buf, c->start + len);
	c->head_end = c->start + etm_cut_head_len(c->end - c->start);
	r->next_start = c->end;
	if (r->tail)
		r->tail->next = c;
	else
		r->head = c;
	r->tail = c;
	r->nlive++;
	return c;
}

/* Decode chunk c, then run on into the following chunks until converged
 * with one of them or at the end of input. */
static void work_chunk(struct pwork *w, struct pchunk *c)
{
	struct prun *r = w->r;
	struct pchunk *s = c;
	uint64_t pos = c->start;
	int ret = 0, eos = 0, claim;

	w->out = c;
	w->out_bytes = 0;
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
		if (!s->next && !chunk_create(r, w->buf))
			run_fail(r, -etme_nomem);
		s = s->next;
		claim = s && !s->taken;
		if (claim) {
			/* no worker on it yet: simply decode on into it
			 * rather than wait for its checkpoints */
			s->taken = s->vd = s->finished = 1;
			s->claimed = 1;
			r->nlive--; /* not a chunk of its own any more */
			pthread_cond_broadcast(&r->cv);
		}
		pthread_mutex_unlock(&r->mu);
		if (!s)
			ret = -1;
		else if (claim)
			ret = 0;
		else
			ret = try_converge(w, s, &pos);
		if (ret)
			break;
		/* not converged in s's head: s is decoded here instead */
		pthread_mutex_lock(&r->mu);
		s->vd = 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		ret = feed(w, &pos, s->end);
	}
	if (ret >= 0)
		ret = flush_piece(w);
	if (ret < 0)
		discard(w);
	pthread_mutex_lock(&r->mu);
	if (!w->d)
		run_fail(r, -etme_nomem);
	if (ret >= 0) {
		c->done = 1;
		c->at_eos = eos;
		c->pk_end = etm_decoder_packet_count(w->d);
		r->rate_bytes += pos - c->start;
		r->rate_out += w->out_bytes + 1;
	}
	c->finished = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

static void *worker(void *arg)
{
	struct pwork *w = arg;
	struct prun *r = w->r;
	struct pchunk *c;

	w->cs = r->ops->open(r->octx);
	pthread_mutex_lock(&r->mu);
	if (!w->cs)
		run_fail(r, -etme_nomem);
	while (!r->stop) {
		for (c = r->head; c && (c->taken || c->vd); c = c->next)
			;
		if (!c && r->next_start < r->size && r->nlive <= r->jobs) {
			c = chunk_create(r, w->buf);
			if (!c)
				run_fail(r, -etme_nomem);
		}
		if (c) {
			c->taken = 1;
			pthread_mutex_unlock(&r->mu);
			work_chunk(w, c);
			pthread_mutex_lock(&r->mu);
			continue;
		}
		if (r->next_start >= r->size)
			break;
		pthread_cond_wait(&r->cv, &r->mu);
	}
	pthread_mutex_unlock(&r->mu);
	if (w->cs)
		r->ops->close(w->cs);
	w->cs = NULL;
	return NULL;
}

static void chunk_remove(struct prun *r, struct pchunk *c)
{
	r->head = c->next;
	if (!r->head)
		r->tail = NULL;
	if (!c->claimed)
		r->nlive--;
	chunk_free(r, c);
	pthread_cond_broadcast(&r->cv);
}

/* The calling thread: pieces of the chunks in input order. */
static void consume(struct prun *r)
{
	struct pchunk *c;
	struct ppiece *n;
	int ret, eos;

	pthread_mutex_lock(&r->mu);
	while (!r->stop) {
		c = r->head;
		if (c && c->vd && (!c->taken || c->finished)) {
			chunk_remove(r, c);
			continue;
		}
		if (c && !c->vd && c->qh) {
			n = c->qh;
			c->qh = n->next;
			if (!c->qh)
				c->qt = NULL;
			c->qbytes -= n->bytes;
			pthread_cond_broadcast(&r->cv);
			pthread_mutex_unlock(&r->mu);
			ret = r->ops->emit(r->octx, n->p);
			free(n);
			pthread_mutex_lock(&r->mu);
			if (ret < 0)
				run_fail(r, ret);
			continue;
		}
		if (c && c->done) {
			eos = c->at_eos;
			r->npackets += c->pk_end - c->pk_skip;
			chunk_remove(r, c);
			if (eos)
				break;
			continue;
		}
		pthread_cond_wait(&r->cv, &r->mu);
	}
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

/* One thread, items straight to @fn (etm_decoder_run) or through @ops. */
static int run_seq(struct prun *r, etm_item_fn fn, void *ctx)
{
	struct etm_decoder *d = etm_decoder_clone(r->tmpl, 0);
	uint8_t *buf = malloc(PAR_READ);
	void *cs = r->ops ? r->ops->open(r->octx) : NULL, *p;
	const struct etm_elem *els;
	struct etm_item it;
	uint64_t pos = 0;
	size_t bytes = 0;
	int err = -etme_nomem, fin = 0;

	if (!d || !buf || (r->ops && !cs))
		goto out;
	for (;;) {
		size_t n = r->size - pos > PAR_READ ? PAR_READ :
						      (size_t)(r->size - pos);

		if (n && r->rd(r->rctx, pos, buf, n) != n) {
			err = -etme_io;
			goto out;
		}
		pos += n;
		if (n)
			etm_decoder_push(d, buf, n);
		else if (!fin++)
			etm_decoder_finish(d);
		for (;;) {
			if (r->batch) {
				err = etm_decoder_next_elems(d, &els, PAR_BATCH);
				if (err < 0)
					break;
				err = r->ops->elems(cs, els, (size_t)err);
			} else {
				err = etm_decoder_next(d, &it, sizeof(it));
				if (err < 0)
					break;
				err = cs ? r->ops->item(cs, &it) :
					   fn(ctx, &it);
			}
			if (err > 0) {
				p = NULL;
				err = r->ops->cut(cs, &p, &bytes);
				if (!err && p)
					err = r->ops->emit(r->octx, p);
			}
			if (err < 0)
				goto out;
		}
		if (err != -etme_again && err != -etme_eos)
			goto out;
		if (err == -etme_eos || (fin && err == -etme_again)) {
			err = 0;
			break;
		}
	}
	if (cs) {
		p = NULL;
		err = r->ops->cut(cs, &p, &bytes);
		if (!err && p)
			err = r->ops->emit(r->octx, p);
	}
out:
	if (d)
		etm_decoder_set_packet_count(r->tmpl_w, etm_decoder_packet_count(d));
	if (cs) {
		if (err < 0) {
			p = NULL;
			if (r->ops->cut(cs, &p, &bytes) == 0 && p)
				r->ops->drop(r->octx, p);
		}
		r->ops->close(cs);
	}
	free(buf);
	etm_decoder_free(d);
	return err;
}

static void run_free(struct prun *r, struct pwork *w, unsigned nw)
{
	unsigned i;

	while (r->head)
		chunk_remove(r, r->head);
	for (i = 0; w && i < nw; i++) {
		free(w[i].buf);
		free(w[i].sb);
		etm_decoder_free(w[i].d);
	}
	free(w);
}

/* Decode on @jobs workers through @ops (or on this thread: @ops, or @fn if
 * @ops is NULL). */
static int run(struct etm_decoder *d, etm_read_fn rd, void *rctx,
	       uint64_t size, unsigned jobs, const struct etm_run_ops *ops,
	       void *octx, etm_item_fn fn, void *fctx)
{
	struct prun r;
	struct pwork *w;
	pthread_t *th;
	unsigned i, nth = 0;

	memset(&r, 0, sizeof(r));
	r.tmpl = d;
	r.tmpl_w = d;
	r.rd = rd;
	r.rctx = rctx;
	r.ops = ops;
	r.octx = octx;
	r.size = size;
	r.frames = etm_decoder_format(d) == etm_fmt_coresight;
	r.batch = ops && ops->elems && etm_decoder_elems_ok(d);
	if (jobs <= 1 || etm_decoder_format(d) == etm_fmt_tpiu ||
	    etm_decoder_serial(d) ||
	    etm_decoder_format(d) == etm_fmt_tpiu_nofsync ||
	    size <= PAR_MIN_INPUT) {
		if (fn) {
			r.ops = NULL; /* items straight to the callback */
			r.batch = 0;
		}
		return run_seq(&r, fn, fctx);
	}
	r.jobs = jobs;
	/* the head chunk's queue is drained as it fills: about one queue per
	 * job is full at a time */
	r.chunk_limit = (ops->budget ? ops->budget : PAR_BUDGET) / jobs;
	w = calloc(jobs, sizeof(*w));
	th = calloc(jobs, sizeof(*th));
	if (!w || !th) {
		free(w);
		free(th);
		return -etme_nomem;
	}
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	for (i = 0; i < jobs; i++) {
		w[i].r = &r;
		w[i].buf = malloc(PAR_READ > ETM_CUT_SEARCH ? PAR_READ : ETM_CUT_SEARCH);
		w[i].sb = malloc(sizeof(*w[i].sb));
		if (!w[i].buf || !w[i].sb ||
		    pthread_create(&th[i], NULL, worker, &w[i]) != 0) {
			run_fail_locked(&r, -etme_nomem);
			break;
		}
		nth++;
	}
	consume(&r);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	run_free(&r, w, jobs);
	etm_decoder_set_packet_count(d, r.npackets);
	free(th);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	return r.err;
}

int etm_decoder_run_ops(struct etm_decoder *d, etm_read_fn rd, void *rctx,
			uint64_t size, unsigned jobs,
			const struct etm_run_ops *ops, void *ctx)
{
	if (!d || !rd || !ops || !ops->open || !ops->item || !ops->cut ||
	    !ops->emit || !ops->drop || !ops->close)
		return -etme_invalid;
	return run(d, rd, rctx, size, jobs, ops, ctx, NULL, NULL);
}

/* ---- etm_decoder_run(): blocks of items as the pieces ---------------------- */

/* A stored item: only the valid half of struct etm_item. */
struct pitem {
	uint8_t is_elem;
	uint8_t proto;
	union {
		struct etm_packet pkt;
		struct etm_elem elem;
	} u;
};

struct iblock {
	struct iblock *next; /* free list */
	unsigned n;
	struct pitem it[PAR_BLOCK];
};

struct irun {
	etm_item_fn fn;
	void *ctx;
	pthread_mutex_t mu;
	struct iblock *freeb;
};

struct iwork {
	struct irun *ir;
	struct iblock *cur;
};

static void *items_open(void *ctx)
{
	struct iwork *iw = calloc(1, sizeof(*iw));

	if (iw)
		iw->ir = ctx;
	return iw;
}

static int items_item(void *cs, const struct etm_item *it)
{
	struct iwork *iw = cs;
	struct iblock *b = iw->cur;
	struct pitem *p;

	if (!b) {
		pthread_mutex_lock(&iw->ir->mu);
		b = iw->ir->freeb;
		if (b)
			iw->ir->freeb = b->next;
		pthread_mutex_unlock(&iw->ir->mu);
		if (!b && !(b = malloc(sizeof(*b))))
			return -etme_nomem;
		b->n = 0;
		iw->cur = b;
	}
	p = &b->it[b->n++];
	p->is_elem = (uint8_t)it->is_elem;
	p->proto = (uint8_t)it->proto;
	if (it->is_elem)
		p->u.elem = it->elem;
	else
		p->u.pkt = it->pkt;
	return b->n == PAR_BLOCK;
}

static int items_cut(void *cs, void **piece, size_t *bytes)
{
	struct iwork *iw = cs;

	*piece = iw->cur;
	*bytes = iw->cur ? sizeof(*iw->cur) : 0;
	iw->cur = NULL;
	return 0;
}

static void items_drop(void *ctx, void *piece)
{
	struct irun *ir = ctx;
	struct iblock *b = piece;

	pthread_mutex_lock(&ir->mu);
	b->next = ir->freeb;
	ir->freeb = b;
	pthread_mutex_unlock(&ir->mu);
}

static int items_emit(void *ctx, void *piece)
{
	struct irun *ir = ctx;
	struct iblock *b = piece;
	struct etm_item it;
	unsigned i;
	int ret = 0;

	memset(&it, 0, sizeof(it));
	for (i = 0; i < b->n && ret >= 0; i++) {
		const struct pitem *p = &b->it[i];

		it.is_elem = p->is_elem;
		it.proto = (enum etm_protocol)p->proto;
		if (p->is_elem)
			it.elem = p->u.elem;
		else
			it.pkt = p->u.pkt;
		ret = ir->fn(ir->ctx, &it);
	}
	items_drop(ctx, piece);
	return ret < 0 ? ret : 0;
}

static void items_close(void *cs)
{
	struct iwork *iw = cs;

	if (iw->cur)
		items_drop(iw->ir, iw->cur);
	free(iw);
}

int etm_decoder_run(struct etm_decoder *d, etm_read_fn rd, void *rctx,
		    uint64_t size, unsigned jobs, etm_item_fn fn, void *ctx)
{
	static const struct etm_run_ops ops = {
		.open = items_open,
		.item = items_item,
		.cut = items_cut,
		.emit = items_emit,
		.drop = items_drop,
		.close = items_close,
	};
	struct irun ir = { .fn = fn, .ctx = ctx };
	struct iblock *b;
	int ret;

	if (!d || !rd || !fn)
		return -etme_invalid;
	pthread_mutex_init(&ir.mu, NULL);
	ret = run(d, rd, rctx, size, jobs, &ops, &ir, fn, ctx);
	while ((b = ir.freeb)) {
		ir.freeb = b->next;
		free(b);
	}
	pthread_mutex_destroy(&ir.mu);
	return ret;
}
