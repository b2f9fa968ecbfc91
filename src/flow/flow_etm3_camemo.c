/* flow/flow_etm3_camemo.c - cycle-accurate ETMv3 atom runs through the walk
 * memo (walk_memo.h). The ranges a walk makes depend only on where it
 * starts (address, ISA, memory space, context template, whether it goes on
 * in the pending range) and on the E/N pattern of its atoms, not on the W
 * atoms: the cycles of a range are the W atoms of its atoms, taken from
 * the run's running sums (struct etm_atom_run's cw[]) when it is replayed.
 * So a walk of k atoms is kept under its start and its k E/N bits, and
 * replayed whenever the next k atoms of a run have the same bits. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/copy.h"
#include "common/pagebuf.h"
#include "flow/flow_etm3_int.h"
#include "flow/walk_memo.h"

/* An entry: a walk of the plain memo's form (its cycles 0, its end_st
 * the next lookup's set and merge flag, e3_ca_next()), and k atoms with E/N bits pat (bit i: atom i is N) under mask
 * (its k low bits set, kept so a lookup does not make it), range j
 * of atoms a0[j] to a0[j + 1] - 1 (a0[nr] = k); the end state in bytes,
 * ready to store: ISA, addr_valid, wait_branch (E3_WAIT_*), pend_open.
 * What a lookup tests (addr, pat, k, then the walk's key) and the walk's
 * state come first, in the entry's first cache line, and its range
 * elements start the next: the table starts on a line (etm_line_calloc())
 * and an entry is a whole number of lines, so a lookup reads one line per
 * way and a hit one more per 64 bytes of the ranges it copies (with the
 * key fields last, a lookup read two lines per way: 1.28 M of the one-job
 * decode's misses of a 512 KiB cache on TC2 x256 ETMv3 were 0.56 M in this
 * memo; doc/measurements/2026-12-07-jobs2-memory.md). pat holds at most
 * E3_CAMEMO_ATOMS bits (below), so 16 bits each for pat and mask leave
 * the first line room for the end state bytes. */
struct e3_caentry {
	uint64_t addr;
	uint16_t pat, mask;
	uint8_t k;
	uint8_t a0[ETM_WALK_MEMO_RANGES + 1];
	uint8_t isa, valid, wait, open;
	struct etm_wm_entry w;
};

_Static_assert(offsetof(struct e3_caentry, w.el) == ETM_LINE &&
		       sizeof(struct e3_caentry) % ETM_LINE == 0,
	       "a cycle-accurate memo entry: its tests and state in one line, "
	       "its ranges from the next");

/* Atoms one missed lookup walks and keeps (at most): a longer walk covers
 * more per lookup, a shorter one is found again more often. */
#define E3_CAMEMO_ATOMS 16
_Static_assert(E3_CAMEMO_ATOMS <= 16, "an entry's pat holds its E/N bits");

/* The key of a walk besides its start address: template generation
 * @tgen, ISA, memory space and whether the walk goes on in the pending
 * range (@merge); never 0 (bit 0 is set: 0 marks an empty entry). Made
 * of e3_ca_key_base(), which a run's hits do not change (only a walk can:
 * it is made again after one), and e3_ca_key(). */
static inline uint64_t e3_ca_key_base(uint32_t tgen, unsigned space)
{
	return (uint64_t)tgen << 32 | (uint64_t)(space & 0xff) << 16 | 1u;
}

static inline uint64_t e3_ca_key(uint64_t base, unsigned isa, int merge)
{
	return base | (uint64_t)(isa & 0xff) << 24 | (merge ? 2u : 0u);
}

/* Whether entry @m is a walk from @addr under @key whose atoms are the
 * next ones, @bits (@avail of them). */
static inline int e3_ca_fits(const struct e3_caentry *m, uint64_t addr,
			     uint64_t key, uint64_t bits, uint32_t avail)
{
	return m->addr == addr && m->w.key == key && m->k <= avail &&
	       (bits & m->mask) == m->pat;
}

/* The entry of set @m for a walk from @addr under @key whose atoms, from
 * the next one, are @bits (@avail of them), the longer if both are; or
 * NULL. */
static inline const struct e3_caentry *
e3_ca_find(const struct e3_caentry *m, uint64_t addr, uint64_t key,
	   uint64_t bits, uint32_t avail)
{
	int f0 = e3_ca_fits(&m[0], addr, key, bits, avail);
	int f1 = e3_ca_fits(&m[1], addr, key, bits, avail);

	if (f0 && f1)
		return m[1].k > m[0].k ? &m[1] : &m[0];
	return f0 ? &m[0] : f1 ? &m[1] :
				 NULL;
}

/* The ranges @j.. of entry @m to the queue from @pe, replayed at the atom
 * whose slot of the run's cw[] is @c[0] (struct etm_atom_run): each with
 * the offset of its first atom's packet and the W atoms of its atoms.
 * Range j's atoms start at slot a0[j]: its W atoms are the difference of
 * its end slot and its start slot, which is the end slot of range j - 1
 * (carried in a local, not read twice). Returns the element after the
 * last. */
static inline struct etm_elem *e3_ca_ranges(struct etm_elem *pe,
					    const struct e3_caentry *m,
					    unsigned j, const uint16_t *c,
					    struct etm_atom_run *ar)
{
	const struct etm_elem *r = m->w.el;
	unsigned n = m->w.nr;
	uint16_t lo = c[m->a0[j]];

	if (ar->map && ar->rel) {
		/* the offset map's common form (per-byte offsets): its
		 * base and table in locals */
		const uint32_t *rel = ar->rel + ar->pos0;
		uint64_t rb = ar->rel_base;

		for (; j < n; j++, pe++) {
			uint16_t hi = c[m->a0[j + 1]];
			unsigned pk = (unsigned)c[m->a0[j] + 1] >>
				      ETM_ATOM_RUN_WBITS;

			etm_copy(pe, &r[j], sizeof(*pe));
			pe->offset = rb + rel[pk];
			pe->cycles = etm_atom_run_w(hi, lo);
			lo = hi;
		}
		return pe;
	}
	for (; j < n; j++, pe++) {
		uint16_t hi = c[m->a0[j + 1]];
		unsigned pk = (unsigned)c[m->a0[j] + 1] >> ETM_ATOM_RUN_WBITS;

		etm_copy(pe, &r[j], sizeof(*pe));
		pe->offset = etm_atom_run_off(ar, pk);
		pe->cycles = etm_atom_run_w(hi, lo);
		lo = hi;
	}
	return pe;
}

/* The carry into atom 0 of @a (W atoms of earlier runs): its W atoms
 * less those of its own slot. */
static inline uint32_t e3_ca_carry(const struct e3_atoms *a)
{
	return a->w0 - (a->cw[1] & ETM_ATOM_RUN_WMASK);
}

/* Replay entry @m at atom @i of @a: the pending range extended (a merging
 * walk), the new ranges queued with their first atom's offset and their
 * atoms' cycles, the last pending; then the end state. Returns 0, 1 when
 * the queue has no room (the walk reports that), or an error. */
static int e3_ca_apply(struct etm3_flow *e, const struct e3_atoms *a,
		       uint32_t i, const struct e3_caentry *m)
{
	struct etm_flow *f = e->f;
	const struct etm_elem *r = m->w.el;
	struct etm_elem *pe;
	struct etm_atom_run *ar = a->r;
	/* in locals: the stores to elements could alias them */
	const uint16_t *cw = a->cw;
	uint64_t prev = m->w.prev_addr;
	unsigned n = m->w.nr, j = 0;
	uint32_t k = m->k;
	int err;

	if (f->qhead + f->qlen + n + 1 >= ETM_FLOW_QMAX)
		return 1;
	if (m->w.merge) {
		pe = e->pend;
		if (m->w.prev_pending)
			prev = pe->last_addr;
		etm_wm_extend(pe, &m->w, r);
		pe->cycles = e3_sat32((uint64_t)pe->cycles +
				      etm_atom_run_w(cw[i + m->a0[1]], cw[i]) +
				      (i ? 0 : e3_ca_carry(a)));
		j = 1;
	}
	if (j < n) {
		struct etm_elem *q;

		err = e3_flush(e);
		if (err < 0)
			return err;
		q = &f->q[f->qhead + f->qlen];
		pe = e3_ca_ranges(q, m, j, cw + i, ar);
		/* the carry into atom 0, if a new range begins there */
		if (!i && !m->w.merge)
			q->cycles = e3_sat32((uint64_t)q->cycles +
					     e3_ca_carry(a));
		f->qlen += (unsigned)(pe - q) - 1;
		e->pend = pe - 1;
		e->pend_on = 1;
	}
	e->prev_addr = prev;
	e->last_w = i + k - 1 ? etm_atom_run_w(cw[i + k], cw[i + k - 1]) :
				a->w0;
	e->addr = m->w.end_addr;
	e->isa = (enum etm_isa)m->isa;
	e->addr_valid = m->valid;
	e->wait_branch = m->wait;
	e->pend_open = m->open;
	e->cb = NULL;
	return 0;
}

/* Where the next lookup goes from the current state: the set index
 * (etm_wm_set()) shifted left by one over whether the walk from there
 * goes on in the pending range (e3_merges()). A walk's is kept in its
 * entry (w.end_st, which the plain loop's packed state uses but this
 * memo does not): a hit leaves the state its walk left, so the lookup
 * after it needs neither the test nor the hash. */
static inline uint32_t e3_ca_next(const struct etm3_flow *e)
{
	int merge = e3_merges(e->pend_on, e->pend_open, e->pend, e->addr,
			      e->isa);

	return (uint32_t)etm_wm_set(e->addr, (uint8_t)merge, E3_CAMEMO_LOG2)
		       << 1 |
	       (uint32_t)merge;
}

/* Entry @from copied to @to: the lines its walk uses, not the whole
 * entry. */
static void e3_ca_move(struct e3_caentry *to, const struct e3_caentry *from)
{
	memcpy(to, from,
	       offsetof(struct e3_caentry, w.el) +
		       from->w.nr * sizeof(from->w.el[0]));
}

/* Keep in set @m, under @addr and @key, the walk of @k atoms with E/N
 * bits @pat that etm_e3_memo_keepable() accepted (its first range at
 * queue index @base; a merging walk: the pending range, then of @old_n
 * instructions), if it took one instruction an atom: in its newer way,
 * the newer walk moved to its older one, the older to the older way of
 * the neighbour set @alt (e3_ca_alt()), whose lookups come after those
 * of @m. Three walks whose starts share a set (or three E/N patterns from
 * one start) are thus all kept, rather than each evicting the next one
 * needed when they come in turn. */
static void e3_ca_keep(struct etm3_flow *e, struct e3_caentry *m,
		       struct e3_caentry *alt, uint64_t addr, uint64_t key,
		       uint64_t pat, uint32_t k, unsigned base, int merge,
		       uint32_t old_n)
{
	struct etm_flow *f = e->f;
	unsigned end = f->qhead + f->qlen, j;
	uint8_t a0[ETM_WALK_MEMO_RANGES + 1];
	uint32_t at = 0;

	for (j = base; j <= end; j++) {
		const struct etm_elem *q = &f->q[j];

		a0[j - base] = (uint8_t)at;
		at += j == base && merge ? q->ninsn - old_n : q->ninsn;
	}
	if (at != k)
		return;
	/* the older way: the lines its walk uses, not the whole entry;
	 * what it held to the neighbour set's older way (below) */
	if (m[1].w.key)
		e3_ca_move(&alt[1], &m[1]);
	e3_ca_move(&m[1], &m[0]);
	etm_e3_memo_fill(e, &m[0].w, key, base, merge, old_n);
	for (j = 0; j < m[0].w.nr; j++) {
		m[0].a0[j] = a0[j];
		m[0].w.el[j].cycles = 0;
	}
	m[0].a0[j] = (uint8_t)k;
	m[0].addr = addr;
	m[0].pat = (uint16_t)pat;
	m[0].mask = (uint16_t)((2u << (k - 1)) - 1);
	m[0].k = (uint8_t)k;
	m[0].w.end_st = e3_ca_next(e);
	m[0].isa = (uint8_t)e->isa;
	m[0].valid = !!e->addr_valid;
	m[0].wait = (uint8_t)(e->wait_branch & 3);
	m[0].open = !!e->pend_open;
}

/* A miss at atom a->first: walk the next @k atoms and keep the walk in set
 * @m (neighbour set @alt) under @key. */
static __attribute__((noinline)) int e3_ca_miss(struct etm3_flow *e,
						const struct e3_atoms *a,
						struct e3_caentry *m,
						struct e3_caentry *alt,
						uint64_t key, uint32_t k,
						int merge)
{
	struct e3_atoms s = *a;
	uint64_t addr = e->addr;
	uint32_t old_n = merge ? e->pend->ninsn : 0;
	int base = etm_e3_memo_base(e, merge), err;

	s.n = a->first + k;
	err = etm_e3_walk(e, &s);
	if (err >= 0 && etm_e3_memo_keepable(e, base))
		e3_ca_keep(e, m, alt, addr, key,
			   (a->bits >> a->first) & ((2ull << (k - 1)) - 1), k,
			   (unsigned)base, merge, old_n);
	return err;
}

/* The neighbour of the set at index @si (etm_wm_set(): even), where the
 * walks its misses evict go (e3_ca_keep()). */
static inline struct e3_caentry *e3_ca_alt(struct etm3_flow *e, size_t si)
{
	return &e->camemo[si ^ 2];
}

/* The cycle-accurate walk memo, allocated at first use (0 without
 * memory: runs are then walked), starting on a cache line. */
static int e3_ca_memo(struct etm3_flow *e)
{
	if (!e->camemo)
		e->camemo = etm_line_calloc((size_t)1 << E3_CAMEMO_LOG2,
					    sizeof(*e->camemo));
	return e->camemo != NULL;
}

void etm_e3_camemo_free(struct etm3_flow *e)
{
	etm_line_free(e->camemo);
	e->camemo = NULL;
}

int etm_e3_camemo_run(struct etm3_flow *e, struct etm_atom_run *r)
{
	struct e3_atoms as = { .n = r->n, .bits = r->bits, .r = r }, *a = &as;
	uint32_t n = r->n, i = 0;
	uint64_t kb = e3_ca_key_base(e->tgen, e->space);
	uint32_t next;
	int err;

	etm_e3_ca_atoms(e, r, a);
	if (!e3_ca_memo(e))
		return etm_e3_walk(e, a);
	next = e3_ca_next(e);
	while (i < n && e->addr_valid && !e->nheld) {
		uint32_t avail = n - i, k;
		int merge = (int)(next & 1);
		uint64_t key = e3_ca_key(kb, e->isa, merge);
		size_t si = next >> 1;
		struct e3_caentry *set = &e->camemo[si];
		const struct e3_caentry *m =
			e3_ca_find(set, e->addr, key, a->bits >> i, avail);

		if (!m)
			m = e3_ca_find(e3_ca_alt(e, si), e->addr, key,
				       a->bits >> i, avail);
		if (m) {
			err = e3_ca_apply(e, a, i, m);
			if (err < 0)
				return err;
			if (err)
				break;
			i += m->k;
			/* the state the hit left, as the walk left it */
			next = m->w.end_st;
			continue;
		}
		k = avail < E3_CAMEMO_ATOMS ? avail : E3_CAMEMO_ATOMS;
		a->first = i;
		err = e3_ca_miss(e, a, set, e3_ca_alt(e, si), key, k, merge);
		if (err < 0)
			return err;
		kb = e3_ca_key_base(e->tgen, e->space);
		next = e3_ca_next(e);
		i += k;
	}
	a->first = i;
	/* the usual end: every atom replayed, nothing for the walk (a
	 * call that would only return) */
	if (i >= n)
		return 0;
	return etm_e3_walk(e, a);
}

unsigned etm_e3_camemo_count(const struct etm3_flow *e, uint64_t addr,
			     int merge, unsigned k)
{
	const struct e3_caentry *t = e->camemo;
	unsigned i, c = 0;

	for (i = 0; t && i < 1u << E3_CAMEMO_LOG2; i++)
		c += t[i].addr == addr && t[i].w.key &&
		     t[i].w.merge == !!merge && t[i].k == k;
	return c;
}
