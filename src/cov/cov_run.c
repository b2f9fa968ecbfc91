/* cov/cov_run.c - coverage accumulated on the decoding worker threads
 * (etm_cov_run()): each worker accumulates its stretch of the trace into a
 * coverage part (etm_cov_set_part()), with the caller's side consumer
 * (e.g. diagnostics) fed the same elements; the parts are joined in input
 * order (etm_cov_append()), so the result equals a single-threaded run. */
#include <stdlib.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>

#include "cov/cov_int.h"
#include "run/parts.h"

struct cp_run {
	struct etm_cov *total;
};

/* A worker's part: its coverage (run/parts.h adds the side consumer's). */
struct cp_part {
	struct etm_cov *cov;
};

struct cp_state {
	struct cp_run *r;
	struct cp_part *part;
	/* the classifications of all the worker's parts */
	struct cov_cls_cache *cls;
};

static void cp_part_free(void *ctx, void *part)
{
	struct cp_part *p = part;

	(void)ctx;
	if (p) {
		etm_cov_free(p->cov);
		free(p);
	}
}

static struct cp_part *cp_part(const struct cp_run *r)
{
	struct cp_part *p = calloc(1, sizeof(*p));
	unsigned id;

	if (p)
		p->cov = etm_cov_alloc();
	if (!p || !p->cov || etm_cov_set_part(p->cov) < 0) {
		cp_part_free(NULL, p);
		return NULL;
	}
	for (id = 0; id < COV_MAX_ID; id++) /* the sources of the whole */
		if (r->total->src[id].proto)
			etm_cov_set_source(p->cov, id, r->total->src[id].proto,
					   r->total->src[id].img);
	return p;
}

static void *cp_open(void *ctx)
{
	struct cp_state *st = calloc(1, sizeof(*st));

	if (st) {
		st->r = ctx;
		st->part = cp_part(ctx);
		st->cls = calloc(1, sizeof(*st->cls));
	}
	if (st && (!st->part || !st->cls)) {
		cp_part_free(NULL, st->part);
		free(st->cls);
		free(st);
		return NULL;
	}
	st->part->cov->cls = st->cls;
	return st;
}

static int cp_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct cp_state *st = state;
	struct cp_part *p = st->part;
	int r = etm_cov_add_elems(p->cov, els, n);

	return r < 0 ? r : 0;
}

static int cp_item(void *state, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? cp_elems(state, &it->elem, 1) : 0;
}

/* Hand out the worker's part; its memo (counts applied) goes on in the
 * worker's next part, with the pages its entries refer to (a part is a
 * few KiB of trace: with an empty memo, every distinct range would be
 * walked again in each part): a copy of those it counted in, the page
 * itself if it counted nothing there. Its size is estimated from the
 * pages it keeps and its map entries, without reading the pages. */
static int cp_cut(void *state, void **piece, size_t *bytes)
{
	struct cp_state *st = state;
	struct cp_part *p = st->part;
	struct etm_cov *c = p->cov;
	int err;

	c->cls = NULL; /* the worker's: the part leaves it */
	st->part = cp_part(st->r);
	if (!st->part) {
		st->part = p; /* freed by cp_close() */
		return -etme_nomem;
	}
	st->part->cov->cls = st->cls;
	err = cov_memo_carry(c, st->part->cov);
	if (err < 0) {
		cp_part_free(NULL, p);
		return err;
	}
	/* the pages that went on to the next part are not this one's */
	*bytes = c->npages * 20000 + (c->ranges.n + c->branches.n) * 48;
	*piece = p;
	return 0;
}

static int cp_apply(void *ctx, void *piece)
{
	struct cp_run *r = ctx;
	struct cp_part *p = piece;

	return etm_cov_append(r->total, p->cov);
}

static void cp_close(void *state)
{
	struct cp_state *st = state;

	cp_part_free(NULL, st->part);
	free(st->cls);
	free(st);
}

int etm_cov_run(struct etm_cov *cov, struct etm_decoder *dec, etm_read_fn rd,
		void *rctx, uint64_t size, unsigned jobs,
		const struct etm_cov_run_side *side)
{
	static const struct run_parts_ops ops = {
		.open = cp_open,
		.close = cp_close,
		.item = cp_item,
		.elems = cp_elems,
		.cut = cp_cut,
		.apply = cp_apply,
		.free = cp_part_free,
	};
	struct cp_run r = { .total = cov };

	if (!cov || cov->part || !dec || !rd)
		return -etme_invalid;
	return run_parts(dec, rd, rctx, size, jobs, &ops, &r, side, NULL);
}
