/* flow/flow_ptm_int.h - the PTM flow decoder's state and the parts of it
 * shared by its files: flow_ptm.c (packets, walks, the general fast path)
 * and flow_ptm_plain.c (the plain fast loop). */
#ifndef ETM_FLOW_FLOW_PTM_INT_H
#define ETM_FLOW_FLOW_PTM_INT_H

#include <stdint.h>

#include "flow/flow_int.h"
#include "flow/retstack.h"

struct ptm_flow {
	struct etm_flow *f;
	uint8_t ca;          /* cycle-accurate */
	uint8_t rs_on;       /* return stack enabled (ETMCR[29]) */
	uint8_t synced;      /* an I-sync was seen since reset / error */
	uint8_t ever_synced; /* any I-sync seen yet (etm_on_start) */
	uint8_t cur_valid;   /* cur is the address of the next instruction */
	uint8_t after_wu;    /* the last address-bearing packet was a WU */
	uint8_t halted;      /* after a Debug Halt: not synced until an
				 * I-sync or a full branch address */
	uint8_t halt_gap;    /* ... and the gap was reported */
	uint64_t cur;
	enum etm_isa isa;
	uint8_t ns, hyp;
	uint8_t has_ctxid, has_vmid;
	uint32_t ctxid;
	uint8_t vmid;
	uint64_t wu_addr; /* address of the instruction the WU named */
	struct etm_retstack rs;
	struct etm_elem scratch; /* sink when the queue is full (a bug) */
	struct etm_block tmp;    /* a block built with the cache off */
};

static inline void ptm_state_into(const struct ptm_flow *p,
				  struct etm_elem *el)
{
	el->ns = p->ns;
	el->hyp = p->hyp;
	el->has_ctxid = p->has_ctxid;
	el->ctxid = p->ctxid;
	el->has_vmid = p->has_vmid;
	el->vmid = p->vmid;
}

/* @n atoms (bit i of @bits: 1 = N) of the packet at @off, with cycle
 * count @cc if @has_cc (flow_ptm.c). */
void etm_ptm_atoms(struct ptm_flow *p, unsigned n, uint32_t bits, int has_cc,
		   uint32_t cc, uint64_t off);
/* Branch address packet @br without exception, the decoder synchronised
 * (flow_ptm.c). */
void etm_ptm_branch(struct ptm_flow *p, const struct etm_brc *br);

/* The plain loop (flow_ptm_plain.c): cycle-accurate or not,
 * synchronised; returns 1 when the next packet needs the general path, 0
 * when the queue is full enough. */
int etm_ptm_plain(struct ptm_flow *p, uint64_t *np);

#endif
