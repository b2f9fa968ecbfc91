/* profile/prof_seg.c - call stacks on the workers of a parallel profile
 * (prof_seg.h): a source's ops from an unknown start run on a stack and a
 * calling-context tree of their own; a return that finds no frame of its
 * own (it returns below the start), a jump to another function, a range
 * that crosses functions and any element kept whole end the segment, and
 * the apply resolves that op on the running stack as before. The apply
 * splices a segment: its tree's nodes mapped in creation order under the
 * running function (so new contexts are created in the order one thread
 * creates them), its counts added, its open frames pushed. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "profile/prof_seg.h"

#define PSEG_MAXN 1024 /* nodes per segment (then it ends) */

/* The segment a source has open (or had last) in the part being built. */
struct pseg_src {
	int open, seen;
	uint32_t op0, op1;
	uint32_t prevf;    /* function of the source's last op */
	uint8_t prevflags; /* and its flags */
	uint8_t pend, mixed;
	uint32_t depth, maxdepth, maxnd, cur, par;
	uint64_t insns, calls, returns, unwound, call_addr;
	struct pseg_frame fr[PROF_MAX_DEPTH];
	struct pseg_node node[PSEG_MAXN];
	uint32_t nnode;
	/* per node: its depth below the root, the last child asked for
	 * (memo_f: its function, PROF_NONE: none) */
	uint32_t ndepth[PSEG_MAXN], memo_f[PSEG_MAXN], memo_c[PSEG_MAXN];
};

struct pseg_builder {
	struct pseg_src *src[256];
};

struct pseg_builder *pseg_builder_new(void)
{
	return calloc(1, sizeof(struct pseg_builder));
}

void pseg_builder_free(struct pseg_builder *b)
{
	unsigned i;

	if (!b)
		return;
	for (i = 0; i < 256; i++)
		free(b->src[i]);
	free(b);
}

void pseg_out_free(struct pseg_out *o)
{
	free(o->seg);
	free(o->node);
	free(o->fr);
	memset(o, 0, sizeof(*o));
}

size_t pseg_out_bytes(const struct pseg_out *o)
{
	return o->capseg * sizeof(*o->seg) + o->capnode * sizeof(*o->node) +
	       o->capfr * sizeof(*o->fr);
}

/* The local child of @parent for @func: the parent's last child asked
 * for, else a new node (PROF_NONE: the segment is full). A parent that
 * calls two functions in turn gets several nodes of one function: they
 * map to the same node of the whole (their counts add, the first sets
 * the call site), so no lookup table is kept. */
static uint32_t pseg_child(struct pseg_src *b, uint32_t parent, uint32_t func)
{
	uint32_t n = b->nnode;

	if (b->memo_f[parent] == func)
		return b->memo_c[parent];
	if (n == PSEG_MAXN)
		return PROF_NONE;
	b->node[n] = (struct pseg_node){ .parent = parent,
					 .func = func,
					 .call_addr = UINT64_MAX };
	b->ndepth[n] = b->ndepth[parent] + 1;
	if (b->ndepth[n] > b->maxnd)
		b->maxnd = b->ndepth[n];
	b->memo_f[n] = PROF_NONE;
	b->memo_f[parent] = func;
	b->memo_c[parent] = n;
	b->nnode = n + 1;
	return n;
}

/* Op @i of the open segment: 1 taken in, 0 the segment ends before it. */
static inline __attribute__((always_inline)) int
pseg_step(struct pseg_src *b, const struct prof_op *op, uint32_t i)
{
	uint32_t d = b->depth, cur = b->cur, par = b->par;

	if (op->f == PROF_NONE)
		return 0;
	if (b->pend == prof_pend_ret) {
		while (d > 0 && b->fr[d - 1].ret_addr != op->start)
			d--;
		if (d == 0)
			return 0; /* below the start, or no frame: the apply's */
		cur = b->fr[d - 1].ret;
		par = b->node[cur].parent;
		d--;
	}
	if (cur != PROF_NONE && b->node[cur].func != op->f)
		return 0; /* a jump: prof_enter()'s walk of the contexts */
	if ((op->flags & PROF_OP_CALL) && d == PROF_MAX_DEPTH)
		return 0;
	if (cur == PROF_NONE) {
		if ((cur = pseg_child(b, par, op->f)) == PROF_NONE)
			return 0;
		if (!b->node[cur].ncalls++)
			b->node[cur].call_addr = b->call_addr;
	}
	if (b->pend == prof_pend_ret) {
		b->returns++;
		b->unwound += b->depth - d - 1;
	}
	b->mixed |= i != b->op1;
	b->depth = d;
	b->pend = prof_pend_none;
	b->node[cur].self += op->ninsn;
	b->node[cur].cyc += op->cyc;
	b->insns += op->ninsn;
	b->call_addr = op->last;
	if (op->flags & PROF_OP_CALL) {
		b->fr[d] = (struct pseg_frame){ op->last + op->size, par, cur };
		b->depth = ++d;
		if (d > b->maxdepth)
			b->maxdepth = d;
		par = cur;
		cur = PROF_NONE;
		b->pend = prof_pend_call;
		b->calls++;
	} else if (op->flags & PROF_OP_RET) {
		b->pend = prof_pend_ret;
	}
	b->cur = cur;
	b->par = par;
	b->op1 = i + 1;
	return 1;
}

static void pseg_open(struct pseg_src *b, const struct prof_op *op, uint32_t i)
{
	b->open = 1;
	b->op0 = b->op1 = i;
	b->node[0] = (struct pseg_node){ .parent = PROF_NONE, .func = PROF_NONE };
	b->node[1] = (struct pseg_node){ .func = op->f, .call_addr = UINT64_MAX };
	b->nnode = 2;
	b->ndepth[0] = b->ndepth[1] = 0;
	b->memo_f[0] = b->memo_f[1] = PROF_NONE;
	b->depth = b->maxdepth = b->maxnd = 0;
	b->cur = 1;
	b->par = 0;
	b->pend = prof_pend_none;
	b->mixed = 0;
	b->insns = b->calls = b->returns = b->unwound = 0;
}

/* The open segment of @b ends: kept when it has two ops or more. */
static int pseg_close(struct pseg_src *b, uint8_t id, struct prof_op *ops,
		      struct pseg_out *o)
{
	struct pseg *g;
	void *m;

	b->open = 0;
	if (b->op1 - b->op0 < 2)
		return 0;
	if (!(m = etm_grow(o->seg, &o->capseg, o->nseg + 1, sizeof(*o->seg), 64)))
		return -etme_nomem;
	o->seg = m;
	if (!(m = etm_grow(o->node, &o->capnode, o->nnode + b->nnode,
			   sizeof(*o->node), 256)))
		return -etme_nomem;
	o->node = m;
	if (!(m = etm_grow(o->fr, &o->capfr, o->nfr + b->depth + 1,
			   sizeof(*o->fr), 256)))
		return -etme_nomem;
	o->fr = m;
	g = &o->seg[o->nseg++];
	*g = (struct pseg){ .op0 = b->op0, .op1 = b->op1, .node0 = (uint32_t)o->nnode, .nnode = b->nnode, .fr0 = (uint32_t)o->nfr, .nfr = b->depth, .cur = b->cur, .par = b->par, .maxdepth = b->maxdepth, .maxnd = b->maxnd, .id = id, .pend = b->pend, .mixed = b->mixed, .insns = b->insns, .calls = b->calls, .returns = b->returns, .unwound = b->unwound, .call_addr = b->call_addr, .start = ops[b->op0].start };
	memcpy(o->node + o->nnode, b->node, b->nnode * sizeof(*b->node));
	o->nnode += b->nnode;
	memcpy(o->fr + o->nfr, b->fr, b->depth * sizeof(*b->fr));
	o->nfr += b->depth;
	ops[b->op0].flags |= PROF_OP_SEG;
	return 0;
}

static int pseg_cmp(const void *a, const void *b)
{
	const struct pseg *x = a, *y = b;

	return x->op0 < y->op0 ? -1 : x->op0 > y->op0;
}

/* Op @i of source @b, no segment open or the open one ended before it. */
static void pseg_maybe_open(struct pseg_src *b, const struct prof_op *op,
			    uint32_t i)
{
	/* after a whole op that neither called nor returned, another
	 * function is a jump: the apply would not splice */
	if (op->f == PROF_NONE ||
	    (b->seen && !(b->prevflags & (PROF_OP_RAW | PROF_OP_CALL | PROF_OP_RET)) &&
	     b->prevf != PROF_NONE && b->prevf != op->f))
		return;
	pseg_open(b, op, i);
	pseg_step(b, op, i);
}

static int pseg_pass(struct pseg_builder *bb, struct prof_op *ops, size_t n,
		     struct pseg_out *o)
{
	uint32_t i;
	int r = 0;

	for (i = 0; i < n && r >= 0; i++) {
		struct prof_op *op = &ops[i];
		struct pseg_src *b = bb->src[op->id];

		if (!b && !(b = bb->src[op->id] = calloc(1, sizeof(*b))))
			return -etme_nomem;
		if (!b->seen)
			b->open = 0;
		if (b->open && !(op->flags & PROF_OP_RAW) && pseg_step(b, op, i))
			goto next;
		if (b->open)
			r = pseg_close(b, op->id, ops, o);
		if (!(op->flags & PROF_OP_RAW))
			pseg_maybe_open(b, op, i);
	next:
		b->seen = 1;
		b->prevf = op->f;
		b->prevflags = op->flags;
	}
	for (i = 0; i < 256 && r >= 0; i++)
		if (bb->src[i] && bb->src[i]->seen && bb->src[i]->open)
			r = pseg_close(bb->src[i], (uint8_t)i, ops, o);
	return r;
}

int pseg_build(struct pseg_builder *bb, struct prof_op *ops, size_t n,
	       struct pseg_out *o)
{
	unsigned i;
	int r;

	if (n > UINT32_MAX / 2)
		return 0;
	for (i = 0; i < 256; i++)
		if (bb->src[i])
			bb->src[i]->seen = 0;
	r = pseg_pass(bb, ops, n, o);
	if (r < 0) {
		size_t j;

		for (j = 0; j < o->nseg; j++)
			ops[o->seg[j].op0].flags &= (uint8_t)~PROF_OP_SEG;
		o->nseg = 0;
		return r;
	}
	for (i = 1; i < o->nseg; i++) /* closed in order with one source */
		if (o->seg[i].op0 < o->seg[i - 1].op0) {
			qsort(o->seg, o->nseg, sizeof(*o->seg), pseg_cmp);
			break;
		}
	return 0;
}

/* Whether every node of @g exists already under the running stack, and
 * every one whose entries count as calls has its first call site: then
 * the splice commutes with the other sources' ops between its ops. Sets
 * the nodes' map (the root's from @root, 0: entered under k->par). */
static int pseg_exists(const struct etm_profile *p, const struct prof_stack *k,
		       struct pseg_node *ln, const struct pseg *g, uint32_t root)
{
	uint32_t l;

	ln[0].map = k->par;
	ln[1].map = root ? root : prof_child_find(p, k->par, ln[1].func);
	if (ln[1].map == PROF_NONE ||
	    (!root && ln[1].map != k->par && p->nodes[ln[1].map].parent &&
	     p->nodes[ln[1].map].call_addr == UINT64_MAX))
		return 0;
	for (l = 2; l < g->nnode; l++) {
		uint32_t up = ln[ln[l].parent].map;
		uint32_t n = prof_child_find(p, up, ln[l].func);

		if (n == PROF_NONE || (ln[l].ncalls && n != up && p->nodes[n].parent &&
				       p->nodes[n].call_addr == UINT64_MAX))
			return 0;
		ln[l].map = n;
	}
	return 1;
}

/* Whether segment @g can be spliced onto stack @k: the root is the
 * running function (or entered after a call), and neither the frame nor
 * the node bounds are reached in it (then its tree maps one to one). */
static int pseg_fits(const struct etm_profile *p, const struct prof_stack *k,
		     const struct pseg *g, const struct pseg_node *ln)
{
	uint32_t rd;

	if (k->cur) {
		const struct prof_node *r = &p->nodes[k->cur];

		if (k->pend != prof_pend_none || r->func != ln[1].func ||
		    r->parent != k->par)
			return 0;
		rd = r->depth;
	} else {
		rd = p->nodes[k->par].depth + 1;
	}
	return k->depth + g->maxdepth <= PROF_MAX_DEPTH &&
	       p->nnodes + g->nnode <= PROF_MAX_NODES &&
	       rd + g->maxnd < PROF_MAX_DEPTH + 4 + 1;
}

int pseg_apply(struct etm_profile *p, struct pseg_out *o, const struct pseg *g,
	       uint64_t start)
{
	struct prof_src *s = p->src[g->id];
	struct pseg_node *ln = o->node + g->node0;
	const struct pseg_frame *fr = o->fr + g->fr0;
	struct prof_stack *k;
	uint32_t l, root;

	if (!s || !(k = s->cur))
		return 0;
	if (k->pend == prof_pend_ret) {
		int r;

		k->pend = prof_pend_none;
		r = prof_return_top(p, k, start) ? 0 : prof_return(p, g->id, s, k, start);
		if (r < 0)
			return r;
	}
	root = k->cur;
	if (!pseg_fits(p, k, g, ln) || (g->mixed && !pseg_exists(p, k, ln, g, root)))
		return 0;
	ln[0].map = k->par;
	ln[1].map = root ? root : prof_enter_callee(p, k, ln[1].func);
	for (l = 1; l < g->nnode; l++) {
		struct prof_node *nd;

		if (l >= 2) {
			uint32_t up = ln[ln[l].parent].map;
			uint32_t n = g->mixed ? ln[l].map : prof_child(p, up, ln[l].func);

			ln[l].map = n;
			nd = &p->nodes[n];
			if (ln[l].ncalls && n != up && nd->parent) {
				nd->calls += ln[l].ncalls;
				if (nd->call_addr == UINT64_MAX)
					nd->call_addr = ln[l].call_addr;
			}
		}
		nd = &p->nodes[ln[l].map];
		nd->self += ln[l].self;
		nd->self_cyc += ln[l].cyc;
	}
	s->ninsn += g->insns;
	p->st.insns += g->insns;
	p->st.calls += g->calls;
	p->st.returns += g->returns;
	p->st.unwound += g->unwound;
	for (l = 0; l < g->nfr; l++)
		prof_push(p, k, fr[l].ret_addr, ln[fr[l].parent].map, ln[fr[l].ret].map, 0);
	k->cur = g->cur == PROF_NONE ? 0 : ln[g->cur].map;
	k->par = ln[g->par].map;
	k->pend = g->pend;
	k->call_addr = g->call_addr;
	return 1;
}
