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

/* A hit on @m that is not the common case (cov_memo_hit()): the first
 * pending count since a flush, or a condition outcome to add. */
int cov_memo_queue(struct etm_cov *c, struct cov_memo *m,
		   const struct etm_elem *el)
{
	struct cov_memos *ms = c->memo;

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
		ms->dirty[ms->ndirty++] = (uint32_t)(m - ms->e);
	}
	m->n++;
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
	uint32_t k, ninsn = (uint32_t)(m->key >> 16), last = ninsn - 1;
	int ptm = m->key & 1;

	if (!n)
		return;
	for (k = 0; k < ninsn && x < m->end && x >= p->base &&
		    x - p->base < (1u << COV_PAGE_SHIFT);
	     k++) {
		unsigned slot = (unsigned)(x - p->base) >> 1;

		p->exec[slot] += n;
		if (k == last) {
			if (m->nfail)
				p->fail[slot] += m->nfail;
			if (m->nunk)
				p->unk[slot] += m->nunk;
		} else if (ptm) {
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

	cov_memo_flush(c);
	while (ms && ms->nmemo)
		ms->e[ms->used[--ms->nmemo]].p = NULL;
}

/* Apply every pending count and detach the memo of @c, emptied, for reuse
 * by another coverage object (a parallel worker's next part: clearing
 * only the entries in use is cheaper than a new 1 MiB memo). NULL if @c
 * has none. */
struct cov_memos *cov_memo_take(struct etm_cov *c)
{
	struct cov_memos *ms = c->memo;

	cov_memo_drop(c);
	c->memo = NULL;
	return ms;
}

/* The info byte of @addr in page @p is about to change: apply every
 * pending count, and forget the ranges counted in its page. */
void cov_memo_reclassify(struct etm_cov *c, struct cov_page *p)
{
	cov_memo_flush(c);
	p->gen++;
}

/* Remember range @el, just counted entirely in page @p. */
int cov_memo_put(struct etm_cov *c, const struct etm_elem *el, int ptm,
		 struct cov_page *p, uint8_t last_info)
{
	struct cov_memo *m;
	size_t idx;

	if (!c->memo) {
		c->memo = calloc(1, sizeof(*c->memo));
		if (!c->memo)
			return -etme_nomem;
	}
	idx = cov_memo_hash(el->start, el->end);
	m = &c->memo->e[idx];
	/* evicted with pending counts: apply them now (its index stays in
	 * the dirty list, where it is found with n = 0) */
	memo_apply(m);
	if (!m->p)
		c->memo->used[c->memo->nmemo++] = (uint32_t)idx;
	m->p = p;
	m->start = el->start;
	m->end = el->end;
	m->key = cov_memo_key(el, ptm);
	m->last_info = last_info;
	m->gen = p->gen;
	return 0;
}
