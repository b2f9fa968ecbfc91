/* run/runner.h - the parallel runner's shared state (run/runner.c): the
 * chunks cut from the input at sync points (run/plan.c), the pieces of
 * output their workers queue (run/worker.c), and the one-thread decode
 * (run/seq.c). Internal to run/. */
#ifndef ETM_RUN_RUNNER_H
#define ETM_RUN_RUNNER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>
#include <etmtrace/runstats.h>

struct etm_sbuf;

#define PAR_READ (256u << 10)      /* bytes read and pushed at once */
#define PAR_BATCH 256u             /* most elements per ops->elems call */
#define PAR_BUDGET (40u << 20)     /* default: pieces buffered over all chunks */
#define PAR_MIN_INPUT (128u << 10) /* smaller input: one thread */
#define PAR_MIN_CHUNK (16u << 10)
#define PAR_MAX_CHUNK (32u << 20)
#define PAR_FIRST_CHUNK (256u << 10)
#define PAR_TAIL_CHUNK (64u << 10) /* the last chunks shrink to this */
/* Most element bytes a chunk's head keeps raw (run/defer.c; and at most a
 * quarter of the chunk's queue limit, which they count in); its later
 * pieces are consumed in place. TC2's 64 KiB heads hold ~1.4 MiB of
 * elements; the synthetic loop traces' (4.4 elements per byte) 36 MiB,
 * copied and page-faulted in before the first convergence for nothing
 * where they converge within 1 KiB. */
#define PAR_RAW_HEAD (4u << 20)
/* ... and at most this many before any chunk has converged (the runner
 * does not know yet how far into a head that happens): the chunk started
 * blind (the second) had its whole 64 KiB head copied raw, 3.4 MB of
 * elements on the synthetic ETMv3 branch trace, page-faulted in, where the
 * predecessor converges within 1 KiB; TC2's chunks converge at most 34 KiB
 * into theirs, ~0.75 MiB of elements. */
#define PAR_RAW_BLIND (1u << 20)
/* Raw element buffers a worker keeps for its next raw pieces once their
 * elements are consumed (run/defer.c), at most (and at most PAR_RAW_HEAD
 * bytes of them): a buffer freed and a new one allocated for the next
 * piece had its pages faulted in again (glibc returns large blocks to the
 * system), a fault a 4 KiB page, and each of TC2's heads goes through ~1
 * MiB of raw elements in 22 pieces. */
#define PAR_RAW_SPARE 32

/* A queued piece of consumer output, or (raw) the elements of a stretch
 * of a chunk's head, not consumed yet (run/defer.c). */
struct ppiece {
	struct ppiece *next;
	void *p;
	size_t bytes;
	uint64_t end;         /* its items come from input before this
				   * (a checkpoint of the chunk's head), or
				   * UINT64_MAX after the head */
	struct etm_elem *raw; /* raw: the elements (p is NULL) */
	size_t nraw, rawcap;  /* ... of a buffer of rawcap */
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
	uint64_t skip_to;         /* the predecessor converged here: pieces
				   * ending at or before it are dropped */
	struct pckpt *ck;
	size_t nck, ckcap;
	int head_done;
	int defer;      /* its head is kept raw (run/defer.c) */
	size_t raw_max; /* element bytes at most (run/defer.c) */
	int turn;       /* it is the head chunk (atomic: read without the lock) */
};

struct prun {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_cond_t cv_caller; /* the calling thread waits on this one */
	const struct etm_decoder *tmpl;
	struct etm_decoder *tmpl_w; /* the same, for its packet count */
	etm_read_fn rd;
	void *rctx;
	const struct etm_run_ops *ops;
	void *octx;
	uint64_t size;
	int frames;         /* CoreSight frame-formatted input */
	unsigned cut_align; /* records cut by the source kind's finder
			     * (etm_decoder_cut_align(); 0: A-sync/frames) */
	int batch;          /* elements in batches (ops->elems) */
	unsigned jobs;
	size_t chunk_limit; /* queued piece bytes per chunk */
	struct pchunk *head, *tail;
	unsigned nlive;
	uint64_t next_start; /* start of the next chunk to create */
	unsigned nchunks;    /* chunks created */
	uint64_t rate_bytes, rate_out;
	uint64_t npackets; /* packets of the consumed chunks */
	int stop, err;
	/* figures (struct etm_run_stats) */
	double plan;             /* CPU time finding cut points */
	uint64_t head_redundant; /* chunk starts decoded twice */
	uint64_t nvoid, nclaimed;
	uint64_t conv_max;  /* the farthest into a chunk that its
				   * predecessor's decoder converged */
	unsigned nconv;     /* chunks converged with */
	double caller_wait; /* the calling thread waited for pieces */
	/* ordered delivery (run/live.c): the worker delivering its own
	 * output (NULL: the calling thread delivers), the calling thread
	 * emitting a piece it took off the head chunk's queue */
	struct pwork *live;
	int emitting;
	uint64_t emit_caller; /* piece bytes it emitted (figures) */
};

/* Per-worker scratch. */
struct pwork {
	struct prun *r;
	struct etm_decoder *d;
	void *cs; /* consumer state (ops->open) */
	uint8_t *buf;
	struct etm_sbuf *sb;
	struct pchunk *out;       /* chunk whose queue gets the output */
	uint64_t out_bytes;       /* piece bytes queued on out by this worker */
	int head;                 /* head phase: a piece per checkpoint */
	uint64_t piece_end;       /* the end tag of the piece being filled */
	int dirty;                /* a frame not known to be plain was seen */
	struct etm_run_thread st; /* figures (cpu and idle_end at the end) */
	double t_end;             /* etm_run_now() when it exited */
	/* head phase with elements in batches: the elements since the last
	 * checkpoint, kept raw (run/defer.c) */
	struct etm_elem *raw;
	size_t nraw, rawcap;
	int rawp; /* the piece being filled is kept raw */
	/* raw buffers consumed, kept for the next raw pieces (run/defer.c) */
	struct etm_elem *spare[PAR_RAW_SPARE];
	size_t spare_cap[PAR_RAW_SPARE];
	unsigned nspare;
	size_t spare_elems; /* their capacity in all */
	size_t raw_bytes;   /* element bytes kept raw in this head */
	int live;           /* this worker delivers (r->live), its consumer
			   * told so (ops->live) once cs_live */
	int cs_live;
	uint64_t emitted; /* piece bytes it emitted (figures) */
};

/* Monotonic wall time and the calling thread's CPU time, in seconds. */
double etm_run_now(void);
double etm_run_cpu(void);

/* Wake the threads waiting on the run's condition: the workers, and the
 * calling thread if @c is the chunk it delivers from (or NULL). Caller
 * holds the lock. (The calling thread waits for news of that chunk only,
 * not for every piece and checkpoint of every chunk.) */
void etm_run_notify(struct prun *r, const struct pchunk *c);

/* Make @c (or NULL) the head chunk, the one delivered from. Caller holds
 * the lock. */
void etm_run_set_head(struct prun *r, struct pchunk *c);

/* Stop the run with error @err (the first one is kept); caller holds the
 * lock. etm_run_fail_locked() takes it. */
void etm_run_fail(struct prun *r, int err);
void etm_run_fail_locked(struct prun *r, int err);

/* Free the pieces of list @n (unused: dropped). */
void etm_run_list_free(struct prun *r, struct ppiece *n);

/* Free chunk @c and the pieces still queued on it. Caller holds the lock
 * (ops->drop must not call back into the run). */
void etm_run_chunk_free(struct prun *r, struct pchunk *c);

/* Append the next chunk of the input (run/plan.c). Caller holds the lock.
 * NULL on no memory. */
struct pchunk *etm_run_chunk_create(struct prun *r, uint8_t *buf);
/* Whether the input has a cut point past its first PAR_MIN_CHUNK bytes
 * (records cut by a source kind's finder, r->cut_align, may have none:
 * ETMv1 samples without a usable BE/BD; then one thread decodes it). */
int etm_run_can_cut(struct prun *r);

/* A predecessor's decoder converged @dist bytes into its successor
 * chunk (run/plan.c keeps the figures). Caller holds the lock. */
void etm_run_converged(struct prun *r, uint64_t dist);

/* A worker thread (run/worker.c): takes chunks until the input is done;
 * @arg is its struct pwork. */
void *etm_run_worker(void *arg);
/* Free @w's decoder, read buffer, staging buffer and raw-head buffer and
 * clear their pointers (so a second call frees nothing): by the worker
 * when it ends, by the runner for a worker that never ran. */
void etm_run_work_free(struct pwork *w);

/* Wait for the run's condition (caller holds the lock), timed. */
void etm_run_wait(struct pwork *w);

/* The consumer's output since its last cut as a new piece ending at
 * @end; NULL with *@ret 0 if there is none, -1 if the run stopped. */
struct ppiece *etm_run_cut(struct pwork *w, uint64_t end, int *ret);

/* Queue @n on chunk @c (caller holds the lock). */
void etm_run_enqueue(struct prun *r, struct pchunk *c, struct ppiece *n);

/* Ordered delivery by the worker whose chunk is next in order
 * (run/live.c): at a cut of piece @n (@last: the last of the worker's
 * stretch), if w->out is the head chunk and no one else is delivering,
 * the worker emits the chunk's queued pieces and @n itself and becomes
 * live (ops->live): its consumer writes straight out until @last, so the
 * text of the chunk being delivered never goes through memory and the
 * calling thread has nothing to do for it. Returns 1 if @n was emitted
 * (or freed), 0 if it is to be queued (nothing done), -1 to stop. */
int etm_run_live_cut(struct pwork *w, struct ppiece *n, int last);
/* One step of ordered delivery from the head chunk, by the calling
 * thread or (@done_only) a worker between chunks, for chunks whose worker
 * has finished them (with ops->live, the worker of a chunk in progress
 * delivers it itself): drop a chunk that is void or delivered, or emit its
 * next piece (the piece's bytes added to *@bytes), unless someone else is
 * delivering. Caller holds the lock (released while emitting). Returns 1
 * after a step, 0 if there is nothing to do now, -1 when the decode is
 * delivered (or stopped). */
int etm_run_deliver_step(struct prun *r, int done_only, uint64_t *bytes);

/* Whether w may start delivering (caller holds the lock). */
int etm_run_may_deliver(const struct pwork *w);
/* Whether w is to cut its output now to start delivering (its chunk has
 * become the head chunk since its last cut; without the lock). Per batch
 * of elements: two loads unless due. */
static inline int etm_run_live_due(const struct pwork *w)
{
	const struct pchunk *c = w->out;

	return !w->live && __atomic_load_n(&c->turn, __ATOMIC_ACQUIRE) &&
	       w->r->ops->live && !w->rawp &&
	       (!w->head || w->piece_end > c->skip_to);
}
/* The worker stops being live (after its last cut, or failing). */
void etm_run_live_end(struct pwork *w);

/* Deferred consumption of a chunk's head (run/defer.c): in its head phase
 * a worker keeps the elements raw, a piece per checkpoint (up to
 * PAR_RAW_HEAD bytes of them; the head's later pieces are consumed in
 * place, queued after the raw ones), since the predecessor's decoder
 * usually converges with it further on and the output before that point
 * is dropped; the predecessor's worker, once converged at @pos, consumes
 * the raw pieces after @pos (its consumer state is at a cut, as the
 * chunk's would be there) and drops the rest, so that no output is
 * formatted twice. */
/* Whether chunk @c's head is to be kept raw: elements in batches, and
 * the chunks so far converged far enough into their heads that the
 * consumption saved is worth the copy. Caller holds the lock. */
int etm_run_defer_pays(const struct prun *r, const struct pchunk *c);
/* The most element bytes a chunk's head, started now, keeps raw (caller
 * holds the lock). */
size_t etm_run_defer_max(const struct prun *r);
/* Keep @n elements raw. Returns 0 or -etme_nomem. */
int etm_run_defer_add(struct pwork *w, const struct etm_elem *els, size_t n);
/* Queue the raw elements since the last checkpoint on w->out as a piece
 * ending at w->piece_end. Returns 0 or -1 to stop. */
int etm_run_defer_flush(struct pwork *w);
/* Forget the raw elements not queued. */
void etm_run_defer_discard(struct pwork *w);
/* A buffer for the next raw piece, of *@cap elements (the worker's
 * capacity so far): the largest spare one if there is one (*@cap set to
 * its capacity; its contents are old elements, none of them counted in
 * nraw), else a new one. NULL on no memory. */
struct etm_elem *etm_run_spare_take(struct pwork *w, size_t *cap);
/* Keep raw buffer @x (NULL: nothing) of @cap elements as a spare, or
 * free it if the worker keeps PAR_RAW_SPARE or PAR_RAW_HEAD bytes of
 * them already. */
void etm_run_spare_put(struct pwork *w, struct etm_elem *x, size_t cap);
/* Free the worker's spare raw buffers. */
void etm_run_defer_free(struct pwork *w);
/* Successor chunk @s converged at @pos: wait for its head, consume its
 * raw pieces after @pos into pieces in their place. Returns 0 or -1 to
 * stop. */
int etm_run_defer_consume(struct pwork *w, struct pchunk *s, uint64_t pos);

/* Decode the whole input on the calling thread (run/seq.c): items straight
 * to @fn (etm_decoder_run) or, if r->ops, through them. */
int etm_run_seq(struct prun *r, etm_item_fn fn, void *ctx);

/* Decode @d's input on @jobs workers through @ops (or on this thread: @ops,
 * or @fn if @ops is NULL); the figures to *@st if not NULL. */
int etm_run_decode(struct etm_decoder *d, etm_read_fn rd, void *rctx,
		   uint64_t size, unsigned jobs, const struct etm_run_ops *ops,
		   void *octx, etm_item_fn fn, void *fctx,
		   struct etm_run_stats *st);

#endif
