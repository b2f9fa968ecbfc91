/* profile/prof_part.c - the profile of a parallel decode
 * (etm_profile_run()): each worker digests its stretch of the trace into a
 * part - per range, the function lookups, the walk of a range that
 * crosses functions, the line counts and whether its last instruction
 * calls or returns, none of which depends on the call stacks - and the
 * calling thread applies the parts in input order to the profile
 * (prof_range_op(); other elements as they are), so the call stacks, the
 * calling-context tree (its node order too) and every report equal those
 * of one thread. The worker also runs the call stacks of its ops from an
 * unknown start (prof_seg.c): stretches that need no frame below it are
 * spliced onto the running stack at once (doc/profile.md, "Parallel
 * runs"). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "profile/prof_int.h"
#include "profile/prof_seg.h"
#include "run/parts.h"

/* A source line row's instructions (callgrind line positions). */
struct pp_line {
	uint32_t row, n;
};

/* A worker's stretch digested: ranges as ops (their runs apart), other
 * elements kept whole (raw), line counts apart (they add up in any
 * order); run/parts.h adds the side consumer's part. */
struct pp_part {
	struct prof_op *op;
	size_t nop, capop;
	struct prof_run *run;
	size_t nrun, caprun;
	struct etm_elem *raw;
	size_t nraw, capraw;
	struct pp_line *line;
	size_t nline, capline;
	uint64_t noline;
	uint64_t gaps, errors; /* of the elements that only count (pp_fold()) */
	uint8_t seen[32];      /* sources with a raw element in the part (an
			   * element that only creates its source once) */
	struct pseg_out seg;   /* stretches of the ops spliced whole */
	struct prof_op *vop;   /* the ops outside the segments, in order
				* (pp_dense()); NULL: none made */
	size_t nvop;
};

struct pp_ctx {
	struct etm_profile *total;
};

/* A worker: its part, and a profile of its own for the lookups (the
 * sources' images, function memos and return classifications). */
struct pp_state {
	struct pp_ctx *c;
	struct pp_part *part;
	struct etm_profile *w;
	int raw_ranges;          /* images change by Context ID: ranges go whole */
	int join;                /* ranges may join (pp_join()) */
	int fold;                /* gaps only count (pp_fold()) */
	struct pseg_builder *sb; /* the ops' segments (NULL: none) */
};

static void pp_part_free(void *ctx, void *part)
{
	struct pp_part *pt = part;

	(void)ctx;
	if (!pt)
		return;
	free(pt->op);
	free(pt->run);
	free(pt->raw);
	free(pt->line);
	pseg_out_free(&pt->seg);
	free(pt->vop);
	free(pt);
}

static struct pp_part *pp_part_new(void)
{
	return calloc(1, sizeof(struct pp_part));
}

/* Room for @n more ops (each element makes at most one). */
static int pp_reserve(struct pp_part *pt, size_t n)
{
	struct prof_op *op = etm_grow(pt->op, &pt->capop, pt->nop + n,
				      sizeof(*op), 1024);

	if (!op)
		return -etme_nomem;
	pt->op = op;
	return 0;
}

static int pp_raw(struct pp_part *pt, const struct etm_elem *el)
{
	struct etm_elem *e = etm_grow(pt->raw, &pt->capraw, pt->nraw + 1,
				      sizeof(*e), 64);
	struct prof_op *op = &pt->op[pt->nop++];

	if (!e)
		return -etme_nomem;
	pt->raw = e;
	pt->raw[pt->nraw++] = *el;
	memset(op, 0, sizeof(*op));
	op->id = el->id;
	op->flags = PROF_OP_RAW;
	op->f = PROF_NONE;
	return 0;
}

static int pp_run(struct pp_part *pt, struct prof_op *op, uint32_t f,
		  uint32_t n, uint64_t a0)
{
	struct prof_run *r = etm_grow(pt->run, &pt->caprun, pt->nrun + 1,
				      sizeof(*r), 256);

	if (!r)
		return -etme_nomem;
	pt->run = r;
	r = &pt->run[pt->nrun++];
	r->a0 = a0;
	r->f = f;
	r->n = n;
	op->nrun++;
	return 0;
}

static int pp_line(struct pp_part *pt, uint32_t row)
{
	struct pp_line *l;

	if (pt->nline && pt->line[pt->nline - 1].row == row) {
		pt->line[pt->nline - 1].n++;
		return 0;
	}
	l = etm_grow(pt->line, &pt->capline, pt->nline + 1, sizeof(*l), 256);
	if (!l)
		return -etme_nomem;
	pt->line = l;
	pt->line[pt->nline].row = row;
	pt->line[pt->nline++].n = 1;
	return 0;
}

/* prof_walk() without the counting: @el's runs of one function into
 * @op's runs, its instructions' line rows into the part. */
static int pp_walk(struct etm_profile *w, struct prof_src *s,
		   struct pp_part *pt, struct prof_op *op,
		   const struct etm_elem *el)
{
	struct etm_walk wk;
	struct etm_insn in;
	uint32_t f = PROF_NONE, n = 0, done = 0;
	uint64_t a0 = el->start;
	int r = 0;

	if (etm_walk_init(&wk, s->img, el) < 0)
		return 0;
	while (r >= 0 && etm_walk_next(&wk, &in) == 0) {
		uint32_t g = prof_func_of(w, s, in.addr);

		if (w->lines) {
			long row = etm_symbols_line_find(w->syms, in.addr);

			if (row >= 0)
				r = pp_line(pt, (uint32_t)row);
			else
				pt->noline++;
		}
		if (g != f) {
			if (n && r >= 0)
				r = pp_run(pt, op, f, n, a0);
			done += n;
			n = 0;
			a0 = in.addr;
		}
		f = g;
		n++;
	}
	if (r < 0)
		return r;
	if (done + n < el->ninsn) { /* opcodes not readable: by address */
		if (f == PROF_NONE) {
			f = prof_func_of(w, s, el->last_addr);
			a0 = el->last_addr;
		}
		pt->noline += w->lines ? el->ninsn - done - n : 0;
		n = el->ninsn - done;
	}
	return n ? pp_run(pt, op, f, n, a0) : 0;
}

/* The range joins op @a, the op before it, when applying them one after
 * the other is applying their sum: both whole in function @f of one
 * source, @a neither calling nor returning (after @a's count the function
 * runs and nothing is pending: the range's count is an addition). Even
 * at the node or depth bound, where the function's node is not created,
 * a second entry changes nothing. Not with a timeline (per-range times). */
static int pp_join(struct prof_op *a, const struct etm_elem *el, uint32_t f,
		   uint32_t cyc, uint8_t flags)
{
	struct prof_op j = *a; /* one store back: no uint8_t stores to alias */

	if (j.f != f || j.id != el->id ||
	    (j.flags & (PROF_OP_RAW | PROF_OP_CALL | PROF_OP_RET)) ||
	    j.ninsn + el->ninsn < j.ninsn || j.cyc + cyc < j.cyc)
		return 0;
	j.ninsn += el->ninsn;
	j.cyc += cyc;
	j.last = el->last_addr;
	j.size = el->last_size;
	j.flags |= flags;
	*a = j;
	return 1;
}

/* prof_range()'s lookups for @el into an op of the part (room reserved),
 * or into the op before it (pp_join()). */
static int pp_range(struct pp_state *st, const struct etm_elem *el)
{
	struct etm_profile *w = st->w;
	struct prof_src *s = w->src[el->id];
	struct pp_part *pt = st->part;
	struct prof_op *op;
	uint32_t f, cyc = el->has_cycles ? el->cycles : 0;
	uint8_t flags;
	int whole;

	if (!s && !(s = prof_src_get(w, el->id)))
		return -etme_nomem;
	f = prof_func_of(w, s, el->start);
	whole = !w->lines && (el->last_addr - s->fn_first <= s->fn_span ||
			      (f == w->unknown ? etm_symbols_find(w->syms, el->last_addr) < 0 :
						 prof_func_of(w, s, el->last_addr) == f));
	flags = (uint8_t)(prof_last_of(s, el) | (el->has_cycles ? PROF_OP_CYC : 0));
	if (whole && st->join && pt->nop &&
	    pp_join(&pt->op[pt->nop - 1], el, f, cyc, flags))
		return 0;
	op = &pt->op[pt->nop++];
	*op = (struct prof_op){ .start = el->start,
				.last = el->last_addr,
				.ninsn = el->ninsn,
				.cyc = cyc,
				.f = whole ? f : PROF_NONE,
				.id = el->id,
				.flags = flags,
				.size = el->last_size };
	return whole ? 0 : pp_walk(w, s, pt, op, el);
}

/* Whether prof_elem() does anything with @el besides creating its source. */
static int pp_matters(const struct etm_profile *p, const struct etm_elem *el)
{
	switch (el->kind) {
	case etmk_range:
	case etmk_exception:
	case etmk_exc_return:
	case etmk_context:
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_nomem:
	case etmk_error:
	case etmk_piece:
	case etmk_buffer_end:
		return 1;
	case etmk_timestamp:
	case etmk_cycle_count:
		return p->tl != NULL;
	default:
		return 0;
	}
}

/* Whether @el, of a source the part has seen, only counts without a
 * call trace or a timeline (prof_quiet(), prof_gap(): a gap adds to the
 * gap and error counts, an end of buffer does nothing): then it is
 * counted in the part, not kept, and its counts added in any order. */
static int pp_fold(struct pp_part *pt, const struct etm_elem *el)
{
	switch (el->kind) {
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_nomem:
	case etmk_error:
		pt->gaps++;
		pt->errors += el->kind == etmk_error;
		return 1;
	case etmk_buffer_end:
		return 1;
	default:
		return 0;
	}
}

static int pp_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct pp_state *st = state;
	struct pp_part *pt = st->part;
	size_t i;
	int r;

	if (pp_reserve(pt, n) < 0)
		return -etme_nomem;
	for (i = 0; i < n; i++) {
		const struct etm_elem *el = &els[i];
		uint8_t bit = (uint8_t)(1u << (el->id & 7));

		if (el->kind == etmk_range && !st->raw_ranges) {
			r = pp_range(st, el);
		} else if (st->fold && (pt->seen[el->id >> 3] & bit) &&
			   pp_fold(pt, el)) {
			r = 0;
		} else if (pp_matters(st->c->total, el) ||
			   !(pt->seen[el->id >> 3] & bit)) {
			r = pp_raw(pt, el);
			pt->seen[el->id >> 3] |= bit;
		} else {
			r = 0;
		}
		if (r < 0)
			return r;
	}
	return 0;
}

static int pp_item(void *state, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? pp_elems(state, &it->elem, 1) : 0;
}

static void pp_close(void *state)
{
	struct pp_state *st = state;

	pp_part_free(st->c, st->part);
	etm_profile_free(st->w);
	pseg_builder_free(st->sb);
	free(st);
}

/* The worker's profile: the sources of the whole, with their images. */
static struct etm_profile *pp_worker_profile(const struct etm_profile *t)
{
	struct etm_profile *w = etm_profile_alloc(t->syms);
	unsigned id;

	if (!w)
		return NULL;
	w->lines = t->lines;
	for (id = 0; id < 256; id++)
		if (t->src[id] && etm_profile_add_source(w, (uint8_t)id, t->src[id]->img,
							 t->src[id]->m_profile) < 0) {
			etm_profile_free(w);
			return NULL;
		}
	return w;
}

static void *pp_open(void *ctx)
{
	struct pp_ctx *c = ctx;
	struct pp_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->c = c;
	st->raw_ranges = c->total->ctx_img != NULL;
	st->join = c->total->tl == NULL;
	st->fold = !c->total->tl && !c->total->ct;
	st->w = pp_worker_profile(c->total);
	st->part = pp_part_new();
	if (st->fold && !st->raw_ranges && !c->total->lines && c->total->splice)
		st->sb = pseg_builder_new();
	if (!st->w || !st->part) {
		pp_close(st);
		return NULL;
	}
	return st;
}

/* The ops the apply reads when every segment is spliced - those outside
 * the segments - copied in order into one dense array, so that the apply
 * reads one stream instead of an op here and there in the part (each a
 * cache miss: a worker wrote the part on its core long before the apply
 * reads it). At most as many ops again as the part has. Only when no
 * segment is mixed (each is then ops [op0, op1) of its source alone);
 * optional: without it the apply reads the ops where they are. */
static void pp_dense(struct pp_part *pt)
{
	size_t j, i = 0, n = 0, cov = 0;

	for (j = 0; j < pt->seg.nseg; j++) {
		if (pt->seg.seg[j].mixed)
			return;
		cov += pt->seg.seg[j].op1 - pt->seg.seg[j].op0;
	}
	if (!pt->seg.nseg || !(pt->vop = malloc((pt->nop - cov + 1) * sizeof(*pt->vop))))
		return;
	for (j = 0; j <= pt->seg.nseg; j++) {
		size_t to = j < pt->seg.nseg ? pt->seg.seg[j].op0 : pt->nop;

		memcpy(pt->vop + n, pt->op + i, (to - i) * sizeof(*pt->op));
		n += to - i;
		i = j < pt->seg.nseg ? pt->seg.seg[j].op1 : pt->nop;
	}
	pt->nvop = n;
}

static int pp_cut(void *state, void **piece, size_t *bytes)
{
	struct pp_state *st = state;
	struct pp_part *pt = st->part;

	if (st->sb && pseg_build(st->sb, pt->op, pt->nop, &pt->seg) == 0)
		pp_dense(pt); /* optional: without segments the ops are applied */
	*bytes = pseg_out_bytes(&pt->seg) + pt->capop * sizeof(*pt->op) + pt->caprun * sizeof(*pt->run) +
		 (pt->vop ? (pt->nvop + 1) * sizeof(*pt->vop) : 0) +
		 pt->capraw * sizeof(*pt->raw) + pt->capline * sizeof(*pt->line);
	*piece = pt;
	st->part = pp_part_new();
	if (!st->part) {
		st->part = pt; /* freed by pp_close() */
		*piece = NULL;
		return -etme_nomem;
	}
	return 0;
}

/* prof_range_op() of @op when it is whole in one function and, once a
 * pending return is resolved (at the top frame: here), that function runs
 * or is entered after a call (no timeline, no call trace: the caller
 * checks the timeline). Returns 1 when applied, 0 (nothing changed but
 * the resolved return: prof_range_op() does the rest), <0 on error. */
static inline int pp_op_fast(struct etm_profile *p, const struct prof_op *op)
{
	struct prof_src *s = p->src[op->id];
	struct prof_stack *k;
	struct prof_node *nd;

	if (op->f == PROF_NONE || !s || !(k = s->cur))
		return 0;
	if (k->pend == prof_pend_ret) {
		int r;

		k->pend = prof_pend_none;
		r = prof_return_top(p, k, op->start) ? 0 :
						       prof_return(p, op->id, s, k, op->start);
		if (r < 0)
			return r;
	}
	if (!k->cur) {
		if (p->ct)
			return 0;
		k->cur = prof_enter_callee(p, k, op->f);
	} else if (p->nodes[k->cur].func != op->f) {
		return 0;
	}
	nd = &p->nodes[k->cur];
	k->pend = prof_pend_none;
	s->ninsn += op->ninsn;
	nd->self += op->ninsn;
	nd->self_cyc += op->cyc;
	p->st.insns += op->ninsn;
	prof_op_end(p, k, op);
	return 1;
}

/* Op @op of the part (not a segment's start) into @p: a kept element
 * (the part's next raw one, *@raw), else a range op; *@run moves past its
 * runs. */
static inline int pp_op(struct etm_profile *p, const struct pp_part *pt,
			const struct prof_op *op, size_t *run, size_t *raw)
{
	int fast = !p->tl, r = 0;

	if (op->flags & PROF_OP_RAW) {
		const struct etm_elem *el = &pt->raw[(*raw)++];
		const struct prof_src *s = p->src[el->id];

		if (!fast || !s || !s->cur || !prof_quiet(p, el))
			r = etm_profile_elems(p, el, 1);
	} else if (!fast || (r = pp_op_fast(p, op)) == 0) {
		r = prof_range_op(p, op, pt->run + *run);
	}
	*run += op->nrun;
	return r < 0 ? r : 0;
}

/* pp_apply() of a part with its dense ops (pp_dense(), no timeline): the
 * ops between the segments from pt->vop; a segment that cannot be
 * spliced has its ops (whole in their function: no runs, none kept)
 * applied one by one from where they are. */
static int pp_apply_dense(struct etm_profile *p, struct pp_part *pt)
{
	size_t i = 0, v = 0, run = 0, raw = 0, seg = 0, j;
	size_t next = pt->seg.seg[0].op0;
	int r;

	while (i < pt->nop) {
		const struct pseg *g;

		if (i != next) {
			r = pp_op(p, pt, &pt->vop[v++], &run, &raw);
			if (r < 0)
				return r;
			i++;
			continue;
		}
		g = &pt->seg.seg[seg++];
		next = seg < pt->seg.nseg ? pt->seg.seg[seg].op0 : SIZE_MAX;
		r = pseg_apply(p, &pt->seg, g, g->start);
		for (j = g->op0; r == 0 && j < g->op1; j++)
			r = pp_op(p, pt, &pt->op[j], &run, &raw);
		if (r < 0)
			return r;
		i = g->op1;
	}
	return 0;
}

/* The part, in input order, into the whole: a segment's ops spliced at
 * once where it can be (the source's later ops in it skipped), the others
 * one by one. A segment is found by its first op's index, not by reading
 * the op: the worker wrote the ops on another core long before, and a
 * read of each segment's first op missed the cache (~90% of the apply's
 * CPU samples on TC2 x4096 --jobs 2). */
static int pp_apply(struct etm_profile *p, struct pp_part *pt)
{
	size_t i, run = 0, raw = 0, seg = 0;
	size_t next = pt->seg.nseg ? pt->seg.seg[0].op0 : SIZE_MAX;
	int fast = !p->tl, r;
	uint32_t skip[256];

	if (pt->vop && fast) {
		r = pp_apply_dense(p, pt);
		goto counts;
	}
	memset(skip, 0, sizeof(skip));
	for (i = 0; i < pt->nop; i++) {
		const struct prof_op *op;

		if (i == next) { /* the op flagged PROF_OP_SEG */
			const struct pseg *g = &pt->seg.seg[seg++];

			next = seg < pt->seg.nseg ? pt->seg.seg[seg].op0 : SIZE_MAX;
			r = fast ? pseg_apply(p, &pt->seg, g, g->start) : 0;
			if (r < 0)
				return r;
			if (r > 0) { /* alone in its ops: past them at once */
				if (g->mixed)
					skip[g->id] = g->op1;
				else
					i = g->op1 - 1;
				continue;
			}
			op = &pt->op[i];
		} else if (i < skip[(op = &pt->op[i])->id]) {
			continue;
		}
		if ((r = pp_op(p, pt, op, &run, &raw)) < 0)
			return r;
	}
	r = 0;
counts:
	if (r < 0)
		return r;
	p->st.gaps += pt->gaps;
	p->st.errors += pt->errors;
	if (p->lines) {
		for (i = 0; i < pt->nline; i++)
			p->line_self[pt->line[i].row] += pt->line[i].n;
		p->noline += pt->noline;
	}
	return 0;
}

static int pp_emit(void *ctx, void *piece)
{
	struct pp_ctx *c = ctx;

	return pp_apply(c->total, piece);
}

int etm_profile_run(struct etm_profile *p, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs,
		    const struct etm_cov_run_side *side)
{
	return etm_profile_run_stats(p, dec, rd, rctx, size, jobs, side, NULL);
}

int etm_profile_run_stats(struct etm_profile *p, struct etm_decoder *dec,
			  etm_read_fn rd, void *rctx, uint64_t size,
			  unsigned jobs, const struct etm_cov_run_side *side,
			  struct etm_run_stats *st)
{
	static const struct run_parts_ops ops = {
		.open = pp_open,
		.close = pp_close,
		.item = pp_item,
		.elems = pp_elems,
		.cut = pp_cut,
		.apply = pp_emit,
		.free = pp_part_free,
	};
	struct pp_ctx c = { .total = p };

	if (!p || !dec || !rd)
		return -etme_invalid;
	return run_parts(dec, rd, rctx, size, jobs, &ops, &c, side, st);
}
