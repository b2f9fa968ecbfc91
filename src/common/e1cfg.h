/* common/e1cfg.h - the ETMv1 options both the decoder and the encoder read
 * from a configuration (ETMCR / ETMCCR fields, doc/etmv1.md §2). */
#ifndef ETM_COMMON_E1CFG_H
#define ETM_COMMON_E1CFG_H

#include <etmtrace/etmv1.h>

struct etm_e1_cfg {
	int port, minor, ctx_bytes, daddr, dval, cyc, brout, lat1;
};

static inline void etm_e1_cfg_get(struct etm_e1_cfg *o,
				  const struct etm_config *c)
{
	o->port = etm_cfg_e1_port(c);
	o->minor = etm_cfg_e1_minor(c);
	o->ctx_bytes = etm_cfg_ctxid_bytes(c);
	o->daddr = etm_cfg_data_addr(c);
	o->dval = etm_cfg_data_value(c);
	o->cyc = etm_cfg_cycle_acc(c);
	o->brout = etm_cfg_branch_bcast(c);
	o->lat1 = (c->flags & ETM_CFG_E1_LATENCY1) != 0;
}

#endif
