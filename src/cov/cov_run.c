/* cov/cov_run.c - coverage accumulated on the decoding worker threads
 * (etm_cov_run()): each worker accumulates its stretch of the trace into a
 * coverage part (etm_cov_set_part()), with the caller's side consumer
 * (e.g. diagnostics) fed the same elements; the parts are joined in input
 * order (etm_cov_append()), so the result equals a single-threaded run. */
#include <stdlib.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>

#include "cov/cov_int.h"

struct cp_run {
	struct etm_cov *total;
	const struct etm_cov_run_side *side;
};

/* A worker's part: the coverage and the side consumer's state. */
struct cp_part {
	struct etm_cov *cov;
	void *side;
};

struct cp_state {
	struct cp_run *r;
	struct cp_part *part;
	/* the classifications of all the worker's parts */
	struct cov_cls_cache *cls;
};

static void cp_part_free(const struct cp_run *r, struct cp_part *p)
{
	if (p) {
		etm_cov_free(p->cov);
		if (p->side)
			r->side->free(r->side->ctx, p->side);
		free(p);
	}
}

static struct cp_part *cp_part(const struct cp_run *r)
{
	struct cp_part *p = calloc(1, sizeof(*p));
	unsigned id;

	if (p) {
		p->cov = etm_cov_alloc();
		if (r->side)
			p->side = r->side->open(r->side->ctx);
	}
	if (!p || !p->cov || (r->side && !p->side) ||
	    etm_cov_set_part(p->cov) < 0) {
		cp_part_free(r, p);
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
		cp_part_free(ctx, st->part);
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
	int r;

	if (p->side) {
		r = st->r->side->elems(p->side, els, n);
		if (r < 0)
			return r;
	}
	r = etm_cov_add_elems(p->cov, els, n);
	return r < 0 ? r : 0;
}

static int cp_item(void *state, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? cp_elems(state, &it->elem, 1) : 0;
}

/* Hand out the worker's part; its memo (counts applied) goes on in the
 * worker's next part, with the pages its entries refer to (a part is a
 * few KiB of trace: with an empty memo, every distinct range would be
 * walked again in each part). Its size is estimated from its pages and map entries, without
 * reading the pages. */
static int cp_cut(void *state, void **piece, size_t *bytes)
{
	struct cp_state *st = state;
	struct etm_cov *c = st->part->cov;

	*bytes = c->npages * 20000 + (c->ranges.n + c->branches.n) * 48;
	*piece = st->part;
	c->cls = NULL; /* the worker's: the part leaves it */
	st->part = cp_part(st->r);
	if (!st->part)
		return -etme_nomem;
	st->part->cov->cls = st->cls;
	return cov_memo_carry(c, st->part->cov);
}

static int cp_emit(void *ctx, void *piece)
{
	struct cp_run *r = ctx;
	struct cp_part *p = piece;
	int err = etm_cov_append(r->total, p->cov);

	if (p->side) {
		int e = r->side->append(r->side->ctx, p->side);

		if (e < 0 && err >= 0)
			err = e;
	}
	cp_part_free(r, p);
	return err < 0 ? err : 0;
}

static void cp_drop(void *ctx, void *piece)
{
	cp_part_free(ctx, piece);
}

static void cp_close(void *state)
{
	struct cp_state *st = state;

	cp_part_free(st->r, st->part);
	free(st->cls);
	free(st);
}

int etm_cov_run(struct etm_cov *cov, struct etm_decoder *dec, etm_read_fn rd,
		void *rctx, uint64_t size, unsigned jobs,
		const struct etm_cov_run_side *side)
{
	static const struct etm_run_ops ops = {
		.open = cp_open,
		.item = cp_item,
		.cut = cp_cut,
		.emit = cp_emit,
		.drop = cp_drop,
		.close = cp_close,
		.elems = cp_elems,
	};
	struct cp_run r = { .total = cov, .side = side };

	if (!cov || cov->part || !dec || !rd ||
	    (side && (!side->open || !side->elems || !side->append ||
		      !side->free)))
		return -etme_invalid;
	return etm_decoder_run_ops(dec, rd, rctx, size, jobs, &ops, &r);
}
