/* cov/cov_memo.c - the range memo: a range already counted once, whose
 * instructions all lie in one page and are classified for its ISA, is
 * counted again by adding 1 to its entry (plus its last instruction's
 * condition outcome). The pending counts are added to the page slots by
 * cov_memo_flush(): one walk per distinct range instead of one per
 * execution. The walk follows the slot info bytes of the instructions it
 * counted, all classified for its ISA when it was first walked; they change
 * only when an address classified in one ISA runs in the other (damaged
 * trace) or pages are merged: the memo is emptied (its counts applied)
 * before either, so the counts equal those of counting each range as it
 * comes. Classifying an address for the first time changes no entry's walk
 * (no entry walked it). Every call that reads instruction counts flushes
 * first; the counter arrays the flush adds to are allocated when the count
 * is taken, so that a flush cannot fail. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "cov/cov_int.h"

_Static_assert(sizeof(struct cov_src) == 128,
	       "a source is found by a shift of its id (cov_range_fast())");
_Static_assert(sizeof(struct cov_memo) == 128,
	       "a memo entry is two cache lines: the hit's, the pending pairs'");

/* The page after @p, where the range of a COV_TWO_PAGES entry ends (it
 * exists: an instruction of the range starts in it). */
static struct cov_page *memo_page2(const struct etm_cov *c,
				   const struct cov_page *p)
{
	size_t i;

	return (struct cov_page *)cov_page_find(c, p->base + (1u << COV_PAGE_SHIFT),
						&i);
}

/* The fail (@unk 0) or unk array of every page of entry @m exists: 0, or
 * -etme_nomem. */
static int memo_array(struct etm_cov *c, struct cov_memo *m, int unk)
{
	struct cov_page *p2;

	if ((unk ? cov_page_unk(m->p) : cov_page_fail(m->p)) < 0)
		return -etme_nomem;
	if (!(m->arrays & COV_TWO_PAGES))
		return 0;
	p2 = memo_page2(c, m->p);
	if (!p2 || (unk ? cov_page_unk(p2) : cov_page_fail(p2)) < 0)
		return -etme_nomem;
	return 0;
}

/* A hit on @m that is not the common case (cov_memo_hit()): the first
 * pending count since a flush, or a condition outcome to add. */
int cov_memo_queue(struct etm_cov *c, struct cov_memo *m,
		   const struct etm_elem *el)
{
	struct cov_memos *ms = c->memo;

	/* PTM: memo_apply() counts the untold outcomes of the range's other
	 * instructions (an entry carried to a new part has no array yet) */
	if ((m->arrays & COV_PTM_RANGE) && !(m->arrays & 2)) {
		if (memo_array(c, m, 1) < 0)
			return -etme_nomem;
		m->arrays |= 2;
	}
	if (el->last_atom && !el->last_exec) {
		if (memo_array(c, m, 0) < 0)
			return -etme_nomem;
		m->nfail++;
		m->arrays |= 1;
	} else if (!el->last_atom) {
		if (memo_array(c, m, 1) < 0)
			return -etme_nomem;
		m->nunk++;
		m->arrays |= 2;
	}
	if (!m->queued) {
		m->queued = 1;
		ms->dirty[ms->ndirty++] = (uint32_t)(m - ms->e);
	}
	m->n++;
	return 1;
}

/* Add the pending counts of @m to its page (or pages), as
 * cov_page_insns() would have added them one execution at a time (its
 * counter arrays exist: fail and unk were allocated when the counts were
 * taken, PTM's unk when the range was first counted or, carried to a new
 * part, first queued). */
static void memo_apply(const struct etm_cov *c, struct cov_memo *m)
{
	struct cov_page *p = m->p;
	uint64_t x = m->start, n = m->n;
	uint32_t k, ninsn = m->ninsn, last = ninsn - 1;
	int ptm = (m->arrays & COV_PTM_RANGE) != 0;

	if (!n)
		return;
	/* an entry carried to a new part (cov_memo_carry()) may be the first
	 * to count in its page */
	cov_page_span(p, (unsigned)(x - p->base) >> 1,
		      (unsigned)(m->end - p->base + 1) >> 1);
	for (k = 0; k < ninsn && x < m->end; k++) {
		unsigned slot;

		if (x < p->base || x - p->base >= (1u << COV_PAGE_SHIFT)) {
			if (!(m->arrays & COV_TWO_PAGES) || p != m->p)
				break;
			p = memo_page2(c, p); /* the range goes on there */
			if (!p || x < p->base || x - p->base >= (1u << COV_PAGE_SHIFT))
				break;
			cov_page_span(p, (unsigned)(x - p->base) >> 1,
				      (unsigned)(m->end - p->base + 1) >> 1);
		}
		slot = (unsigned)(x - p->base) >> 1;

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

		memo_apply(c, m);
		m->queued = 0;
	}
}

/* Add the pending pair counts of every entry to the maps of @c: their map
 * entries exist (cov_memo_branch(), cov_memo_run()), so that this cannot
 * fail. Every call that reads the maps does this first. */
/* The pending pair counts of @m into the maps of @c. */
static void memo_pairs_one(const struct etm_cov *c, struct cov_memo *m)
{
	if (m->nbr)
		cov_map_bump(&c->branches, m->br_from, m->br_to, m->nbr);
	if (m->nbr2)
		cov_map_bump(&c->branches, m->br_from, m->br_to2, m->nbr2);
	if (m->nrun)
		cov_map_bump(&c->ranges, m->run_from, m->run_to, m->nrun);
	m->nbr = m->nbr2 = m->nrun = 0;
}

void cov_memo_pairs(const struct etm_cov *c)
{
	struct cov_memos *ms = c->memo;
	size_t i;

	for (i = 0; ms && i < ms->nmemo; i++)
		memo_pairs_one(c, &ms->e[ms->used[i]]);
}

/* Apply every pending count and forget every range (slot info is about to
 * change, or the memo leaves @c). */
void cov_memo_drop(struct etm_cov *c)
{
	struct cov_memos *ms = c->memo;
	unsigned id;

	cov_memo_flush(c);
	cov_memo_pairs(c);
	while (ms && ms->nmemo) {
		struct cov_memo *m = &ms->e[ms->used[--ms->nmemo]];

		m->key = 0;
		m->pend = 0;
	}
	for (id = 0; id < COV_MAX_ID; id++)
		c->src[id].pend = NULL;
}

/* The page of @to for page @p of the worker's previous part: its info
 * bytes copied and marked carried (a merge takes them only where @to
 * executes them). NULL: out of memory. */
static struct cov_page *memo_carry_page(struct etm_cov *to,
					const struct cov_page *p)
{
	struct cov_page *np = cov_page_get(to, p->base);

	if (!np)
		return NULL;
	memcpy(np->info, p->info, sizeof(np->info));
	memset(np->carried, 0xff, sizeof(np->carried));
	return np;
}

/* The pages of @from marked to move (next == itself, memo_carry_page())
 * joined in order with the pages of @to into @arr (room for all the
 * pages of @from: each gives @to at most one), which @to takes; the rest
 * stay in @from. Every page's mark is cleared. */
static void memo_move_pages(struct etm_cov *from, struct etm_cov *to,
			    struct cov_page **arr)
{
	size_t i, j = 0, k = 0, n = 0;

	for (i = 0; i < from->npages; i++) {
		struct cov_page *p = from->pages[i];

		if (p->next != p) {
			p->next = NULL;
			from->pages[k++] = p;
			continue;
		}
		p->next = NULL;
		while (j < to->npages && to->pages[j]->base < p->base)
			arr[n++] = to->pages[j++];
		arr[n++] = p;
	}
	while (j < to->npages)
		arr[n++] = to->pages[j++];
	free(to->pages);
	to->pages = arr;
	to->pcap = from->npages;
	to->npages = n;
	from->npages = k;
	from->hot = NULL;
}

/* The page in @to for the memo entry @m (valid) of the worker's previous
 * part: a copy of its page if that part counted in it, else the page
 * itself, marked to move (if @arr, the room for the moved pages, could be
 * made). NULL: none (no memory). */
static struct cov_page *memo_next_page(struct etm_cov *to,
				       const struct cov_memo *m, void *arr)
{
	struct cov_page *p = m->p;

	if (!p->hi) {
		if (!arr)
			return NULL;
		p->next = p;
	} else if (!p->next) {
		p->next = memo_carry_page(to, p);
	}
	return p->next;
}

/* Move the memo of part @from (its counts applied) to @to, the same
 * worker's next part (fresh): the entries still valid point to pages of
 * @to with the same info bytes (a copy of a page @from counted in, or
 * the page itself if it counted nothing there: a merge would take nothing
 * from it, its counter arrays are cleared as its span grows), so that
 * each distinct range is walked once per worker rather than once per part
 * (an entry whose page could not be made is forgotten). One pass over the
 * entries. Returns 0 or -etme_nomem. */
int cov_memo_carry(struct etm_cov *from, struct etm_cov *to)
{
	struct cov_memos *ms = from->memo;
	struct cov_page **arr;
	size_t i, k = 0;
	unsigned id;
	int err = 0;

	if (to->npages || to->memo)
		return -etme_invalid;
	cov_memo_flush(from);
	for (id = 0; id < COV_MAX_ID; id++)
		from->src[id].pend = NULL;
	from->memo = NULL;
	if (!ms)
		return 0;
	arr = malloc((from->npages ? from->npages : 1) * sizeof(*arr));
	for (i = 0; i < ms->nmemo; i++) {
		struct cov_memo *m = &ms->e[ms->used[i]];
		struct cov_page *np;

		memo_pairs_one(from, m);
		m->pend = 0;
		if (m->arrays & COV_TWO_PAGES) { /* walked again in @to */
			m->key = 0;
			continue;
		}
		np = memo_next_page(to, m, arr);
		if (!np) {
			err = -etme_nomem;
			m->key = 0;
			continue;
		}
		m->p = np;
		m->arrays = (uint8_t)((m->arrays & (COV_LAST_BR | COV_PTM_RANGE)) |
				      (np->fail ? 1 : 0) |
				      (np->unk ? 2 : 0));
		ms->used[k++] = ms->used[i];
	}
	ms->nmemo = k;
	to->memo = ms;
	if (arr)
		memo_move_pages(from, to, arr);
	return err;
}

void cov_memo_free(struct cov_memos *ms)
{
	if (ms)
		free(ms->raw);
}

/* An address classified in one ISA is about to be classified in the other
 * (only in damaged or hostile trace): its info byte may change the walk of
 * an entry, so apply every pending count and forget every range. The cost
 * is that of the entries made since the last time: each is forgotten once. */
void cov_memo_reclassify(struct etm_cov *c)
{
	cov_memo_drop(c);
}

/* @m is free or was @el's (the same addresses and key: the same range of
 * a source of the other protocol takes the other entry). */
static int memo_spare(const struct cov_memo *m, const struct etm_elem *el,
		      uint64_t key)
{
	return !m->key ||
	       (m->start == el->start && m->end == el->end && m->key == key);
}

/* Remember range @el, just counted entirely in page @p and, if @p2, the
 * page after it: in the one of its two entries that is free or its own,
 * else in the first. Returns the entry, or NULL. */
struct cov_memo *cov_memo_put(struct etm_cov *c, const struct etm_elem *el,
			      const struct cov_src *s, struct cov_page *p,
			      const struct cov_page *p2, uint8_t last_info)
{
	struct cov_memo *m;
	uint64_t h, key;
	size_t idx;
	unsigned cls;

	if (!c->memo) {
		/* entries on cache lines; calloc: only the entries used are
		 * touched (aligned_alloc and memset would write 2 MiB) */
		void *raw = calloc(1, sizeof(*c->memo) + 64);

		if (!raw)
			return NULL;
		c->memo = (struct cov_memos *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
		c->memo->raw = raw;
	}
	h = cov_memo_hash(el->start, el->end);
	key = cov_memo_key(el, s->memo_proto);
	idx = cov_memo_idx1(h);
	if (!memo_spare(&c->memo->e[idx], el, key) &&
	    memo_spare(&c->memo->e[cov_memo_idx2(h)], el, key))
		idx = cov_memo_idx2(h);
	m = &c->memo->e[idx];
	/* evicted with pending counts: apply them now (its index stays in
	 * the dirty list, where it is found with n = 0); its pending pairs
	 * stay (they are not about the range) */
	memo_apply(c, m);
	if (!m->key)
		c->memo->used[c->memo->nmemo++] = (uint32_t)idx;
	m->p = p;
	m->start = el->start;
	m->end = el->end;
	m->key = key;
	m->ninsn = el->ninsn;
	m->last_info = last_info;
	cls = (unsigned)last_info >> CI_CLS_SHIFT;
	m->arrays = (uint8_t)((p->fail && (!p2 || p2->fail) ? 1 : 0) |
			      (p->unk && (!p2 || p2->unk) ? 2 : 0) |
			      (p2 ? COV_TWO_PAGES : 0) |
			      (cls == etmc_br_direct || cls == etmc_br_indirect ?
				       COV_LAST_BR :
				       0) |
			      (s->ptm ? COV_PTM_RANGE : 0));
	return m;
}

/* The taken branch from the last instruction of @s to @to, none of those
 * pending in the entry of @s (cov_branch()): counted in the map, and made
 * the entry's second pending branch if the first is from the same
 * instruction, else its first (the ones pending before added to the
 * map). */
int cov_memo_branch(struct etm_cov *c, struct cov_src *s, uint64_t to)
{
	struct cov_memo *q = s->pend;
	int err = cov_map_add(&c->branches, s->last, to, 1);

	if (err || !q)
		return err;
	if (q->nbr2)
		cov_map_bump(&c->branches, q->br_from, q->br_to2, q->nbr2);
	q->nbr2 = 0;
	if ((q->pend & COV_PEND_BR) && q->br_from == s->last) {
		q->br_to2 = to;
		q->pend |= COV_PEND_BR2;
		return 0;
	}
	if (q->nbr)
		cov_map_bump(&c->branches, q->br_from, q->br_to, q->nbr);
	q->br_from = s->last;
	q->br_to = to;
	q->nbr = 0;
	q->pend = (uint8_t)((q->pend & ~COV_PEND_BR2) | COV_PEND_BR);
	return 0;
}

/* The run of @s, as cov_memo_branch() the branch (cov_run()). */
int cov_memo_run(struct etm_cov *c, struct cov_src *s)
{
	struct cov_memo *q = s->pend;
	int err = cov_map_add(&c->ranges, s->run_start, s->last, 1);

	if (err || !q)
		return err;
	if (q->nrun)
		cov_map_bump(&c->ranges, q->run_from, q->run_to, q->nrun);
	q->run_from = s->run_start;
	q->run_to = s->last;
	q->nrun = 0;
	q->pend |= COV_PEND_RUN;
	return 0;
}
