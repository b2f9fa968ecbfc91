/* run/parts.h - a parallel run (etm_decoder_run_ops_stats()) whose workers
 * fill parts of a type the caller supplies and whose calling thread applies
 * them in input order: the plumbing of etm_cov_run(), etm_profile_run()
 * and etm_listing_run() in one place. At each cut the worker's part is
 * handed out; in input order it is applied to the whole and freed; a part
 * the run does not use (a stretch decoded again by its predecessor's
 * decoder, a failed run) is freed unapplied. An optional side consumer
 * (struct etm_cov_run_side, e.g. the CLI's diagnostics) is fed the same
 * elements into a side part of its own that travels with the caller's
 * part and is appended right after it. Without a side consumer the
 * worker's callbacks are the run's own (nothing is added per element). */
#ifndef ETM_RUN_PARTS_H
#define ETM_RUN_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>
#include <etmtrace/runstats.h>

struct etm_cov_run_side;

/* The caller's part type and worker. open() gets run_parts()'s @ctx;
 * close(), item(), elems() and live() are as in struct etm_run_ops. */
struct run_parts_ops {
	void *(*open)(void *ctx);
	void (*close)(void *state);
	int (*item)(void *state, const struct etm_item *it);
	int (*elems)(void *state, const struct etm_elem *els, size_t n);
	/* Optional; only without a side consumer. */
	int (*live)(void *state, int on);
	/* Worker thread: the part filled since the previous cut into
	 * *@part (NULL: none), its memory in *@bytes; the state begins the
	 * next part. On an error it hands out nothing. */
	int (*cut)(void *state, void **part, size_t *bytes);
	/* In input order, one at a time (as etm_run_ops's emit()): @part
	 * into the whole. It is freed (free()) afterwards in any case. */
	int (*apply)(void *ctx, void *part);
	/* Any thread: free a part, applied or not. Must not call into the
	 * run. */
	void (*free)(void *ctx, void *part);
	size_t budget; /* as etm_run_ops's (0: its default) */
};

/* etm_decoder_run_ops_stats() of @dec over the @size bytes read through
 * @rd with the parts of @po (@ctx passed to open, apply and free) and
 * @side (NULL: none; otherwise open, elems, append and free are
 * required, and @po has no live()). Returns -etme_invalid for a @side or
 * @po so lacking, -etme_nomem, or as etm_decoder_run_ops_stats(). */
int run_parts(struct etm_decoder *dec, etm_read_fn rd, void *rctx,
	      uint64_t size, unsigned jobs, const struct run_parts_ops *po,
	      void *ctx, const struct etm_cov_run_side *side,
	      struct etm_run_stats *st);

#endif
