/* profile/prof_fast.c - the profile's loop without lines or a timeline
 * (etm_profile_elems()): ranges whole in the running function counted in
 * a tight loop with the counts in locals, the calls and returns between
 * them (the decoder's last_mark, struct etm_elem) followed in place; the
 * rest through prof_elem(). Exactly prof_elem()'s effect, element by
 * element (doc/profile.md "Call stacks"). */
#include <stddef.h>
#include <string.h>

#include <etmtrace/error.h>

#include "profile/prof_int.h"

/* Whether @el is a range of source @id: its kind and trace ID read as one
 * 64-bit word (the 4-byte kind, then the ID byte) and compared with
 * @key = prof_range_key(@id); one load and one compare an element. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
_Static_assert(sizeof(enum etm_elem_kind) == 4 &&
		       offsetof(struct etm_elem, id) ==
			       offsetof(struct etm_elem, kind) + 4,
	       "kind and id adjacent");
static inline uint64_t prof_range_key(uint8_t id)
{
	return (uint64_t)id << 32 | (uint64_t)etmk_range;
}
static inline int prof_is_range_of(const struct etm_elem *el, uint64_t key)
{
	uint64_t w;

	memcpy(&w, &el->kind, sizeof(w));
	return (w & 0xffffffffffull) == key;
}
#else
static inline uint64_t prof_range_key(uint8_t id)
{
	return id;
}
static inline int prof_is_range_of(const struct etm_elem *el, uint64_t key)
{
	return el->kind == etmk_range && el->id == (uint8_t)key;
}
#endif

/* Whether @el, not a range, passes a run of source @id: an element of
 * @id that changes nothing but a counter (prof_quiet(): a clock element,
 * a gap without a call trace), counted. */
static inline int prof_passes(struct etm_profile *p, const struct etm_elem *el,
			      uint8_t id)
{
	return el->id == id && el->kind != etmk_range && prof_quiet(p, el);
}

/* The counts stay in the locals of prof_run()'s loop, the counters in
 * memory untouched until a flush: without this barrier (no instruction)
 * GCC keeps four counters in registers over the loop, and its own state
 * spills to the stack. */
#if defined(__GNUC__)
#define PROF_KEEP_COUNTS_IN_LOCALS() __asm__ volatile("" :: \
							      : "memory")
#define PROF_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PROF_KEEP_COUNTS_IN_LOCALS() ((void)0)
#define PROF_UNLIKELY(x) (x)
#endif

/* The counts of a run of ranges (@ni instructions, @cy cycles) added to
 * node @nd of stack @k; @last: the last range's last instruction (the
 * site of what enters next). The source's and the profile's instruction
 * totals are added by prof_run() once, when it returns. */
static inline void prof_flush(struct prof_stack *k, struct prof_node *nd,
			      uint64_t ni, uint64_t cy, uint64_t last)
{
	nd->self += ni;
	nd->self_cyc += cy;
	k->call_addr = last;
}

/* Ranges from @el (a range of source @s whole in its span memo, stack
 * @k running it in node k->cur, nothing pending) to @end while they stay
 * in the function: counted in locals, added at each call or return and
 * at the end. A call or return is followed here when the range it goes
 * to is in the function too and no call trace is on: the return resolved
 * (prof_return_top(), else prof_return()), the callee entered
 * (prof_enter_callee()), as prof_elems_fast() does. Clock elements and
 * gaps of the source pass (prof_passes()). Returns the element after the
 * last one taken, NULL on error (*@err). */
static const struct etm_elem *prof_run(struct etm_profile *p,
				       struct prof_src *s,
				       struct prof_stack *k,
				       const struct etm_elem *el,
				       const struct etm_elem *end, int *err)
{
	const uint8_t id = el->id;
	const uint64_t key = prof_range_key(id);
	const uint64_t first = s->fn_first, span = s->fn_span;
	const uint32_t fid = s->fn_id;
	const struct etm_elem *seg = el; /* counted from here */
	struct prof_node *nd = &p->nodes[k->cur];
	uint64_t ni = 0, cy = 0, tot = 0; /* tot: instructions flushed */
	uint8_t what = 0;
	long n;

	for (;;) {
		for (; el < end; el++) {
			if (PROF_UNLIKELY(!prof_is_range_of(el, key))) {
				if (prof_passes(p, el, id))
					continue;
				goto out;
			}
			if (PROF_UNLIKELY(el->start - first > span ||
					  el->last_addr - first > span))
				goto out;
		count:
			ni += el->ninsn;
			cy += el->has_cycles ? el->cycles : 0;
			if (PROF_UNLIKELY(el->last_mark != ETM_LAST_KNOWN) &&
			    (what = prof_last_of(s, el)) != 0)
				break;
			PROF_KEEP_COUNTS_IN_LOCALS();
		}
		if (el == end)
			goto out;
		/* @el calls or returns: the counts go to its node first */
		prof_flush(k, nd, ni, cy, el->last_addr);
		tot += ni;
		ni = cy = 0;
		if (what == PROF_OP_CALL) {
			prof_push(p, k, el->last_addr + el->last_size, k->par,
				  k->cur, 0);
			k->par = k->cur;
			k->cur = 0;
			p->st.calls++;
		}
		/* k->pend stays prof_pend_none while the run follows the call
		 * or return (@what); set as prof_op_end() would when it stops
		 * before the range the call or return goes to */
		seg = ++el;
		if (p->ct)
			goto pend;
		for (;; el++) { /* to the source's next range */
			if (el == end)
				goto pend;
			if (prof_is_range_of(el, key))
				break;
			if (!prof_passes(p, el, id))
				goto pend;
		}
		/* the range the call or return goes to */
		if (what == PROF_OP_RET && !prof_return_top(p, k, el->start)) {
			*err = prof_return(p, id, s, k, el->start);
			if (*err < 0) {
				el = NULL;
				goto done;
			}
		}
		if (el->start - first > span || el->last_addr - first > span)
			goto call_pend;
		if (!k->cur)
			k->cur = prof_enter_callee(p, k, fid);
		else if (p->nodes[k->cur].func != fid)
			goto done;
		nd = &p->nodes[k->cur];
		seg = el;
		goto count;
	}
out:
	/* the last range counted (the rest since @seg passed) */
	for (n = el - seg; n > 0 && seg[n - 1].kind != etmk_range; n--)
		;
	if (n > 0) {
		prof_flush(k, nd, ni, cy, seg[n - 1].last_addr);
		tot += ni;
	}
	goto done;
pend:
	if (what != PROF_OP_CALL) {
		k->pend = prof_pend_ret;
		goto done;
	}
call_pend:
	if (what == PROF_OP_CALL)
		k->pend = prof_pend_call;
done:
	s->ninsn += tot;
	p->st.insns += tot;
	return el;
}

int prof_elems_fast(struct etm_profile *p, const struct etm_elem *els,
		    size_t n)
{
	const struct etm_elem *el = els, *end = els + n;
	int r = 0;

	while (el < end) {
		struct prof_src *s = p->src[el->id];
		struct prof_stack *k;

		if (!s || !(k = s->cur))
			goto slow;
		if (el->kind != etmk_range) {
			if (!prof_quiet(p, el))
				goto slow;
			el++;
			continue;
		}
		if (k->pend == prof_pend_ret) {
			k->pend = prof_pend_none;
			r = prof_return_top(p, k, el->start) ? 0 :
							       prof_return(p, el->id, s, k, el->start);
			if (r < 0)
				return r;
		}
		if (el->start - s->fn_first > s->fn_span ||
		    el->last_addr - s->fn_first > s->fn_span)
			goto slow;
		if (!k->cur) {
			if (p->ct)
				goto slow;
			k->cur = prof_enter_callee(p, k, s->fn_id);
		} else if (p->nodes[k->cur].func != s->fn_id) {
			goto slow;
		}
		k->pend = prof_pend_none;
		el = prof_run(p, s, k, el, end, &r);
		if (!el)
			return r;
		continue;
	slow:
		r = prof_elem(p, el);
		if (r < 0)
			return r;
		el++;
	}
	return 0;
}
