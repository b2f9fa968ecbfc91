/* encode/enc_ptm.c - PTM (PFT 1.x) back end of the encoder: waypoints become
 * atoms or branch address packets, exceptions waypoint updates plus exception
 * branch packets, with the return stack and the 4 KiB rule (IHI 0035B §4,
 * §5; docs/ptm.md). */
#include <string.h>

#include <etmtrace/error.h>

#include "encode/enc_int.h"

/* Atom packets. Non-cycle-accurate: 1-5 atoms, the oldest in the highest
 * atom bit, the newest in bit 1 (docs/ptm.md §5.1). Cycle-accurate: one
 * atom and its cycle count (§5.2). */
static void ptm_atom_flush(struct etm_enc *e)
{
	unsigned i = 0;

	while (i < e->natoms) {
		unsigned n = e->natoms - i, k;
		uint8_t h;

		if (e->ca) {
			uint32_t cc = e->atom_w[i];

			h = (uint8_t)(0x80 | ((cc & 0xf) << 2) |
				      (e->atom_n[i] ? 2 : 0) |
				      (cc >> 4 ? 0x40 : 0));
			enc_byte(e, h);
			if (cc >> 4) {
				/* same continuation bytes as the cc field */
				uint32_t v = cc >> 4;
				unsigned j;

				for (j = 0; v && j < 4; j++) {
					uint8_t b = v & 0x7f;

					v >>= 7;
					enc_byte(e, (uint8_t)(b | (v && j < 3 ?
									   0x80 :
									   0)));
				}
			}
			i++;
			continue;
		}
		if (n > 5)
			n = 5;
		h = (uint8_t)(0x80 | (1u << (n + 1)));
		for (k = 0; k < n; k++)
			h |= (uint8_t)(e->atom_n[i + k] << (n - k));
		enc_byte(e, h);
		i += n;
	}
	e->natoms = 0;
}

static unsigned ptm_goal(struct etm_enc *e)
{
	if (e->ca || (e->o.flags & ETM_ENC_ATOM_SINGLE))
		return 1;
	if (e->o.flags & ETM_ENC_RANDOM)
		return 1 + etm_rng_below(&e->rng, 5);
	return 5;
}

static void ptm_atom(struct etm_enc *e, int n_atom)
{
	if (!e->natoms)
		e->atom_goal = ptm_goal(e);
	e->atom_n[e->natoms] = (uint8_t)n_atom;
	e->atom_w[e->natoms] = e->cyc;
	e->natoms++;
	e->cyc = 0;
	if (e->natoms >= e->atom_goal)
		ptm_atom_flush(e);
}

static void ptm_isync(struct etm_enc *e, uint64_t addr, enum etm_isa isa,
		      unsigned reason)
{
	uint32_t a = (uint32_t)addr | (isa == etmi_a32 ? 0 : 1);
	unsigned i;

	ptm_atom_flush(e);
	if (!e->ever_synced || reason != etm_isync_periodic || enc_async_due(e))
		enc_async(e);
	enc_byte(e, 0x08);
	for (i = 0; i < 4; i++)
		enc_byte(e, (uint8_t)(a >> (8 * i)));
	enc_byte(e, enc_isync_info(e, reason));
	if (e->ca && reason != etm_isync_periodic)
		enc_ptm_cc(e, e->gap);
	enc_ctxid_bytes(e, e->ctxid);
	e->cid_pend = 0;
	if (e->vmid_on) {
		enc_byte(e, 0x3c);
		enc_byte(e, e->vmid);
		e->vmid_pend = 0;
	}
	e->isync_at = enc_pos(e);
	e->base = (uint32_t)addr;
	e->pisa = isa;
	e->isa = isa;
	e->pns = e->ns;
	e->phyp = e->hyp;
	e->force_full = 0;
	e->ever_synced = 1;
	e->need_sync = 0;
	e->have_nonwp = 0;
	e->blk_start = addr;
	/* the decoder flushes its return stack at every I-sync */
	e->rs_count = 0;
}

/* Context packets waiting for a waypoint (IHI 0035B §4.5.7). */
static void ptm_context_out(struct etm_enc *e)
{
	if (e->cid_pend && e->cid_bytes) {
		ptm_atom_flush(e);
		enc_byte(e, 0x6e);
		enc_ctxid_bytes(e, e->ctxid);
	}
	if (e->vmid_pend && e->vmid_on) {
		ptm_atom_flush(e);
		enc_byte(e, 0x3c);
		enc_byte(e, e->vmid);
	}
	e->cid_pend = e->vmid_pend = 0;
}

static void rs_push(struct etm_enc *e, uint64_t addr, enum etm_isa isa)
{
	struct enc_rsent *s = &e->rs[e->rs_top];

	s->addr = addr;
	s->isa = isa;
	s->ns = e->ns;
	e->rs_top = (e->rs_top + 1) % ETM_ENC_RS_DEPTH;
	if (e->rs_count < ETM_ENC_RS_DEPTH)
		e->rs_count++;
}

/* Pop if the top entry is exactly (addr, isa, ns). */
static int rs_match_pop(struct etm_enc *e, uint64_t addr, enum etm_isa isa,
			int ns)
{
	unsigned t = (e->rs_top + ETM_ENC_RS_DEPTH - 1) % ETM_ENC_RS_DEPTH;
	const struct enc_rsent *s = &e->rs[t];

	if (!e->rs_count || s->addr != addr || s->isa != isa || s->ns != ns)
		return 0;
	e->rs_top = t;
	e->rs_count--;
	return 1;
}

/* Branch address packet to @addr in @isa; exception bytes if @exc or the
 * security state changes; cycle count in cycle-accurate mode. */
static void ptm_branch(struct etm_enc *e, uint64_t addr, enum etm_isa isa,
		       int exc, unsigned num, int ns, int hyp)
{
	int state = ns != e->pns || hyp != e->phyp;
	int full = exc && (e->o.flags & ETM_ENC_EXC_FULL_ADDR);

	ptm_atom_flush(e);
	enc_address(e, (uint32_t)addr, isa, exc || state, full);
	if (exc || state)
		enc_exc_bytes(e, exc ? num : 0, 0, ns, hyp, 0);
	if (e->ca)
		enc_ptm_cc(e, e->cyc);
	e->cyc = 0;
}

/* Waypoint update naming the last executed non-waypoint instruction. The
 * next address is sent in full: whether a WPU moves the compression base is
 * not settled (docs/ptm.md §8), a full address is right either way. */
static void ptm_wpu(struct etm_enc *e)
{
	enum etm_isa save = e->isa;

	ptm_atom_flush(e);
	enc_byte(e, 0x72);
	e->isa = e->nonwp_isa;
	enc_address(e, (uint32_t)e->nonwp_addr, e->nonwp_isa, 0, e->force_full);
	e->isa = save;
	e->force_full = 1;
	e->have_nonwp = 0;
}

static void ptm_sync_point(struct etm_enc *e, uint64_t addr, enum etm_isa isa)
{
	if (e->need_sync)
		ptm_isync(e, addr, isa, e->reason);
	else if (!e->have_nonwp && enc_isync_due(e))
		ptm_isync(e, addr, isa, etm_isync_periodic);
	else if (enc_async_due(e))
		enc_async(e);
}

/* A taken waypoint: atom, branch packet or return-stack E atom. */
static void ptm_taken(struct etm_enc *e, const struct etm_insn *in,
		      const struct etm_ev *ev)
{
	uint64_t next = in->addr + in->size;
	enum etm_isa before = e->isa;
	uint64_t tgt = next;
	enum etm_isa tisa = e->isa;

	if (in->cls == etmc_br_direct) {
		tgt = in->target;
		if (in->target_isa != etmi_unknown)
			tisa = in->target_isa;
		if (e->bcast)
			ptm_branch(e, tgt, tisa, 0, 0, e->ns, e->hyp);
		else
			ptm_atom(e, 0);
	} else if (in->cls == etmc_br_indirect) {
		tgt = ev->target;
		tisa = ev->target_isa;
		if (e->rs_on && ev->ns == e->ns &&
		    rs_match_pop(e, tgt, tisa, e->ns)) {
			ptm_atom(e, 0);
		} else {
			ptm_branch(e, tgt, tisa, 0, 0, ev->ns, ev->hyp);
			e->ns = ev->ns;
			e->hyp = ev->hyp;
		}
		if (in->exc_return) {
			ptm_atom_flush(e);
			enc_byte(e, 0x76);
		}
	} else {
		ptm_atom(e, 0); /* ISB, DMB/DSB: to the next insn */
	}
	if (e->rs_on && in->link)
		rs_push(e, next, before);
	e->isa = tisa;
	e->next = tgt;
	e->blk_start = tgt;
}

static int ptm_insn(struct etm_enc *e, const struct etm_ev *ev)
{
	struct etm_insn in;
	int err;

	if (!e->on)
		return 0;
	err = enc_classify(e, ev, &in);
	if (err)
		return err;
	ptm_sync_point(e, ev->addr, ev->isa);
	e->isa = ev->isa;
	e->cyc += ev->cycles;
	e->next = ev->addr + in.size;
	e->next_valid = 1;
	if (!etm_insn_is_waypoint(&in, &e->o.cfg)) {
		/* more than 4 KiB past the last waypoint target: WPU */
		if (e->have_nonwp && ev->addr - e->blk_start >= 4096) {
			ptm_wpu(e);
			e->blk_start = ev->addr;
		}
		e->have_nonwp = 1;
		e->nonwp_addr = ev->addr;
		e->nonwp_isa = ev->isa;
		return 0;
	}
	e->have_nonwp = 0;
	if (ev->exec)
		ptm_taken(e, &in, ev);
	else
		ptm_atom(e, 1);
	ptm_context_out(e);
	if (e->off_pend) {
		ptm_atom_flush(e);
		e->on = 0;
		e->off_pend = 0;
	}
	return 0;
}

static int ptm_exception(struct etm_enc *e, const struct etm_ev *ev)
{
	if (!e->on)
		return 0;
	if (e->need_sync) {
		if (!e->next_valid)
			return -etme_invalid;
		/* trace on between back-to-back exceptions (docs/ptm.md §16) */
		ptm_isync(e, e->next, e->isa, e->reason);
	}
	ptm_atom_flush(e);
	if (e->have_nonwp)
		ptm_wpu(e);
	ptm_branch(e, ev->addr, ev->isa, 1, ev->exc_num, ev->ns, ev->hyp);
	e->isa = ev->isa;
	e->ns = ev->ns;
	e->hyp = ev->hyp;
	e->next = ev->addr;
	e->next_valid = 1;
	e->blk_start = ev->addr;
	enc_after_halt(e, ev);
	ptm_context_out(e);
	return 0;
}

static void ptm_trace_on(struct etm_enc *e, const struct etm_ev *ev,
			 unsigned reason)
{
	e->on = 1;
	e->off_pend = 0;
	e->need_sync = 1;
	e->reason = (uint8_t)reason;
	e->gap = ev->cycles;
	e->cyc = 0;
	e->natoms = 0;
	e->ns = ev->ns;
	e->hyp = ev->hyp;
}

static void ptm_trace_off(struct etm_enc *e)
{
	if (e->have_nonwp) {
		/* stops after the next waypoint */
		e->off_pend = 1;
		return;
	}
	ptm_atom_flush(e);
	e->on = 0;
}

int enc_ptm_put(struct etm_enc *e, const struct etm_ev *ev)
{
	switch (ev->kind) {
	case etmev_insn:
		return ptm_insn(e, ev);
	case etmev_exception:
		return ptm_exception(e, ev);
	case etmev_context:
		e->cid_pend |= ev->ctxid != e->ctxid;
		e->vmid_pend |= ev->vmid != e->vmid;
		e->ctxid = ev->ctxid;
		e->vmid = ev->vmid;
		if (!e->have_nonwp && e->on && !e->need_sync)
			ptm_context_out(e);
		return 0;
	case etmev_trace_on:
		ptm_trace_on(e, ev, ev->reason ? ev->reason : etm_isync_trace_on);
		return 0;
	case etmev_overflow:
		ptm_trace_off(e);
		e->off_pend = 0;
		ptm_trace_on(e, ev, etm_isync_overflow);
		return 0;
	case etmev_trace_off:
		if (e->on)
			ptm_trace_off(e);
		return 0;
	case etmev_timestamp:
		if (!e->on || e->need_sync || !e->ts_on)
			return 0;
		ptm_atom_flush(e);
		enc_timestamp(e, ev->timestamp);
		if (e->ca)
			enc_ptm_cc(e, e->cyc);
		e->cyc = 0;
		return 0;
	case etmev_trigger:
		if (e->on && !e->need_sync) {
			ptm_atom_flush(e);
			enc_byte(e, 0x0c);
		}
		return 0;
	default:
		return -etme_invalid;
	}
}

int enc_ptm_finish(struct etm_enc *e)
{
	ptm_atom_flush(e);
	return 0;
}
