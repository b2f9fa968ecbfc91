/* profile/prof_int.h - the profile's private state: the calling-context
 * tree (one node per distinct call path), per-source call stacks, and the
 * timeline writer. */
#ifndef ETM_PROFILE_PROF_INT_H
#define ETM_PROFILE_PROF_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <etmtrace/profile.h>

#define PROF_MAX_DEPTH 256        /* frames per stack; deeper drops the oldest */
#define PROF_MAX_NODES (1u << 21) /* calling contexts; beyond, the parent's */
#define PROF_MAX_CTX 64           /* stacks (context IDs) per source */
#define PROF_NEXC 512             /* exception numbers with a pseudo function */
#define PROF_RCACHE 1024          /* last-instruction classifications per source */
#define PROF_NONE UINT32_MAX

/* A calling context: function @func called in context @parent. Node 0 is
 * the root; a child is always created after its parent (index order). */
struct prof_node {
	uint32_t parent, func, depth;
	uint64_t self, self_cyc, calls;
	uint64_t incl, incl_cyc; /* computed by prof_totals() */
	uint64_t call_addr;      /* first call site (UINT64_MAX: none) */
	/* memo of prof_child(): the child for function memo_func
	 * (PROF_NONE: none yet) is node memo_child */
	uint32_t memo_func, memo_child;
};

/* A frame: where the caller resumes (@ret_addr, UINT64_MAX: unknown), the
 * context the callee runs under (@parent) and the caller's (@ret). */
struct prof_frame {
	uint64_t ret_addr;
	uint32_t parent, ret;
	uint32_t exc; /* 1: an exception's frame (closed by an exception return) */
};

enum prof_pending { prof_pend_none = 0,
		    prof_pend_call,
		    prof_pend_ret };

/* The call stack of one (source, context ID). @cur is the running
 * function's node (0: not known yet), @par the context it runs under. */
struct prof_stack {
	struct prof_frame fr[PROF_MAX_DEPTH];
	uint32_t depth, cur, par;
	uint32_t ctxid;
	uint8_t has_ctx, pend;
	uint64_t call_addr, used;
};

struct prof_rcache {
	uint64_t addr;
	uint8_t isa, valid, ret;
};

/* Open timeline slices of a source: the path of nodes from the root. */
struct prof_open {
	uint32_t node[PROF_MAX_DEPTH + 8];
	double start[PROF_MAX_DEPTH + 8];
	uint32_t n;
};

struct prof_src {
	const struct etm_image *img;
	int m_profile;
	struct prof_stack *stk[PROF_MAX_CTX];
	uint32_t nstk;
	struct prof_stack *cur;
	uint64_t tick; /* LRU clock of the stacks */
	struct prof_rcache rc[PROF_RCACHE];
	/* lookup memo: every address in [fn_first, fn_first + fn_span] is
	 * in function fn_id (a function's range, or a gap: unknown) */
	uint64_t fn_first, fn_span;
	uint32_t fn_id;
	/* timeline */
	double t, tbase; /* microseconds; time of the first timestamp */
	uint64_t ts0;
	int have_ts0, named;
	struct prof_open open;
	uint64_t ninsn; /* instructions of this source so far (call trace) */
};

/* Buffered output through a writer (profile/prof_out.c). */
struct prof_w {
	etm_write_fn fn;
	void *ctx;
	int err;
	size_t n;
	char buf[16384];
};
void prof_w_printf(struct prof_w *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void prof_w_json_str(struct prof_w *w, const char *s);
int prof_w_flush(struct prof_w *w);

struct etm_profile {
	const struct etm_symbols *syms;
	uint32_t nsym, unknown, exc0, nfunc; /* function ids: symbols, then
					       * [unknown], then exceptions */
	struct prof_node *nodes;
	size_t nnodes, capnodes;
	uint32_t *hash; /* node index + 1, keyed (parent, func) */
	size_t caphash;
	struct prof_src *src[256];
	int lines, m_profile;
	int splice;          /* parallel runs: segments spliced (prof_seg.h); 1 */
	uint64_t *line_self; /* per line row (lines on) */
	uint64_t noline;
	struct etm_prof_stats st;
	struct etm_prof_func *funcs;
	char (*pnames)[48]; /* [unknown], then the exceptions */
	/* timeline */
	struct prof_w *tl; /* NULL: off */
	double ts_hz, cyc_hz;
	int tl_first;
	struct prof_w *ct;        /* call trace (profile/prof_calls.c); NULL: off */
	etm_ctx_image_fn ctx_img; /* images by Context ID; NULL: off */
	void *ctx_img_arg;
};

/* The function id of @addr (p->unknown if no function has it): the
 * source's memo of the last span, else a lookup that sets it. */
uint32_t prof_func_lookup(struct etm_profile *p, struct prof_src *s,
			  uint64_t addr);
static inline uint32_t prof_func_of(struct etm_profile *p, struct prof_src *s,
				    uint64_t addr)
{
	if (addr - s->fn_first <= s->fn_span)
		return s->fn_id;
	return prof_func_lookup(p, s, addr);
}
/* The state of source @id (created if new); NULL on no memory. */
struct prof_src *prof_src_get(struct etm_profile *p, uint8_t id);
/* Whether the last instruction of range @el is a return (source @s's
 * image; cached per address). */
static inline int prof_is_return(struct prof_src *s, const struct etm_elem *el)
{
	struct prof_rcache *c = &s->rc[(el->last_addr >> 1) & (PROF_RCACHE - 1)];
	struct etm_walk w;
	struct etm_insn in;

	if (c->valid && c->addr == el->last_addr && c->isa == el->isa)
		return c->ret;
	if (!s->img || etm_walk_init(&w, s->img, el) < 0)
		return 0;
	w.addr = el->last_addr;
	w.left = 1;
	c->addr = el->last_addr;
	c->isa = (uint8_t)el->isa;
	c->valid = 1;
	c->ret = etm_walk_next(&w, &in) == 0 && (in.is_return || in.exc_return);
	return c->ret;
}

/* What the last instruction of range @el does, when it executed:
 * PROF_OP_CALL (BL, BLX), PROF_OP_RET (a return: pending until the next
 * address), 0 (neither, or it failed its condition). From the decoder's
 * last_mark when it filled it (ETM_LAST_KNOWN), else classified here from
 * last_cls, last_link and source @s's image (prof_is_return()). */
static inline uint8_t prof_last_of(struct prof_src *s,
				   const struct etm_elem *el);

/* A range element digested on a worker (profile/prof_part.c), or
 * consecutive ranges whole in one function joined (the earlier ones
 * neither calling nor returning): what their profiling needs that does
 * not depend on the call stacks - the function of the whole range, or its
 * runs of one function (line counts kept apart), and whether its last
 * instruction calls or returns. The calling thread applies it in input
 * order with prof_range_op(), exactly as prof_elem() of the ranges would. */
#define PROF_OP_RAW 1  /* not a range: the part's next raw element */
#define PROF_OP_CYC 2  /* the range has a cycle count (@cyc) */
#define PROF_OP_CALL 4 /* its last instruction is a call (BL, BLX) */
#define PROF_OP_RET 8  /* ... a return (pending until the next address) */
#define PROF_OP_SEG 16 /* the first op of a segment (profile/prof_seg.h) */
struct prof_op {
	uint64_t start, last; /* first and last instruction */
	uint32_t ninsn, cyc;
	uint32_t f; /* the function of every instruction; PROF_NONE:
			* @nrun runs of the part's run array */
	uint32_t nrun;
	uint8_t id, flags, size; /* trace ID, PROF_OP_*, last's size */
};
/* Instructions @n in function @f from address @a0 (in range order). */
struct prof_run {
	uint64_t a0;
	uint32_t f, n;
};
int prof_range_op(struct etm_profile *p, const struct prof_op *op,
		  const struct prof_run *run);

static inline uint8_t prof_last_of(struct prof_src *s,
				   const struct etm_elem *el)
{
	unsigned m = el->last_mark;

	if (!el->last_exec)
		return 0;
	if (m & ETM_LAST_KNOWN)
		return m & ETM_LAST_CALL   ? PROF_OP_CALL :
		       m & ETM_LAST_RETURN ? PROF_OP_RET :
					     0;
	if (el->last_link && (el->last_cls == etmc_br_direct ||
			      el->last_cls == etmc_br_indirect))
		return PROF_OP_CALL;
	if (el->last_cls == etmc_br_indirect && prof_is_return(s, el))
		return PROF_OP_RET;
	return 0;
}

/* prof_elem() of each element: the general path (profile/profile.c). */
int prof_elem(struct etm_profile *p, const struct etm_elem *el);
/* prof_elem() of each of @els[0..@n) without lines, a timeline: the
 * fast loop (profile/prof_fast.c). */
int prof_elems_fast(struct etm_profile *p, const struct etm_elem *els,
		    size_t n);

/* The empty node hash. Returns 0 or -1 (no memory). */
int prof_cct_init(struct etm_profile *p);
/* Child of @parent for function @func (created if new). At the node bound
 * or the depth bound the parent itself is returned. */
uint32_t prof_child(struct etm_profile *p, uint32_t parent, uint32_t func);
/* The child of @parent for function @func if it exists (PROF_NONE: not). */
uint32_t prof_child_find(const struct etm_profile *p, uint32_t parent,
			 uint32_t func);
/* Push a frame on @k (the oldest dropped at the depth bound). */
static inline void prof_push(struct etm_profile *p, struct prof_stack *k,
			     uint64_t ret_addr, uint32_t parent, uint32_t ret,
			     uint32_t exc)
{
	if (k->depth == PROF_MAX_DEPTH) { /* drop the oldest frame */
		memmove(k->fr, k->fr + 1, (PROF_MAX_DEPTH - 1) * sizeof(k->fr[0]));
		k->depth--;
		p->st.truncated++;
	}
	k->fr[k->depth].ret_addr = ret_addr;
	k->fr[k->depth].parent = parent;
	k->fr[k->depth].ret = ret;
	k->fr[k->depth].exc = exc;
	k->depth++;
}

/* The end of a range op (profile.c, prof_part.c): the branch it ends on
 * is remembered, and a call pushes the caller's frame (its callee known at
 * the next range), a return waits for the address it returns to. */
static inline void prof_op_end(struct etm_profile *p, struct prof_stack *k,
			       const struct prof_op *op)
{
	k->call_addr = op->last;
	if (op->flags & PROF_OP_CALL) {
		prof_push(p, k, op->last + op->size, k->par, k->cur, 0);
		k->par = k->cur;
		k->cur = 0;
		k->pend = prof_pend_call;
		p->st.calls++;
	} else if (op->flags & PROF_OP_RET) {
		k->pend = prof_pend_ret;
	}
}

/* A return was executed and @addr runs next: pop to the frame it returns
 * to, or restart from an unknown root (profile/profile.c). */
int prof_return(struct etm_profile *p, uint8_t id, struct prof_src *s,
		struct prof_stack *k, uint64_t addr);
/* prof_return() when the top frame is the one returned to and no call
 * trace is on (done here): 1, else 0. */
static inline int prof_return_top(struct etm_profile *p, struct prof_stack *k,
				  uint64_t addr)
{
	if (p->ct || !k->depth || k->fr[k->depth - 1].ret_addr != addr)
		return 0;
	p->st.returns++;
	k->depth--;
	k->cur = k->fr[k->depth].ret;
	k->par = p->nodes[k->cur].parent;
	return 1;
}

/* prof_enter() of function @f after a call (no current node): the
 * parent's memo of its last child asked for, else prof_child(). */
static inline uint32_t prof_enter_callee(struct etm_profile *p,
					 struct prof_stack *k, uint32_t f)
{
	const struct prof_node *par = &p->nodes[k->par];
	uint32_t n = par->memo_func == f ? par->memo_child :
					   prof_child(p, k->par, f);

	if (n != k->par && p->nodes[n].parent) {
		p->nodes[n].calls++;
		if (p->nodes[n].call_addr == UINT64_MAX)
			p->nodes[n].call_addr = k->call_addr;
	}
	return n;
}

/* prof_elem() of non-range @el without a timeline or a call trace, when
 * it changes nothing but a counter (done here): 1, else 0. */
static inline int prof_quiet(struct etm_profile *p, const struct etm_elem *el)
{
	switch (el->kind) {
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_nomem:
	case etmk_error:
		if (p->ct)
			return 0;
		p->st.gaps++;
		p->st.errors += el->kind == etmk_error;
		return 1;
	case etmk_timestamp:
	case etmk_cycle_count:
	case etmk_buffer_end:
		return 1;
	default:
		return 0;
	}
}

/* Name of function id @f. */
const char *prof_func_name(const struct etm_profile *p, uint32_t f);
/* (Re)form the names of the pseudo functions. */
void prof_pseudo_names(struct etm_profile *p);
/* Inclusive counts of every node (incl, incl_cyc). */
void prof_totals(struct etm_profile *p);

/* Timeline (profile/prof_trace.c). */
int prof_tl_sync(struct etm_profile *p, uint8_t id, struct prof_src *s,
		 uint32_t node);
int prof_tl_instant(struct etm_profile *p, uint8_t id, struct prof_src *s,
		    const char *what);
int prof_tl_finish(struct etm_profile *p);
/* A timestamp or a cycle count element: the source's clock moves on. */
void prof_tl_clock(struct etm_profile *p, struct prof_src *s,
		   const struct etm_elem *el);
void prof_tl_time(struct etm_profile *p, struct prof_src *s, uint32_t n,
		  uint32_t cyc, int has_cyc);

/* Call trace (profile/prof_calls.c): one line per change of the running
 * calling context of source @id, after the change, on @k (may be NULL).
 * @addr: where execution goes on (UINT64_MAX: unknown); @site: the
 * instruction that caused it (call, return; UINT64_MAX: none); @n: frames
 * unwound (ret, eret) or the context ID (ctx). */
enum prof_ev {
	prof_ev_call,  /* a function entered by a call (BL, BLX) */
	prof_ev_ret,   /* a return to a call's frame */
	prof_ev_exc,   /* exception entry */
	prof_ev_eret,  /* a return to an exception's frame */
	prof_ev_jump,  /* another function entered without a call */
	prof_ev_enter, /* a function entered with no caller known: trace
			* start, after a reset, an exception handler */
	prof_ev_reset, /* a return that matched no frame: stack restarted */
	prof_ev_ctx,   /* Context ID change: another stack */
	prof_ev_gap,   /* trace gap (stacks kept) */
	prof_ev_end    /* end of trace */
};
int prof_ct_event(struct etm_profile *p, uint8_t id, struct prof_src *s,
		  const struct prof_stack *k, enum prof_ev ev, uint64_t addr,
		  uint64_t site, uint64_t n);
int prof_ct_finish(struct etm_profile *p);

#endif
