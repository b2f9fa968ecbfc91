/* run/parts.c - parts a parallel run's workers fill and the calling
 * thread applies in input order (run/parts.h). */
#include <stdlib.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>

#include "run/parts.h"

struct rp_run {
	const struct run_parts_ops *po;
	void *ctx;
	const struct etm_cov_run_side *side;
};

/* With a side consumer: a worker (the caller's state, the side part being
 * filled) and a part (the caller's, the side's). */
struct rp_worker {
	const struct rp_run *r;
	void *state;
	void *side;
};

struct rp_part {
	void *part;
	void *side;
};

static void *rp_open(void *ctx)
{
	const struct rp_run *r = ctx;

	return r->po->open(r->ctx);
}

static int rp_emit(void *ctx, void *part)
{
	const struct rp_run *r = ctx;
	int err = r->po->apply(r->ctx, part);

	r->po->free(r->ctx, part);
	return err < 0 ? err : 0;
}

static void rp_drop(void *ctx, void *part)
{
	const struct rp_run *r = ctx;

	r->po->free(r->ctx, part);
}

/* ---- with a side consumer ------------------------------------------------ */

static void rs_part_free(const struct rp_run *r, struct rp_part *p)
{
	if (!p)
		return;
	if (p->part)
		r->po->free(r->ctx, p->part);
	if (p->side)
		r->side->free(r->side->ctx, p->side);
	free(p);
}

static void rs_close(void *state)
{
	struct rp_worker *w = state;

	if (w->state)
		w->r->po->close(w->state);
	if (w->side)
		w->r->side->free(w->r->side->ctx, w->side);
	free(w);
}

static void *rs_open(void *ctx)
{
	const struct rp_run *r = ctx;
	struct rp_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->r = r;
	w->side = r->side->open(r->side->ctx);
	w->state = w->side ? r->po->open(r->ctx) : NULL;
	if (!w->state) {
		rs_close(w);
		return NULL;
	}
	return w;
}

static int rs_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct rp_worker *w = state;
	int r = w->r->side->elems(w->side, els, n);

	return r < 0 ? r : w->r->po->elems(w->state, els, n);
}

static int rs_item(void *state, const struct etm_item *it)
{
	struct rp_worker *w = state;

	if (it->kind == etm_item_elem) {
		int r = w->r->side->elems(w->side, &it->elem, 1);

		if (r < 0)
			return r;
	}
	return w->r->po->item(w->state, it);
}

static int rs_cut(void *state, void **part, size_t *bytes)
{
	struct rp_worker *w = state;
	const struct rp_run *r = w->r;
	struct rp_part *p = calloc(1, sizeof(*p));
	int err;

	*part = NULL;
	if (!p)
		return -etme_nomem;
	*bytes = 0;
	err = r->po->cut(w->state, &p->part, bytes);
	p->side = w->side;
	w->side = r->side->open(r->side->ctx);
	if (err >= 0 && !w->side)
		err = -etme_nomem;
	if (err < 0) {
		rs_part_free(r, p);
		return err;
	}
	*part = p;
	*bytes += sizeof(*p);
	return 0;
}

static int rs_emit(void *ctx, void *part)
{
	const struct rp_run *r = ctx;
	struct rp_part *p = part;
	int err = p->part ? r->po->apply(r->ctx, p->part) : 0;
	int e = r->side->append(r->side->ctx, p->side);

	if (e < 0 && err >= 0)
		err = e;
	rs_part_free(r, p);
	return err < 0 ? err : 0;
}

static void rs_drop(void *ctx, void *part)
{
	rs_part_free(ctx, part);
}

int run_parts(struct etm_decoder *dec, etm_read_fn rd, void *rctx,
	      uint64_t size, unsigned jobs, const struct run_parts_ops *po,
	      void *ctx, const struct etm_cov_run_side *side,
	      struct etm_run_stats *st)
{
	struct rp_run r = { .po = po, .ctx = ctx, .side = side };
	struct etm_run_ops ops = { .open = rp_open, .emit = rp_emit, .drop = rp_drop };

	if (!po || !po->open || !po->close || !po->item || !po->cut ||
	    !po->apply || !po->free ||
	    (side && (!side->open || !side->elems || !side->append ||
		      !side->free || po->live)))
		return -etme_invalid;
	ops.budget = po->budget;
	if (side) {
		ops.open = rs_open;
		ops.close = rs_close;
		ops.item = rs_item;
		ops.elems = po->elems ? rs_elems : NULL;
		ops.cut = rs_cut;
		ops.emit = rs_emit;
		ops.drop = rs_drop;
	} else {
		ops.close = po->close;
		ops.item = po->item;
		ops.elems = po->elems;
		ops.live = po->live;
		ops.cut = po->cut;
	}
	return etm_decoder_run_ops_stats(dec, rd, rctx, size, jobs, &ops, &r,
					 st);
}
