/* common/config_e1.c - ETMv1 configuration: the ETMCR/ETMCCR accessors and
 * the check etm_config_check() calls for ETMv1/ETMv2 sources (doc/etmv1.md
 * §2); beside config.c so that the layers above all read them from here. */
#include <etmtrace/config.h>
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/bits.h"

int etm_cfg_e1_port(const struct etm_config *cfg)
{
	/* ETMCR[6:4] port size (IHI 0014Q §3.5, ETMv1 encodings) */
	switch (etm_bits(cfg->etmcr, 6, 4)) {
	case 0: return 4;
	case 1: return 8;
	case 2: return 16;
	default: return 0;
	}
}

int etm_cfg_e1_minor(const struct etm_config *cfg)
{
	/* ETMCCR[30:28] protocol number, IHI 0014Q Table 1.1 */
	static const int8_t minor[8] = { 0, 1, 2, 3, 2, 3, -1, 3 };

	return minor[etm_bits(cfg->etmccr, 30, 28)];
}

int etm_e1_config_check(const struct etm_config *cfg, const char **why)
{
	if (cfg->protocol == etm_proto_etmv2) {
		*why = "ETMv2 (ETM10) is not decoded: its PIPESTAT table, TFO "
		       "header values and branch address layout are not "
		       "confirmed (doc/etmv1.md)";
		return -etme_bad_config;
	}
	if (etm_bit(cfg->etmccr, 31)) {
		*why = "ETMCCR[31] = 1: an ETMv2+ ETM, not ETMv1";
		return -etme_bad_config;
	}
	if (etm_cfg_e1_minor(cfg) < 0) {
		*why = "reserved ETMv1 protocol number ETMCCR[30:28] = 6";
		return -etme_bad_config;
	}
	if (!etm_cfg_e1_port(cfg)) {
		*why = "reserved ETMv1 port size ETMCR[6:4]";
		return -etme_bad_config;
	}
	if (etm_cfg_trace_id(cfg) == 0 || etm_cfg_trace_id(cfg) >= 0x70) {
		*why = "trace ID must be 0x01-0x6f";
		return -etme_bad_config;
	}
	return 0;
}
