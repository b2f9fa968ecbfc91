/* flow/flow_etm3.c - ETMv3 flow decoder: P-header atoms, branch packets and
 * I-syncs walked over the program image into executed ranges and events. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/pagebuf.h"
#include "common/zero.h"
#include "common/sbuf.h"
#include "flow/flow_etm3_int.h"
#include "flow/walk_memo.h"

/* Change the security state: the memory space of the next blocks (the
 * block the last atoms ended in was of the other space). */
static void e3_set_ns(struct etm3_flow *e, uint8_t ns)
{
	e->ns = ns;
	e->space = ns ? etm_space_nonsecure : etm_space_secure;
	e->cb = NULL;
}

/* The key of @el's last instruction in the class memo besides its address:
 * ISA and memory space, never 0. */
static inline uint8_t e3_cmemo_tag(const struct etm_elem *el)
{
	return (uint8_t)(((unsigned)el->isa & 0x3f) + 1) |
	       (el->ns ? 0x80 : 0);
}

/* Classify the last instruction of range @el if the block walk did not (a
 * range ending inside a block: a non-branch instruction). Its opcode is
 * read from the memory space the range ran in (its NS bit), whenever this
 * is done: at its flush, or when a walk ending in it is memoised. With the
 * block cache, through the class memo (struct e3_cmemo): an image read and
 * an instruction decode (~300 Ir) for each address only once. */
void etm_e3_classify_last(struct etm3_flow *e, struct etm_elem *el)
{
	struct e3_cmemo *c = NULL;
	struct etm_insn in;
	uint8_t buf[4];
	size_t n;
	int ok;

	if (el->last_cls != etmc_unknown)
		return;
	el->last_cls = etmc_other;
	if (!e->f->img)
		return;
	if (e->f->cache_on) {
		c = &e->cmemo[((el->last_addr >> 1) * 0x9E3779B97F4A7C15ull) >>
			      (64 - E3_CMEMO_LOG2)];
		if (c->tag == e3_cmemo_tag(el) && c->addr == el->last_addr &&
		    c->size == el->last_size) {
			if (c->ok) {
				el->last_cls = c->cls;
				el->last_link = c->link;
			}
			return;
		}
	}
	n = etm_image_read(e->f->img, el->ns ? etm_space_nonsecure : etm_space_secure, el->last_addr, buf, el->last_size);
	ok = etm_insn_decode(&in, el->isa, el->last_addr, buf, n) > 0;
	if (ok) {
		el->last_cls = in.cls;
		el->last_link = in.link;
	}
	if (c) {
		c->addr = el->last_addr;
		c->tag = e3_cmemo_tag(el);
		c->size = el->last_size;
		c->ok = (uint8_t)ok;
		c->cls = (uint8_t)el->last_cls;
		c->link = (uint8_t)el->last_link;
	}
}

/* Release the pending range and the elements held behind it. */
int etm_e3_flush_slow(struct etm3_flow *e)
{
	unsigned i;
	int err;

	if (e->pend_on) {
		struct etm_flow *f = e->f;

		etm_e3_classify_last(e, e->pend);
		/* built in place: queue it */
		if (e->pend == &f->q[f->qhead + f->qlen])
			f->qlen++;
		else if ((err = e3_put(e, e->pend)) < 0)
			return err;
		e->pend_on = 0;
	}
	for (i = 0; i < e->nheld; i++) {
		err = e3_put(e, &e->held[i]);
		if (err < 0)
			return err;
	}
	e->nheld = 0;
	return 0;
}

/* Output a non-range element: held behind the pending range if there is
 * one (a later cancel may still change that range), else queued. */
int etm_e3_out(struct etm3_flow *e, const struct etm_elem *el)
{
	int err;

	if (!e->pend_on)
		return e3_put(e, el);
	if (e->nheld == E3_HELD_MAX) {
		err = e3_flush(e);
		if (err < 0)
			return err;
		return e3_put(e, el);
	}
	e->held[e->nheld++] = *el;
	return 0;
}

static int e3_emit_context(struct etm3_flow *e)
{
	struct etm_elem el;

	e3_init_elem(e, &el, etmk_context);
	el.has_ctxid = e->has_ctxid;
	el.ctxid = e->ctxid;
	el.has_vmid = e->has_vmid;
	el.vmid = e->vmid;
	el.ns = e->ns;
	el.hyp = e->hyp;
	/* every change of the context comes here: new ranges carry it */
	e->rtmpl.has_ctxid = el.has_ctxid;
	e->rtmpl.ctxid = el.ctxid;
	e->rtmpl.has_vmid = el.has_vmid;
	e->rtmpl.vmid = el.vmid;
	e->rtmpl.ns = el.ns;
	e->rtmpl.hyp = el.hyp;
	e->tgen++; /* and a new image: the walk memo's key */
	if (e->has_ctxid)
		etm_flow_ctx_switch(e->f, e->ctxid);
	return etm_e3_out(e, &el);
}

static unsigned e3_isize(const struct etm_block *b, uint32_t i)
{
	return (b->size4 >> i) & 1 ? 4 : 2;
}

/* Start a new pending range (flushing the old one) at @start. */
static inline __attribute__((always_inline)) int e3_new_range(struct etm3_flow *e, uint64_t start, enum etm_isa isa)
{
	struct etm_flow *f = e->f;
	int err = e3_flush(e);

	if (err < 0)
		return err;
	if (f->qhead + f->qlen >= ETM_FLOW_QMAX)
		return -etme_internal;
	e->pend = &f->q[f->qhead + f->qlen];
	*e->pend = e->rtmpl;
	e->pend->offset = e->off;
	e->pend->start = start;
	e->pend->end = start;
	e->pend->isa = isa;
	e->pend_on = 1;
	e->pend_open = 1;
	return 0;
}

/* One step of a walk: instructions i0..i0+k-1 of block b, starting at
 * e->addr; the last at la (size lsz) passed (exec = 1) or failed. */
struct e3_step {
	const struct etm_block *b;
	uint32_t i0, k;
	uint64_t la;
	unsigned lsz;
	int exec;
	int full;    /* the last is the block's last instruction */
	uint64_t w;  /* cycles of all of them */
	uint32_t lw; /* cycles of the last one */
};

/* Append the instructions of step @st to the pending range, or start a new
 * one with them. */
static inline __attribute__((always_inline)) int e3_append(struct etm3_flow *e, const struct e3_step *st)
{
	const struct etm_block *b = st->b;
	uint64_t first = e->addr, prev;
	struct etm_elem *p = e->pend;
	int err;

	prev = st->k >= 2 ? st->la - e3_isize(b, st->i0 + st->k - 2) : 0;
	if (e->pend_on && e->pend_open && !e->nheld && p->end == first &&
	    p->isa == b->isa) {
		if (st->k < 2)
			prev = p->last_addr;
	} else {
		err = e3_new_range(e, first, b->isa);
		if (err < 0)
			return err;
		p = e->pend;
	}
	e->prev_addr = prev;
	p->ninsn += st->k;
	p->last_addr = st->la;
	p->last_size = (uint8_t)st->lsz;
	p->end = st->la + st->lsz;
	/* ending inside the block: not a branch, classified at flush */
	p->last_cls = st->full ? b->last.cls : etmc_unknown;
	p->last_link = st->full ? b->last.link : 0;
	p->last_mark = st->full ? b->last_mark : ETM_LAST_KNOWN;
	p->last_exec = (uint8_t)st->exec;
	p->last_atom = 1;
	if (e->ca)
		p->cycles = e3_sat32(p->cycles + st->w);
	e->last_w = st->lw;
	if (!st->exec)
		e->pend_open = 0;
	return 0;
}

/* The opcode at addr cannot be read: report it and wait for an address. */
static int e3_nomem(struct etm3_flow *e)
{
	struct etm_elem el;
	int err = e3_flush(e);

	if (err < 0)
		return err;
	e3_init_elem(e, &el, etmk_nomem);
	el.addr = e->addr;
	el.isa = e->isa;
	e->addr_valid = 0;
	return e3_put(e, &el);
}

/* Next address after step @st. */
static inline void e3_advance(struct etm3_flow *e, const struct e3_step *st)
{
	const struct etm_block *b = st->b;

	e->addr = st->la + st->lsz;
	if (!st->exec || !st->full || !b->stop)
		return;
	switch (b->last.cls) {
	case etmc_br_direct:
		e->addr = b->last.target;
		e->pend_open = 0;
		if (!b->last.target_isa || b->last.target_isa == b->isa)
			break;
		/* BLX imm: the trace gives the target with its ISA in an
		 * address packet (IHI 0014 §4.5.2); until it does, the walked
		 * target is unconfirmed (checked in etm_e3_branch()) */
		e->isa = b->last.target_isa;
		e->addr_valid = 0;
		e->wait_branch = E3_WAIT_ISA;
		break;
	case etmc_br_indirect:
		e->addr_valid = 0; /* the branch packet gives the target */
		e->wait_branch = E3_WAIT_BRANCH;
		e->pend_open = 0;
		break;
	default:
		/* SVC/UDF/...: an exception packet follows; continue
		 * provisionally at the next instruction. */
		break;
	}
}

/* Atoms after a taken indirect branch but before its branch packet: the
 * image disagrees with the trace (or the packet was lost). Report the gap
 * once; the atoms are discarded until a branch packet or I-sync. After an
 * ISA-changing direct branch the missing address packet is a mismatch. */
static int e3_lost(struct etm3_flow *e)
{
	struct etm_elem el;
	int err, isa = e->wait_branch == E3_WAIT_ISA;

	e->wait_branch = 0;
	if (isa)
		return etm_e3_mismatch(e, e->addr);
	err = e3_flush(e);
	if (err < 0)
		return err;
	e3_init_elem(e, &el, etmk_nosync);
	el.addr = e->addr;
	return e3_put(e, &el);
}

/* Number of consecutive E atoms (0 bits) from bit 0 of @bits, at most @n. */
static uint32_t e3_erun(uint64_t bits, uint32_t n)
{
	uint32_t r = bits ? (uint32_t)__builtin_ctzll(bits) : n;

	return r < n ? r : n;
}

/* Cycles of atoms @i..@i+@k-1 into *@sum, of the last one returned: a
 * difference of running sums, not a loop over a varying number of atoms
 * (mispredicted); atom 0's own are w0. */
static inline __attribute__((always_inline)) uint32_t e3_wsum(const struct e3_atoms *a, uint32_t i, uint32_t k,
							      uint64_t *sum)
{
	uint32_t j = i + k - 1, m = a->wmask;
	uint64_t extra = i ? 0 : a->w0 - (a->cw[1] & m);

	*sum = (uint64_t)((uint16_t)(a->cw[i + k] - a->cw[i]) & m) + extra;
	return j ? (uint16_t)(a->cw[j + 1] - a->cw[j]) & m : a->w0;
}

/* The block the next atoms go through: the rest of the last block when
 * the address is where its atoms ended, else a lookup. @i0: first index.
 * Returns 0 or -etme_nomap. */
static inline int e3_block(struct etm3_flow *e, const struct etm_block **b,
			   uint32_t *i0)
{
	if (e->cb && e->addr == e->cb_next && e->isa == e->cb->isa) {
		*b = e->cb;
		*i0 = e->cb_i;
		return 0;
	}
	*i0 = 0;
	e->cb = NULL;
	return etm_flow_block(e->f, e->space, e->addr, e->isa, &e->tmp, b);
}

/* The step for @run E atoms (then an N atom if @n_follows) from index
 * @i0 of @b. */
static inline void e3_plan(struct e3_step *st, const struct etm_block *b,
			   uint32_t i0, uint32_t run, int n_follows,
			   uint64_t addr)
{
	uint32_t rem = b->ninsn - i0, li;

	st->b = b;
	st->i0 = i0;
	st->exec = 1;
	if (run >= rem) {
		st->k = rem; /* the rest of the block passed */
	} else if (n_follows) {
		st->k = run + 1; /* E...E N inside the block */
		st->exec = 0;
	} else {
		st->k = run; /* atoms end inside the block */
	}
	st->full = st->k == rem;
	if (st->full) {
		st->la = b->last.addr;
		st->lsz = b->last.size;
		return;
	}
	li = i0 + st->k - 1;
	st->la = st->k > 1 ? etm_block_addr(b, li) : addr;
	st->lsz = e3_isize(b, li);
}

/* Walk the atoms of @a a block at a time. */
static inline __attribute__((always_inline)) int e3_walk_in(struct etm3_flow *e, const struct e3_atoms *a)
{
	const struct etm_block *b;
	uint32_t i = a->first, i0, n = a->n, run;
	struct e3_step st;
	int err;

	st.w = 0;
	st.lw = 0;
	while (i < n && e->addr_valid) {
		run = e3_erun(a->bits >> i, n - i);
		if (a->r)
			e->off = etm_atom_run_aoff(a->r, i);
		if (e3_block(e, &b, &i0) < 0)
			return e3_nomem(e);
		e3_plan(&st, b, i0, run, i + run < n, e->addr);
		if (a->cw)
			st.lw = e3_wsum(a, i, st.k, &st.w);
		err = e3_append(e, &st);
		if (err < 0)
			return err;
		e3_advance(e, &st);
		i += st.k;
		e->cb = NULL;
		if (!st.full) {
			e->cb = b;
			e->cb_i = i0 + st.k;
			e->cb_next = e->addr;
		}
	}
	if (i < n && e->wait_branch) {
		if (a->r)
			e->off = etm_atom_run_aoff(a->r, i);
		return e3_lost(e);
	}
	return 0;
}

/* e3_walk_in() out of line, for the packet-by-packet paths (and the memo's
 * misses, flow_etm3_plain.c). */
__attribute__((noinline)) int etm_e3_walk(struct etm3_flow *e, const struct e3_atoms *a)
{
	return e3_walk_in(e, a);
}

/* Atoms of @pkt into @a (cycles into @w); W atoms of earlier packets
 * (the carry) belong to the first atom. */
static void e3_cycles(struct etm3_flow *e, const struct etm_packet *pkt,
		      struct e3_atoms *a, uint16_t *cw)
{
	uint32_t n = pkt->atom_count, j;

	if (n > ETM_PKT_MAX_ATOMS)
		n = ETM_PKT_MAX_ATOMS;
	a->n = n;
	a->bits = pkt->atom_bits;
	if (e->ca && n) {
		cw[0] = 0;
		for (j = 0; j < n; j++) /* at most 16 x 255: no overflow */
			cw[j + 1] = (uint16_t)(cw[j] + pkt->atom_w[j]);
		a->cw = cw;
		a->wmask = 0xffff; /* no packet index in cw[] */
		a->w0 = e3_sat32(pkt->atom_w[0] + e->carry);
		e->carry = 0;
	}
	e->carry += e->ca ? pkt->w_tail : 0;
}

/* P-header: every atom is one instruction, walked a block at a time. */
int etm_e3_atoms(struct etm3_flow *e, const struct etm_packet *pkt)
{
	uint16_t cw[ETM_PKT_MAX_ATOMS + 1];
	struct e3_atoms a = { 0 };

	e3_cycles(e, pkt, &a, cw);
	if (!e->synced || e->data_only) {
		e->carry = 0;
		return e->halted && a.n ? etm_e3_halt_skip(e) : 0;
	}
	return etm_e3_walk(e, &a);
}

/* etm_e3_run() but for the memo's case: walked here. */
int etm_e3_run_walk(struct etm3_flow *e, struct etm_atom_run *r)
{
	struct e3_atoms a = { .n = r->n, .bits = r->bits, .r = r };

	if (!e->synced || e->data_only) {
		e->carry = 0;
		return e->halted && r->n ? etm_e3_halt_run(e, r) : 0;
	}
	if (e->ca && !r->n) {
		e->carry += r->w_tail;
		return 0;
	}
	if (e->ca)
		etm_e3_ca_atoms(e, r, &a);
	return e3_walk_in(e, &a);
}

/* Remove the last instruction of the pending range (Cancel bit). Returns
 * 1 and its address in *@at if there was one to remove. */
static int e3_cancel_last(struct etm3_flow *e, uint64_t *at)
{
	uint64_t la;

	if (!e->pend_on || !e->pend->ninsn)
		return 0;
	la = e->pend->last_addr;
	*at = la;
	e->carry += e->last_w; /* the cycles belong to what follows */
	if (e->pend->cycles >= e->last_w)
		e->pend->cycles -= e->last_w;
	e->last_w = 0;
	if (e->pend->ninsn == 1) {
		/* nothing left: keep only what was held behind it */
		e->pend_on = 0;
		return 1;
	}
	e->pend->ninsn--;
	e->pend->end = la;
	e->pend->last_addr = e->prev_addr;
	e->pend->last_size = (uint8_t)(la - e->prev_addr);
	e->pend->last_cls = etmc_unknown;
	e->pend->last_link = 0;
	e->pend->last_mark = 0; /* not told: its consumers classify it */
	e->pend->last_exec = 1;
	e->pend->last_atom = 1;
	e->pend_open = 0;
	return 1;
}

/* Drop a held exception-return element; returns 1 if there was one. */
static int e3_drop_exc_return(struct etm3_flow *e)
{
	unsigned i;

	for (i = 0; i < e->nheld; i++) {
		if (e->held[i].kind != etmk_exc_return)
			continue;
		memmove(&e->held[i], &e->held[i + 1],
			(e->nheld - i - 1) * sizeof(e->held[0]));
		e->nheld--;
		return 1;
	}
	return 0;
}

/* Apply NS/Hyp from a packet (ignored on a core without the Security
 * Extensions); emit a context element if they changed. */
int etm_e3_state(struct etm3_flow *e, const struct etm_packet *pkt,
		 int force)
{
	int changed = force;
	uint8_t ns = (uint8_t)(e->sec_ext && pkt->ns);
	uint8_t hyp = (uint8_t)(e->sec_ext && pkt->hyp);

	if (pkt->has_state && (ns != e->ns || hyp != e->hyp)) {
		e3_set_ns(e, ns);
		e->hyp = hyp;
		changed = 1;
	}
	if (pkt->has_ctxid && etm_cfg_ctxid_bytes(&e->f->cfg) &&
	    (!e->has_ctxid || pkt->ctxid != e->ctxid)) {
		e->has_ctxid = 1;
		e->ctxid = pkt->ctxid;
		changed = 1;
	}
	return changed ? e3_emit_context(e) : 0;
}

/* Branch address packet @br, possibly with exception information; the
 * packet @pkt it came from, or NULL (decoder fast path: no context ID). */
int etm_e3_branch(struct etm3_flow *e, const struct etm_brc *br,
		  const struct etm_packet *pkt)
{
	struct etm_elem el;
	uint64_t at = 0, ret = e->addr;
	int has_ret = e->addr_valid, cancelled = 0, err;

	if (!e->synced) {
		if (!e->halted)
			return 0;
		if (br->addr_bits && br->addr_bits < 32)
			return etm_e3_halt_skip(e);
		err = etm_e3_unhalt(e, br);
		if (err < 0)
			return err;
		has_ret = 0;
	} else if (etm_e3_br_disagrees(e, br)) {
		err = etm_e3_mismatch(e, br->addr);
		if (err < 0)
			return err;
	}
	if (br->has_exc && br->cancel) {
		/* M-profile: Can after an exception exit cancels only the
		 * return, not the instruction (§6.6). */
		if (!(e3_drop_exc_return(e) && e->m_profile))
			cancelled = e3_cancel_last(e, &at);
	}
	if (cancelled) {
		ret = at; /* re-executed after the exception */
		has_ret = 1;
	}
	err = e3_flush(e);
	if (err < 0)
		return err;
	if (br->has_exc && br->exc_num) {
		e3_init_elem(e, &el, etmk_exception);
		el.exc_num = br->exc_num;
		el.exc_cancel = (uint8_t)(br->cancel != 0);
		el.addr = br->addr;
		el.isa = br->isa;
		el.ret_addr = has_ret ? ret : 0;
		el.has_ret = (uint8_t)has_ret;
		err = e3_put(e, &el);
		if (err < 0)
			return err;
	}
	etm_e3_set_addr(e, br->addr, br->isa);
	if (etm_e3_is_halt(e, br)) {
		e->synced = 0;
		e->addr_valid = 0;
		e->halted = 1;
	}
	if (pkt)
		return etm_e3_state(e, pkt, 0);
	if (!br->has_state || !e->sec_ext ||
	    (br->ns == e->ns && br->hyp == e->hyp))
		return 0;
	e3_set_ns(e, br->ns); /* as etm_e3_state() */
	e->hyp = br->hyp;
	return e3_emit_context(e);
}

static int e3_branch_pkt(struct etm3_flow *e, const struct etm_packet *pkt)
{
	struct etm_brc br;

	etm_brc_from_pkt(&br, pkt);
	return etm_e3_branch(e, &br, pkt);
}

static int e3_simple(struct etm3_flow *e, const struct etm_packet *pkt,
		     enum etm_elem_kind kind)
{
	struct etm_elem el;

	e3_init_elem(e, &el, kind);
	if (kind == etmk_timestamp)
		el.timestamp = pkt->timestamp;
	return etm_e3_out(e, &el);
}

static int e3_put_pkt(struct etm_flow *f, const struct etm_packet *pkt)
{
	struct etm3_flow *e = f->impl;

	e->off = pkt->offset;
	switch (pkt->type) {
	case etmp_atom:
		if (e->d.on)
			return etm_e3_data_walk(e, pkt);
		return etm_e3_atoms(e, pkt);
	case etmp_branch:
		return e3_branch_pkt(e, pkt);
	case etmp_isync:
		if (e->d.on)
			return etm_e3_data_walk(e, pkt);
		return etm_e3_isync(e, pkt);
	case etmp_error:
		return etm_e3_error(e, pkt);
	case etmp_exc_return:
		return e->synced ? e3_simple(e, pkt, etmk_exc_return) : 0;
	case etmp_timestamp:
		return e3_simple(e, pkt, etmk_timestamp);
	case etmp_trigger:
		return e3_simple(e, pkt, etmk_event);
	case etmp_cycle_count:
		return etm_e3_gap_cycles(e, pkt->cycle_count);
	case etmp_ctxid:
		return e->synced ? etm_e3_state(e, pkt, 0) : 0;
	case etmp_vmid:
		if (!e->synced || (e->has_vmid && e->vmid == pkt->vmid))
			return 0;
		e->has_vmid = 1;
		e->vmid = pkt->vmid;
		return e3_emit_context(e);
	case etmp_data:
	case etmp_ooo_data:
	case etmp_ooo_place:
	case etmp_val_not_traced:
	case etmp_data_suppressed:
	case etmp_store_failed:
	case etmp_exc_entry:
		return etm_e3_data(e, pkt);
	default:
		/* A-sync, ignore, data trace, exception entry marker, and
		 * packets of the other protocol: no effect on the flow. */
		return 0;
	}
}

static int e3_finish(struct etm_flow *f)
{
	struct etm3_flow *e = f->impl;
	int err = e->d.ooo_used ? etm_e3_data_gap(e) : 0;

	return err < 0 ? err : e3_flush(e);
}

static void e3_reset(struct etm_flow *f)
{
	struct etm3_flow *e = f->impl;
	int ever = e->ever_synced;
	struct etm_wm_entry *memo = e->memo;
	struct e3_caentry *camemo = e->camemo;
	struct e3_smemo *smemo = e->d.smemo;
	uint32_t tgen = e->tgen;

	memset(e, 0, sizeof(*e));
	e->f = f;
	e->memo = memo;
	e->camemo = camemo;
	e->d.smemo = smemo;
	e->tgen = tgen + 1;
	e->ca = etm_cfg_cycle_acc(&f->cfg);
	e->m_profile = etm_cfg_m_profile(&f->cfg);
	e->sec_ext = etm_cfg_security_ext(&f->cfg);
	e->data_only = etm_cfg_data_only(&f->cfg);
	e->d.on = etm_cfg_data_trace(&f->cfg) || e->data_only;
	f->drain = e->d.on ? etm_e3_drain_data : etm_e3_drain;
	e->ever_synced = ever;
	e3_set_ns(e, 0);
	e->rtmpl.kind = etmk_range;
	e->rtmpl.id = f->id;
	e->rtmpl.has_cycles = (uint8_t)e->ca;
}

/* The queue rewinds: the pending range built in place moves to q[0]. */
static void e3_rewind(struct etm_flow *f)
{
	struct etm3_flow *e = f->impl;

	if (e->pend_on && e->pend != &f->q[0]) {
		f->q[0] = *e->pend;
		e->pend = &f->q[0];
	}
}

/* Everything but the packet offset (set before every use) and the scratch
 * block; the pending range and held elements only when present. */
static void e3_save(const struct etm_flow *f, struct etm_sbuf *s)
{
	const struct etm3_flow *e = f->impl;
	unsigned i;

	etm_sbuf_u8(s, (unsigned)e->ca);
	etm_sbuf_u8(s, (unsigned)e->data_only);
	etm_sbuf_u8(s, (unsigned)e->m_profile);
	etm_sbuf_u8(s, (unsigned)e->synced);
	etm_sbuf_u8(s, (unsigned)e->ever_synced);
	etm_sbuf_u8(s, (unsigned)e->addr_valid);
	etm_sbuf_u8(s, (unsigned)e->wait_branch);
	etm_sbuf_u8(s, (unsigned)(e->halted | e->halt_gap << 1));
	etm_sbuf_u64(s, e->addr);
	etm_sbuf_u8(s, e->isa);
	etm_sbuf_u8(s, e->ns);
	etm_sbuf_u8(s, e->hyp);
	etm_sbuf_u8(s, e->has_ctxid);
	etm_sbuf_u8(s, e->has_vmid);
	etm_sbuf_u32(s, e->ctxid);
	etm_sbuf_u8(s, e->vmid);
	etm_sbuf_u64(s, e->carry);
	etm_sbuf_u8(s, (unsigned)e->pend_on);
	if (e->pend_on) {
		etm_sbuf_u8(s, (unsigned)e->pend_open);
		etm_sbuf_u64(s, e->prev_addr);
		etm_sbuf_u32(s, e->last_w);
		etm_elem_save(s, e->pend);
	}
	etm_sbuf_u32(s, e->nheld);
	for (i = 0; i < e->nheld; i++)
		etm_elem_save(s, &e->held[i]);
	if (e->d.on)
		etm_e3_data_save(e, s);
}

static void e3_free(struct etm_flow *f)
{
	struct etm3_flow *e = f->impl;

	if (e) {
		etm_line_free(e->memo);
		etm_e3_camemo_free(e);
		free(e->d.smemo);
	}
	free(f->impl);
	f->impl = NULL;
}

/* ISA of the instruction the next branch packet follows (the one whose E
 * atom was just decoded): compressed addresses are aligned for it. */
static enum etm_isa e3_cur_isa(const struct etm_flow *f)
{
	const struct etm3_flow *e = f->impl;

	return e->synced ? e->isa : etmi_unknown;
}

int etm_flow_etm3_init(struct etm_flow *f)
{
	struct etm3_flow *e = calloc(1, sizeof(*e));

	if (!e)
		return -etme_nomem;
	/* the walk memo (704 KiB) is allocated at its first use
	 * (etm_e3_plain()): not at all without the cache or a walk */
	f->impl = e;
	f->put = e3_put_pkt;
	f->finish = e3_finish;
	f->reset = e3_reset;
	f->free_impl = e3_free;
	f->save = e3_save;
	f->rewind = e3_rewind;
	f->img_changed = etm_e3_img_changed;
	f->cur_isa = e3_cur_isa;
	e3_reset(f);
	return 0;
}
