/* listing/listing_par.c - a listing on worker threads (listing_par.h,
 * etm_listing_run(), `etmtrace decode --jobs N`): each worker formats the items
 * it decoded (text, canon, jsonl into memory blocks; counters and
 * configuration diagnostics as segments) into pieces that the calling
 * thread writes out and adds up in input order. The formatter carries no
 * state from item to item but counters and diagnostics, and those are
 * per piece, so a piece the library drops (output before a chunk
 * converged) leaves no trace. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "listing/listing_par.h"
#include "run/parts.h"

#define LISTING_PAR_PIECE (4u << 20) /* formatted bytes per piece */
/* Pieces buffered per job: chunk lengths follow it (a chunk's output
 * fills 3/4 of its queue), and the input decoded twice where a chunk's
 * decoder converges with its predecessor's is a fixed length per chunk:
 * 48 MiB of text is ~550 KiB of TC2, of which ~3% are decoded twice. */
#define LISTING_PAR_BUDGET (48u << 20)

/* A piece: formatted text, and (at the library's cuts, which are where the
 * output may be trimmed) the counters and diagnostics since the previous
 * such cut. */
struct dp_piece {
	struct wpiece text;
	struct dec_counts n;
	struct etm_diagset *dg;    /* diagnostics segment (or NULL) */
	struct dec_run head, tail; /* runs of diagnostics left to join */
};

struct dp_run {
	const struct listing_par *p;
	struct decfmt *f;    /* the calling thread's: totals, output */
	struct wpool blocks; /* text blocks */
	pthread_mutex_t mu;
	struct dp_seg *freeseg; /* empty diagnostics segments */
};

struct dp_seg {
	struct dp_seg *next;
	struct etm_diagset *dg;
};

struct dp_worker {
	struct dp_run *r;
	struct decfmt f;
	struct etm_diagset *dg; /* segment being filled (f.dw) */
	int used;               /* items since the last full cut */
	int want;               /* the next cut is ours: text only */
	int live;               /* delivering: text straight to the file */
	int dis_own;            /* f.dis is this worker's (dis_open) */
	unsigned long long out; /* live: w.out at the last cut */
	/* the pieces staged so far: what they stand for, the memory they
	 * hold (dp_cut) */
	unsigned long long st_held, st_mem;
	struct wbuf w;
};

static struct etm_diagset *seg_get(struct dp_run *r)
{
	struct dp_seg *s;
	struct etm_diagset *dg;

	pthread_mutex_lock(&r->mu);
	s = r->freeseg;
	if (s)
		r->freeseg = s->next;
	pthread_mutex_unlock(&r->mu);
	if (!s)
		return etm_diagset_alloc_segment(r->p->src, r->p->nsrc);
	dg = s->dg;
	free(s);
	return dg;
}

/* Back to the free list, emptied. */
static void seg_put(struct dp_run *r, struct etm_diagset *dg)
{
	struct dp_seg *s;

	if (!dg)
		return;
	s = malloc(sizeof(*s));
	if (!s) {
		etm_diagset_free(dg);
		return;
	}
	diagset_reset(dg);
	s->dg = dg;
	pthread_mutex_lock(&r->mu);
	s->next = r->freeseg;
	r->freeseg = s;
	pthread_mutex_unlock(&r->mu);
}

static void piece_free(void *ctx, void *piece)
{
	struct dp_run *r = ctx;
	struct dp_piece *p = piece;

	wbuf_free_piece(&r->blocks, &p->text);
	seg_put(r, p->dg);
	free(p);
}

static void dp_close(void *state)
{
	struct dp_worker *w = state;

	seg_put(w->r, w->dg);
	if (w->r->p->dis_close && w->dis_own)
		w->r->p->dis_close(w->r->p->dis_ctx, &w->f.dis);
	decfmt_fini(&w->f);
	wbuf_fini(&w->w);
	/* the worker's input is done: the blocks kept for reuse are freed
	 * here, on its thread (while the others finish their chunks), not
	 * by the calling thread after the run (TC2 x512 text: 2-4 ms of its
	 * 8-16 ms, its CPU being the run's serial share) */
	wpool_trim(&w->r->blocks);
	free(w);
}

static void *dp_open(void *ctx)
{
	struct dp_run *r = ctx;
	struct dp_worker *w = malloc(sizeof(*w));
	struct etm_disasm_hook dis = r->f->dis;

	if (!w)
		return NULL;
	w->r = r;
	w->used = w->want = w->live = 0;
	w->st_held = w->st_mem = 0;
	w->dg = NULL;
	w->dis_own = 0;
	if (wbuf_init_mem(&w->w, &r->blocks) < 0) {
		free(w);
		return NULL;
	}
	if (r->f->fmt == DF_TEXT) {
		if (r->p->dis_open) {
			dis = r->p->dis_open(r->p->dis_ctx);
			w->dis_own = 1;
		}
		wbuf_refs(&w->w); /* cached ranges staged by reference */
	}
	if (decfmt_init(&w->f, r->p->src, r->p->nsrc, &w->w, r->f->fmt, &dis,
			NULL, r->p->ann) < 0) {
		if (w->dis_own)
			r->p->dis_close(r->p->dis_ctx, &dis);
		w->dis_own = 0;
		dp_close(w);
		return NULL;
	}
	w->f.split = w->f.lead = 1;
	w->f.df = r->f->df; /* the same data filter */
	return w;
}

/* Before output: the diagnostics segment being filled, or (live: all
 * output before it delivered, dp_live_off_diag()) the whole (out of
 * line: once per piece). */
static __attribute__((noinline)) int dp_begin(struct dp_worker *w)
{
	if (!w->dg && w->r->f->dw) {
		if (w->live) {
			w->f.dw = w->r->f->dw;
		} else {
			w->dg = seg_get(w->r);
			if (!w->dg)
				return -etme_nomem;
			w->f.dw = w->dg;
		}
	}
	w->used = 1;
	return 0;
}

/* A write error of a live worker is the output's (the calling thread
 * reports it); returns -etme_io. */
static int dp_write_error(struct dp_worker *w)
{
	if (!w->r->f->w->err)
		w->r->f->w->err = w->w.err;
	return -etme_io;
}

/* After output: 1 to cut the piece here (its text is large enough). */
static int dp_end(struct dp_worker *w)
{
	if (w->w.err)
		return w->live ? dp_write_error(w) : -etme_nomem;
	if (wbuf_held(&w->w) < LISTING_PAR_PIECE)
		return 0;
	w->want = 1;
	return 1;
}

/* Per batch (TC2: about two elements), so the common case is tested
 * first: the piece begun, its text not full. */
static int dp_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct dp_worker *w = state;

	if (!w->used && dp_begin(w) < 0)
		return -etme_nomem;
	decfmt_elems(&w->f, els, n);
	if (wbuf_held(&w->w) < LISTING_PAR_PIECE && !w->w.err)
		return 0;
	return dp_end(w);
}

static int dp_item(void *state, const struct etm_item *it)
{
	struct dp_worker *w = state;

	if (dp_begin(w) < 0)
		return -etme_nomem;
	decfmt_item(&w->f, it);
	return dp_end(w);
}

/* The bytes a staged piece counts in the run's queue limits and chunk
 * lengths: the memory it holds (text staged by reference: 16 bytes a
 * segment, not the text's length), so that a chunk of listing text from
 * the range cache is as long as its memory allows rather than as its
 * text (the PTM loop trace: 38 KiB chunks of 40 MiB of text each, 1.7%
 * of the input decoded twice in their heads, workers waiting at each
 * hand-over). */
static size_t staged_bytes(struct dp_worker *w, struct wpiece *p)
{
	size_t held = wbuf_take_piece(&w->w, p), mem = wbuf_piece_mem(p);

	w->st_held += held;
	w->st_mem += mem;
	return mem;
}

/* A live piece's text, written: what it would hold staged, at the
 * worker's ratio so far (for the chunk lengths). */
static size_t live_bytes(struct dp_worker *w)
{
	double t = (double)(w->w.out - w->out);

	w->out = w->w.out;
	if (w->st_held)
		t = t * (double)w->st_mem / (double)w->st_held;
	return (size_t)t;
}

static int dp_cut(void *state, void **piece, size_t *bytes)
{
	struct dp_worker *w = state;
	struct dp_piece *p;

	*piece = NULL;
	*bytes = 0;
	if (!w->used)
		return 0;
	if (w->live) { /* the text is written, in order, from here */
		wbuf_flush(&w->w);
		if (w->w.err)
			return dp_write_error(w);
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -etme_nomem;
	if (w->live) /* for the chunk lengths (unqueued) */
		*bytes = live_bytes(w);
	else
		*bytes = staged_bytes(w, &p->text);
	p->head = w->f.head;
	if (!w->live) { /* live: the run goes on here (dp_live) */
		p->tail = w->f.run;
		w->f.run.n = 0;
	}
	w->f.head.n = 0;
	w->f.lead = 1;
	if (w->w.err) {
		piece_free(w->r, p);
		return -etme_nomem;
	}
	if (w->want) {
		/* our own cut: counters and diagnostics go on */
		w->want = 0;
	} else {
		p->n = w->f.n;
		memset(&w->f.n, 0, sizeof(w->f.n));
		p->dg = w->dg;
		w->dg = NULL;
		/* the library's cut: the next chunk starts at a sync */
		memset(w->f.lost, 0, sizeof(w->f.lost));
		w->f.dw = NULL;
		w->used = 0;
	}
	*piece = p;
	*bytes += sizeof(*p);
	return 0;
}

static int dp_apply(void *ctx, void *piece)
{
	struct dp_run *r = ctx;
	struct dp_piece *p = piece;
	int has_text = p->text.text || p->text.segs;

	decfmt_join_head(r->f, &p->head, has_text);
	if (has_text)
		wbuf_write_piece(r->f->w, &p->text);
	decfmt_join_tail(r->f, &p->tail);
	decfmt_add(&r->f->n, &p->n);
	if (p->dg)
		etm_diagset_append(r->f->dw, p->dg);
	return r->f->w->err ? -etme_io : 0;
}

/* The diagnostics of a live worker go straight to the whole, as with one
 * job (etm_diag_elems_byid() on known slots; a segment counts its lookups
 * of slots not written yet, 82 M of the 95 M ranges of the synthetic
 * ETMv3 branch trace): from its next piece on (dp_begin(); the segment
 * being filled, if any, goes with its piece). When it stops being live,
 * its next output starts a segment again; what it counted so far is in
 * the whole, in order. */
static void dp_live_off_diag(struct dp_worker *w)
{
	if (w->f.dw && w->f.dw == w->r->f->dw) {
		w->f.dw = NULL;
		w->used = 0;
	}
}

/* The worker delivers (@on) or no longer (etm_run_ops.live): its text
 * goes straight to the output file from its own buffer, as with one job;
 * the run of diagnostic lines the output ended with continues in its
 * formatter meanwhile, and its pieces carry only counters and
 * diagnostics. */
static int dp_live(void *state, int on)
{
	struct dp_worker *w = state;
	struct decfmt *f = w->r->f;

	if (on) {
		wbuf_flush(f->w); /* the output emitted so far */
		w->f.run = f->run;
		f->run.n = 0;
		w->w.fd = f->w->fd;
		w->w.sink = f->w->sink;
		w->w.err = f->w->err;
		w->out = w->w.out;
	} else { /* after its last piece: the run continues on */
		f->run = w->f.run;
		w->f.run.n = 0;
		w->w.fd = -1;
		w->w.sink = NULL;
		w->w.err = 0;
	}
	if (!on)
		dp_live_off_diag(w);
	w->f.split = !on;
	w->f.lead = 1;
	w->live = on;
	return w->w.err ? -etme_io : 0;
}

int listing_par_run(const struct listing_par *p, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs,
		    struct etm_run_stats *st)
{
	const struct run_parts_ops ops = {
		.open = dp_open,
		.close = dp_close,
		.item = dp_item,
		.elems = dp_elems,
		.live = dp_live,
		.cut = dp_cut,
		.apply = dp_apply,
		.free = piece_free,
		.budget = (size_t)LISTING_PAR_BUDGET * (jobs ? jobs : 1),
	};
	struct dp_run r = { .p = p, .f = p->f };
	struct dp_seg *sg;
	int ret;

	pthread_mutex_init(&r.mu, NULL);
	wpool_init(&r.blocks, ops.budget / WBLK_SIZE);
	ret = run_parts(dec, rd, rctx, size, jobs, &ops, &r, NULL, st);
	while ((sg = r.freeseg)) {
		r.freeseg = sg->next;
		etm_diagset_free(sg->dg);
		free(sg);
	}
	wpool_fini(&r.blocks);
	pthread_mutex_destroy(&r.mu);
	return ret;
}
