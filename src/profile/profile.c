/* profile/profile.c - the profile consumer: turns decoded elements into
 * call stacks per (trace source, context ID) and instruction and cycle
 * counts per calling context. Calls are BL/BLX; returns are the
 * instructions the classifier marks as such (BX LR, POP {..pc}, LDR pc,
 * MOV pc,lr, exception returns), matched against the frames by the address
 * that executes next: a return to a deeper frame unwinds (longjmp, missed
 * returns), one that matches no frame restarts the stack from an unknown
 * root. Exceptions push an interrupt frame. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "profile/prof_int.h"

struct etm_profile *etm_profile_alloc(const struct etm_symbols *syms)
{
	struct etm_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->syms = syms;
	p->nsym = (uint32_t)etm_symbols_count(syms);
	p->unknown = p->nsym;
	p->exc0 = p->nsym + 1;
	p->nfunc = p->exc0 + PROF_NEXC;
	p->capnodes = 1024;
	p->nodes = calloc(p->capnodes, sizeof(*p->nodes));
	p->pnames = calloc(PROF_NEXC + 1, sizeof(*p->pnames));
	if (!p->nodes || !p->pnames || prof_cct_init(p) < 0) {
		free(p->nodes);
		free(p->pnames);
		free(p->hash);
		free(p);
		return NULL;
	}
	prof_pseudo_names(p);
	p->nodes[0].func = PROF_NONE; /* the root */
	p->nodes[0].call_addr = UINT64_MAX;
	p->nodes[0].memo_func = PROF_NONE;
	p->nnodes = 1;
	p->splice = 1;
	return p;
}

void etm_profile_free(struct etm_profile *p)
{
	size_t i, k;

	if (!p)
		return;
	for (i = 0; i < 256; i++) {
		if (!p->src[i])
			continue;
		for (k = 0; k < p->src[i]->nstk; k++)
			free(p->src[i]->stk[k]);
		free(p->src[i]);
	}
	free(p->nodes);
	free(p->hash);
	free(p->line_self);
	free(p->funcs);
	free(p->tl);
	free(p->ct);
	free(p->pnames);
	free(p);
}

uint32_t prof_func_lookup(struct etm_profile *p, struct prof_src *s,
			  uint64_t addr)
{
	uint64_t first, last;
	long f = etm_symbols_find_span(p->syms, addr, &first, &last);

	s->fn_first = first;
	s->fn_span = last - first;
	s->fn_id = f < 0 ? p->unknown : (uint32_t)f;
	return s->fn_id;
}

struct prof_src *prof_src_get(struct etm_profile *p, uint8_t id)
{
	struct prof_src *s = p->src[id];

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	prof_func_lookup(p, s, 0);
	p->src[id] = s;
	return s;
}

int etm_profile_add_source(struct etm_profile *p, uint8_t id,
			   const struct etm_image *img, int m_profile)
{
	struct prof_src *s;

	if (!p)
		return -etme_invalid;
	s = prof_src_get(p, id);
	if (!s)
		return -etme_nomem;
	s->img = img;
	s->m_profile = m_profile;
	if (m_profile && !p->m_profile) {
		p->m_profile = 1;
		prof_pseudo_names(p);
	}
	return 0;
}

int etm_profile_set_ctx_images(struct etm_profile *p, etm_ctx_image_fn fn,
			       void *ctx)
{
	if (!p)
		return -etme_invalid;
	p->ctx_img = fn;
	p->ctx_img_arg = ctx;
	return 0;
}

void etm_profile_set_lines(struct etm_profile *p, int on)
{
	size_t n = etm_symbols_line_count(p ? p->syms : NULL);

	if (!p || !on || p->line_self || !n)
		return;
	p->line_self = calloc(n, sizeof(*p->line_self));
	p->lines = p->line_self != NULL;
}

void etm_profile_stats(const struct etm_profile *p, struct etm_prof_stats *st)
{
	if (p && st)
		*st = p->st;
}

/* The stack of context @ctxid (created, or the least recently used one
 * reused, when new). */
static struct prof_stack *prof_stack_for(struct prof_src *s, int has_ctx,
					 uint32_t ctxid)
{
	struct prof_stack *k;
	uint32_t i, lru = 0;

	for (i = 0; i < s->nstk; i++) {
		k = s->stk[i];
		if (k->has_ctx == has_ctx && (!has_ctx || k->ctxid == ctxid))
			goto found;
		if (k->used < s->stk[lru]->used)
			lru = i;
	}
	if (s->nstk < PROF_MAX_CTX) {
		k = calloc(1, sizeof(*k));
		if (!k)
			return NULL;
		s->stk[s->nstk++] = k;
	} else {
		k = s->stk[lru];
		memset(k, 0, sizeof(*k));
	}
	k->has_ctx = (uint8_t)has_ctx;
	k->ctxid = ctxid;
found:
	k->used = ++s->tick;
	return k;
}

/* A return was executed and @addr runs next: pop to the frame it returns
 * to, or restart from an unknown root. */
int prof_return(struct etm_profile *p, uint8_t id, struct prof_src *s,
		struct prof_stack *k, uint64_t addr)
{
	uint32_t i = k->depth, up;

	while (i > 0 && k->fr[i - 1].ret_addr != addr)
		i--;
	if (i == 0) {
		p->st.resets++;
		k->depth = 0;
		k->cur = k->par = 0;
		if (p->ct && prof_ct_event(p, id, s, k, prof_ev_reset, addr,
					   k->call_addr, 0) < 0)
			return p->ct->err;
		return prof_tl_instant(p, id, s, "stack reset: return to an unknown caller");
	}
	up = k->depth - i;
	p->st.returns++;
	p->st.unwound += up;
	k->cur = k->fr[i - 1].ret;
	k->par = p->nodes[k->cur].parent;
	k->depth = i - 1;
	return p->ct ? prof_ct_event(p, id, s, k, k->fr[i - 1].exc ? prof_ev_eret : prof_ev_ret,
				     addr, k->call_addr, up) :
		       0;
}

/* Settle a pending call or return now that @addr is known to run next. */
static int prof_resolve(struct etm_profile *p, uint8_t id, struct prof_src *s,
			struct prof_stack *k, uint64_t addr)
{
	/* a pending call stays: it is counted where the callee runs */
	if (k->pend != prof_pend_ret)
		return 0;
	k->pend = prof_pend_none;
	return prof_return(p, id, s, k, addr);
}

/* The node function @f runs in next. After a call (no current function)
 * it is a child of the caller's context; a jump to another function (tail
 * call, fall-through) nests it under the current one, as callgrind does,
 * unless it goes back to a function the jumps came from since the last
 * call (then that one continues). Entering a node under a parent counts as
 * a call of it (so every edge has one). */
static uint32_t prof_enter(struct etm_profile *p, struct prof_stack *k,
			   uint32_t f)
{
	uint32_t x = k->cur, n, steps = 0;

	if (x) {
		for (; x && x != k->par && steps < 16; x = p->nodes[x].parent, steps++)
			if (p->nodes[x].func == f)
				return x;
		n = prof_child(p, k->cur, f);
	} else {
		n = prof_child(p, k->par, f);
	}
	if (n != k->cur && n != k->par && p->nodes[n].parent) {
		p->nodes[n].calls++;
		if (p->nodes[n].call_addr == UINT64_MAX)
			p->nodes[n].call_addr = k->call_addr;
	}
	return n;
}

/* Call trace: @k->cur entered at @addr, from node @was (0: none). */
static int prof_entered(struct etm_profile *p, uint8_t id, struct prof_src *s,
			const struct prof_stack *k, uint32_t was, uint64_t addr)
{
	enum prof_ev ev = k->pend == prof_pend_call ? prof_ev_call :
			  was                       ? prof_ev_jump :
						      prof_ev_enter;

	return prof_ct_event(p, id, s, k, ev, addr, k->call_addr, 0);
}

/* @n instructions (and @cyc cycles) ran in function @f. */
static int prof_count(struct etm_profile *p, uint8_t id, struct prof_src *s,
		      struct prof_stack *k, uint32_t f, uint32_t n,
		      uint32_t cyc, int has_cyc, uint64_t addr)
{
	struct prof_node *nd;

	if (!k->cur || p->nodes[k->cur].func != f) {
		uint32_t was = k->cur;

		k->cur = prof_enter(p, k, f);
		if (p->ct && k->cur != was && prof_entered(p, id, s, k, was, addr) < 0)
			return p->ct->err;
	}
	k->pend = prof_pend_none;
	s->ninsn += n;
	nd = &p->nodes[k->cur];
	nd->self += n;
	nd->self_cyc += cyc;
	p->st.insns += n;
	if (p->tl) {
		int r = prof_tl_sync(p, id, s, k->cur);

		if (r < 0)
			return r;
		prof_tl_time(p, s, n, cyc, has_cyc);
	}
	return 0;
}

/* Walk @el instruction by instruction: runs of one function are counted
 * together, instructions are counted per line row when lines are on.
 * The cycles go with the last run. */
static int prof_walk(struct etm_profile *p, uint8_t id, struct prof_src *s,
		     struct prof_stack *k, const struct etm_elem *el)
{
	struct etm_walk w;
	struct etm_insn in;
	uint32_t f = PROF_NONE, n = 0, done = 0;
	uint64_t a0 = el->start; /* where the run of @f began */
	int r;

	if (etm_walk_init(&w, s->img, el) < 0)
		return 0;
	while (etm_walk_next(&w, &in) == 0) {
		uint32_t g = prof_func_of(p, s, in.addr);

		if (p->lines) {
			long row = etm_symbols_line_find(p->syms, in.addr);

			if (row >= 0)
				p->line_self[row]++;
			else
				p->noline++;
		}
		if (g != f) {
			if (n) {
				r = prof_count(p, id, s, k, f, n, 0, el->has_cycles, a0);
				if (r < 0)
					return r;
				done += n;
				n = 0;
			}
			a0 = in.addr;
		}
		f = g;
		n++;
	}
	if (done + n < el->ninsn) { /* opcodes not readable: by address */
		if (f == PROF_NONE) {
			f = prof_func_of(p, s, el->last_addr);
			a0 = el->last_addr;
		}
		p->noline += p->lines ? el->ninsn - done - n : 0;
		n = el->ninsn - done;
	}
	return n ? prof_count(p, id, s, k, f, n, el->has_cycles ? el->cycles : 0,
			      el->has_cycles, a0) :
		   0;
}

/* After range @el (counted on stack @k of source @s): if its last
 * instruction executed and calls or returns (prof_last_of()), push the
 * frame, or leave the return pending. */
static inline __attribute__((always_inline)) void
prof_range_end(struct etm_profile *p, struct prof_src *s,
	       struct prof_stack *k, const struct etm_elem *el)
{
	uint8_t last = prof_last_of(s, el);

	if (last == PROF_OP_CALL) {
		prof_push(p, k, el->last_addr + el->last_size, k->par, k->cur, 0);
		k->par = k->cur;
		k->cur = 0;
		k->pend = prof_pend_call;
		p->st.calls++;
	} else if (last == PROF_OP_RET) {
		k->pend = prof_pend_ret;
	}
}

static int prof_range(struct etm_profile *p, uint8_t id, struct prof_src *s,
		      const struct etm_elem *el)
{
	struct prof_stack *k = s->cur;
	uint32_t f;
	int r;

	if (!k && !(k = s->cur = prof_stack_for(s, 0, 0)))
		return -etme_nomem;
	r = prof_resolve(p, id, s, k, el->start);
	if (r < 0)
		return r;
	f = prof_func_of(p, s, el->start);
	if (!p->lines && el->last_addr - s->fn_first <= s->fn_span &&
	    k->cur && p->nodes[k->cur].func == f && !p->tl) {
		/* the common case, prof_count() without a change of node:
		 * the whole range in the function that is running */
		struct prof_node *nd = &p->nodes[k->cur];

		k->pend = prof_pend_none;
		s->ninsn += el->ninsn;
		nd->self += el->ninsn;
		nd->self_cyc += el->has_cycles ? el->cycles : 0;
		p->st.insns += el->ninsn;
		r = 0;
	} else if (!p->lines && (f == p->unknown ?
					 etm_symbols_find(p->syms, el->last_addr) < 0 :
					 prof_func_of(p, s, el->last_addr) == f))
		r = prof_count(p, id, s, k, f, el->ninsn,
			       el->has_cycles ? el->cycles : 0, el->has_cycles,
			       el->start);
	else
		r = prof_walk(p, id, s, k, el);
	if (r < 0)
		return r;
	k->call_addr = el->last_addr; /* the site of what enters next */
	prof_range_end(p, s, k, el);
	return 0;
}

/* The range the worker digested into @op (and @run): prof_range()'s
 * effect on the stacks and counts without its lookups. */
int prof_range_op(struct etm_profile *p, const struct prof_op *op,
		  const struct prof_run *run)
{
	uint8_t id = op->id;
	struct prof_src *s = p->src[id];
	struct prof_stack *k;
	int has_cyc = (op->flags & PROF_OP_CYC) != 0, r;
	uint32_t i;

	if (!s && !(s = prof_src_get(p, id)))
		return -etme_nomem;
	k = s->cur;
	if (!k && !(k = s->cur = prof_stack_for(s, 0, 0)))
		return -etme_nomem;
	r = prof_resolve(p, id, s, k, op->start);
	if (r < 0)
		return r;
	if (op->f != PROF_NONE && k->cur && p->nodes[k->cur].func == op->f &&
	    !p->tl) {
		struct prof_node *nd = &p->nodes[k->cur];

		k->pend = prof_pend_none;
		s->ninsn += op->ninsn;
		nd->self += op->ninsn;
		nd->self_cyc += op->cyc;
		p->st.insns += op->ninsn;
	} else if (op->f != PROF_NONE) {
		r = prof_count(p, id, s, k, op->f, op->ninsn, op->cyc, has_cyc,
			       op->start);
	}
	for (i = 0; i < op->nrun && r >= 0; i++)
		r = prof_count(p, id, s, k, run[i].f, run[i].n,
			       i + 1 == op->nrun ? op->cyc : 0, has_cyc, run[i].a0);
	if (r < 0)
		return r;
	prof_op_end(p, k, op);
	return 0;
}

/* Exception entry: the interrupted function resumes at the preferred
 * return address; the handler runs under an "[exception N]" context. */
static int prof_exception(struct etm_profile *p, uint8_t id,
			  struct prof_src *s, const struct etm_elem *el)
{
	struct prof_stack *k = s->cur;
	uint32_t ret, exc;
	int r;

	if (!k && !(k = s->cur = prof_stack_for(s, 0, 0)))
		return -etme_nomem;
	if (el->has_ret) {
		r = prof_resolve(p, id, s, k, el->ret_addr);
		if (r < 0)
			return r;
		if (!k->cur && k->pend == prof_pend_call) {
			/* called, interrupted before the callee's first
			 * instruction: the callee is what resumes */
			k->cur = prof_enter(p, k, prof_func_of(p, s, el->ret_addr));
			if (p->ct && prof_ct_event(p, id, s, k, prof_ev_call, el->ret_addr,
						   k->call_addr, 0) < 0)
				return p->ct->err;
		}
	}
	k->pend = prof_pend_none;
	ret = k->cur ? k->cur : k->par;
	exc = prof_child(p, ret, p->exc0 + (el->exc_num % PROF_NEXC));
	p->nodes[exc].calls++;
	prof_push(p, k, el->has_ret ? el->ret_addr : UINT64_MAX, ret, ret, 1);
	k->par = exc;
	k->cur = 0;
	p->st.exceptions++;
	if (p->ct && prof_ct_event(p, id, s, k, prof_ev_exc,
				   el->has_ret ? el->ret_addr : UINT64_MAX,
				   UINT64_MAX, el->exc_num) < 0)
		return p->ct->err;
	if (!p->tl)
		return 0;
	r = prof_tl_sync(p, id, s, exc);
	return r < 0 ? r : prof_tl_instant(p, id, s, "exception");
}

/* A context ID change: this source continues on the stack of that context. */
static int prof_context(struct etm_profile *p, uint8_t id, struct prof_src *s,
			const struct etm_elem *el)
{
	struct prof_stack *k;

	if (el->has_ctxid && p->ctx_img && s->img) { /* a source with an image */
		const struct etm_image *img = p->ctx_img(p->ctx_img_arg, el->ctxid);

		if (img)
			s->img = img;
	}
	if (!el->has_ctxid || (s->cur && s->cur->has_ctx && s->cur->ctxid == el->ctxid))
		return 0;
	k = prof_stack_for(s, 1, el->ctxid);
	if (!k)
		return -etme_nomem;
	if (s->cur)
		p->st.contexts++;
	s->cur = k;
	if (p->ct && prof_ct_event(p, id, s, k, prof_ev_ctx, UINT64_MAX,
				   UINT64_MAX, el->ctxid) < 0)
		return p->ct->err;
	return p->tl ? prof_tl_sync(p, id, s, k->cur ? k->cur : k->par) : 0;
}

/* A trace gap (stacks kept: code usually goes on where it was), or the
 * start of a piece of a circular buffer (not counted as a gap). */
static int prof_gap(struct etm_profile *p, uint8_t id, struct prof_src *s,
		    const struct etm_elem *el)
{
	const char *what = el->kind == etmk_error  ? "trace error" :
			   el->kind == etmk_nomem  ? "memory not accessible" :
			   el->kind == etmk_nosync ? "not synchronised" :
			   el->kind == etmk_piece  ? "piece of a circular buffer" :
						     "trace gap (trace on)";

	if (el->kind != etmk_piece)
		p->st.gaps++;
	p->st.errors += el->kind == etmk_error;
	if (p->ct && prof_ct_event(p, id, s, s->cur, prof_ev_gap, UINT64_MAX,
				   UINT64_MAX, (uint64_t)el->kind) < 0)
		return p->ct->err;
	return el->kind == etmk_piece ? 0 : prof_tl_instant(p, id, s, what);
}

int prof_elem(struct etm_profile *p, const struct etm_elem *el)
{
	uint8_t id = el->id;
	struct prof_src *s = p->src[id];

	if (!s && !(s = prof_src_get(p, id)))
		return -etme_nomem;
	switch (el->kind) {
	case etmk_range:
		return prof_range(p, id, s, el);
	case etmk_exception:
		return prof_exception(p, id, s, el);
	case etmk_exc_return:
		if (s->cur)
			s->cur->pend = prof_pend_ret;
		return 0;
	case etmk_context:
		return prof_context(p, id, s, el);
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_nomem:
	case etmk_error:
	case etmk_piece: /* each piece begins with its own sync */
		return prof_gap(p, id, s, el);
	case etmk_buffer_end: /* the last packet cut: not a gap */
		return prof_tl_instant(p, id, s, "end of the trace buffer");
	case etmk_timestamp:
	case etmk_cycle_count:
		if (p->tl)
			prof_tl_clock(p, s, el);
		return 0;
	case etmk_event:
	case etmk_window:   /* no window in profiles */
	ETM_CASE_ITM_KINDS: /* ITM/DWT events: no instructions */
	case etmk_data:     /* data transfers: no effect on the call stacks */
	case etmk_invalid:
	case etmk_num_kinds:
		break;
	}
	return 0;
}

int etm_profile_elems(struct etm_profile *p, const struct etm_elem *els,
		      size_t n)
{
	size_t i;

	if (!p || (!els && n))
		return -etme_invalid;
	if (!p->lines && !p->tl)
		return prof_elems_fast(p, els, n);
	for (i = 0; i < n; i++) {
		int r = prof_elem(p, &els[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

int etm_profile_finish(struct etm_profile *p)
{
	int r;

	if (!p)
		return -etme_invalid;
	r = p->ct ? prof_ct_finish(p) : 0;
	if (r < 0)
		return r;
	return p->tl ? prof_tl_finish(p) : 0;
}
