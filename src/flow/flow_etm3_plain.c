/* flow/flow_etm3_plain.c - the ETMv3 flow decoder's plain fast loop: lone
 * one-byte P-headers and short branch addresses read straight from the
 * parser's bytes, each P-header walked through a memo of walks (wmemo.h),
 * the hot state in locals. */
#include <etmtrace/error.h>

#include "common/copy.h"
#include "flow/flow_etm3_int.h"
#include "flow/wmemo.h"
#include "packet/brshort.h"

/* Queue index of the first range a walk makes or extends, or -1 when the
 * walk is not to be kept: a merging walk extends the pending range (built
 * in place), any other starts one after it. */
static inline int e3_memo_base(const struct etm3_flow *e, int merge)
{
	const struct etm_flow *f = e->f;
	unsigned at = f->qhead + f->qlen;

	if (merge)
		return e->pend == &f->q[at] ? (int)at : -1;
	return (int)at + (e->pend_on ? 1 : 0);
}

/* After a walk: whether it may be kept, i.e. it made only ranges (no
 * unreadable opcode, no lost branch), at most ETM_WMEMO_RANGES of them,
 * the first at queue index @base (e3_memo_base()). */
static int e3_memo_keepable(const struct etm3_flow *e, int base)
{
	const struct etm_flow *f = e->f;
	unsigned end = f->qhead + f->qlen, j;

	if (base < 0 || !e->pend_on || e->pend != &f->q[end] ||
	    (unsigned)base > end || end - (unsigned)base >= ETM_WMEMO_RANGES ||
	    e->nheld)
		return 0;
	for (j = (unsigned)base; j <= end; j++)
		if (f->q[j].kind != etmk_range ||
		    (j < end && f->q[j].last_cls == etmc_unknown))
			return 0;
	return 1;
}

/* Keep the walk e3_memo_keepable() accepted in @m: from @addr with key
 * @key; a merging walk went on in the pending range of @old_n
 * instructions. */
static void e3_memo_keep(struct etm3_flow *e, struct etm_wm_entry *m,
			 uint64_t addr, uint64_t key, unsigned base,
			 int merge, uint32_t old_n)
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
	m->addr = addr;
	m->key = key;
	m->end_isa = (uint8_t)e->isa;
	m->addr_valid = (uint8_t)e->addr_valid;
	m->wait_branch = (uint8_t)e->wait_branch;
	m->pend_open = (uint8_t)e->pend_open;
	m->end_addr = e->addr;
	m->prev_addr = m->prev_pending ? 0 : e->prev_addr;
}

/* A memo miss: walk @ac and keep the walk in the set @m under @key if it
 * may be kept (the newest first). Out of line: the hit path stays small. */
static __attribute__((noinline)) int e3_memo_miss(struct etm3_flow *e, const struct etm_atomc *ac,
						  struct etm_wm_entry *m, uint64_t key, int merge)
{
	struct e3_atoms a = { .n = ac->n, .bits = ac->bits };
	uint64_t addr = e->addr;
	uint32_t old_n = merge ? e->pend->ninsn : 0;
	int base = e3_memo_base(e, merge), err;

	err = etm_e3_walk(e, &a);
	if (err >= 0 && e3_memo_keepable(e, base)) {
		m[1] = m[0];
		e3_memo_keep(e, &m[0], addr, key, (unsigned)base, merge,
			     old_n);
	}
	return err;
}

/* The state etm_e3_plain() keeps in locals: written back (e3_ls_put())
 * before anything out of line runs, read again (e3_ls_get()) after it. */
struct e3_ls {
	uint64_t addr, prev_addr;
	struct etm_elem *pend;
	enum etm_isa isa;
	unsigned qhead, qlen;
	int addr_valid, wait_branch, pend_on, pend_open;
	uint32_t st_addr;    /* the parser's address compression base */
	enum etm_isa st_isa; /* and its ISA: the trace's, never the walk's */
};

static inline void e3_ls_get(const struct etm3_flow *e,
			     const struct etm_pktp *p, struct e3_ls *s)
{
	s->addr = e->addr;
	s->prev_addr = e->prev_addr;
	s->pend = e->pend;
	s->isa = e->isa;
	s->qhead = e->f->qhead;
	s->qlen = e->f->qlen;
	s->addr_valid = e->addr_valid;
	s->wait_branch = e->wait_branch;
	s->pend_on = e->pend_on;
	s->pend_open = e->pend_open;
	s->st_addr = p->st.addr;
	s->st_isa = p->st.isa;
}

/* Write the state back. The block the last walk ended in is forgotten (a
 * memoised walk has none): a lookup gives the same instructions. */
static inline void e3_ls_put(struct etm3_flow *e, struct etm_pktp *p,
			     const struct e3_ls *s)
{
	e->addr = s->addr;
	e->prev_addr = s->prev_addr;
	e->pend = s->pend;
	e->isa = s->isa;
	e->f->qlen = s->qlen;
	e->addr_valid = s->addr_valid;
	e->wait_branch = s->wait_branch;
	e->pend_on = s->pend_on;
	e->pend_open = s->pend_open;
	e->cb = NULL;
	p->st.addr = s->st_addr;
	p->st.isa = s->st_isa;
}

/* Whether the walk of the next P-header goes on in the pending range
 * (e3_append()'s test for its first step, nothing held): the memo keeps
 * such walks apart from those that start a new range. */
static inline int e3_ls_merges(const struct e3_ls *s)
{
	return s->pend_on && s->pend_open && s->pend->end == s->addr &&
	       s->pend->isa == s->isa;
}

/* e3_flush() on the local state (nothing is held). */
static inline int e3_ls_flush(struct etm3_flow *e, struct etm_pktp *p,
			      struct e3_ls *s)
{
	int err;

	if (!s->pend_on)
		return 0;
	if (s->pend->last_cls != etmc_unknown &&
	    s->pend == &e->f->q[s->qhead + s->qlen]) {
		s->qlen++;
		s->pend_on = 0;
		return 0;
	}
	e3_ls_put(e, p, s);
	err = etm_e3_flush_slow(e);
	e3_ls_get(e, p, s);
	return err;
}

/* The walk of memo entry @m, as e3_new_range() and e3_append() would have
 * done it: the pending range extended (a merging walk), its new range
 * elements queued with offset @off (all but the last are classified, so
 * each is queued by counting it), then its end state. */
static inline int e3_ls_apply(struct etm3_flow *e, struct etm_pktp *p,
			      struct e3_ls *s, const struct etm_wm_entry *m,
			      uint64_t off)
{
	struct etm_elem *q = e->f->q, *pe = s->pend;
	uint64_t prev = m->prev_addr;
	unsigned j = 0, at;
	int err;

	if (m->merge) {
		const struct etm_elem *r = &m->el[0];

		if (m->prev_pending)
			prev = pe->last_addr;
		pe->ninsn += m->d_ninsn;
		pe->end = r->end;
		pe->last_addr = r->last_addr;
		pe->last_size = r->last_size;
		pe->last_cls = r->last_cls;
		pe->last_link = r->last_link;
		pe->last_exec = r->last_exec;
		j = 1;
	}
	if (j < m->nr) {
		err = e3_ls_flush(e, p, s);
		if (err < 0)
			return err;
		at = s->qhead + s->qlen;
		if (at + m->nr > ETM_FLOW_QMAX)
			return -etme_internal;
		for (; j < m->nr; j++) {
			pe = &q[at++];
			etm_copy(pe, &m->el[j], sizeof(*pe));
			pe->offset = off;
		}
		s->qlen = at - 1 - s->qhead;
		s->pend = pe;
		s->pend_on = 1;
	}
	s->pend_open = m->pend_open;
	s->prev_addr = prev;
	s->addr = m->end_addr;
	s->isa = (enum etm_isa)m->end_isa;
	s->addr_valid = m->addr_valid;
	s->wait_branch = m->wait_branch;
	return 0;
}

/* The plain case of the fast path in one loop: non-cycle-accurate trace,
 * synchronised, nothing held behind the pending range, the parser at a
 * packet boundary. Each one-byte P-header is walked as soon as it is read,
 * through the walk memo (a miss walks it and keeps the walk; without the
 * memo, a run of P-headers goes to the atom-run path, which walks it as
 * one, and a lone one is walked here), a short branch address packet
 * (brshort.h) is applied at once; the parser's bytes are read here and the
 * hot state is kept in locals (struct e3_ls). The same elements as
 * e3_drain_fast()'s general loop: a one-packet run is walked the same way,
 * with that packet's offset. Returns 1 when the next packet needs the
 * general loop, 0 when the queue is full enough, or an error. */
int etm_e3_plain(struct etm3_flow *e, struct etm_pktp *p, uint64_t *np)
{
	const uint8_t *buf = p->buf;
	size_t pos = p->pos, len = p->len;
	int alt = p->o.alt_branch, err = 0, ret = 1;
	int memo = e->memo && e->f->cache_on, raw = !p->map;
	/* the memo key but ISA, header and merge (constant here) */
	uint64_t key0 = etm_wm_key(e->tgen, 0, e->space, 0, 0);
	uint64_t npk = 0;
	struct etm_br_short bs;
	struct e3_ls s;

	/* Nothing here changes the context, holds elements back, loses
	 * synchronisation or moves the queue head: e->nheld stays 0,
	 * e->synced set, f->qhead as it is. */
	e3_ls_get(e, p, &s);
	while (pos < len) {
		uint8_t h = buf[pos];

		if (p->aok[h]) {
			const struct etm_atomc *ac = &p->ac[h];
			struct etm_wm_entry *m;
			uint64_t key;
			int merge;

			if (!memo || !s.addr_valid) {
				struct e3_atoms a = { .n = ac->n,
						      .bits = ac->bits };

				/* without the memo, a run of P-headers is
				 * walked as one (an E run may go on across
				 * them); with it, only until an address is
				 * known again (atoms are lost till then) */
				if (!memo && pos + 1 < len &&
				    p->aok[buf[pos + 1]])
					break;
				e3_ls_put(e, p, &s);
				e->off = etm_pktp_off(p, pos);
				err = etm_e3_walk(e, &a);
				e3_ls_get(e, p, &s);
			} else {
				merge = e3_ls_merges(&s);
				key = key0 | etm_wm_key(0, s.isa, 0, h, merge);
				m = etm_wm_slot(e->memo, s.addr, h);
				if (m[0].addr == s.addr && m[0].key == key) {
					err = e3_ls_apply(e, p, &s, &m[0],
							  raw ? p->off + pos :
								etm_pktp_off(p, pos));
				} else if (m[1].addr == s.addr &&
					   m[1].key == key) {
					err = e3_ls_apply(e, p, &s, &m[1],
							  raw ? p->off + pos :
								etm_pktp_off(p, pos));
				} else {
					e3_ls_put(e, p, &s);
					e->off = etm_pktp_off(p, pos);
					err = e3_memo_miss(e, ac, m, key,
							   merge);
					e3_ls_get(e, p, &s);
				}
			}
			pos++;
			npk++;
			if (err < 0)
				break;
			/* etm_flow_qopen() (a branch packet adds at most
			 * one element: the queue has the room) */
			if (s.qlen && s.qhead + s.qlen >= ETM_FLOW_QMAX / 4) {
				ret = 0;
				break;
			}
		} else if (p->hdr[h] == etmh_branch) {
			int r = etm_br_short(s.st_addr, s.st_isa, buf + pos,
					     len - pos, alt, &bs);

			/* only after an indirect branch, or after a BLX imm
			 * the address it was walked to: the rest is
			 * e3_branch()'s (etm_e3_br_disagrees()). After an
			 * indirect branch the walked ISA is the trace's (a
			 * walk changes it only at a BLX imm, which waits
			 * with E3_WAIT_ISA): a short address agrees. */
			if (!r || (s.wait_branch != E3_WAIT_BRANCH &&
				   (s.wait_branch != E3_WAIT_ISA ||
				    bs.addr != s.addr || bs.isa != s.isa)))
				break;
			/* e3_branch() of a plain branch address (short
			 * addresses are of A32, T32 or ThumbEE); no
			 * element takes this packet's offset */
			err = e3_ls_flush(e, p, &s);
			s.addr = bs.addr;
			s.isa = bs.isa;
			s.wait_branch = 0;
			s.addr_valid = 1;
			s.st_addr = bs.addr;
			s.st_isa = bs.isa;
			pos += (size_t)r;
			npk++;
			if (err < 0)
				break;
		} else {
			break;
		}
	}
	e3_ls_put(e, p, &s);
	*np += npk;
	p->pos = pos;
	return err < 0 ? err : ret;
}
