/* decoder/parallel.c - etm_decoder_run(): whole-input decode on the calling
 * thread, or cut at sync points over worker threads with convergence checks
 * so that the output is identical to a single-threaded decode. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/sbuf.h"
#include "decoder/decoder_int.h"

#define PAR_READ (256u << 10)     /* bytes read and pushed at once */
#define PAR_PIECE 4096u           /* checkpoint spacing (a frame multiple) */
#define PAR_HEAD (64u << 10)      /* a chunk publishes checkpoints this far */
#define PAR_BLOCK 1024u           /* items per output block */
#define PAR_BUDGET (40u << 20)    /* output buffered over all chunks */
#define PAR_MIN_CHUNK (256u << 10)
#define PAR_MAX_CHUNK (32u << 20)
#define PAR_FIRST_CHUNK (1u << 20)
#define PAR_SEARCH (64u << 10)    /* sync point search window */
#define ASYNC_ZEROS 5

/* A stored item: only the valid half of struct etm_item (192 bytes instead
 * of 320: more items fit in the memory budget). */
struct pitem {
	uint8_t is_elem;
	uint8_t proto;
	union {
		struct etm_packet pkt;
		struct etm_elem elem;
	} u;
};

struct pblock {
	struct pblock *next;
	unsigned n;
	struct pitem it[PAR_BLOCK];
};

/* A chunk decoder's state at input offset pos, after nitems items. */
struct pckpt {
	uint64_t pos, nitems, npackets;
	int plain;                /* frames since the chunk start are plain */
	size_t len;
	uint8_t *state;
};

struct pchunk {
	struct pchunk *next;
	uint64_t start, end, head_end;
	int taken;                /* a worker started it */
	int finished;             /* its worker no longer touches it */
	int done;                 /* all its output is queued */
	int vd;                   /* void: the predecessor decoded it */
	int at_eos;               /* its output ends the whole decode */
	struct pblock *qh, *qt;   /* output queue */
	unsigned nblocks;
	uint64_t skip;            /* leading items to drop (a predecessor's) */
	uint64_t pk_skip, pk_end; /* packet counts: dropped, at the end */
	struct pckpt *ck;
	unsigned nck, ckcap;
	int head_done;
};

struct prun {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct etm_decoder *tmpl;
	struct etm_decoder *tmpl_w;   /* the same, for its packet count */
	etm_read_fn rd;
	void *rctx;
	uint64_t size;
	int frames;               /* CoreSight frame-formatted input */
	unsigned jobs, maxblocks;
	struct pchunk *head, *tail;
	unsigned nlive;
	uint64_t next_start;      /* start of the next chunk to create */
	unsigned nchunks;         /* chunks created */
	uint64_t rate_bytes, rate_items;
	struct pblock *freeb;
	uint64_t npackets;        /* packets of the consumed chunks */
	int stop, err;
};

/* Per-worker scratch. */
struct pwork {
	struct prun *r;
	struct etm_decoder *d;
	uint8_t *buf;
	struct etm_sbuf *sb;
	struct pblock *blk;       /* block being filled */
	struct pchunk *out;       /* chunk whose queue gets the output */
	uint64_t nitems;          /* items produced into out by this worker */
	int head;                 /* head phase: never block */
	int dirty;                /* a frame not known to be plain was seen */
};

static void run_fail(struct prun *r, int err)
{
	if (!r->err)
		r->err = err;
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
}

static struct pblock *block_get(struct prun *r)
{
	struct pblock *b;

	pthread_mutex_lock(&r->mu);
	b = r->freeb;
	if (b)
		r->freeb = b->next;
	pthread_mutex_unlock(&r->mu);
	if (!b)
		b = malloc(sizeof(*b));
	if (b) {
		b->next = NULL;
		b->n = 0;
	}
	return b;
}

/* Caller holds the lock. */
static void block_put(struct prun *r, struct pblock *b)
{
	b->next = r->freeb;
	r->freeb = b;
}

static void chunk_free(struct pchunk *c)
{
	struct pblock *b;
	unsigned i;

	while ((b = c->qh)) {
		c->qh = b->next;
		free(b);
	}
	for (i = 0; i < c->nck; i++)
		free(c->ck[i].state);
	free(c->ck);
	free(c);
}

/* Queue the block being filled on the output chunk, waiting for room
 * unless in the head phase. Returns 0, or -1 to stop (run stopped or the
 * output chunk went void). */
static int flush_block(struct pwork *w)
{
	struct prun *r = w->r;
	struct pchunk *c = w->out;
	int ret = 0;

	if (!w->blk || !w->blk->n)
		return 0;
	pthread_mutex_lock(&r->mu);
	while (!r->stop && !c->vd && !w->head && c->nblocks >= r->maxblocks)
		pthread_cond_wait(&r->cv, &r->mu);
	if (r->stop || c->vd) {
		block_put(r, w->blk);
		ret = -1;
	} else {
		if (c->qt)
			c->qt->next = w->blk;
		else
			c->qh = w->blk;
		c->qt = w->blk;
		c->nblocks++;
		pthread_cond_broadcast(&r->cv);
	}
	w->blk = NULL;
	pthread_mutex_unlock(&r->mu);
	return ret;
}

/* Drain the decoder into the output queue. Returns 0 or -1 to stop. */
static int drain(struct pwork *w)
{
	struct etm_item it;
	struct pitem *p;
	int err;

	for (;;) {
		if (w->blk && w->blk->n == PAR_BLOCK && flush_block(w) < 0)
			return -1;
		if (!w->blk && !(w->blk = block_get(w->r))) {
			pthread_mutex_lock(&w->r->mu);
			run_fail(w->r, -etme_nomem);
			pthread_mutex_unlock(&w->r->mu);
			return -1;
		}
		err = etm_decoder_next(w->d, &it, sizeof(it));
		if (err == -etme_again || err == -etme_eos)
			return 0;
		if (err < 0) {
			pthread_mutex_lock(&w->r->mu);
			run_fail(w->r, err);
			pthread_mutex_unlock(&w->r->mu);
			return -1;
		}
		p = &w->blk->it[w->blk->n++];
		p->is_elem = (uint8_t)it.is_elem;
		p->proto = (uint8_t)it.proto;
		if (it.is_elem)
			p->u.elem = it.elem;
		else
			p->u.pkt = it.pkt;
		w->nitems++;
	}
}

/* A frame starting with 0xFF may be an FSYNC: the deformatter then holds
 * state that etm_decoder_save() does not show. */
static void check_frames(struct pwork *w, uint64_t off, size_t n)
{
	size_t i = (size_t)((16 - (off & 15)) & 15);

	if (!w->r->frames || w->dirty)
		return;
	for (; i < n; i += 16)
		if (w->buf[i] == 0xff)
			w->dirty = 1;
}

/* Decode [*pos, to). Returns 0 or -1 to stop. */
static int feed(struct pwork *w, uint64_t *pos, uint64_t to)
{
	while (*pos < to) {
		size_t n = to - *pos > PAR_READ ? PAR_READ : (size_t)(to - *pos);
		size_t got = w->r->rd(w->r->rctx, *pos, w->buf, n);

		if (got != n) {
			pthread_mutex_lock(&w->r->mu);
			run_fail(w->r, -etme_io);
			pthread_mutex_unlock(&w->r->mu);
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

static uint64_t next_piece(uint64_t pos, uint64_t limit)
{
	uint64_t p = (pos / PAR_PIECE + 1) * PAR_PIECE;

	return p < limit ? p : limit;
}

/* Record the state at @pos as a checkpoint of the worker's own chunk. */
static int checkpoint(struct pwork *w, uint64_t pos)
{
	struct pchunk *c = w->out;
	struct pckpt *k;
	uint8_t *st;

	etm_sbuf_reset(w->sb);
	etm_decoder_save(w->d, w->sb);
	if (w->sb->over)
		return 0;       /* cannot be compared: no checkpoint */
	st = malloc(w->sb->len);
	if (!st)
		return 0;
	memcpy(st, w->sb->b, w->sb->len);
	pthread_mutex_lock(&w->r->mu);
	if (c->nck == c->ckcap) {
		unsigned cap = c->ckcap ? 2 * c->ckcap : 16;
		struct pckpt *n = realloc(c->ck, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&w->r->mu);
			free(st);
			return 0;
		}
		c->ck = n;
		c->ckcap = cap;
	}
	k = &c->ck[c->nck++];
	k->pos = pos;
	k->nitems = w->nitems;
	k->npackets = etm_decoder_packet_count(w->d);
	k->plain = !w->dirty;
	k->len = w->sb->len;
	k->state = st;
	pthread_cond_broadcast(&w->r->cv);
	pthread_mutex_unlock(&w->r->mu);
	return 0;
}

/* Head phase of chunk c: decode up to head_end with a checkpoint at every
 * piece boundary. */
static int run_head(struct pwork *w, struct pchunk *c, uint64_t *pos)
{
	int ret = 0;

	w->head = 1;
	while (*pos < c->head_end && !ret) {
		ret = feed(w, pos, next_piece(*pos, c->head_end));
		/* items before the checkpoint must be counted, not queued */
		if (!ret)
			ret = checkpoint(w, *pos);
	}
	w->head = 0;
	pthread_mutex_lock(&w->r->mu);
	c->head_done = 1;
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
 * checkpoints. Returns 1 if converged (s's output from there on is ours),
 * 0 if not, -1 to stop. */
static int try_converge(struct pwork *w, struct pchunk *s, uint64_t *pos)
{
	struct prun *r = w->r;
	const struct pckpt *k;
	int eq, stop;

	while (*pos < s->head_end) {
		if (feed(w, pos, next_piece(*pos, s->head_end)) < 0)
			return -1;
		etm_sbuf_reset(w->sb);
		etm_decoder_save(w->d, w->sb);
		pthread_mutex_lock(&r->mu);
		k = wait_ckpt(r, w->out, s, *pos);
		eq = k && k->plain && !w->dirty && !w->sb->over &&
		     k->len == w->sb->len && !memcmp(k->state, w->sb->b, k->len);
		if (eq) {
			s->skip = k->nitems;
			s->pk_skip = k->npackets;
		}
		stop = r->stop || w->out->vd;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			return -1;
		if (eq)
			return 1;
	}
	return 0;
}

/* First chunk start at or after @from: raw input, the first of five 0x00
 * before a 0x80 (A-sync); frames, a frame whose first byte is an ID change
 * (and not 0xFF). r->size if there is none. Caller holds the lock. */
static uint64_t find_start(struct prun *r, uint8_t *buf, uint64_t from)
{
	uint64_t pos;

	if (r->frames)
		from = (from + 15) & ~(uint64_t)15;
	for (pos = from; pos < r->size; ) {
		size_t n = r->size - pos > PAR_SEARCH ? PAR_SEARCH :
						       (size_t)(r->size - pos);
		size_t i, z = 0;

		if (r->rd(r->rctx, pos, buf, n) != n)
			return r->size;
		for (i = 0; i < n; i += r->frames ? 16 : 1) {
			if (r->frames) {
				if ((buf[i] & 1) && buf[i] != 0xff)
					return pos + i;
				continue;
			}
			if (buf[i] == 0x80 && z >= ASYNC_ZEROS &&
			    pos + i >= from + ASYNC_ZEROS)
				return pos + i - ASYNC_ZEROS;
			z = buf[i] ? 0 : z + 1;
		}
		if (n < PAR_SEARCH)
			break;
		/* windows overlap by an A-sync's zeros */
		pos += r->frames ? n : n - ASYNC_ZEROS - 1;
	}
	return r->size;
}

/* Append the next chunk. Caller holds the lock. */
static struct pchunk *chunk_create(struct prun *r, uint8_t *buf)
{
	uint64_t len = PAR_FIRST_CHUNK, target;
	struct pchunk *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (r->rate_items) {
		target = (uint64_t)r->maxblocks * PAR_BLOCK * 3 / 4;
		len = target * r->rate_bytes / r->rate_items;
	}
	if (len < PAR_MIN_CHUNK)
		len = PAR_MIN_CHUNK;
	if (len > PAR_MAX_CHUNK)
		len = PAR_MAX_CHUNK;
	/* stagger the first chunks so that a chunk's head is decoded well
	 * before its predecessor gets there */
	if (r->nchunks < r->jobs)
		len = len * (r->nchunks + 1) / r->jobs;
	r->nchunks++;
	c->start = r->next_start;
	c->end = c->start + len >= r->size ? r->size :
					     find_start(r, buf, c->start + len);
	c->head_end = c->end - c->start > PAR_HEAD ? c->start + PAR_HEAD :
						     c->end;
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
	int ret = 0, eos = 0;

	w->out = c;
	w->nitems = 0;
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
		pthread_mutex_unlock(&r->mu);
		if (!s)
			ret = -1;
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
		ret = flush_block(w);
	pthread_mutex_lock(&r->mu);
	if (!w->d)
		run_fail(r, -etme_nomem);
	if (ret >= 0) {
		c->done = 1;
		c->at_eos = eos;
		c->pk_end = etm_decoder_packet_count(w->d);
		r->rate_bytes += pos - c->start;
		r->rate_items += w->nitems + 1;
	}
	c->finished = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	if (w->blk) {
		free(w->blk);
		w->blk = NULL;
	}
}

static void *worker(void *arg)
{
	struct pwork *w = arg;
	struct prun *r = w->r;
	struct pchunk *c;

	pthread_mutex_lock(&r->mu);
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
	return NULL;
}

/* Hand the items of block b to the caller, dropping c->skip leading ones.
 * Called without the lock. Returns 0 or the callback's negative value. */
static int deliver(struct pchunk *c, const struct pblock *b, etm_item_fn fn,
		   void *ctx, struct etm_item *it)
{
	unsigned i = 0;
	int ret;

	if (c->skip) {
		i = c->skip < b->n ? (unsigned)c->skip : b->n;
		c->skip -= i;
	}
	for (; i < b->n; i++) {
		const struct pitem *p = &b->it[i];

		it->is_elem = p->is_elem;
		it->proto = (enum etm_protocol)p->proto;
		if (p->is_elem)
			it->elem = p->u.elem;
		else
			it->pkt = p->u.pkt;
		ret = fn(ctx, it);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void chunk_remove(struct prun *r, struct pchunk *c)
{
	r->head = c->next;
	if (!r->head)
		r->tail = NULL;
	r->nlive--;
	chunk_free(c);
	pthread_cond_broadcast(&r->cv);
}

/* The calling thread: items of the chunks in input order. */
static void consume(struct prun *r, etm_item_fn fn, void *ctx)
{
	struct etm_item it;
	struct pchunk *c;
	struct pblock *b;
	int ret, eos;

	memset(&it, 0, sizeof(it));
	pthread_mutex_lock(&r->mu);
	while (!r->stop) {
		c = r->head;
		if (c && c->vd && (!c->taken || c->finished)) {
			chunk_remove(r, c);
			continue;
		}
		if (c && !c->vd && c->qh) {
			b = c->qh;
			c->qh = b->next;
			if (!c->qh)
				c->qt = NULL;
			c->nblocks--;
			pthread_cond_broadcast(&r->cv);
			pthread_mutex_unlock(&r->mu);
			ret = deliver(c, b, fn, ctx, &it);
			pthread_mutex_lock(&r->mu);
			block_put(r, b);
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

/* One thread: read, push, drain straight into the callback. */
static int run_seq(struct prun *r, etm_item_fn fn, void *ctx)
{
	struct etm_decoder *d = etm_decoder_clone(r->tmpl, 0);
	uint8_t *buf = malloc(PAR_READ);
	struct etm_item it;
	uint64_t pos = 0;
	int err = -etme_nomem, fin = 0;

	if (!d || !buf)
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
		while ((err = etm_decoder_next(d, &it, sizeof(it))) == 0) {
			err = fn(ctx, &it);
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
out:
	if (d)
		etm_decoder_set_packet_count(r->tmpl_w, etm_decoder_packet_count(d));
	free(buf);
	etm_decoder_free(d);
	return err;
}

static void run_free(struct prun *r, struct pwork *w, unsigned nw)
{
	struct pblock *b;
	unsigned i;

	while (r->head)
		chunk_remove(r, r->head);
	while ((b = r->freeb)) {
		r->freeb = b->next;
		free(b);
	}
	for (i = 0; w && i < nw; i++) {
		free(w[i].buf);
		free(w[i].sb);
		etm_decoder_free(w[i].d);
	}
	free(w);
}

int etm_decoder_run(struct etm_decoder *d, etm_read_fn rd, void *rctx,
		    uint64_t size, unsigned jobs, etm_item_fn fn, void *ctx)
{
	struct prun r;
	struct pwork *w;
	pthread_t *th;
	unsigned i, nth = 0;

	if (!d || !rd || !fn)
		return -etme_invalid;
	memset(&r, 0, sizeof(r));
	r.tmpl = d;
	r.tmpl_w = d;
	r.rd = rd;
	r.rctx = rctx;
	r.size = size;
	r.frames = etm_decoder_format(d) == etm_fmt_coresight;
	if (jobs <= 1 || etm_decoder_format(d) == etm_fmt_tpiu ||
	    size <= 2 * PAR_MIN_CHUNK)
		return run_seq(&r, fn, ctx);
	r.jobs = jobs;
	r.maxblocks = PAR_BUDGET / ((jobs + 1) * (unsigned)sizeof(struct pblock));
	if (r.maxblocks < 4)
		r.maxblocks = 4;
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
		w[i].buf = malloc(PAR_READ > PAR_SEARCH ? PAR_READ : PAR_SEARCH);
		w[i].sb = malloc(sizeof(*w[i].sb));
		if (!w[i].buf || !w[i].sb ||
		    pthread_create(&th[i], NULL, worker, &w[i]) != 0) {
			run_fail(&r, -etme_nomem);
			break;
		}
		nth++;
	}
	consume(&r, fn, ctx);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	run_free(&r, w, jobs);
	etm_decoder_set_packet_count(d, r.npackets);
	free(th);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	return r.err;
}
