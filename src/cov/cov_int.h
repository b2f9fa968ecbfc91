/* cov/cov_int.h - internals of the coverage accumulator: pages of
 * per-halfword counters, per-source straight-line run state, and the hash
 * maps of range and branch counts. */
#ifndef ETM_COV_COV_INT_H
#define ETM_COV_COV_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <etmtrace/coverage.h>

/* A page covers 4 KiB of code: one slot per halfword. */
#define COV_PAGE_SHIFT 12
#define COV_SLOTS (1u << (COV_PAGE_SHIFT - 1))

/* Slot info byte: what the classifier said about the instruction that
 * starts at the slot (0 = nothing starts here / not yet classified). */
#define CI_VALID 0x01u
#define CI_SIZE4 0x02u
#define CI_T32 0x04u
#define CI_COND 0x08u
#define CI_LINK 0x10u
#define CI_CLS_SHIFT 5 /* enum etm_insn_class in bits 5-7 */

struct cov_page {
	uint64_t base; /* address of the page */
	/* exec, fail and unk hold counts in slots [lo, hi) only: the rest is
	 * not initialised (cleared when the span grows, cov_page_span()), so
	 * that a part's page costs what it counts, not 16 KiB a page */
	uint64_t exec[COV_SLOTS];
	uint64_t *fail; /* allocated at the first failed condition */
	uint64_t *unk;  /* ... at the first untold condition */
	uint8_t info[COV_SLOTS];
	/* in a parallel worker's part: the info bytes copied from the
	 * worker's previous part (cov_memo_carry()), one bit a slot, cleared
	 * when this part classifies the slot; a merge takes a carried info
	 * byte only where the part executed the slot */
	uint64_t carried[COV_SLOTS / 64];
	/* slots [lo, hi) hold every info byte and count set (hi 0: none),
	 * so that a merge reads only those (cov_page_span()) */
	uint16_t lo, hi;
	/* during cov_memo_carry(): the page in the worker's next part that
	 * the memo entries of this one go to (NULL: none yet) */
	struct cov_page *next;
};

/* Clear the counts of slots [@lo, @hi) of @p. */
static inline void cov_page_clear(struct cov_page *p, unsigned lo, unsigned hi)
{
	size_t n = (hi - lo) * sizeof(uint64_t);

	memset(p->exec + lo, 0, n);
	if (p->fail)
		memset(p->fail + lo, 0, n);
	if (p->unk)
		memset(p->unk + lo, 0, n);
}

/* Slots [@lo, @hi) of @p are about to be set: the span grows to hold
 * them, its new slots' counts cleared. */
static inline void cov_page_span(struct cov_page *p, unsigned lo, unsigned hi)
{
	if (hi > COV_SLOTS)
		hi = COV_SLOTS;
	if (lo >= hi)
		return;
	if (!p->hi) {
		cov_page_clear(p, lo, hi);
		p->lo = (uint16_t)lo;
		p->hi = (uint16_t)hi;
		return;
	}
	if (lo < p->lo) {
		cov_page_clear(p, lo, p->lo);
		p->lo = (uint16_t)lo;
	}
	if (hi > p->hi) {
		cov_page_clear(p, p->hi, hi);
		p->hi = (uint16_t)hi;
	}
}

static inline int cov_carried(const struct cov_page *p, unsigned slot)
{
	return (int)(p->carried[slot >> 6] >> (slot & 63) & 1);
}
static inline void cov_uncarry(struct cov_page *p, unsigned slot)
{
	p->carried[slot >> 6] &= ~(1ull << (slot & 63));
}

/* Open-addressing map (from, to) -> count; count 0 marks a free entry. */
struct cov_map {
	struct etm_cov_pair *e;
	size_t cap, n;
};

/* Run state of one trace source. */
struct cov_src {
	enum etm_protocol proto; /* 0: not declared */
	const struct etm_image *img;
	int open;  /* a straight-line run is in progress */
	int taken; /* its last instruction is a taken branch */
	uint64_t run_start, last, next;
	/* part objects (etm_cov_set_part()): what the source's first element
	 * was, and where the run it began ended, for etm_cov_append() */
	uint8_t head;      /* COV_HEAD_* */
	uint8_t head_open; /* the head run is still the open run */
	uint8_t head_has_ret;
	/* declared, and (in a part) its head known: etm_cov_add_elems() can
	 * take its ranges straight to the range path */
	uint8_t fast;
	uint8_t ptm; /* proto is etm_proto_ptm */
	uint64_t head_start, head_last, head_ret;
	/* memo entry of the source's last counted range (or NULL): where its
	 * taken branch and run end are counted (cov_memo.pend) */
	struct cov_memo *pend;
	uint64_t memo_proto; /* its bits of the memo key (cov_memo_key()) */
	/* 128 bytes: the loop finds a source by a shift (cov_range_fast()) */
	uint64_t pad_[4];
};

enum { COV_HEAD_NONE,
       COV_HEAD_RANGE,
       COV_HEAD_GAP,
       COV_HEAD_EXC };

#define COV_MAX_ID 128

/* Range memo (cov_memo.c): a range counted once, entirely in one page or
 * two consecutive ones.
 * Two-way skewed: a range is in one of two entries (cov_memo_idx1/2()). */
#define COV_MEMO_BITS 14
#define COV_MEMO_N (1u << COV_MEMO_BITS)
/* cov_memo.pend: which pending pair below is set (its map entry exists) */
#define COV_PEND_BR 1u
#define COV_PEND_RUN 2u
#define COV_PEND_BR2 4u  /* a second taken branch from br_from */
#define COV_LAST_BR 4u   /* cov_memo.arrays */
#define COV_PTM_RANGE 8u /* cov_memo.arrays: a range of a PTM source */
/* cov_memo.arrays: the range goes on into the page after its own (the
 * arrays bits 1 and 2 then say both pages have the array) */
#define COV_TWO_PAGES 16u
/* cov_src.memo_proto of a PTM source: a bit no ISA value has */
#define COV_MEMO_PTM (1ull << 31)
struct cov_memo {
	/* first cache line: what a hit reads */
	uint64_t start, end;
	uint64_t key;            /* cov_memo_key() of the range; 0: free */
	struct cov_page *p;      /* its page (valid while key != 0) */
	uint64_t n, nfail, nunk; /* pending executions, last-insn outcomes */
	uint32_t ninsn;          /* its instruction count */
	uint8_t last_info, queued, pend;
	/* its page's fail (1) and unk (2) arrays exist; COV_LAST_BR (4):
	 * its last instruction is a branch (etmc_br_direct or
	 * etmc_br_indirect: taken if it executes); COV_PTM_RANGE (8) */
	uint8_t arrays;
	/* second line: a taken branch and a straight-line run, with counts
	 * not yet added to their maps (cov_memo_pairs()). Any pair may be
	 * kept in any entry; the entry of a range keeps what followed it
	 * (nearly always the same successor), so that counting it again is
	 * an increment here instead of a hash lookup in the map. A second
	 * branch from the same instruction (br_to2: a return to two callers
	 * in turn) is kept too. */
	uint64_t br_from, br_to, nbr;
	uint64_t run_from, run_to, nrun;
	uint64_t br_to2, nbr2;
};
struct cov_memos {
	struct cov_memo e[COV_MEMO_N];
	uint32_t dirty[COV_MEMO_N]; /* entries with pending counts */
	uint32_t used[COV_MEMO_N];  /* entries in use (nmemo of them) */
	size_t ndirty, nmemo;
	void *raw; /* the allocation (the entries start on a cache line) */
};

/* Classifications of instructions (cov_classify() of an address, ISA and
 * source: a function of the image), kept by a parallel worker for all its
 * parts (cov_run.c), which would otherwise read and decode every
 * instruction again in each part. Direct-mapped: a collision evicts. */
#define COV_CLS_BITS 14
struct cov_cls_ent {
	uint64_t addr;
	/* 0: free; else (source id << 2 | non-secure << 1 | A32) + 1: what
	 * else than the address the classification depends on */
	uint16_t tag;
	uint8_t info, it;
};
struct cov_cls_cache {
	struct cov_cls_ent e[1u << COV_CLS_BITS];
};

struct etm_cov {
	struct cov_page **pages; /* sorted by base */
	size_t npages, pcap;
	struct cov_page *hot; /* last page used */
	struct cov_map ranges, branches;
	/* by trace ID: one for every value of struct etm_elem.id, so that
	 * the element loop needs no bound test; those from COV_MAX_ID on
	 * are never declared (zero: not fast, no protocol) */
	struct cov_src src[256];
	int part;                  /* etm_cov_set_part() */
	struct cov_memos *memo;    /* allocated at first use */
	struct cov_cls_cache *cls; /* NULL, or a worker's (not owned) */
};

/* cov.c */
struct cov_page *cov_page_get(struct etm_cov *c, uint64_t addr);
const struct cov_page *cov_page_find(const struct etm_cov *c, uint64_t addr,
				     size_t *idx);
int cov_page_fail(struct cov_page *p);
int cov_page_unk(struct cov_page *p);
int cov_close_run(struct etm_cov *c, struct cov_src *s);
/* cov_memo.c */
struct cov_memo *cov_memo_put(struct etm_cov *c, const struct etm_elem *el,
			      const struct cov_src *s, struct cov_page *p,
			      const struct cov_page *p2, uint8_t last_info);
void cov_memo_flush(const struct etm_cov *c);
void cov_memo_pairs(const struct etm_cov *c);
void cov_memo_drop(struct etm_cov *c);
int cov_memo_carry(struct etm_cov *from, struct etm_cov *to);
void cov_memo_free(struct cov_memos *ms);
void cov_memo_reclassify(struct etm_cov *c);
int cov_memo_branch(struct etm_cov *c, struct cov_src *s, uint64_t to);
int cov_memo_run(struct etm_cov *c, struct cov_src *s);
/* What else than its addresses identifies a range in the memo: its ISA and
 * instruction count, adjacent in struct etm_elem and read as one word (an
 * equality key: the byte order does not matter), and its source's
 * protocol (@memo_proto: COV_MEMO_PTM or 0, a bit no ISA value has).
 * Never 0 for a range with instructions. */
_Static_assert(sizeof(enum etm_isa) == 4 &&
		       offsetof(struct etm_elem, ninsn) ==
			       offsetof(struct etm_elem, isa) + 4,
	       "cov_memo_key() reads the ISA and the count as one word");
static inline uint64_t cov_memo_key(const struct etm_elem *el,
				    uint64_t memo_proto)
{
	uint64_t w;

	memcpy(&w, &el->isa, sizeof(w));
	return w ^ memo_proto;
}

/* The two entries a range may be in: different bits of one product, so
 * that ranges with the same first entry mostly have different second ones
 * (a few sets of three ranges run in turn would otherwise evict each
 * other at every execution). */
static inline uint64_t cov_memo_hash(uint64_t start, uint64_t end)
{
	return ((start >> 1) ^ (end << 15)) * 0x9e3779b97f4a7c15ull;
}
static inline size_t cov_memo_idx1(uint64_t h)
{
	return (size_t)(h >> (64 - COV_MEMO_BITS));
}
static inline size_t cov_memo_idx2(uint64_t h)
{
	return (size_t)(h >> 24) & (COV_MEMO_N - 1);
}

int cov_memo_queue(struct etm_cov *c, struct cov_memo *m,
		   const struct etm_elem *el);

static inline int cov_memo_is(const struct cov_memo *m,
			      const struct etm_elem *el, uint64_t key)
{
	return m->start == el->start && m->end == el->end && m->key == key;
}

/* The entry of range @el in memo @ms, or NULL. */
static inline struct cov_memo *cov_memo_find(struct cov_memos *ms,
					     const struct etm_elem *el,
					     uint64_t memo_proto)
{
	uint64_t h = cov_memo_hash(el->start, el->end);
	uint64_t key = cov_memo_key(el, memo_proto);
	struct cov_memo *m = &ms->e[cov_memo_idx1(h)];

	if (cov_memo_is(m, el, key))
		return m;
	m = &ms->e[cov_memo_idx2(h)];
	return cov_memo_is(m, el, key) ? m : NULL;
}

/* Range @el, if it is in the memo: its pending counts incremented,
 * *@last_info set and the source's pend entry made its entry; returns 1,
 * 0 (not in the memo) or -etme_nomem. */
static inline int cov_memo_hit(struct etm_cov *c, struct cov_src *s,
			       const struct etm_elem *el, uint8_t *last_info)
{
	struct cov_memo *m;

	if (!c->memo)
		return 0;
	m = cov_memo_find(c->memo, el, s->memo_proto);
	if (!m)
		return 0;
	*last_info = m->last_info;
	s->pend = m;
	if (m->queued && el->last_atom) {
		m->n++; /* the common case: no condition outcome to add */
		if (el->last_exec)
			return 1;
		if (m->arrays & 1) {
			m->nfail++;
			return 1;
		}
		m->n--;
	} else if (m->queued && (m->arrays & 2)) {
		m->n++; /* the last instruction's outcome untold */
		m->nunk++;
		return 1;
	}
	return cov_memo_queue(c, m, el);
}

/* The taken branch from the last instruction of @s to @to. */
static inline int cov_branch(struct etm_cov *c, struct cov_src *s, uint64_t to)
{
	struct cov_memo *q = s->pend;

	if (q && (q->pend & COV_PEND_BR) && q->br_from == s->last) {
		if (q->br_to == to) {
			q->nbr++;
			return 0;
		}
		if ((q->pend & COV_PEND_BR2) && q->br_to2 == to) {
			q->nbr2++;
			return 0;
		}
	}
	return cov_memo_branch(c, s, to);
}

/* The straight-line run of @s from its start to its last instruction. */
static inline int cov_run(struct etm_cov *c, struct cov_src *s)
{
	struct cov_memo *q = s->pend;

	if (q && (q->pend & COV_PEND_RUN) && q->run_from == s->run_start &&
	    q->run_to == s->last) {
		q->nrun++;
		return 0;
	}
	return cov_memo_run(c, s);
}

/* cov_map.c */
int cov_map_insert(struct cov_map *m, uint64_t from, uint64_t to, uint64_t n);

static inline size_t cov_hash(uint64_t from, uint64_t to)
{
	uint64_t h = (from * 0x9E3779B97F4A7C15ull) ^ to;

	h *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(h ^ (h >> 32));
}

/* Add @n to the count of (@from, @to): where the pair is found at its
 * first probe, here; else cov_map_insert(). Returns 0 or -etme_nomem. */
static inline int cov_map_add(struct cov_map *m, uint64_t from, uint64_t to,
			      uint64_t n)
{
	if (m->cap) {
		struct etm_cov_pair *e = &m->e[cov_hash(from, to) & (m->cap - 1)];

		if (e->count && e->from == from && e->to == to) {
			e->count += n;
			return 0;
		}
	}
	return cov_map_insert(m, from, to, n);
}
void cov_map_bump(const struct cov_map *m, uint64_t from, uint64_t to,
		  uint64_t n);
void cov_map_fini(struct cov_map *m);

#endif
