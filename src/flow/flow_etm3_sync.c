/* flow/flow_etm3_sync.c - the ETMv3 flow decoder's synchronisation
 * packets: I-sync (first sync, periodic re-anchoring, trace on after a
 * gap, LSiP), gap cycle counts and bad trace. */
#include <etmtrace/error.h>

#include "flow/flow_etm3_int.h"

/* Gap cycles before a non-periodic I-sync (or a cycle count packet). */
int etm_e3_gap_cycles(struct etm3_flow *e, uint32_t cc)
{
	struct etm_elem el;

	e3_init_elem(e, &el, etmk_cycle_count);
	el.has_cycles = 1;
	el.cycles = e3_sat32(e->carry + cc);
	e->carry = 0;
	return etm_e3_out(e, &el);
}

/* LSiP: the data instruction at the I-sync address executed (implied E). */
static int e3_lsip(struct etm3_flow *e, const struct etm_packet *pkt)
{
	struct e3_atoms a = { .n = 1 }; /* one E atom */
	int err;

	if (!e->addr_valid)
		return 0;
	err = etm_e3_walk(e, &a);
	if (err < 0 || (!e->addr_valid && !e->wait_branch))
		return err; /* or the opcode was unreadable (nomem) */
	etm_e3_set_addr(e, pkt->lsip_next, pkt->lsip_isa);
	return 0;
}

static uint8_t e3_on_reason(unsigned isync_reason)
{
	switch (isync_reason) {
	case etm_isync_overflow: return etm_on_overflow;
	case etm_isync_debug_exit: return etm_on_debug;
	default: return etm_on_enable;
	}
}

/* A periodic I-sync while in sync names the next instruction, which the
 * decoder already knows unless an indirect branch is pending: if they
 * differ, atoms were left over or missing (the image or the configuration
 * does not match the trace). Report a mismatch before re-anchoring. */
static int e3_isync_check(struct etm3_flow *e, const struct etm_packet *pkt)
{
	/* (after a BLX imm whose address packet is due, the walked target
	 * and ISA are checked too) */
	if ((!e->addr_valid && e->wait_branch != E3_WAIT_ISA) ||
	    e->wait_branch == E3_WAIT_BRANCH || (e->addr == pkt->addr && (e->isa == pkt->isa || pkt->isa == etmi_unknown)))
		return 0;
	return etm_e3_mismatch(e, pkt->addr);
}

int etm_e3_isync(struct etm3_flow *e, const struct etm_packet *pkt)
{
	int first, gap = 0, err;
	struct etm_elem *el;

	if (e->halted) {
		/* as if in sync (nothing was walked); trace restarts here
		 * if the gap was reported */
		gap = e->halt_gap;
		etm_e3_unhalt(e, NULL);
	}
	first = !e->synced;

	if (!first && !gap && pkt->reason == etm_isync_periodic &&
	    !pkt->lsip) {
		/* in sync: check, then re-anchor address and state */
		err = e3_isync_check(e, pkt);
		if (err < 0)
			return err;
		etm_e3_set_addr(e, pkt->addr, pkt->isa);
		return etm_e3_state(e, pkt, 0);
	}
	err = e3_flush(e);
	if (err < 0)
		return err;
	/* nothing pending or held now: the elements go to the queue as
	 * etm_e3_out() would put them, built in place */
	if (first)
		e->carry = 0; /* W atoms before sync are not counted */
	if (pkt->reason != etm_isync_periodic) {
		if (pkt->has_cc) { /* etm_e3_gap_cycles() */
			el = etm_flow_emit(e->f, etmk_cycle_count, e->off);
			if (!el)
				return -etme_internal;
			el->has_cycles = 1;
			el->cycles = e3_sat32(e->carry + pkt->cycle_count);
		}
		e->carry = 0;
	}
	if (first || gap || pkt->reason != etm_isync_periodic) {
		el = etm_flow_emit(e->f, etmk_trace_on, e->off);
		if (!el)
			return -etme_internal;
		el->reason = e3_on_reason(pkt->reason);
		if (gap && pkt->reason == etm_isync_periodic)
			el->reason = etm_on_resync;
		if (first)
			el->reason = e->ever_synced ? etm_on_resync :
						      etm_on_start;
		el->isync_reason = pkt->reason;
		el->addr = pkt->addr;
		el->isa = pkt->isa;
	}
	e->synced = 1;
	e->ever_synced = 1;
	etm_e3_set_addr(e, pkt->addr, pkt->isa);
	err = etm_e3_state(e, pkt, first);
	if (err < 0)
		return err;
	return pkt->lsip ? e3_lsip(e, pkt) : 0;
}

/* Bad trace: report, and wait for the next I-sync. */
int etm_e3_error(struct etm3_flow *e, const struct etm_packet *pkt)
{
	struct etm_elem el;
	int err = e3_flush(e);

	if (err < 0)
		return err;
	e3_init_elem(e, &el, etm_flow_err_kind(pkt->err));
	el.err = pkt->err ? pkt->err : etme_bad_packet;
	e->synced = 0;
	e->halted = 0;
	e->addr_valid = 0;
	e->carry = 0;
	return e3_put(e, &el);
}
