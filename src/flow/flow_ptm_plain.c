/* flow/flow_ptm_plain.c - the PTM flow decoder's plain loop: atom packets
 * (one-byte, or in cycle-accurate trace a header and a cycle count) and
 * short branch address packets (etm_br_alt(): PTM always uses the
 * alternative encoding) read straight from the packet decoder's
 * buffer through its token reader (packet/pktdec.h), and each walk that
 * is one cached block ending at a waypoint (the usual case) decoded
 * inline; the other packets (I-sync, timestamp: TC2 has one in ten) are
 * read by the general reader in place (etm_pkt_tok_packet()) and put by
 * the general functions of flow_ptm.c without leaving the loop; an error,
 * an A-sync or a packet cut by the chunk's end ends it. Cycle-accurate
 * trace has a loop of its own, so that the other pays nothing for it. */
#include <stddef.h>
#include <string.h>

#include "flow/flow_ptm_int.h"

/* The loops' hot state, in locals (an element's byte stores may alias
 * any of the decoder's fields, so read through @p they would be reloaded
 * after every element): the address and ISA of the next instruction, the
 * block cache, the queue's next free slot, and the element every range
 * starts from. p->cur, p->isa and f->qlen are up to date only around the
 * general functions (plain_put(), plain_get()). */
struct plain_st {
	uint64_t cur;
	enum etm_isa isa;
	enum etm_space space;
	struct etm_bcache *bc; /* NULL: the cache is off */
	const struct etm_image *img;
	struct etm_elem *q; /* f->q */
	unsigned qhead, qn; /* f->qhead, and f->qhead + f->qlen */
	int gen;            /* a general function ran since the last check */
	struct etm_elem tpl;
};

/* Load @s from @p (at the loop's start, and after a general function). */
static void plain_get(struct ptm_flow *p, struct plain_st *s, int ca)
{
	struct etm_flow *f = p->f;

	s->cur = p->cur;
	s->isa = p->isa;
	s->space = p->ns ? etm_space_nonsecure : etm_space_secure;
	s->bc = f->cache_on ? f->bc : NULL;
	s->img = f->img;
	s->q = f->q;
	s->qhead = f->qhead;
	s->qn = f->qhead + f->qlen;
	etm_zero(&s->tpl, sizeof(s->tpl));
	s->tpl.kind = etmk_range;
	s->tpl.id = f->id;
	s->tpl.last_atom = 1;
	s->tpl.has_cycles = (uint8_t)ca;
	ptm_state_into(p, &s->tpl);
}

/* Store @s into @p (before a general function, and at the loop's end). */
static inline void plain_put(struct ptm_flow *p, const struct plain_st *s)
{
	p->cur = s->cur;
	p->isa = s->isa;
	p->f->qlen = s->qn - s->qhead;
}

/* etm_flow_qopen() on @s. */
static inline int plain_qopen(const struct plain_st *s)
{
	return s->qn == s->qhead || s->qn < ETM_FLOW_QMAX / 4;
}

/* The block a walk from s->cur makes when it is one cached block ending
 * at a waypoint (ptm_walk() would stop there), else NULL: the general walk
 * decides. */
static inline const struct etm_block *plain_block(struct plain_st *s)
{
	const struct etm_block *b;

	if ((s->isa != etmi_a32 && s->isa != etmi_t32) || !s->bc)
		return NULL;
	if (etm_bcache_lookup(s->bc, s->img, s->space, s->cur, s->isa, &b) <
		    0 ||
	    !b->stop)
		return NULL;
	return b;
}

/* The template's bytes plain_range() copies: from the kind to the
 * start, and from last_size to the end of the element. */
#define PLAIN_TPL_HEAD \
	(offsetof(struct etm_elem, start) - offsetof(struct etm_elem, kind))
#define PLAIN_TPL_TAIL \
	(sizeof(struct etm_elem) - offsetof(struct etm_elem, last_size))
_Static_assert(offsetof(struct etm_elem, end) == offsetof(struct etm_elem, start) + 8 &&
		       offsetof(struct etm_elem, isa) == offsetof(struct etm_elem, end) + 8 &&
		       offsetof(struct etm_elem, ninsn) == offsetof(struct etm_elem, isa) + 4 &&
		       offsetof(struct etm_elem, last_addr) == offsetof(struct etm_elem, ninsn) + 4 &&
		       offsetof(struct etm_elem, last_size) == offsetof(struct etm_elem, last_addr) + 8,
	       "plain_range() sets every byte from start to last_size");
#define PLAIN_BLK_HEAD (offsetof(struct etm_elem, last_addr) - offsetof(struct etm_elem, start))
_Static_assert(offsetof(struct etm_block, end) - offsetof(struct etm_block, start) == 8 &&
		       offsetof(struct etm_block, isa) - offsetof(struct etm_block, start) == 16 &&
		       offsetof(struct etm_block, ninsn) - offsetof(struct etm_block, start) == 20 &&
		       sizeof(((struct etm_block *)0)->isa) == sizeof(enum etm_isa) &&
		       PLAIN_BLK_HEAD == 24,
	       "struct etm_block starts as the element's start, end, isa, ninsn");

/* ptm_emit_range() of the walk of block @b (atom: the last instruction's
 * E/N is known), with cycle count @cc in cycle-accurate trace (@ca). */
static inline __attribute__((always_inline)) void
plain_range(struct ptm_flow *p, struct plain_st *s, const struct etm_block *b,
	    uint64_t off, int exec, uint32_t cc, int ca)
{
	struct etm_elem *el;

	/* cannot be full: the loop stops at a quarter of the queue */
	el = s->qn < ETM_FLOW_QMAX ? &s->q[s->qn++] : &p->scratch;
	/* the template but the fields set below from offset to last_addr
	 * (the kind and ID between them): 88 bytes copied, not 128 */
	memcpy(&el->kind, &s->tpl.kind, PLAIN_TPL_HEAD);
	memcpy(&el->last_size, &s->tpl.last_size, PLAIN_TPL_TAIL);
	el->offset = off;
	/* start (s->cur), end, ISA (s->isa) and ninsn: the block's first
	 * 24 bytes, laid out as the element's (the block is s->cur's in
	 * s->isa) */
	memcpy(&el->start, &b->start, PLAIN_BLK_HEAD);
	el->last_addr = b->last.addr;
	el->last_size = b->last.size;
	el->last_cls = b->last.cls;
	el->last_link = b->last.link;
	el->last_mark = b->last_mark;
	el->last_exec = (uint8_t)exec;
	if (ca)
		el->cycles = cc;
}

/* etm_ptm_branch() of the short branch address packet at @pos of @t (at
 * @off, cycle count @cc if @ca) when its walk is not one cached block: the
 * packet read again for all its fields (etm_br_short() gives what
 * etm_br_alt() gave, and the number of address bits). */
static __attribute__((noinline)) void
plain_branch_general(struct ptm_flow *p, const struct etm_tok_reader *t,
		     size_t pos, uint64_t off, uint32_t cc, int ca)
{
	struct etm_br_short bs = { 0 };
	struct etm_brc br;

	/* cannot fail: etm_br_alt() read it */
	(void)etm_tok_br_short(t, pos, &bs);
	etm_zero(&br, sizeof(br));
	br.offset = off;
	br.addr = bs.addr;
	br.isa = bs.isa;
	br.addr_bits = bs.addr_bits;
	br.isa_changed = bs.isa_changed;
	if (ca) {
		br.has_cc = 1;
		br.cycle_count = cc;
	}
	etm_ptm_branch(p, &br);
}

/* etm_ptm_branch() of the short branch address packet at @pos of @t, its
 * address @addr and ISA @isa (etm_br_alt()), at @off (cycle count @cc if
 * @ca): the walk to the waypoint it resolves (an E atom), the return
 * stack, the new address. */
static inline __attribute__((always_inline)) void
plain_branch(struct ptm_flow *p, struct plain_st *s,
	     const struct etm_tok_reader *t, size_t pos, uint32_t addr,
	     enum etm_isa isa, uint64_t off, uint32_t cc, int ca)
{
	const struct etm_block *b = plain_block(s);

	if (!b) {
		plain_put(p, s);
		plain_branch_general(p, t, pos, off, cc, ca);
		plain_get(p, s, ca);
		s->gen = 1;
		return;
	}
	plain_range(p, s, b, off, 1, cc, ca);
	if (p->rs_on && b->last.link)
		etm_retstack_push(&p->rs, b->last.addr + b->last.size, s->isa,
				  p->ns);
	s->cur = addr;
	s->isa = isa;
	p->after_wu = 0;
}

/* Whether taking waypoint @w needs the general path: an indirect branch
 * (its target from the return stack, which may be empty). */
static inline int w_needs_general(const struct etm_insn *w)
{
	return w->cls == etmc_br_indirect;
}

/* etm_ptm_atoms() of @n atoms @bits (cycle count @cc if @ca) between
 * plain_put() and plain_get(). */
static __attribute__((noinline)) void plain_atoms_general(
	struct ptm_flow *p, struct plain_st *s, unsigned n, uint32_t bits,
	int ca, uint32_t cc, uint64_t off)
{
	plain_put(p, s);
	etm_ptm_atoms(p, n, bits, ca, cc, off);
	plain_get(p, s, ca);
	s->gen = 1;
}

/* etm_ptm_atoms() of a one-byte atom packet: each atom inline while its
 * walk is one block and its waypoint a direct branch, an ISB or not
 * taken; the rest of the packet through etm_ptm_atoms(). */
static inline void plain_atoms(struct ptm_flow *p, struct plain_st *s,
			       const struct etm_atomc *ac, uint64_t off)
{
	unsigned n = ac->n, i;
	uint32_t bits = ac->bits;

	for (i = 0; i < n; i++) {
		const struct etm_block *b = plain_block(s);
		int e = !((bits >> i) & 1);
		const struct etm_insn *w;

		if (!b || (e && w_needs_general(&b->last)))
			break;
		w = &b->last;
		plain_range(p, s, b, off, e, 0, 0);
		p->after_wu = 0;
		if (!e) {
			s->cur = w->addr + w->size;
			continue;
		}
		if (p->rs_on && w->link)
			etm_retstack_push(&p->rs, w->addr + w->size, s->isa,
					  p->ns);
		if (w->cls == etmc_br_direct) {
			s->cur = w->target;
			if (w->target_isa != etmi_unknown)
				s->isa = w->target_isa;
		} else {
			s->cur = w->addr + w->size;
		}
	}
	if (i < n)
		plain_atoms_general(p, s, n - i, bits >> i, 0, 0, off);
}

/* etm_ptm_atoms() of a cycle-accurate atom packet (one atom, @nbit 1 for
 * N, cycle count @cc): inline as plain_atoms() does. */
static inline void plain_ca_atom(struct ptm_flow *p, struct plain_st *s,
				 unsigned nbit, uint32_t cc, uint64_t off)
{
	const struct etm_block *b = plain_block(s);
	const struct etm_insn *w;
	enum etm_isa isa = s->isa;
	uint64_t next;

	if (!b || (!nbit && w_needs_general(&b->last))) {
		plain_atoms_general(p, s, 1, nbit, 1, cc, off);
		return;
	}
	w = &b->last;
	next = w->addr + w->size;
	plain_range(p, s, b, off, !nbit, cc, 1);
	p->after_wu = 0;
	s->cur = next;
	if (nbit)
		return;
	/* taken: a direct branch goes to its target, an ISB or barrier to
	 * the next instruction; a call leaves its return address */
	if (w->cls == etmc_br_direct) {
		s->cur = w->target;
		if (w->target_isa != etmi_unknown)
			s->isa = w->target_isa;
	}
	if (p->rs_on && w->link)
		etm_retstack_push(&p->rs, next, isa, p->ns);
}

/* A packet other than the loop's tokens (I-sync, timestamp, context,
 * exception branch...) read whole by the general reader and put as
 * ptm_drain_general() would, at @pos of @t: its size, or 0 (an error, an
 * A-sync or a cut packet: the loop ends and the drain decides). */
static __attribute__((noinline)) int plain_other(struct ptm_flow *p,
						 struct plain_st *s,
						 struct etm_tok_reader *t,
						 size_t pos, int ca)
{
	struct etm_packet pkt;
	int r = etm_pkt_tok_packet(p->f->pd, t, pos, &pkt);

	if (r <= 0)
		return 0;
	plain_put(p, s);
	(void)p->f->put(p->f, &pkt); /* ptm_put(): always 0 */
	plain_get(p, s, ca);
	s->gen = 1;
	return r;
}

/* Whether the loop goes on after a packet: not if a general function ran
 * and left the decoder unsynchronised or without an address. */
static inline int plain_still(const struct ptm_flow *p, struct plain_st *s)
{
	if (!s->gen)
		return 1;
	s->gen = 0;
	return p->synced && p->cur_valid;
}

/* The loop: tokens while the decoder stays synchronised with a known
 * address and the queue has room (etm_flow_qopen()); the packet count
 * goes to *@np. Not cycle-accurate: one-byte atom packets. */
static int plain_loop(struct ptm_flow *p, struct plain_st *s,
		      struct etm_tok_reader *t, uint64_t *np)
{
	const uint8_t *buf = t->buf;
	size_t pos = t->pos, len = t->len;
	uint64_t npk = 0;
	int ret = 1;

	if (!p->synced || !p->cur_valid)
		return 1;
	while (pos < len) {
		uint8_t h = buf[pos];
		const struct etm_atomc *ac = etm_tok_atom(t, h);
		uint32_t baddr;
		enum etm_isa bisa;
		int r;

		if (ac) {
			plain_atoms(p, s, ac, etm_tok_off(t, pos));
			pos++;
		} else if (etm_tok_is_branch(t, h) &&
			   (r = etm_br_alt(t->addr, t->isa, buf + pos,
					   len - pos, &baddr, &bisa)) > 0) {
			plain_branch(p, s, t, pos, baddr, bisa,
				     etm_tok_off(t, pos), 0, 0);
			t->addr = baddr; /* the compression state */
			t->isa = bisa;
			pos += (size_t)r;
		} else if ((r = plain_other(p, s, t, pos, 0)) > 0) {
			pos += (size_t)r;
		} else {
			break;
		}
		npk++;
		if (!plain_qopen(s)) {
			ret = 0;
			break;
		}
		if (!plain_still(p, s))
			break;
	}
	*np += npk;
	t->pos = pos;
	return ret;
}

/* The packet at @pos of @t in cycle-accurate trace, if the loop takes it:
 * decoded, its size returned; else 0 (the general path). */
static inline int plain_ca_packet(struct ptm_flow *p, struct plain_st *s,
				  struct etm_tok_reader *t, size_t pos)
{
	uint32_t cc = 0, baddr;
	enum etm_isa bisa;
	unsigned nbit;
	int r, c;

	if ((r = etm_tok_ca_atom(t, pos, &nbit, &cc)) > 0) {
		plain_ca_atom(p, s, nbit, cc, etm_tok_off(t, pos));
		return r;
	}
	if (!etm_tok_is_branch(t, t->buf[pos]) ||
	    (r = etm_br_alt(t->addr, t->isa, t->buf + pos, t->len - pos,
			    &baddr, &bisa)) <= 0 ||
	    (c = etm_tok_br_cc(t, pos + (size_t)r, &cc)) <= 0)
		return plain_other(p, s, t, pos, 1);
	plain_branch(p, s, t, pos, baddr, bisa, etm_tok_off(t, pos), cc, 1);
	t->addr = baddr; /* the compression state */
	t->isa = bisa;
	return r + c;
}

/* plain_loop() for cycle-accurate trace: atom packets of any size (a
 * header and a cycle count), branch addresses with a cycle count. */
static int plain_loop_ca(struct ptm_flow *p, struct plain_st *s,
			 struct etm_tok_reader *t, uint64_t *np)
{
	size_t pos = t->pos, len = t->len;
	uint64_t npk = 0;
	int r;

	/* the queue is open on entry (etm_ptm_plain()) */
	if (!p->synced || !p->cur_valid)
		return 1;
	while (pos < len && (r = plain_ca_packet(p, s, t, pos)) > 0) {
		pos += (size_t)r;
		npk++;
		if (!plain_qopen(s) || !plain_still(p, s))
			break;
	}
	t->pos = pos;
	*np += npk;
	return plain_qopen(s);
}

int etm_ptm_plain(struct ptm_flow *p, uint64_t *np)
{
	struct etm_pkt_decoder *pd = p->f->pd;
	struct etm_tok_reader t;
	struct plain_st s;
	int ret;

	if (!etm_pkt_tok_open(pd, &t))
		return 1;
	etm_flow_qstart(p->f);
	plain_get(p, &s, p->ca);
	s.gen = 0;
	ret = p->ca ? plain_loop_ca(p, &s, &t, np) : plain_loop(p, &s, &t, np);
	plain_put(p, &s);
	etm_pkt_tok_close(pd, &t);
	return ret;
}
