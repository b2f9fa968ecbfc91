/* flow/flow_ptm_plain.c - the PTM flow decoder's plain loop: atom packets
 * (one-byte, or in cycle-accurate trace a header and a cycle count) and
 * short branch address packets read straight from the packet decoder's
 * buffer through its token reader (packet/pktdec.h), and each walk that
 * is one cached block ending at a waypoint (the usual case) decoded
 * inline; anything else goes to the general functions of flow_ptm.c, or
 * ends the loop. Cycle-accurate trace has a loop of its own, so that the
 * other pays nothing for it. */
#include "flow/flow_ptm_int.h"

/* The block a walk from p->cur makes when it is one cached block ending at
 * a waypoint (ptm_walk() would stop there), else NULL: the general walk
 * decides. */
static inline const struct etm_block *plain_block(struct ptm_flow *p)
{
	struct etm_flow *f = p->f;
	const struct etm_block *b;

	if ((p->isa != etmi_a32 && p->isa != etmi_t32) || !f->cache_on ||
	    !f->bc)
		return NULL;
	if (etm_bcache_lookup(f->bc, f->img,
			      p->ns ? etm_space_nonsecure : etm_space_secure,
			      p->cur, p->isa, &b) < 0 ||
	    !b->stop)
		return NULL;
	return b;
}

/* ptm_emit_range() of the walk of block @b (atom: the last instruction's
 * E/N is known), with cycle count @cc in cycle-accurate trace (@ca). */
static inline __attribute__((always_inline)) void
plain_range(struct ptm_flow *p, const struct etm_block *b, uint64_t off,
	    int exec, uint32_t cc, int ca)
{
	struct etm_elem *el = etm_flow_emit(p->f, etmk_range, off);

	if (!el) { /* cannot be: the loop stops at a quarter of the queue */
		el = &p->scratch;
		etm_zero(el, sizeof(*el));
		el->kind = etmk_range;
	}

	el->start = p->cur;
	el->end = b->end;
	el->isa = p->isa;
	el->ninsn = b->ninsn;
	el->last_addr = b->last.addr;
	el->last_size = b->last.size;
	el->last_cls = b->last.cls;
	el->last_link = b->last.link;
	el->last_exec = (uint8_t)exec;
	el->last_atom = 1;
	if (ca) {
		el->has_cycles = 1;
		el->cycles = cc;
	}
	ptm_state_into(p, el);
}

/* etm_ptm_branch() of a short branch address @bs at @off (cycle count
 * @cc if @ca): the walk to the waypoint it resolves (an E atom), the
 * return stack, the new address. */
static inline __attribute__((always_inline)) void
plain_branch(struct ptm_flow *p, const struct etm_br_short *bs, uint64_t off,
	     uint32_t cc, int ca)
{
	const struct etm_block *b = plain_block(p);
	struct etm_brc br;

	if (!b) {
		etm_zero(&br, sizeof(br));
		br.offset = off;
		br.addr = bs->addr;
		br.isa = bs->isa;
		br.addr_bits = bs->addr_bits;
		br.isa_changed = bs->isa_changed;
		if (ca) {
			br.has_cc = 1;
			br.cycle_count = cc;
		}
		etm_ptm_branch(p, &br);
		return;
	}
	plain_range(p, b, off, 1, cc, ca);
	if (p->rs_on && b->last.link)
		etm_retstack_push(&p->rs, b->last.addr + b->last.size, p->isa,
				  p->ns);
	p->cur = bs->addr;
	p->isa = bs->isa;
	p->after_wu = 0;
}

/* Whether taking waypoint @w needs the general path: an indirect branch
 * (its target from the return stack, which may be empty). */
static inline int w_needs_general(const struct etm_insn *w)
{
	return w->cls == etmc_br_indirect;
}

/* etm_ptm_atoms() of a one-byte atom packet: each atom inline while its
 * walk is one block and its waypoint a direct branch, an ISB or not
 * taken; the rest of the packet through etm_ptm_atoms(). */
static inline void plain_atoms(struct ptm_flow *p, const struct etm_atomc *ac,
			       uint64_t off)
{
	unsigned n = ac->n, i;
	uint32_t bits = ac->bits;

	for (i = 0; i < n; i++) {
		const struct etm_block *b = plain_block(p);
		int e = !((bits >> i) & 1);
		const struct etm_insn *w;

		if (!b || (e && w_needs_general(&b->last)))
			break;
		w = &b->last;
		plain_range(p, b, off, e, 0, 0);
		p->after_wu = 0;
		if (!e) {
			p->cur = w->addr + w->size;
			continue;
		}
		if (p->rs_on && w->link)
			etm_retstack_push(&p->rs, w->addr + w->size, p->isa,
					  p->ns);
		if (w->cls == etmc_br_direct) {
			p->cur = w->target;
			if (w->target_isa != etmi_unknown)
				p->isa = w->target_isa;
		} else {
			p->cur = w->addr + w->size;
		}
	}
	if (i < n)
		etm_ptm_atoms(p, n - i, bits >> i, 0, 0, off);
}

/* etm_ptm_atoms() of a cycle-accurate atom packet (one atom, @nbit 1 for
 * N, cycle count @cc): inline as plain_atoms() does. */
static inline void plain_ca_atom(struct ptm_flow *p, unsigned nbit,
				 uint32_t cc, uint64_t off)
{
	const struct etm_block *b = plain_block(p);
	const struct etm_insn *w;
	enum etm_isa isa = p->isa;
	uint64_t next;

	if (!b || (!nbit && w_needs_general(&b->last))) {
		etm_ptm_atoms(p, 1, nbit, 1, cc, off);
		return;
	}
	w = &b->last;
	next = w->addr + w->size;
	plain_range(p, b, off, !nbit, cc, 1);
	p->after_wu = 0;
	p->cur = next;
	if (nbit)
		return;
	/* taken: a direct branch goes to its target, an ISB or barrier to
	 * the next instruction; a call leaves its return address */
	if (w->cls == etmc_br_direct) {
		p->cur = w->target;
		if (w->target_isa != etmi_unknown)
			p->isa = w->target_isa;
	}
	if (p->rs_on && w->link)
		etm_retstack_push(&p->rs, next, isa, p->ns);
}

/* The loop: tokens while the decoder stays synchronised with a known
 * address and the queue has room (etm_flow_qopen()); the packet count
 * goes to *@np. Not cycle-accurate: one-byte atom packets. */
static int plain_loop(struct ptm_flow *p, struct etm_tok_reader *t,
		      uint64_t *np)
{
	const uint8_t *buf = t->buf;
	size_t pos = t->pos, len = t->len;
	struct etm_flow *f = p->f;
	struct etm_br_short bs;
	uint64_t npk = 0;
	int ret = 1;

	while (pos < len && p->synced && p->cur_valid) {
		uint8_t h = buf[pos];
		const struct etm_atomc *ac = etm_tok_atom(t, h);
		int r;

		if (ac) {
			plain_atoms(p, ac, etm_tok_off(t, pos));
			pos++;
		} else if (etm_tok_is_branch(t, h) &&
			   (r = etm_tok_br_short(t, pos, &bs)) > 0) {
			plain_branch(p, &bs, etm_tok_off(t, pos), 0, 0);
			t->addr = bs.addr; /* the compression state */
			t->isa = bs.isa;
			pos += (size_t)r;
		} else {
			break;
		}
		npk++;
		if (!etm_flow_qopen(f)) {
			ret = 0;
			break;
		}
	}
	*np += npk;
	t->pos = pos;
	return ret;
}

/* The packet at @pos of @t in cycle-accurate trace, if the loop takes it:
 * decoded, its size returned; else 0 (the general path). */
static inline int plain_ca_packet(struct ptm_flow *p,
				  struct etm_tok_reader *t, size_t pos)
{
	struct etm_br_short bs;
	uint32_t cc = 0;
	unsigned nbit;
	int r, c;

	if ((r = etm_tok_ca_atom(t, pos, &nbit, &cc)) > 0) {
		plain_ca_atom(p, nbit, cc, etm_tok_off(t, pos));
		return r;
	}
	if (!etm_tok_is_branch(t, t->buf[pos]) ||
	    (r = etm_tok_br_short(t, pos, &bs)) <= 0 ||
	    (c = etm_tok_br_cc(t, pos + (size_t)r, &cc)) <= 0)
		return 0;
	plain_branch(p, &bs, etm_tok_off(t, pos), cc, 1);
	t->addr = bs.addr; /* the compression state */
	t->isa = bs.isa;
	return r + c;
}

/* plain_loop() for cycle-accurate trace: atom packets of any size (a
 * header and a cycle count), branch addresses with a cycle count. */
static int plain_loop_ca(struct ptm_flow *p, struct etm_tok_reader *t,
			 uint64_t *np)
{
	size_t pos = t->pos, len = t->len;
	struct etm_flow *f = p->f;
	uint64_t npk = 0;
	int r;

	/* the queue is open on entry (etm_ptm_plain()) */
	while (pos < len && p->synced && p->cur_valid &&
	       (r = plain_ca_packet(p, t, pos)) > 0) {
		pos += (size_t)r;
		npk++;
		if (!etm_flow_qopen(f))
			break;
	}
	t->pos = pos;
	*np += npk;
	return etm_flow_qopen(f);
}

int etm_ptm_plain(struct ptm_flow *p, uint64_t *np)
{
	struct etm_pkt_decoder *pd = p->f->pd;
	struct etm_tok_reader t;
	int ret;

	if (!etm_pkt_tok_open(pd, &t))
		return 1;
	etm_flow_qstart(p->f);
	ret = p->ca ? plain_loop_ca(p, &t, np) : plain_loop(p, &t, np);
	etm_pkt_tok_close(pd, &t);
	return ret;
}
