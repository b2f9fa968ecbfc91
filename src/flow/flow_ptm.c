/* flow/flow_ptm.c - PTM (PFT 1.0/1.1) flow decoder: turns PTM packets into
 * executed-instruction ranges and events by walking the program image
 * (IHI0035B Appendix B.3.2; ../shared/docs/ptm.md §14-17). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/zero.h"
#include "common/sbuf.h"
#include "flow/flow_ptm_int.h"

/*
 * Walk bound. The PTM emits a waypoint update when a waypoint lies more than
 * 4096 bytes beyond the previous waypoint's target (IHI0035B §4.5.5), so no
 * legitimate walk is much longer; a longer one means the image does not
 * match the trace. 4x margin.
 */
#define PTM_WALK_MAX 16384u

/* Exception numbers that matter here (../shared/docs/ptm.md §6.2). */
#define PTM_EXC_RESET 8
#define PTM_EXC_UNDEF 9

/* The instructions found by one walk. The last one is described by
 * *last: a block's last instruction in the block cache (valid until the
 * next lookup) or cut (a block cut short). */
struct ptm_run {
	uint64_t start, end;
	uint32_t ninsn;
	const struct etm_insn *last;
	uint64_t bad_addr; /* walk_nomem: the unreadable address */
	struct etm_insn cut;
};

enum ptm_walk_res {
	walk_wp,    /* stopped at a waypoint (run.last) */
	walk_wu,    /* reached the instruction holding the WU address */
	walk_nomem, /* opcode at run.bad_addr unreadable */
	walk_bad,   /* trace inconsistent with the image */
};

static struct etm_elem *ptm_emit(struct ptm_flow *p, enum etm_elem_kind k,
				 uint64_t off)
{
	struct etm_elem *el = etm_flow_emit(p->f, k, off);

	if (!el) {
		el = &p->scratch;
		etm_zero(el, sizeof(*el));
	}
	return el;
}

static void ptm_emit_context(struct ptm_flow *p, uint64_t off)
{
	if (p->has_ctxid)
		etm_flow_ctx_switch(p->f, p->ctxid);
	ptm_state_into(p, ptm_emit(p, etmk_context, off));
}

static void ptm_emit_cycles(struct ptm_flow *p, uint64_t off, uint32_t cc)
{
	struct etm_elem *el = ptm_emit(p, etmk_cycle_count, off);

	el->has_cycles = 1;
	el->cycles = cc;
}

static void ptm_emit_error(struct ptm_flow *p, uint64_t off, int err)
{
	ptm_emit(p, etm_flow_err_kind(err), off)->err = err;
}

/* Impossible trace: report and stay unsynchronised until the next I-sync. */
static void ptm_lose_sync(struct ptm_flow *p, uint64_t off, int err)
{
	ptm_emit_error(p, off, err);
	p->synced = 0;
	p->halted = 0;
	p->cur_valid = 0;
	p->after_wu = 0;
}

static void ptm_emit_range(struct ptm_flow *p, uint64_t off,
			   const struct ptm_run *r, int atom, int exec,
			   uint32_t cc)
{
	struct etm_elem *el;

	if (!r->ninsn)
		return;
	el = ptm_emit(p, etmk_range, off);
	el->start = r->start;
	el->end = r->end;
	el->isa = p->isa;
	el->ninsn = r->ninsn;
	el->last_addr = r->last->addr;
	el->last_size = r->last->size;
	el->last_cls = r->last->cls;
	el->last_link = r->last->link;
	el->last_mark = etm_insn_last_mark(r->last);
	el->last_exec = (uint8_t)exec;
	el->last_atom = (uint8_t)atom;
	if (p->ca) {
		el->has_cycles = 1;
		el->cycles = cc;
	}
	ptm_state_into(p, el);
}

static enum etm_space ptm_space(const struct ptm_flow *p)
{
	return p->ns ? etm_space_nonsecure : etm_space_secure;
}

/* ThumbEE shares the Thumb encodings this decoder needs; Jazelle cannot be
 * walked. */
static enum etm_isa ptm_walk_isa(enum etm_isa isa)
{
	if (isa == etmi_tee)
		return etmi_t32;
	return isa;
}

/* Cut block @b at the instruction containing @wu (start <= wu < end) and add
 * the instructions up to and including it to @r. */
static void ptm_cut_block(struct ptm_flow *p, const struct etm_block *b,
			  uint64_t wu, struct ptm_run *r)
{
	uint64_t a = b->start;
	uint32_t i, sz = 4;
	uint8_t buf[4];
	size_t n;

	for (i = 0; i < b->ninsn; i++) {
		sz = (b->size4 >> i) & 1 ? 4 : 2;
		if (a + sz > wu)
			break;
		a += sz;
	}
	if (i >= b->ninsn - 1) {
		/* the block's own last instruction */
		r->ninsn += b->ninsn;
		r->end = b->end;
		r->last = &b->last;
		return;
	}
	r->ninsn += i + 1;
	r->end = a + sz;
	memset(&r->cut, 0, sizeof(r->cut));
	r->last = &r->cut;
	n = etm_image_read(p->f->img, ptm_space(p), a, buf, sz);
	if (etm_insn_decode(&r->cut, b->isa, a, buf, n) < 0) {
		/* cannot happen: the block was built from these bytes */
		r->cut.addr = a;
		r->cut.size = (uint8_t)sz;
		r->cut.isa = b->isa;
	}
}

/*
 * Walk from p->cur over non-waypoint instructions, a block at a time, up to
 * the next waypoint (@to_wu == 0) or up to and including the instruction
 * that contains address @wu (seed 004 analyze_waypoint_update()).
 */
static enum ptm_walk_res ptm_walk(struct ptm_flow *p, int to_wu, uint64_t wu,
				  struct ptm_run *r)
{
	enum etm_isa wisa = ptm_walk_isa(p->isa);
	uint64_t addr = p->cur;
	const struct etm_block *b;

	r->ninsn = 0;
	r->last = NULL;
	r->start = r->end = addr;
	if (to_wu && wu < addr)
		return walk_bad;
	for (;;) {
		if (addr - r->start > PTM_WALK_MAX)
			return walk_bad;
		if ((wisa != etmi_a32 && wisa != etmi_t32) ||
		    etm_flow_block(p->f, ptm_space(p), addr, wisa, &p->tmp,
				   &b) < 0) {
			r->bad_addr = addr;
			return walk_nomem;
		}
		if (to_wu && wu < b->end) {
			ptm_cut_block(p, b, wu, r);
			return walk_wu;
		}
		r->ninsn += b->ninsn;
		r->end = b->end;
		r->last = &b->last;
		addr = b->end;
		if (b->stop)
			/* analyze_waypoint_update(): a waypoint before the WU
			 * address cannot be: the PTM would have traced it */
			return to_wu ? walk_bad : walk_wp;
		/* split block, or memory ends at b->end: the next lookup
		 * continues or fails, and may replace this block */
		r->cut = b->last;
		r->last = &r->cut;
	}
}

/*
 * Handle a walk that did not reach its goal: emit what was executed, then
 * either a nomem (wait for the next address) or an error (wait for I-sync).
 */
static void ptm_walk_failed(struct ptm_flow *p, uint64_t off,
			    enum ptm_walk_res res, const struct ptm_run *r)
{
	ptm_emit_range(p, off, r, 0, 1, 0);
	if (res == walk_nomem) {
		struct etm_elem *el = ptm_emit(p, etmk_nomem, off);

		el->addr = r->bad_addr;
		el->isa = p->isa; /* the walk's instruction set */
		p->cur_valid = 0;
		p->after_wu = 0;
	} else {
		ptm_lose_sync(p, off, etme_mismatch);
	}
}

/* Apply an E atom to waypoint @w (seed 004 analyze_atomheader()). */
static void ptm_take(struct ptm_flow *p, uint64_t off,
		     const struct etm_insn *w)
{
	uint64_t next = w->addr + w->size;
	enum etm_isa isa = p->isa;
	struct etm_retent ent;

	switch (w->cls) {
	case etmc_br_direct:
		p->cur = w->target;
		if (w->target_isa != etmi_unknown)
			p->isa = w->target_isa;
		break;
	case etmc_br_indirect:
		/* without a branch packet the target can only come from the
		 * return stack */
		if (!p->rs_on || etm_retstack_pop(&p->rs, &ent) < 0) {
			ptm_lose_sync(p, off, etme_retstack_empty);
			return;
		}
		p->cur = ent.addr;
		p->isa = ent.isa;
		p->ns = ent.ns;
		break;
	default:
		/* ISB, DMB/DSB: a branch to the next instruction */
		p->cur = next;
		break;
	}
	if (p->rs_on && w->link)
		etm_retstack_push(&p->rs, next, isa, p->ns);
}

static void ptm_one_atom(struct ptm_flow *p, uint64_t off, int n_atom,
			 uint32_t cc)
{
	enum ptm_walk_res res;
	struct ptm_run r;

	if (!p->cur_valid) {
		if (p->ca)
			ptm_emit_cycles(p, off, cc);
		return;
	}
	res = ptm_walk(p, 0, 0, &r);
	if (res != walk_wp) {
		ptm_walk_failed(p, off, res, &r);
		if (p->ca && p->synced)
			ptm_emit_cycles(p, off, cc);
		return;
	}
	ptm_emit_range(p, off, &r, 1, !n_atom, cc);
	p->after_wu = 0;
	if (n_atom)
		p->cur = r.last->addr + r.last->size;
	else
		ptm_take(p, off, r.last);
}

/* @n atoms (bit i of @bits: 1 = N) of the packet at @off, with cycle
 * count @cc if @has_cc. */
static void ptm_atoms_c(struct ptm_flow *p, unsigned n, uint32_t bits,
			int has_cc, uint32_t cc, uint64_t off)
{
	unsigned i;

	if (n > ETM_PKT_MAX_ATOMS)
		n = ETM_PKT_MAX_ATOMS;
	/* the cycle count (cycle-accurate: one atom per packet) belongs to
	 * the last atom */
	for (i = 0; i < n && p->synced; i++)
		ptm_one_atom(p, off, (bits >> i) & 1,
			     i + 1 == n && has_cc ? cc : 0);
}

static void ptm_atoms(struct ptm_flow *p, const struct etm_packet *pkt)
{
	ptm_atoms_c(p, pkt->atom_count, pkt->atom_bits, pkt->has_cc,
		    pkt->cycle_count, pkt->offset);
}

/* Take NS/Hyp from a packet that carries them; report a change. */
static void ptm_take_state(struct ptm_flow *p, const struct etm_brc *br)
{
	if (!br->has_state || (br->ns == p->ns && br->hyp == p->hyp))
		return;
	p->ns = br->ns;
	p->hyp = br->hyp;
	ptm_emit_context(p, br->offset);
}

static void ptm_load(struct ptm_flow *p, uint64_t addr, enum etm_isa isa)
{
	p->cur = addr;
	if (isa != etmi_unknown)
		p->isa = isa;
	p->cur_valid = 1;
}

/* Debug Halt (exception 1): trace restarts with an I-sync (debug exit);
 * until then, or a branch address complete on its own, nothing is known.
 * Packets that would decode instructions are skipped, the gap reported
 * once. */
static void ptm_halt_skip(struct ptm_flow *p, uint64_t off)
{
	if (p->halt_gap)
		return;
	p->halt_gap = 1;
	ptm_emit(p, etmk_nosync, off)->err = etme_halted;
}

/* Branch address packet without exception (seed 004 branch_no_excp()). */
static void ptm_branch(struct ptm_flow *p, const struct etm_brc *br)
{
	uint32_t cc = br->has_cc ? br->cycle_count : 0;
	enum ptm_walk_res res;
	struct ptm_run r;

	if (!p->cur_valid) {
		if (p->ca)
			ptm_emit_cycles(p, br->offset, cc);
	} else {
		res = ptm_walk(p, 0, 0, &r);
		if (res == walk_wp) {
			/* the packet implies an E atom; never pop for it */
			ptm_emit_range(p, br->offset, &r, 1, 1, cc);
			if (p->rs_on && r.last->link)
				etm_retstack_push(&p->rs,
						  r.last->addr + r.last->size,
						  p->isa, p->ns);
		} else {
			ptm_walk_failed(p, br->offset, res, &r);
			if (!p->synced)
				return;
			if (p->ca)
				ptm_emit_cycles(p, br->offset, cc);
		}
	}
	ptm_load(p, br->addr, br->isa);
	p->after_wu = 0;
	ptm_take_state(p, br);
}

/* For the plain loop (flow_ptm_int.h); the static versions stay for this
 * file, where they are inlined. */
void etm_ptm_atoms(struct ptm_flow *p, unsigned n, uint32_t bits, int has_cc,
		   uint32_t cc, uint64_t off)
{
	ptm_atoms_c(p, n, bits, has_cc, cc, off);
}

void etm_ptm_branch(struct ptm_flow *p, const struct etm_brc *br)
{
	ptm_branch(p, br);
}

/*
 * Exception branch address packet (seed 004 branch_with_excp()): no code is
 * walked. Preferred return address (our decision, ../shared/docs/ptm.md §14, §16):
 * the next instruction that would have executed, i.e. the current address:
 * after a waypoint update that is the instruction after the upgraded one
 * (SVC/SMC: after the call; aborts/BKPT: the faulting instruction, as the PTM
 * upgrades the one before it; IRQ/FIQ: the interrupted instruction); after a
 * taken waypoint it is the branch target; after another exception (back to
 * back) it is the first vector, where nothing ran. Exceptions: Undefined
 * after a WU returns to the UDF itself (the PTM upgrades the undefined
 * instruction, and its ARM preferred return address is that instruction);
 * Reset has none.
 */
static void ptm_exception(struct ptm_flow *p, const struct etm_brc *br)
{
	struct etm_elem *el = ptm_emit(p, etmk_exception, br->offset);

	el->exc_num = br->exc_num;
	el->addr = br->addr;
	if (p->cur_valid && br->exc_num != PTM_EXC_RESET) {
		el->has_ret = 1;
		el->ret_addr = p->cur;
		if (br->exc_num == PTM_EXC_UNDEF && p->after_wu)
			el->ret_addr = p->wu_addr;
	}
	if (p->ca && br->has_cc) {
		el->has_cycles = 1;
		el->cycles = br->cycle_count;
	}
	ptm_load(p, br->addr, br->isa);
	p->after_wu = 0;
	ptm_take_state(p, br);
	ptm_state_into(p, el); /* the state the handler runs in */
	if (br->exc_num == 1) {
		p->synced = 0;
		p->cur_valid = 0;
		p->halted = 1;
	}
}

/* Waypoint update (seed 004 analyze_waypoint_update()): everything up to and
 * including the instruction at the address executed; continue after it. */
static void ptm_wpupdate(struct ptm_flow *p, const struct etm_packet *pkt)
{
	enum ptm_walk_res res;
	struct ptm_run r;

	if (!p->cur_valid)
		/* nothing known before it, but the named instruction ran */
		ptm_load(p, pkt->addr, pkt->isa);
	res = ptm_walk(p, 1, pkt->addr, &r);
	if (res != walk_wu) {
		ptm_walk_failed(p, pkt->offset, res, &r);
		return;
	}
	ptm_emit_range(p, pkt->offset, &r, 0, 1, 0);
	p->cur = r.end;
	p->after_wu = 1;
	p->wu_addr = r.last->addr;
}

static uint8_t ptm_on_reason(const struct ptm_flow *p, unsigned reason)
{
	if (!p->ever_synced)
		return etm_on_start;
	switch (reason) {
	case etm_isync_trace_on: return etm_on_enable;
	case etm_isync_overflow: return etm_on_overflow;
	case etm_isync_debug_exit: return etm_on_debug;
	default: return etm_on_resync;
	}
}

/* I-sync: CurrentState = LastState = packet; the return stack is flushed on
 * every I-sync (../shared/docs/ptm.md §17: decoding may start at any I-sync). */
/* A periodic I-sync while in sync names the next instruction: it must lie
 * on the straight-line path from the decoder's position, with no waypoint
 * before it, in the same instruction set. Otherwise atoms were left over
 * or missing: the image or the configuration does not match the trace. */
static int ptm_isync_agrees(struct ptm_flow *p, const struct etm_packet *pkt)
{
	struct ptm_run r;

	if (pkt->isa != etmi_unknown && pkt->isa != p->isa)
		return 0;
	return ptm_walk(p, 1, pkt->addr, &r) != walk_bad;
}

static void ptm_isync(struct ptm_flow *p, const struct etm_packet *pkt)
{
	/* after a halt with nothing skipped: as if in sync */
	int quiet = p->halted && !p->halt_gap;
	int on = (!p->synced && !quiet) || pkt->reason != etm_isync_periodic;
	int ctx = !p->synced && !p->halted;
	struct etm_elem *el;

	if (!on && p->cur_valid && !ptm_isync_agrees(p, pkt)) {
		el = ptm_emit(p, etmk_error, pkt->offset);
		el->err = etme_mismatch;
		el->addr = pkt->addr;
	}

	if (p->ca && pkt->has_cc)
		ptm_emit_cycles(p, pkt->offset, pkt->cycle_count);
	if (on) {
		el = ptm_emit(p, etmk_trace_on, pkt->offset);
		el->reason = ptm_on_reason(p, pkt->reason);
		el->isync_reason = pkt->reason;
		el->addr = pkt->addr;
	}
	if (pkt->has_state && (pkt->ns != p->ns || pkt->hyp != p->hyp)) {
		p->ns = pkt->ns;
		p->hyp = pkt->hyp;
		ctx = 1;
	}
	if (pkt->has_ctxid && (!p->has_ctxid || pkt->ctxid != p->ctxid)) {
		p->has_ctxid = 1;
		p->ctxid = pkt->ctxid;
		ctx = 1;
	}
	if (ctx)
		ptm_emit_context(p, pkt->offset);
	ptm_load(p, pkt->addr, pkt->isa);
	p->synced = 1;
	p->halted = 0;
	p->halt_gap = 0;
	p->ever_synced = 1;
	p->after_wu = 0;
	etm_retstack_flush(&p->rs);
}

static void ptm_ctxid(struct ptm_flow *p, const struct etm_packet *pkt)
{
	if (p->has_ctxid && pkt->ctxid == p->ctxid)
		return;
	p->has_ctxid = 1;
	p->ctxid = pkt->ctxid;
	if (p->synced)
		ptm_emit_context(p, pkt->offset);
}

static void ptm_vmid(struct ptm_flow *p, const struct etm_packet *pkt)
{
	if (p->has_vmid && pkt->vmid == p->vmid)
		return;
	p->has_vmid = 1;
	p->vmid = pkt->vmid;
	if (p->synced)
		ptm_emit_context(p, pkt->offset);
}

static void ptm_timestamp(struct ptm_flow *p, const struct etm_packet *pkt)
{
	struct etm_elem *el = ptm_emit(p, etmk_timestamp, pkt->offset);

	el->timestamp = pkt->timestamp;
	if (p->ca && pkt->has_cc) {
		el->has_cycles = 1;
		el->cycles = pkt->cycle_count;
	}
}

/* Branch address packet @br (the general path and the fast path). */
static void ptm_put_branch(struct etm_flow *f, const struct etm_brc *br)
{
	struct ptm_flow *p = f->impl;

	if (!p->synced && p->halted) {
		struct etm_elem *el;

		if (br->addr_bits && br->addr_bits < 32) {
			ptm_halt_skip(p, br->offset);
			return;
		}
		/* a full address: synchronised again */
		el = ptm_emit(p, etmk_trace_on, br->offset);
		el->reason = etm_on_resync;
		el->addr = br->addr;
		p->synced = 1;
		p->halted = 0;
		p->halt_gap = 0;
	}
	if (!p->synced)
		return; /* wait for an I-sync (../shared/docs/ptm.md §15.2) */
	if (br->has_exc && br->exc_num)
		ptm_exception(p, br);
	else
		ptm_branch(p, br);
}

static int ptm_put(struct etm_flow *f, const struct etm_packet *pkt)
{
	struct ptm_flow *p = f->impl;
	struct etm_brc br;

	switch (pkt->type) {
	case etmp_isync:
		ptm_isync(p, pkt);
		return 0;
	case etmp_error:
		ptm_lose_sync(p, pkt->offset, pkt->err ? pkt->err : etme_bad_packet);
		return 0;
	case etmp_timestamp:
		ptm_timestamp(p, pkt);
		return 0;
	case etmp_trigger:
		ptm_emit(p, etmk_event, pkt->offset);
		return 0;
	case etmp_ctxid:
		ptm_ctxid(p, pkt);
		return 0;
	case etmp_vmid:
		ptm_vmid(p, pkt);
		return 0;
	default:
		break;
	}
	if (!p->synced && p->halted && (pkt->type == etmp_atom || pkt->type == etmp_waypoint))
		ptm_halt_skip(p, pkt->offset);
	if (!p->synced && p->halted && pkt->type == etmp_branch) {
		etm_brc_from_pkt(&br, pkt);
		ptm_put_branch(f, &br);
		return 0;
	}
	if (!p->synced)
		return 0; /* wait for an I-sync (../shared/docs/ptm.md §15.2) */
	switch (pkt->type) {
	case etmp_atom:
		ptm_atoms(p, pkt);
		break;
	case etmp_branch:
		etm_brc_from_pkt(&br, pkt);
		ptm_put_branch(f, &br);
		break;
	case etmp_waypoint:
		ptm_wpupdate(p, pkt);
		break;
	case etmp_exc_return:
		ptm_emit(p, etmk_exc_return, pkt->offset);
		break;
	default:
		/* A-sync, not-sync, ignore, ETMv3-only types: nothing */
		break;
	}
	return 0;
}

/* PTM atom packet @a in compact form (the fast path). */
static void ptm_put_patom(struct etm_flow *f, const struct etm_patom *a)
{
	struct ptm_flow *p = f->impl;

	if (!p->synced) {
		if (p->halted)
			ptm_halt_skip(p, a->offset);
		return;
	}
	ptm_atoms_c(p, a->n, a->bits, a->has_cc, a->cc, a->offset);
}

/* One token of the fast path: an atom packet of any size or a branch
 * address packet pulled from the packet decoder and decoded as if put;
 * 0 when the next packet is neither (or not whole). */
static inline int ptm_drain_tok(struct etm_flow *f)
{
	struct etm_tok t;

	switch (etm_pkt_tok_next(f->pd, &t)) {
	case etm_tk_atom:
		etm_flow_qstart(f);
		ptm_put_patom(f, &t.atom);
		return 1;
	case etm_tk_branch:
		etm_flow_qstart(f);
		ptm_put_branch(f, &t.br);
		return 1;
	default:
		return 0;
	}
}

/* A packet other than a token (I-sync, timestamp, exception...) pulled
 * and put as the decoder's general path would (etm_flow_pull()), so that
 * the batch goes on after it: 0 when the next packet is an error (the
 * decoder judges those) or input is needed. TC2 PTM: one packet in ten,
 * each of which ended a batch of five elements. */
static int ptm_drain_general(struct etm_flow *f)
{
	struct etm_packet pkt;

	if (etm_pkt_next_ok(f->pd, &pkt) != 0)
		return 0;
	etm_flow_qstart(f);
	return ptm_put(f, &pkt) == 0;
}

/* The fast path (the drain hook): the plain loop (flow_ptm_plain.c) while
 * the decoder is synchronised, single tokens decoded as if the packets
 * were put one by one for what it leaves, and the other packets but
 * errors put. */
static int ptm_drain(struct etm_flow *f, uint64_t *np)
{
	struct ptm_flow *p = f->impl;

	do {
		if (p->synced && p->cur_valid && !etm_ptm_plain(p, np))
			return 0;
		if (!ptm_drain_tok(f) && !ptm_drain_general(f))
			return 0;
		(*np)++;
	} while (etm_flow_qopen(f));
	return 0;
}

static int ptm_finish(struct etm_flow *f)
{
	(void)f; /* PTM keeps nothing back */
	return 0;
}

static void ptm_reset(struct etm_flow *f)
{
	struct ptm_flow *p = f->impl;

	p->synced = 0;
	p->cur_valid = 0;
	p->after_wu = 0;
	p->halted = 0;
	p->halt_gap = 0;
	etm_retstack_flush(&p->rs);
}

/* Everything but the scratch element; fields only read under a flag are
 * written only when the flag is set. */
static void ptm_save(const struct etm_flow *f, struct etm_sbuf *s)
{
	const struct ptm_flow *p = f->impl;
	struct etm_retstack rs = p->rs;
	struct etm_retent ent;

	etm_sbuf_u8(s, p->ca);
	etm_sbuf_u8(s, p->rs_on);
	etm_sbuf_u8(s, p->synced);
	etm_sbuf_u8(s, p->ever_synced);
	etm_sbuf_u8(s, p->cur_valid);
	etm_sbuf_u8(s, p->after_wu);
	etm_sbuf_u8(s, (unsigned)(p->halted | p->halt_gap << 1));
	etm_sbuf_u64(s, p->cur_valid ? p->cur : 0);
	etm_sbuf_u8(s, p->isa);
	etm_sbuf_u8(s, p->ns);
	etm_sbuf_u8(s, p->hyp);
	etm_sbuf_u8(s, p->has_ctxid);
	etm_sbuf_u8(s, p->has_vmid);
	etm_sbuf_u32(s, p->has_ctxid ? p->ctxid : 0);
	etm_sbuf_u8(s, p->has_vmid ? p->vmid : 0);
	etm_sbuf_u64(s, p->after_wu ? p->wu_addr : 0);
	/* the return stack, newest first */
	etm_sbuf_u32(s, etm_retstack_count(&rs));
	while (etm_retstack_pop(&rs, &ent) == 0) {
		etm_sbuf_u64(s, ent.addr);
		etm_sbuf_u8(s, ent.isa);
		etm_sbuf_u8(s, ent.ns);
	}
}

static void ptm_free(struct etm_flow *f)
{
	free(f->impl);
	f->impl = NULL;
}

/* ISA the next branch packet's address is aligned for: the state of the
 * waypoint it resolves, which only changes at waypoints already decoded. */
static enum etm_isa ptm_cur_isa(const struct etm_flow *f)
{
	const struct ptm_flow *p = f->impl;

	return p->synced ? p->isa : etmi_unknown;
}

int etm_flow_ptm_init(struct etm_flow *f)
{
	struct ptm_flow *p = calloc(1, sizeof(*p));

	if (!p)
		return -etme_nomem;
	p->f = f;
	p->ca = (uint8_t)etm_cfg_cycle_acc(&f->cfg);
	p->rs_on = (uint8_t)etm_cfg_ret_stack(&f->cfg);
	p->isa = etmi_a32;
	f->impl = p;
	f->put = ptm_put;
	f->finish = ptm_finish;
	f->reset = ptm_reset;
	f->free_impl = ptm_free;
	f->save = ptm_save;
	f->drain = ptm_drain;
	f->cur_isa = ptm_cur_isa;
	return 0;
}
