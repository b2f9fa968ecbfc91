/* cov/cov.c - coverage accumulation: decoded range elements to counts per
 * instruction (pages of halfword slots), straight-line runs and taken
 * branches per trace source. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "cov/cov_int.h"

_Static_assert(sizeof(((struct etm_elem *)0)->id) == 1,
	       "etm_cov.src has an entry for every trace ID an element has");

struct etm_cov *etm_cov_alloc(void)
{
	return calloc(1, sizeof(struct etm_cov));
}

void etm_cov_free(struct etm_cov *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->npages; i++) {
		free(c->pages[i]->fail);
		free(c->pages[i]->unk);
		free(c->pages[i]);
	}
	free(c->pages);
	cov_memo_free(c->memo);
	cov_map_fini(&c->ranges);
	cov_map_fini(&c->branches);
	free(c);
}

int etm_cov_set_source(struct etm_cov *c, unsigned id,
		       enum etm_protocol proto, const struct etm_image *img)
{
	if (!c || id >= COV_MAX_ID ||
	    (proto != etm_proto_etmv3 && proto != etm_proto_ptm &&
	     proto != etm_proto_etmv1)) /* ETMv1: as ETMv3, every
					     * instruction has a status */
		return -etme_invalid;
	c->src[id].proto = proto;
	c->src[id].ptm = proto == etm_proto_ptm;
	c->src[id].memo_proto = proto == etm_proto_ptm ? COV_MEMO_PTM : 0;
	c->src[id].img = img;
	c->src[id].fast = !c->part || c->src[id].head;
	return 0;
}

/* Page holding @addr, or NULL; *@idx gets its index or where it would go. */
const struct cov_page *cov_page_find(const struct etm_cov *c, uint64_t addr,
				     size_t *idx)
{
	uint64_t base = addr >> COV_PAGE_SHIFT << COV_PAGE_SHIFT;
	size_t lo = 0, hi = c->npages;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->pages[mid]->base < base)
			lo = mid + 1;
		else
			hi = mid;
	}
	*idx = lo;
	return lo < c->npages && c->pages[lo]->base == base ? c->pages[lo] : NULL;
}

struct cov_page *cov_page_get(struct etm_cov *c, uint64_t addr)
{
	uint64_t base = addr >> COV_PAGE_SHIFT << COV_PAGE_SHIFT;
	struct cov_page *p, **np;
	size_t i;

	if (c->hot && c->hot->base == base)
		return c->hot;
	p = (struct cov_page *)cov_page_find(c, addr, &i);
	if (p)
		return c->hot = p;
	np = etm_grow(c->pages, &c->pcap, c->npages + 1, sizeof(*np), 16);
	if (!np)
		return NULL;
	c->pages = np;
	/* the counts are cleared as the span grows (cov_page_span()) */
	p = malloc(sizeof(*p));
	if (!p)
		return NULL;
	p->base = base;
	p->fail = p->unk = NULL;
	memset(p->info, 0, sizeof(p->info));
	memset(p->carried, 0, sizeof(p->carried));
	p->lo = p->hi = 0;
	p->next = NULL;
	memmove(c->pages + i + 1, c->pages + i,
		(c->npages - i) * sizeof(*c->pages));
	c->pages[i] = p;
	c->npages++;
	return c->hot = p;
}

/* A counter array for @p, its span cleared (the rest is cleared as the
 * span grows). */
static uint64_t *cov_page_array(const struct cov_page *p)
{
	uint64_t *a = malloc(COV_SLOTS * sizeof(uint64_t));

	if (a && p->hi)
		memset(a + p->lo, 0, (size_t)(p->hi - p->lo) * sizeof(*a));
	return a;
}

int cov_page_fail(struct cov_page *p)
{
	if (!p->fail)
		p->fail = cov_page_array(p);
	return p->fail ? 0 : -etme_nomem;
}

int cov_page_unk(struct cov_page *p)
{
	if (!p->unk)
		p->unk = cov_page_array(p);
	return p->unk ? 0 : -etme_nomem;
}

static int cov_info_matches(uint8_t info, enum etm_isa isa);

/* Instructions in the T32 IT block opened by IT instruction @in: 4 minus
 * the trailing zeros of its mask (ARM ARM A8.8.54). */
static unsigned cov_it_len(const struct etm_insn *in)
{
	unsigned mask = in->opcode & 0xf, n = 4;

	while (mask && !(mask & 1)) {
		mask >>= 1;
		n--;
	}
	return mask ? n : 0;
}

/* Classify the instruction at @addr (first execution) into a slot info
 * byte; an unreadable opcode gets the ISA's smallest size, class unknown.
 * *@it_len gets the length of the IT block it opens (0: not an IT). */
static uint8_t cov_classify(const struct etm_image *img,
			    const struct etm_elem *el, uint64_t addr,
			    unsigned *it_len)
{
	struct etm_elem one = *el;
	struct etm_walk w;
	struct etm_insn in;
	uint8_t info = CI_VALID | (el->isa == etmi_a32 ? CI_SIZE4 : CI_T32);

	one.start = addr;
	/* the one instruction at @addr, wherever @el ends: an IT block's
	 * later instructions (cov_mark_it()) may lie past the range of the
	 * IT, and a 32-bit one must not be taken for the default 16 bits */
	one.end = addr + 4;
	one.ninsn = 1;
	*it_len = 0;
	if (etm_walk_init(&w, img, &one) < 0 || etm_walk_next(&w, &in) < 0)
		return info;
	info = CI_VALID | (el->isa == etmi_a32 ? 0 : CI_T32);
	if (in.size == 4)
		info |= CI_SIZE4;
	if (in.cond)
		info |= CI_COND;
	if (in.link)
		info |= CI_LINK;
	info |= (uint8_t)((unsigned)in.cls << CI_CLS_SHIFT);
	if (in.it && el->isa != etmi_a32)
		*it_len = cov_it_len(&in);
	return info;
}

/* cov_classify() of @addr in range @el of source @s, through the
 * classification cache of @c if it has one. */
static uint8_t cov_classify_at(const struct etm_cov *c, const struct cov_src *s,
			       const struct etm_elem *el, uint64_t addr,
			       unsigned *it_len)
{
	struct cov_cls_ent *e;
	uint16_t tag = (uint16_t)(((unsigned)el->id << 2 | (el->ns ? 2u : 0u) |
				   (el->isa == etmi_a32)) +
				  1);

	if (!c->cls)
		return cov_classify(s->img, el, addr, it_len);
	e = &c->cls->e[(addr >> 1) & ((1u << COV_CLS_BITS) - 1)];
	if (e->tag != tag || e->addr != addr) {
		unsigned it;

		e->info = cov_classify(s->img, el, addr, &it);
		e->it = (uint8_t)it;
		e->addr = addr;
		e->tag = tag;
	}
	*it_len = e->it;
	return e->info;
}

/* The @n instructions after IT instruction @a are conditional: classify
 * them now (the classifier looks at one instruction and cannot know). A
 * branch into an IT block is UNPREDICTABLE, so the block is always
 * entered through its IT, which executes (and is classified) first. */
static void cov_mark_it(struct etm_cov *c, const struct cov_src *s,
			const struct etm_elem *el, uint64_t a, unsigned n)
{
	unsigned k, dummy;

	for (k = 0, a += 2; k < n; k++) {
		struct cov_page *p = cov_page_get(c, a);
		unsigned slot;

		if (!p)
			return;
		slot = (unsigned)(a - p->base) >> 1;
		cov_page_span(p, slot, slot + 1);
		cov_uncarry(p, slot);
		if (!cov_info_matches(p->info[slot], el->isa)) {
			if (p->info[slot] & CI_VALID)
				cov_memo_reclassify(c);
			p->info[slot] = cov_classify_at(c, s, el, a, &dummy) |
					(p->info[slot] & CI_COND);
		}
		p->info[slot] |= CI_COND;
		a += p->info[slot] & CI_SIZE4 ? 4 : 2;
	}
}

static int cov_info_matches(uint8_t info, enum etm_isa isa)
{
	return (info & CI_VALID) && !(info & CI_T32) == (isa == etmi_a32);
}

/* Condition outcome of one executed instruction: failed (N atom), or not
 * traced (PTM non-waypoint, or a last instruction without an atom),
 * counted for every instruction: whether it is conditional may only be
 * learnt later (an IT block seen in another capture or part). */
static int cov_condition(struct cov_page *p, unsigned slot, int failed,
			 int untold)
{
	if (failed) {
		if (cov_page_fail(p) < 0)
			return -etme_nomem;
		p->fail[slot]++;
	} else if (untold) {
		if (cov_page_unk(p) < 0)
			return -etme_nomem;
		p->unk[slot]++;
	}
	return 0;
}

/* Count the instructions of range @el from its *@i-th at *@a that start
 * in page @p, advancing *@i and *@a. Returns 0 or -etme_nomem. */
static int cov_page_insns(struct etm_cov *c, const struct cov_src *s,
			  const struct etm_elem *el, struct cov_page *p,
			  uint32_t *i, uint64_t *a, uint8_t *last_info)
{
	uint64_t x = *a;
	int ptm = s->proto == etm_proto_ptm, err = 0;
	uint32_t k = *i;
	unsigned it;

	/* x - base, not x < base + 4096: the last page of the address space */
	for (; k < el->ninsn && x < el->end && x >= p->base &&
	       x - p->base < (1u << COV_PAGE_SHIFT) && !err;
	     k++) {
		unsigned slot = (unsigned)(x - p->base) >> 1;

		if (!cov_info_matches(p->info[slot], el->isa)) {
			if (p->info[slot] & CI_VALID)
				cov_memo_reclassify(c);
			cov_uncarry(p, slot);
			/* an address executed in both ISAs (only in damaged
			 * or hostile trace): the last ISA's classification,
			 * "conditional" if it ever was, so that the result
			 * does not depend on how the trace was cut */
			p->info[slot] = cov_classify_at(c, s, el, x, &it) |
					(p->info[slot] & CI_COND);
			if (it)
				cov_mark_it(c, s, el, x, it);
		}
		cov_page_span(p, slot, slot + (p->info[slot] & CI_SIZE4 ? 2 : 1));
		p->exec[slot]++;
		if (k + 1 == el->ninsn) {
			err = cov_condition(p, slot, el->last_atom && !el->last_exec,
					    !el->last_atom);
			*last_info = p->info[slot];
		} else if (ptm)
			err = cov_condition(p, slot, 0, 1);
		x += p->info[slot] & CI_SIZE4 ? 4 : 2;
	}
	if (k > *i) /* x - base: at most 4 past the page */
		cov_page_span(p, (unsigned)(*a - p->base) >> 1,
			      (unsigned)(x - p->base + 1) >> 1);
	*i = k;
	*a = x;
	return err;
}

/* Count the instructions of range @el by walking them, and remember it in
 * the memo if it lies in one page or two consecutive ones. */
static __attribute__((noinline)) int
cov_range_walk(struct etm_cov *c, struct cov_src *s,
	       const struct etm_elem *el, uint8_t *last_info)
{
	uint64_t a = el->start;
	uint32_t i = 0;
	struct cov_page *p = NULL, *first = NULL;
	int err = 0, npages = 0;

	while (!err && i < el->ninsn && a < el->end) {
		uint64_t was = a;

		p = cov_page_get(c, a);
		if (!npages++)
			first = p;
		err = p ? cov_page_insns(c, s, el, p, &i, &a, last_info) :
			  -etme_nomem;
		if (a <= was) /* wrapped past the top of the address space */
			break;
	}
	/* counted entirely in one page, or in two consecutive ones (the
	 * second begins where the first ends: no wrap): count it in the memo
	 * next time */
	if (!err && (npages == 1 || (npages == 2 && p->base > first->base && p->base - first->base == 1u << COV_PAGE_SHIFT)) &&
	    (i >= el->ninsn || a >= el->end) && a > el->start &&
	    a - p->base <= (1u << COV_PAGE_SHIFT)) {
		struct cov_memo *m = cov_memo_put(c, el, s, first,
						  npages == 2 ? p : NULL, *last_info);

		if (!m)
			return -etme_nomem;
		s->pend = m;
	}
	return err;
}

/* Count the instructions of range @el: through the memo, or walking them
 * (out of line, so that the memo hit stays small); *@last_info gets the
 * info byte of its last instruction (0 if the range stops early). */
static inline int cov_range_insns(struct etm_cov *c, struct cov_src *s,
				  const struct etm_elem *el,
				  uint8_t *last_info)
{
	int r;

	*last_info = 0;
	if (el->isa != etmi_a32 && el->isa != etmi_t32)
		return 0;
	r = cov_memo_hit(c, s, el, last_info);
	if (r)
		return r < 0 ? r : 0;
	return cov_range_walk(c, s, el, last_info);
}

/* Count the open run of @s and close it (in a part, the run the source's
 * first range began is not counted: it is kept for etm_cov_append()). */
static inline int cov_close(struct etm_cov *c, struct cov_src *s)
{
	int err = 0;

	if (s->open && s->head_open) {
		s->head_last = s->last;
		s->head_open = 0;
	} else if (s->open) {
		err = cov_run(c, s);
	}
	s->open = 0;
	s->taken = 0;
	return err;
}

int cov_close_run(struct etm_cov *c, struct cov_src *s)
{
	return cov_close(c, s);
}

static int cov_on_range(struct etm_cov *c, struct cov_src *s,
			const struct etm_elem *el)
{
	uint8_t info;
	unsigned cls;
	int err = 0;

	if (!el->ninsn)
		return 0;
	if (s->open && (s->taken || el->start != s->next)) {
		if (s->taken)
			err = cov_branch(c, s, el->start);
		if (!err)
			err = cov_close(c, s);
	}
	if (err)
		return err;
	if (!s->open) {
		s->open = 1;
		s->run_start = el->start;
	}
	err = cov_range_insns(c, s, el, &info);
	cls = info >> CI_CLS_SHIFT;
	s->last = el->last_addr;
	s->next = el->end;
	s->taken = el->last_exec &&
		   (cls == etmc_br_direct || cls == etmc_br_indirect);
	return err;
}

/* An exception ends the run; a taken branch whose target the exception
 * interrupted before it executed is still a branch (to the return
 * address). The exception entry itself is not a branch. */
static int cov_on_exception(struct etm_cov *c, struct cov_src *s,
			    const struct etm_elem *el)
{
	int err = 0;

	if (s->open && s->taken && el->has_ret)
		err = cov_branch(c, s, el->ret_addr);
	return err ? err : cov_close_run(c, s);
}

/* In a part: remember the first run-relevant element of a source. */
static void cov_head(struct cov_src *s, const struct etm_elem *el)
{
	switch (el->kind) {
	case etmk_range:
		if (!el->ninsn)
			return;
		s->head = COV_HEAD_RANGE;
		s->head_start = el->start;
		s->open = 1;
		s->head_open = 1;
		s->run_start = s->next = el->start;
		return;
	case etmk_exception:
		s->head = COV_HEAD_EXC;
		s->head_has_ret = el->has_ret;
		s->head_ret = el->ret_addr;
		return;
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_nomem:
	case etmk_error:
	case etmk_buffer_end:
		s->head = COV_HEAD_GAP;
		return;
	default:
		return;
	}
}

static int cov_add_elem(struct etm_cov *c, const struct etm_elem *el)
{
	struct cov_src *s;

	if (el->id >= COV_MAX_ID || !c->src[el->id].proto)
		return 0;
	s = &c->src[el->id];
	if (c->part && !s->head) {
		cov_head(s, el);
		s->fast = s->head != 0;
	}
	switch (el->kind) {
	case etmk_range:
		return cov_on_range(c, s, el);
	case etmk_exception:
		return cov_on_exception(c, s, el);
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_nomem:
	case etmk_error:
	case etmk_buffer_end:
		return cov_close_run(c, s);
	default:
		return 0;
	}
}

/* The count of the taken branch (@from, @to) pending in @q (the entry of
 * the source's last range), or NULL (cov_branch()). */
static inline uint64_t *cov_pend_br(struct cov_memo *q, uint64_t from,
				    uint64_t to)
{
	if (!(q->pend & COV_PEND_BR) || q->br_from != from)
		return NULL;
	if (q->br_to == to)
		return &q->nbr;
	return (q->pend & COV_PEND_BR2) && q->br_to2 == to ? &q->nbr2 : NULL;
}
/* The run end pending in @q is the one to count now (cov_run()). */
static inline int cov_pend_run(const struct cov_memo *q, uint64_t from,
			       uint64_t to)
{
	return (q->pend & COV_PEND_RUN) && q->run_from == from &&
	       q->run_to == to;
}

/* The common range, counted in the loop without a call: a range of a
 * declared source found in the memo with its counts queued and its last
 * instruction's outcome from an atom, following the source's last range
 * straight on or through the taken branch and run end pending in that
 * range's entry. Exactly what cov_on_range() does for it; returns 1, or 0
 * (nothing changed: cov_on_range() takes it). */
static inline int cov_range_fast(struct etm_cov *c, const struct etm_elem *el)
{
	struct cov_memos *ms = c->memo;
	struct cov_src *s;
	struct cov_memo *m, *q;
	uint64_t start = el->start;
	uint8_t exec = el->last_exec;

	if (el->kind != etmk_range || !ms ||
	    !el->last_atom)
		return 0;
	s = &c->src[el->id];
	if (!s->fast)
		return 0;
	/* a key match: ninsn > 0 and an ISA with instructions */
	m = cov_memo_find(ms, el, s->memo_proto);
	if (!m || !m->queued || (!exec && !(m->arrays & 1)))
		return 0;
	if (!s->open) {
		s->open = 1;
		s->run_start = start;
	} else if (s->taken || start != s->next) {
		uint64_t *nbr = NULL;

		q = s->pend;
		if (!q || s->head_open || !cov_pend_run(q, s->run_start, s->last) ||
		    (s->taken && !(nbr = cov_pend_br(q, s->last, start))))
			return 0;
		if (nbr)
			(*nbr)++;
		q->nrun++;
		s->run_start = start;
	}
	m->n++;
	if (!exec)
		m->nfail++;
	s->pend = m;
	s->last = el->last_addr;
	s->next = el->end;
	s->taken = exec && (m->arrays & COV_LAST_BR);
	return 1;
}

int etm_cov_add_elems(struct etm_cov *c, const struct etm_elem *els, size_t n)
{
	size_t i;
	int err;

	if (!c || (!els && n))
		return -etme_invalid;
	for (i = 0; i < n; i++) {
		const struct etm_elem *el = &els[i];

		if (cov_range_fast(c, el))
			continue;
		/* the common case first: a range of a declared source (in a
		 * part, once the source's first element is known) */
		if (el->kind == etmk_range && c->src[el->id].fast)
			err = cov_on_range(c, &c->src[el->id], el);
		else
			err = cov_add_elem(c, el);
		if (err)
			return err;
	}
	return 0;
}

int etm_cov_end(struct etm_cov *c)
{
	unsigned id;
	int err;

	if (!c)
		return -etme_invalid;
	cov_memo_flush(c);
	for (id = 0; id < COV_MAX_ID; id++) {
		err = cov_close_run(c, &c->src[id]);
		if (err)
			return err;
	}
	return 0;
}
