/* flow/flow_etm3_plain.c - the ETMv3 flow decoder's fast path (its drain
 * hook): compact tokens pulled from its packet decoder (packet/pktdec.h),
 * batches of one-byte P-headers and branch address packets; its plain
 * loop reads lone P-headers and short branch addresses through the token
 * reader, each P-header walked through a memo of walks (walk_memo.h), the hot
 * state in locals. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/copy.h"
#include "common/pagebuf.h"
#include "flow/flow_etm3_int.h"
#include "flow/walk_memo.h"

/* The ISA and flags of the plain loop's state in one word (fewer values
 * live in the loop): ISA in the low 3 bits, then addr_valid, E3_ST_ADDR32,
 * E3_ST_MERGE, wait_branch (E3_WAIT_*), pend_on, pend_open. E3_ST_ADDR32,
 * E3_ST_MERGE and E3_ST_PEND_CLS are the loop's own, never in the decoder:
 * the address fits 32 bits (a walk from it may be memoised: etm_wm_key());
 * the next walk goes on in the pending range (e3_merges(): kept with the
 * state, so that a memoised walk gives it with its end state and a branch
 * clears it, with no test per P-header); the pending range is at the
 * queue's end and classified, so e3_flush() would queue it by counting it.
 * The low 6 bits are the state part of the memo key (E3_ST_KEY). */
#define E3_ST_ISA 0x7u
#define E3_ST_VALID 0x8u
#define E3_ST_ADDR32 0x10u
#define E3_ST_MERGE 0x20u
#define E3_ST_KEY (E3_ST_ISA | E3_ST_VALID | E3_ST_ADDR32 | E3_ST_MERGE)
#define E3_ST_WAIT_SHIFT 6
#define E3_ST_PEND_ON 0x100u
#define E3_ST_PEND_OPEN 0x200u
#define E3_ST_PEND_CLS 0x400u
/* wait_branch is 0, E3_WAIT_BRANCH or E3_WAIT_ISA: each a bit of its own */
#define E3_ST_WAIT_BRANCH ((uint32_t)E3_WAIT_BRANCH << E3_ST_WAIT_SHIFT)
#define E3_ST_WAIT_ISA ((uint32_t)E3_WAIT_ISA << E3_ST_WAIT_SHIFT)
_Static_assert(E3_WAIT_BRANCH == 1 && E3_WAIT_ISA == 2,
	       "wait_branch's values are bits of their own");

_Static_assert(etmi_jazelle <= E3_ST_ISA, "an ISA fits E3_ST_ISA");

/* E3_ST_ADDR32 for address @addr. */
static inline uint32_t e3_st_addr32(uint64_t addr)
{
	return addr >> 32 ? 0 : E3_ST_ADDR32;
}

/* E3_ST_MERGE for the decoder's state. */
static inline uint32_t e3_st_merge(const struct etm3_flow *e)
{
	return e3_merges(e->pend_on, e->pend_open, e->pend, e->addr, e->isa) ?
		       E3_ST_MERGE :
		       0;
}

static inline uint32_t e3_st_pack(enum etm_isa isa, int valid, int wait,
				  int pend_on, int pend_open)
{
	return ((uint32_t)isa & E3_ST_ISA) | (valid ? E3_ST_VALID : 0) |
	       ((uint32_t)wait & 3) << E3_ST_WAIT_SHIFT |
	       (pend_on ? E3_ST_PEND_ON : 0) |
	       (pend_open ? E3_ST_PEND_OPEN : 0);
}

/* The walk memo, allocated at first use (0 without memory: walks are then
 * not memoised); e->memo is its first entry (struct etm_wm_tab). */
static int e3_memo_get(struct etm3_flow *e)
{
	if (!e->memo) {
		struct etm_wm_tab *w = etm_line_calloc(1, sizeof(*w));

		if (!w)
			return 0;
		w->tbase = e->tgen;
		e->memo = w->e;
	}
	return 1;
}

/* The context part of the memo keys for the decoder's template generation
 * and memory space (etm_wm_ctx()); the memo is emptied when the
 * generation is ETM_WALK_MEMO_GENS or more past the one its keys count
 * from (every kept key has a generation in [tbase, tbase + GENS)). */
static uint64_t e3_memo_ctx(struct etm3_flow *e)
{
	struct etm_wm_tab *w = (struct etm_wm_tab *)(void *)e->memo;
	uint32_t d = e->tgen - w->tbase;
	size_t i;

	if (d >= ETM_WALK_MEMO_GENS) {
		for (i = 0; i < (size_t)1 << ETM_WALK_MEMO_LOG2; i++)
			w->e[i].key = 0;
		w->tbase = e->tgen;
		d = 0;
	}
	return etm_wm_ctx(d, e->space);
}

int etm_e3_memo_base(const struct etm3_flow *e, int merge)
{
	const struct etm_flow *f = e->f;
	unsigned at = f->qhead + f->qlen;

	if (merge)
		return e->pend == &f->q[at] ? (int)at : -1;
	return (int)at + (e->pend_on ? 1 : 0);
}

int etm_e3_memo_keepable(const struct etm3_flow *e, int base)
{
	const struct etm_flow *f = e->f;
	unsigned end = f->qhead + f->qlen, j;

	if (base < 0 || !e->pend_on || e->pend != &f->q[end] ||
	    (unsigned)base > end || end - (unsigned)base >= ETM_WALK_MEMO_RANGES ||
	    e->nheld)
		return 0;
	for (j = (unsigned)base; j <= end; j++)
		if (f->q[j].kind != etmk_range ||
		    (j < end && f->q[j].last_cls == etmc_unknown))
			return 0;
	return 1;
}

void etm_e3_memo_fill(struct etm3_flow *e, struct etm_wm_entry *m,
		      uint64_t key, unsigned base, int merge, uint32_t old_n)
{
	struct etm_flow *f = e->f;
	unsigned end = f->qhead + f->qlen, j;

	for (j = base; j <= end; j++)
		m->el[j - base] = f->q[j];
	m->nr = (uint8_t)(end - base + 1);
	/* the pending range classified now, not at each flush */
	etm_e3_classify_last(e, &m->el[m->nr - 1]);
	m->merge = (uint8_t)merge;
	m->d_ninsn = merge ? f->q[base].ninsn - old_n : 0;
	/* a merging walk of one instruction: e3_append() took the second
	 * to last from the pending range */
	m->prev_pending = (uint8_t)(merge && m->nr == 1 && m->d_ninsn == 1);
	m->key = key;
	m->end_addr = e->addr;
	m->prev_addr = m->prev_pending ? 0 : e->prev_addr;
}

/* Keep the walk etm_e3_memo_keepable() accepted in @m under key @key; a
 * merging walk went on in the pending range of @old_n instructions. */
static void e3_memo_keep(struct etm3_flow *e, struct etm_wm_entry *m,
			 uint64_t key, unsigned base,
			 int merge, uint32_t old_n)
{
	etm_e3_memo_fill(e, m, key, base, merge, old_n);
	/* the walk leaves its last range pending (etm_e3_memo_keepable()):
	 * E3_ST_PEND_ON is part of the end state (a hit sets the state to
	 * it with no OR) */
	m->end_st = e3_st_pack(e->isa, e->addr_valid, e->wait_branch, 1,
			       e->pend_open) |
		    e3_st_addr32(e->addr) | e3_st_merge(e);
	/* the pending range a walk that is not merging leaves at the
	 * queue's end (e3_ls_apply()) */
	if (!merge && m->el[m->nr - 1].last_cls != etmc_unknown)
		m->end_st |= E3_ST_PEND_CLS;
}

/* A memo miss: walk @ac and keep the walk in the set @m under @key if it
 * may be kept (the newest first). Out of line: the hit path stays small. */
static __attribute__((noinline)) int e3_memo_miss(struct etm3_flow *e, const struct etm_atomc *ac,
						  struct etm_wm_entry *m, uint64_t key, int merge)
{
	struct e3_atoms a = { .n = ac->n, .bits = ac->bits };
	uint32_t old_n = merge ? e->pend->ninsn : 0;
	int base = etm_e3_memo_base(e, merge), err;

	err = etm_e3_walk(e, &a);
	if (err >= 0 && etm_e3_memo_keepable(e, base)) {
		m[1] = m[0];
		e3_memo_keep(e, &m[0], key, (unsigned)base, merge,
			     old_n);
	}
	return err;
}

/* The state etm_e3_plain() keeps in locals: written back (e3_ls_put())
 * before anything out of line runs, read again (e3_ls_get()) after it.
 * As few values as possible, so that they stay in registers: the queue's
 * end as a pointer (the head does not move here), ISA and flags in one
 * word. prev_addr is that of memo entry @pm when it is set (written to
 * the decoder by e3_ls_put(): no copy per memoised walk; the entry stays
 * as it is until a miss, which runs after e3_ls_put()), else the
 * decoder's. */
struct e3_ls {
	uint64_t addr;
	struct etm_elem *pend;
	struct etm_elem *qe; /* &q[qhead + qlen] */
	const struct etm_wm_entry *pm;
	uint32_t st; /* ISA and flags, e3_st_pack() */
};

static inline void e3_ls_get(const struct etm3_flow *e, struct e3_ls *s)
{
	s->addr = e->addr;
	s->pend = e->pend;
	s->qe = &e->f->q[e->f->qhead + e->f->qlen];
	s->pm = NULL;
	s->st = e3_st_pack(e->isa, e->addr_valid, e->wait_branch, e->pend_on,
			   e->pend_open) |
		e3_st_addr32(e->addr) | e3_st_merge(e);
}

/* Write the state back. The block the last walk ended in is forgotten (a
 * memoised walk has none): a lookup gives the same instructions. */
static inline void e3_ls_put(struct etm3_flow *e, const struct e3_ls *s)
{
	e->addr = s->addr;
	e->pend = s->pend;
	e->isa = (enum etm_isa)(s->st & E3_ST_ISA);
	e->f->qlen = (unsigned)(s->qe - &e->f->q[e->f->qhead]);
	e->addr_valid = !!(s->st & E3_ST_VALID);
	e->wait_branch = (int)(s->st >> E3_ST_WAIT_SHIFT & 3);
	e->pend_on = !!(s->st & E3_ST_PEND_ON);
	e->pend_open = !!(s->st & E3_ST_PEND_OPEN);
	if (s->pm)
		e->prev_addr = s->pm->prev_addr;
	e->cb = NULL;
}

/* E3_ST_MERGE for the local state. */
static inline uint32_t e3_ls_merge(const struct e3_ls *s)
{
	return e3_merges(!!(s->st & E3_ST_PEND_ON),
			 !!(s->st & E3_ST_PEND_OPEN), s->pend, s->addr,
			 (enum etm_isa)(s->st & E3_ST_ISA)) ?
		       E3_ST_MERGE :
		       0;
}

/* e3_flush() on the local state (nothing is held): 0, or 1 when it went
 * out of line (the pending range may still be on), or an error. Without
 * E3_ST_PEND_ON, E3_ST_MERGE is clear. */
static inline __attribute__((always_inline)) int
e3_ls_flush(struct etm3_flow *e, struct e3_ls *s)
{
	int err;

	if (__builtin_expect(!(s->st & E3_ST_PEND_ON), 1))
		return 0;
	if (s->st & E3_ST_PEND_CLS) {
		s->qe++;
		s->st &= ~(E3_ST_PEND_ON | E3_ST_PEND_CLS | E3_ST_MERGE);
		return 0;
	}
	if (s->pend == s->qe && s->pend->last_cls != etmc_unknown) {
		s->qe++;
		s->st &= ~(E3_ST_PEND_ON | E3_ST_MERGE);
		return 0;
	}
	e3_ls_put(e, s);
	err = etm_e3_flush_slow(e);
	e3_ls_get(e, s);
	return err < 0 ? err : 1;
}

/* e3_ls_flush() testing E3_ST_PEND_CLS first (set only with
 * E3_ST_PEND_ON): for a flush that usually finds it. */
static inline __attribute__((always_inline)) int
e3_ls_flush_cls(struct etm3_flow *e, struct e3_ls *s)
{
	if (__builtin_expect(!!(s->st & E3_ST_PEND_CLS), 1)) {
		s->qe++;
		s->st &= ~(E3_ST_PEND_ON | E3_ST_PEND_CLS | E3_ST_MERGE);
		return 0;
	}
	return e3_ls_flush(e, s);
}

/* The walk of memo entry @m, as e3_new_range() and e3_append() would have
 * done it: the pending range extended (a merging walk), its new range
 * elements queued with offset @off (all but the last are classified, so
 * each is queued by counting it), then its end state. The queue has the
 * room: the plain loop starts below a quarter of it and stops once past
 * half (ETM_FLOW_QMAX / 2 + ETM_WALK_MEMO_RANGES + 1 < ETM_FLOW_QMAX). */
_Static_assert(offsetof(struct etm_wm_entry, merge) ==
		       offsetof(struct etm_wm_entry, nr) + 1,
	       "e3_wm_new() reads nr and merge as one");

/* Whether the walk of @m makes @n new ranges and does not merge (the
 * common walks after a branch: 1 or 2): nr and merge read as one 16-bit
 * word. */
static inline int e3_wm_new(const struct etm_wm_entry *m, uint8_t n)
{
	const uint8_t v[2] = { n, 0 };
	uint16_t w, c;

	memcpy(&w, &m->nr, sizeof(w));
	memcpy(&c, v, sizeof(c));
	return w == c;
}

static inline __attribute__((always_inline)) int
e3_ls_apply(struct etm3_flow *e, struct e3_ls *s, struct etm_wm_entry *m,
	    uint64_t off)
{
	const struct etm_elem *r;
	struct etm_elem *pe;
	unsigned n, j;
	int err;

	if (e3_wm_new(m, 1)) {
		/* the general case below with merge 0 and n 1 */
		err = e3_ls_flush(e, s);
		if (err < 0)
			return err;
		pe = s->qe;
		etm_copy(pe, m->el, sizeof(*pe));
		pe->offset = off;
		s->pend = pe;
		s->st = m->end_st;
		s->addr = m->end_addr;
		s->pm = m;
		return 0;
	}
	/* m made opaque: the loads of the cases below stay below (not
	 * hoisted into the common case above) */
	__asm__(""
		: "+r"(m));
	r = m->el;
	n = m->nr;
	if (m->merge) {
		pe = s->pend;
		/* the entry's prev_addr is free then: it takes the
		 * pending range's last for e3_ls_put() (no range
		 * follows: nothing runs out of line before) */
		if (m->prev_pending)
			m->prev_addr = pe->last_addr;
		etm_wm_extend(pe, m, r);
		r++;
		n--;
	} else if (n == 2) {
		/* the general case below with merge 0 and n 2 (a walk
		 * through a taken branch to the next one) */
		err = e3_ls_flush(e, s);
		if (err < 0)
			return err;
		pe = s->qe;
		etm_copy(pe, r, 2 * sizeof(*pe));
		pe[0].offset = off;
		pe[1].offset = off;
		s->pend = s->qe = pe + 1;
		s->st = m->end_st;
		s->addr = m->end_addr;
		s->pm = m;
		return 0;
	}
	if (n) {
		err = e3_ls_flush(e, s);
		if (err < 0)
			return err;
		/* the first apart: most walks make one range */
		pe = s->qe;
		etm_copy(pe, r, sizeof(*pe));
		pe->offset = off;
		for (j = 1; j < n; j++) {
			etm_copy(&pe[j], &r[j], sizeof(*pe));
			pe[j].offset = off;
		}
		s->pend = s->qe = pe + n - 1;
	}
	/* a merging walk had the pending range on (E3_ST_MERGE): every
	 * hit leaves it on, with the walk's last range */
	s->st = m->end_st;
	s->addr = m->end_addr;
	s->pm = m;
	return 0;
}

/* The entry of set @m with key @key, else NULL. */
static inline struct etm_wm_entry *
e3_memo_find(struct etm_wm_entry *m, uint64_t key)
{
	if (m[0].key == key)
		return m;
	if (m[1].key == key)
		return m + 1;
	return NULL;
}

/* Whether @h begins a one-byte P-header (etm_tok_atom() without the
 * pointer to its atoms). */
static inline int e3_tok_is_atom(const struct etm_tok_reader *t, uint8_t h)
{
	return t->aok[h] != 0;
}

/* e3_plain_atoms()'s answer for a byte that is no one-byte P-header. */
#define E3_NOT_ATOM 1

/* A one-byte P-header (byte @h at input offset @off) in the plain loop:
 * through the memo (@memo: it is on), else walked; 0 or an error. With the
 * memo, @h may be any byte but a branch header: the lookup comes first
 * (a kept key's header byte is a one-byte P-header: only those are kept,
 * and the packet decoder's table of them is built once), a byte that is
 * none misses and gives E3_NOT_ATOM: no test of the table per hit. */
static inline __attribute__((always_inline)) int
e3_plain_atoms(struct etm3_flow *e, struct etm_tok_reader *t,
	       struct e3_ls *s, uint8_t h, uint64_t off,
	       uint64_t kctx, int memo)
{
	struct etm_wm_entry *set;
	struct etm_wm_entry *m;
	uint64_t key;
	int merge, err;

	if (memo) {
		/* without an address (E3_ST_VALID clear) or with one wider
		 * than 32 bits (E3_ST_ADDR32 clear) the key is that of no
		 * kept walk: the lookup misses */
		merge = !!(s->st & E3_ST_MERGE);
		key = etm_wm_key((uint32_t)s->addr, h, s->st & E3_ST_KEY,
				 kctx);
		set = etm_wm_slot(e->memo, key);
		m = e3_memo_find(set, key);
		if (__builtin_expect(m != NULL, 1))
			return e3_ls_apply(e, s, m, off);
		if (!e3_tok_is_atom(t, h))
			return E3_NOT_ATOM;
		if ((s->st & (E3_ST_VALID | E3_ST_ADDR32)) ==
		    (E3_ST_VALID | E3_ST_ADDR32)) {
			e3_ls_put(e, s);
			e->off = off;
			err = e3_memo_miss(e, etm_tok_atom(t, h), set, key,
					   merge);
			e3_ls_get(e, s);
			return err < 0 ? err : 0;
		}
	}
	{
		const struct etm_atomc *c = etm_tok_atom(t, h);
		struct e3_atoms a = { .n = c->n, .bits = c->bits };

		e3_ls_put(e, s);
		e->off = off;
		err = etm_e3_walk(e, &a);
		e3_ls_get(e, s);
		return err < 0 ? err : 0;
	}
}

/* The plain case of the fast path in one loop: non-cycle-accurate trace,
 * synchronised, nothing held behind the pending range, the packet decoder
 * at a packet boundary. Each one-byte P-header is walked as soon as it is
 * read, through the walk memo (a miss walks it and keeps the walk; without
 * the memo, a run of P-headers goes to the atom-run path, which walks it
 * as one, and a lone one is walked here), a short branch address packet
 * (inline_fields.h) is applied at once; the bytes are read through the token
 * reader (packet/pktdec.h) and the hot state is kept in locals (struct
 * e3_ls). The same elements as etm_e3_drain()'s general loop: a
 * one-packet run is walked the same way, with that packet's offset.
 * Returns 1 when the next packet needs the general loop, 0 when the queue
 * is full enough, or an error. Compiled three times, with the memo (@memo)
 * on input without an offset map in the standard branch encoding with an
 * A32, T32 or ThumbEE address base and 5 bytes at hand (@raw: a byte's
 * offset is the chunk's plus its position, no test of the map per
 * P-header; the loop stops 4 bytes before the chunk's end, so that each
 * branch packet has 5 bytes at hand, no test of it per packet: the
 * general loop takes the last packets) or else, and without: no test of
 * it per packet. */
static inline __attribute__((always_inline)) int
e3_plain_loop(struct etm3_flow *e, struct etm_tok_reader *t, uint64_t *np,
	      int memo, int raw)
{
	size_t pos = t->pos;
	/* bytes of the branch packets read but their first: the packets
	 * are the bytes read less these (no count per P-header) */
	size_t brx = 0;
	/* err is set only when the loop stops (a store per packet else) */
	int err = 0, ret = 1, r;
	/* the memo key's context part (constant here) */
	uint64_t kctx = memo ? e3_memo_ctx(e) : 0;
	/* half the queue: fewer batches (the fast path's entry and the
	 * delivery) than etm_flow_qopen()'s quarter */
	const struct etm_elem *qlim = &e->f->q[ETM_FLOW_QMAX / 2];
	/* the compression state in locals; the standard branch encoding
	 * (the ISA stays A32, T32 or ThumbEE once it is) */
	uint32_t taddr = t->addr;
	enum etm_isa tisa = t->isa;
	int std = !t->alt && (tisa == etmi_a32 || tisa == etmi_t32 ||
			      tisa == etmi_tee);
	/* the reader's bytes and tables in locals (stores to elements could
	 * alias the reader: it would be read again per packet); the bytes
	 * by pointer, @b at position pos */
	const uint8_t *buf = t->buf, *aok = t->aok;
	const uint8_t *b = buf + pos, *end = buf + t->len;
	/* b < lim5: the standard encoding and 5 bytes at hand (@raw: b <
	 * end, which stops 4 bytes early) */
	const uint8_t *lim5 = std && t->len >= 5 ? end - 4 : buf;
	/* @raw: the offset of the byte at b is offb + b (etm_tok_off()) */
	const uint64_t offb = t->off - (uint64_t)(uintptr_t)buf;
	struct e3_ls s;

	/* Nothing here changes the context, holds elements back, loses
	 * synchronisation or moves the queue head: e->nheld stays 0,
	 * e->synced set, f->qhead as it is (below a quarter of the queue:
	 * etm_flow_qstart()). */
	/* where the loop stops */
	const uint8_t *stop = raw ? lim5 : end;

	e3_ls_get(e, &s);
	while (b < stop) {
		uint8_t h = *b;

		if (h & 1) {
			/* etm_tok_is_branch(): ETMv3's branch address
			 * headers are those with bit 0 set (etmv3.md 2.3,
			 * etm_pktp_hdr_common()), tested first: no such
			 * byte is a P-header (aok[h] is 0: the atom table
			 * takes only etmh_atom headers), and a branch packet
			 * is found with two instructions, not five */
			/* the common forms inline when 5 bytes are at hand,
			 * the others out of line (etm_brp_other()) */
			uint32_t baddr = 0;
			enum etm_isa bisa = etmi_unknown;
			size_t n = raw || b < lim5 ?
					   etm_br_std5x(taddr, tisa, b, &baddr,
							&bisa, &brx) :
					   0;

			if (!n) {
				uint64_t bp = etm_brp_other(
					taddr, tisa, b, (size_t)(end - b),
					t->alt);

				baddr = ETM_BRP_ADDR(bp);
				bisa = ETM_BRP_ISA(bp);
				n = ETM_BRP_SIZE(bp);
				brx += n ? n - 1 : 0;
			}
			/* only after an indirect branch, or after a BLX imm
			 * the address it was walked to: the rest is
			 * etm_e3_branch()'s (etm_e3_br_disagrees()). After an
			 * indirect branch the walked ISA is the trace's (a
			 * walk changes it only at a BLX imm, which waits
			 * with E3_WAIT_ISA): a short address agrees. */
			if (!n || (__builtin_expect(!(s.st & E3_ST_WAIT_BRANCH), 0) &&
				   (!(s.st & E3_ST_WAIT_ISA) || baddr != s.addr ||
				    bisa != (enum etm_isa)(s.st & E3_ST_ISA)))) {
				/* the packet is not taken */
				brx -= n ? n - 1 : 0;
				break;
			}
			/* etm_e3_branch() of a plain branch address (short
			 * addresses are of A32, T32 or ThumbEE); no
			 * element takes this packet's offset; the flush's
			 * common case first (after a memoised walk:
			 * E3_ST_PEND_CLS, which implies E3_ST_PEND_ON) */
			r = e3_ls_flush_cls(e, &s);
			s.addr = baddr;
			s.st = (s.st & (E3_ST_PEND_ON | E3_ST_PEND_OPEN)) |
			       (uint32_t)bisa | E3_ST_VALID | E3_ST_ADDR32;
			taddr = baddr; /* the compression state */
			tisa = bisa;
			b += n;
			if (r) {
				if (r < 0) {
					err = r;
					break;
				}
				/* the flush went out of line: the range may
				 * still be pending (else no merge) */
				s.st |= e3_ls_merge(&s);
			}
		} else if (memo || aok[h]) {
			/* without the memo, a run of P-headers is walked as
			 * one (an E run may go on across them); with it,
			 * walked one by one, only until an address is known
			 * again (atoms are lost till then), the byte looked
			 * up before it is known to be a P-header */
			if (!memo && b + 1 < end && aok[b[1]])
				break;
			r = e3_plain_atoms(
				e, t, &s, h,
				raw ? offb + (uint64_t)(uintptr_t)b :
				      etm_tok_off(t, (size_t)(b - buf)),
				kctx, memo);
			if (r == E3_NOT_ATOM)
				break; /* the byte stays unread */
			b++;
			if (r < 0) {
				err = r;
				break;
			}
			/* etm_flow_qopen() (a branch packet adds at most
			 * one element: the queue has the room) */
			if (__builtin_expect(s.qe >= qlim, 0)) {
				ret = 0;
				break;
			}
		} else {
			break;
		}
	}
	e3_ls_put(e, &s);
	pos = (size_t)(b - buf);
	*np += pos - t->pos - brx;
	t->pos = pos;
	t->addr = taddr;
	t->isa = tisa;
	return err < 0 ? err : ret;
}

static __attribute__((noinline)) int e3_plain_memo(struct etm3_flow *e,
						   struct etm_tok_reader *t,
						   uint64_t *np)
{
	return e3_plain_loop(e, t, np, 1, 0);
}

/* With the memo, on input without an offset map (raw bytes: the bench's
 * synthetic traces, a single source's own file) in the standard branch
 * encoding, more than 4 bytes to go. */
static __attribute__((noinline)) int e3_plain_memo_raw(
	struct etm3_flow *e, struct etm_tok_reader *t, uint64_t *np)
{
	return e3_plain_loop(e, t, np, 1, 1);
}

/* Without the memo (block cache off, or no memory for it) every P-header
 * is walked. */
static __attribute__((noinline)) int e3_plain_nomemo(struct etm3_flow *e,
						     struct etm_tok_reader *t,
						     uint64_t *np)
{
	return e3_plain_loop(e, t, np, 0, 0);
}

/* e3_plain_loop() with the memo if the block cache is on. */
static int e3_plain(struct etm3_flow *e, struct etm_tok_reader *t,
		    uint64_t *np)
{
	if (e->f->cache_on && e3_memo_get(e))
		return !t->map && !t->alt && t->len - t->pos > 4 &&
				       (t->isa == etmi_a32 ||
					t->isa == etmi_t32 ||
					t->isa == etmi_tee) ?
			       e3_plain_memo_raw(e, t, np) :
			       e3_plain_memo(e, t, np);
	return e3_plain_nomemo(e, t, np);
}

/* A branch address token: etm_e3_branch(), with the common case inline (a
 * plain address after an indirect branch, the walked ISA being the
 * trace's: e3_plain(), or after a BLX imm; what etm_e3_br_disagrees()
 * would test holds). */
static int e3_branch_tok(struct etm3_flow *e, const struct etm_brc *br)
{
	e->off = br->offset;
	if (e->synced && !br->has_exc && !br->has_state &&
	    (e->wait_branch == E3_WAIT_BRANCH ||
	     (e->wait_branch == E3_WAIT_ISA && br->addr == e->addr &&
	      br->isa == e->isa))) {
		int err = e3_flush(e);

		etm_e3_set_addr(e, br->addr, br->isa);
		return err;
	}
	return etm_e3_branch(e, br, NULL);
}

/* The plain loop through the token reader, when its conditions hold. */
static int e3_plain_tok(struct etm3_flow *e, uint64_t *np)
{
	struct etm_pkt_decoder *pd = e->f->pd;
	struct etm_tok_reader t;
	int err;

	if (!etm_pkt_tok_open(pd, &t))
		return 1;
	etm_flow_qstart(e->f);
	err = e3_plain(e, &t, np);
	etm_pkt_tok_close(pd, &t);
	return err;
}

int etm_e3_drain_general(struct etm_flow *f, uint64_t *np)
{
	struct etm_packet pkt;
	int err;

	/* at the end of the chunk the general path asks for input: asked
	 * here too it would be asked twice; the usual packets (I-sync,
	 * timestamp) are read in place, the rest through the queue */
	if (!etm_pkt_tok_sync(f->pd, &pkt) &&
	    (!etm_pkt_has_bytes(f->pd) || etm_pkt_next_ok(f->pd, &pkt) != 0))
		return 0;
	(*np)++;
	etm_flow_qstart(f);
	err = f->put(f, &pkt);
	return err < 0 ? err : 1;
}

/* The fast path (the drain hook): runs of one-byte P-headers and branch
 * address packets, pulled as tokens from the packet decoder, and the
 * other packets but errors (etm_e3_drain_general(): I-syncs, timestamps,
 * ... each ended the batch before); the same elements as the packets put
 * one by one. */
int etm_e3_drain(struct etm_flow *f, uint64_t *np)
{
	struct etm3_flow *e = f->impl;
	struct etm_pkt_decoder *pd = f->pd;
	struct etm_atom_run r;
	struct etm_brc br;
	unsigned k;
	int err, plain;

	/* the plain loop's conditions that hold for the whole call */
	plain = !e->ca && !e->data_only && etm_pkt_tok_ready(pd);
	do {
		plain = plain && e->synced && !e->nheld;
		if (plain) {
			err = e3_plain_tok(e, np);
			if (err <= 0)
				return err;
			/* it may have filled the queue past a quarter */
			if (!etm_flow_qopen(f))
				return 0;
		}
		k = etm_pkt_tok_atom_run(pd, &r, ETM_ATOM_RUN_PKTS);
		if (k) {
			*np += k;
			etm_flow_qstart(f);
			err = etm_e3_run(e, &r);
			if (err < 0)
				return err;
			etm_pkt_tok_run_done(pd, &r);
			if (!etm_flow_qopen(f))
				break;
		}
		if (!etm_pkt_tok_branch(pd, &br)) {
			/* a run stops at a packet that is not in its table,
			 * or at its limits (then more atoms may follow) */
			if (k && (r.npkt == ETM_ATOM_RUN_PKTS ||
				  r.n + ETM_PKT_MAX_ATOMS > ETM_ATOM_RUN_MAX))
				continue;
			err = etm_e3_drain_general(f, np);
			if (err <= 0)
				return err;
			/* the packet decoder may be mid-queue now */
			plain = !e->ca && !e->data_only &&
				etm_pkt_tok_ready(pd);
			continue;
		}
		(*np)++;
		etm_flow_qstart(f);
		err = e3_branch_tok(e, &br);
		if (err < 0)
			return err;
	} while (etm_flow_qopen(f));
	return 0;
}
