/* flow/flow_etm3_check.c - the ETMv3 flow decoder's checks of what it
 * walked against what the trace says (doc/design.md, "What the decoder
 * assumes"), and the unsynchronised state after a Debug Halt. */
#include <etmtrace/error.h>

#include "flow/flow_etm3_int.h"
#include "packet/addr.h"

/* The trace disagrees with the image walked at @addr: report it. */
int etm_e3_mismatch(struct etm3_flow *e, uint64_t addr)
{
	struct etm_elem el;
	int err = etm_e3_flush_slow(e);

	if (err < 0)
		return err;
	e3_init_elem(e, &el, etmk_error);
	el.err = etme_mismatch;
	el.addr = addr;
	return e3_put(e, &el);
}

/* Whether branch address packet @br disagrees with the walk: the walked
 * target of an ISA-changing direct branch differs from the address packet
 * the trace gives for it; a compressed address (the ISA unchanged since the
 * trace last stated it, IHI 0014 §4.5.2: its alignment is the trace's ISA)
 * follows a walk that ended in another ISA; a plain branch address follows
 * an executed instruction the image says is not a branch. */
int etm_e3_br_disagrees(struct etm3_flow *e, const struct etm_brc *br)
{
	struct etm_elem *p = e->pend;
	/* (0: a packet built by the caller, taken as a full address) */
	int part = br->addr_bits && br->addr_bits < 32;

	if (e->wait_branch == E3_WAIT_ISA)
		return !br->has_exc && (br->addr != e->addr ||
					br->isa != e->isa);
	if (part && etm_addr_shift(br->isa) != etm_addr_shift(e->isa))
		return 1;
	if (part && !br->has_state && br->isa != e->isa)
		return 1; /* T32 / ThumbEE: AltISA only in exception bytes */
	if (br->has_exc || !e->addr_valid || !e->pend_on || !p->ninsn)
		return 0;
	etm_e3_classify_last(e, p);
	return p->last_exec && (p->last_cls == etmc_other ||
				p->last_cls == etmc_isb ||
				p->last_cls == etmc_barrier);
}

/* A packet that would decode instructions while halted: report the gap
 * once (a nosync element whose err tells why). */
int etm_e3_halt_skip(struct etm3_flow *e)
{
	struct etm_elem el;

	if (e->halt_gap)
		return 0;
	e->halt_gap = 1;
	e3_init_elem(e, &el, etmk_nosync);
	el.err = etme_halted;
	return e3_put(e, &el);
}

/* etm_e3_halt_skip() for a run of the fast path (flow_etm3_int.h). */
int etm_e3_halt_run(struct etm3_flow *e, struct etm_atom_run *r)
{
	e->off = etm_atom_run_aoff(r, 0);
	return etm_e3_halt_skip(e);
}

/* Synchronised again after a halt: by I-sync (@br NULL) or by a branch
 * address complete on its own (a trace-on element, reason resync). */
int etm_e3_unhalt(struct etm3_flow *e, const struct etm_brc *br)
{
	struct etm_elem el;

	e->halted = 0;
	e->halt_gap = 0;
	e->synced = 1;
	if (!br)
		return 0;
	e3_init_elem(e, &el, etmk_trace_on);
	el.reason = etm_on_resync;
	el.addr = br->addr;
	el.isa = br->isa;
	return e3_put(e, &el);
}
