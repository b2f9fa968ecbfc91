/* tests/unit/etest_pktcmp.h - predicates comparing what the packet
 * decoder's token path gives (src/packet/pktdec.h: atom runs, branch, PTM
 * atom and data tokens) with what its general path (etm_pkt_next()) gives
 * for the same bytes; shared by the unit tests and the packet paths fuzz
 * targets (no test framework: each returns 1 when they agree, else 0). */
#ifndef ETEST_PKTCMP_H
#define ETEST_PKTCMP_H

#include <stdint.h>

#include <etmtrace/packet.h>

#include "packet/pktdec.h"

/* Run @r (@k packets) against the next @k packets of @g; @ca: the trace is
 * cycle-accurate (the W sums are compared too). */
static inline int etest_run_matches(struct etm_atom_run *r, unsigned k,
				    struct etm_pkt_decoder *g, int ca)
{
	struct etm_packet b;
	unsigned j, i, n = 0;
	uint64_t bits = 0;
	uint32_t w = 0;

	if (r->npkt != k || k > ETM_ATOM_RUN_PKTS)
		return 0;
	for (j = 0; j < k; j++) {
		if (etm_pkt_next(g, &b, sizeof(b)) != 0 || b.type != etmp_atom)
			return 0;
		if (b.atom_count && etm_atom_run_off(r, j) != b.offset)
			return 0;
		for (i = 0; i < b.atom_count; i++, n++) {
			if (n >= ETM_ATOM_RUN_MAX || etm_atom_run_pkt(r, n) != j)
				return 0;
			bits |= (uint64_t)(b.atom_bits >> i & 1) << n;
			w += b.atom_w[i];
			if (ca && etm_atom_run_w(r->cw[n + 1], r->cw[0]) != w)
				return 0;
		}
		w += b.w_tail;
	}
	return r->n == n && r->bits == bits &&
	       (!ca || (r->cw[0] == 0 &&
			r->w_tail == w - etm_atom_run_w(r->cw[n], r->cw[0])));
}

/* The fields a data packet token has (etm_pkt_tok_data()). */
static inline int etest_same_data(const struct etm_packet *a,
				  const struct etm_packet *b)
{
	return a->type == b->type && a->offset == b->offset &&
	       a->size == b->size && a->id == b->id && a->dtag == b->dtag &&
	       a->has_daddr == b->has_daddr && a->daddr == b->daddr &&
	       a->has_dvalue == b->has_dvalue && a->dvalue == b->dvalue &&
	       a->dvalue_size == b->dvalue_size;
}

/* Branch token @t against branch packet @b, field by field. */
static inline int etest_same_branch(const struct etm_brc *t,
				    const struct etm_packet *b)
{
	return b->type == etmp_branch && t->offset == b->offset &&
	       t->addr == b->addr && t->isa == b->isa &&
	       t->addr_bits == b->addr_bits &&
	       t->isa_changed == b->isa_changed && t->has_exc == b->has_exc &&
	       (!t->has_exc || t->exc_num == b->exc_num) &&
	       t->cancel == b->cancel && t->resume == b->resume &&
	       t->has_state == b->has_state &&
	       (!t->has_state ||
		(t->ns == b->ns && t->hyp == b->hyp &&
		 t->altisa == b->altisa && t->jazelle == b->jazelle)) &&
	       t->has_cc == b->has_cc &&
	       (!t->has_cc || t->cycle_count == b->cycle_count);
}

/* PTM atom token @t against atom packet @b. */
static inline int etest_same_patom(const struct etm_patom *t,
				   const struct etm_packet *b)
{
	return b->type == etmp_atom && t->offset == b->offset &&
	       t->n == b->atom_count && t->bits == b->atom_bits &&
	       t->has_cc == b->has_cc &&
	       (!t->has_cc || t->cc == b->cycle_count);
}

#endif
