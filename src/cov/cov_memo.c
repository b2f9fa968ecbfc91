/* cov/cov_memo.c - the range memo: a range already counted once, whose
 * instructions all lie in one page and are classified for its ISA, is
 * counted again by adding 1 to its entry (plus its last instruction's
 * condition outcome). The pending counts are added to the page slots by
 * cov_memo_flush(): one walk per distinct range instead of one per
 * execution. The walk follows the slot info bytes, which change only when
 * an instruction is classified or pages are merged: the memo is emptied
 * (its counts applied) before either, so the counts equal those of counting
 * each range as it comes. Every call that reads instruction counts flushes
 * first; the counter arrays the flush adds to are allocated when the count
 * is taken, so that a flush cannot fail. */
#include <stdlib.h>

#include <etmtrace/error.h>

#include "cov/cov_int.h"

/* Sum of the generations of the chunks @c0..@c1 of @p: they only grow,
 * so the sum is unchanged only if none of them changed. */
static uint32_t memo_gen(const struct cov_page *p, unsigned c0, unsigned c1)
{
	uint32_t g = 0;

	for (; c0 <= c1; c0++)
		g += p->gen[c0];
	return g;
}

static size_t memo_hash(uint64_t start, uint64_t end)
{
	uint64_t h = ((start >> 1) ^ (end << 15)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> (64 - COV_MEMO_BITS));
}

/* Range @el, if it is in the memo: its pending counts incremented and
 * *@last_info set; returns 1, 0 (not in the memo) or -etme_nomem. */
int cov_memo_hit(struct etm_cov *c, const struct etm_elem *el, int ptm,
		 uint8_t *last_info)
{
	struct cov_memos *ms = c->memo;
	struct cov_memo *m;
	size_t i;

	if (!ms)
		return 0;
	i = memo_hash(el->start, el->end);
	m = &ms->e[i];
	if (!m->p || m->start != el->start || m->end != el->end ||
	    m->ninsn != el->ninsn || m->isa != el->isa || m->ptm != ptm ||
	    m->gen != memo_gen(m->p, m->chunk0, m->chunk1))
		return 0;
	if (el->last_atom && !el->last_exec) {
		if (cov_page_fail(m->p) < 0)
			return -etme_nomem;
		m->nfail++;
	} else if (!el->last_atom) {
		if (cov_page_unk(m->p) < 0)
			return -etme_nomem;
		m->nunk++;
	}
	if (!m->queued) {
		m->queued = 1;
		ms->dirty[ms->ndirty++] = (uint32_t)i;
	}
	m->n++;
	*last_info = m->last_info;
	return 1;
}

/* Add the pending counts of @m to its page, as cov_page_insns() would have
 * added them one execution at a time (its counter arrays exist: fail and
 * unk were allocated when the counts were taken, PTM's unk when the range
 * was first counted). */
static void memo_apply(struct cov_memo *m)
{
	struct cov_page *p = m->p;
	uint64_t x = m->start, n = m->n;
	uint32_t k, last = m->ninsn - 1;

	if (!n)
		return;
	for (k = 0; k < m->ninsn && x < m->end && x >= p->base &&
		    x - p->base < (1u << COV_PAGE_SHIFT);
	     k++) {
		unsigned slot = (unsigned)(x - p->base) >> 1;

		p->exec[slot] += n;
		if (k == last) {
			if (m->nfail)
				p->fail[slot] += m->nfail;
			if (m->nunk)
				p->unk[slot] += m->nunk;
		} else if (m->ptm) {
			p->unk[slot] += n;
		}
		x += p->info[slot] & CI_SIZE4 ? 4 : 2;
	}
	m->n = m->nfail = m->nunk = 0;
}

/* Apply every pending count (the memo is not a member of @c: reading calls
 * on a const object flush it). */
void cov_memo_flush(const struct etm_cov *c)
{
	struct cov_memos *ms = c->memo;

	while (ms && ms->ndirty) {
		struct cov_memo *m = &ms->e[ms->dirty[--ms->ndirty]];

		memo_apply(m);
		m->queued = 0;
	}
}

/* Apply every pending count and forget every range (slot info is about to
 * change). */
void cov_memo_drop(struct etm_cov *c)
{
	struct cov_memos *ms = c->memo;
	size_t i;

	cov_memo_flush(c);
	if (ms && ms->nmemo) {
		for (i = 0; i < COV_MEMO_N; i++)
			ms->e[i].p = NULL;
		ms->nmemo = 0;
	}
}

/* The info byte of @addr in page @p is about to change: apply every
 * pending count, and forget the ranges counted in its chunk. */
void cov_memo_reclassify(struct etm_cov *c, struct cov_page *p,
			 uint64_t addr)
{
	cov_memo_flush(c);
	p->gen[(addr - p->base) >> COV_CHUNK_SHIFT]++;
}

/* Remember range @el, just counted entirely in page @p, up to @end (the
 * address after its last instruction). */
int cov_memo_put(struct etm_cov *c, const struct etm_elem *el, int ptm,
		 struct cov_page *p, uint64_t end, uint8_t last_info)
{
	unsigned c0 = (unsigned)(el->start - p->base) >> COV_CHUNK_SHIFT;
	unsigned c1 = (unsigned)(end - 1 - p->base) >> COV_CHUNK_SHIFT;
	struct cov_memo *m;

	if (!c->memo) {
		c->memo = calloc(1, sizeof(*c->memo));
		if (!c->memo)
			return -etme_nomem;
	}
	m = &c->memo->e[memo_hash(el->start, el->end)];
	/* evicted with pending counts: apply them now (its index stays in
	 * the dirty list, where it is found with n = 0) */
	memo_apply(m);
	if (!m->p)
		c->memo->nmemo++;
	m->p = p;
	m->start = el->start;
	m->end = el->end;
	m->ninsn = el->ninsn;
	m->isa = (uint8_t)el->isa;
	m->ptm = (uint8_t)ptm;
	m->last_info = last_info;
	m->chunk0 = (uint8_t)c0;
	m->chunk1 = (uint8_t)c1;
	m->gen = memo_gen(p, c0, c1);
	return 0;
}
