/* flow/flow_itm.c - the ITM/DWT "flow" decoder: no instruction flow and no
 * program image; each ITM/DWT packet (packet/itm_pkt.c) that reports an
 * event becomes one element (etmk_itm_*, etmk_dwt_*), in stream order, so
 * that the pipeline delivers them between the ETM's elements of the same
 * input (doc/itm.md). Syncs and extension packets (the stimulus port page,
 * kept by the packet decoder) make none; a malformed packet is an error
 * element and the packet decoder searches for the next sync. */
#include "flow/flow_int.h"

static void itm_sw(struct etm_elem *el, const struct etm_packet *pkt)
{
	el->itm_chan = pkt->itm_port;
	el->itm_value = pkt->dvalue;
	el->itm_size = pkt->dvalue_size;
}

static void itm_ts(struct etm_elem *el, const struct etm_packet *pkt)
{
	el->timestamp = pkt->timestamp;
	if (pkt->type == etmp_itm_lts) {
		el->itm_tc = pkt->reason;
		return;
	}
	el->itm_flags = ETM_ITM_GLOBAL;
	el->itm_tc = pkt->itm_flags & (ETM_ITM_WRAP | ETM_ITM_CLKCH);
}

static void itm_cmp(struct etm_elem *el, const struct etm_packet *pkt)
{
	el->itm_chan = pkt->itm_cmp;
	switch (pkt->type) {
	case etmp_itm_dpc:
		el->itm_flags = ETM_ITM_CMP_PC;
		el->addr = pkt->addr;
		el->itm_size = 4;
		break;
	case etmp_itm_daddr:
		el->itm_flags = ETM_ITM_CMP_ADDR;
		el->addr = pkt->daddr;
		el->itm_size = pkt->dvalue_size;
		break;
	case etmp_itm_dval:
		el->itm_flags = ETM_ITM_CMP_VALUE;
		el->itm_value = pkt->dvalue;
		el->itm_size = pkt->dvalue_size;
		el->itm_fn = pkt->itm_fn;
		break;
	default: /* etmp_itm_dmatch */
		el->itm_flags = ETM_ITM_CMP_MATCH;
		el->itm_value = pkt->dvalue;
		el->itm_size = 1;
		break;
	}
}

/* The element kind of packet type @t, etmk_invalid for none. */
static enum etm_elem_kind itm_kind(enum etm_pkt_type t)
{
	switch (t) {
	case etmp_itm_sw: return etmk_itm_sw;
	case etmp_itm_lts:
	case etmp_itm_gts1:
	case etmp_itm_gts2: return etmk_itm_ts;
	case etmp_itm_overflow: return etmk_itm_overflow;
	case etmp_itm_pc: return etmk_dwt_pc;
	case etmp_itm_exc: return etmk_dwt_exc;
	case etmp_itm_dpc:
	case etmp_itm_daddr:
	case etmp_itm_dval:
	case etmp_itm_dmatch: return etmk_dwt_cmp;
	case etmp_itm_evcnt: return etmk_dwt_counter;
	default: return etmk_invalid;
	}
}

static int itm_put(struct etm_flow *f, const struct etm_packet *pkt)
{
	enum etm_elem_kind k = itm_kind(pkt->type);
	struct etm_elem *el;

	if (pkt->type == etmp_error) {
		el = etm_flow_emit(f, etm_flow_err_kind(pkt->err), pkt->offset);
		if (!el)
			return -etme_internal;
		el->err = pkt->err ? pkt->err : etme_bad_packet;
		return 0;
	}
	if (k == etmk_invalid)
		return 0; /* sync, extension, bytes before a sync */
	el = etm_flow_emit(f, k, pkt->offset);
	if (!el)
		return -etme_internal;
	switch (k) {
	case etmk_itm_sw: itm_sw(el, pkt); break;
	case etmk_itm_ts: itm_ts(el, pkt); break;
	case etmk_dwt_pc:
		el->addr = pkt->addr;
		el->itm_flags = pkt->itm_flags & ETM_ITM_SLEEP ?
					ETM_ITM_SLEEPING :
					0;
		break;
	case etmk_dwt_exc:
		el->exc_num = pkt->exc_num;
		el->itm_fn = pkt->itm_fn;
		break;
	case etmk_dwt_cmp: itm_cmp(el, pkt); break;
	case etmk_dwt_counter: el->itm_value = pkt->dvalue; break;
	default: break;
	}
	return 0;
}

/* Every packet takes the general path (etm_flow_pull()). */
static int itm_drain(struct etm_flow *f, uint64_t *np)
{
	(void)f;
	(void)np;
	return 0;
}

/* No state of its own: the page and the global timestamp are the packet
 * decoder's (its state save). */
static void itm_save(const struct etm_flow *f, struct etm_sbuf *s)
{
	(void)f;
	(void)s;
}

int etm_flow_itm_init(struct etm_flow *f)
{
	f->put = itm_put;
	f->drain = itm_drain;
	f->save = itm_save;
	return 0;
}
