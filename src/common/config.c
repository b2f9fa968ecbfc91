/* common/config.c - trace source configuration: size-checked copy-in,
 * validation, and the register accessors (ETMCR, ETMIDR, ETMCCER bit
 * positions from IHI 0014Q §3.5 and IHI 0035B §3). */
#include <string.h>

#include <etmtrace/config.h>
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/bits.h"

void etm_config_init(struct etm_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
}

int etm_config_from_user(struct etm_config *dst, const struct etm_config *src,
			 size_t size)
{
	if (!dst || !src || size < sizeof(size_t))
		return -etme_invalid;
	etm_config_init(dst);
	if (size > sizeof(*dst))
		size = sizeof(*dst);
	memcpy(dst, src, size);
	dst->size = sizeof(*dst);
	return 0;
}

int etm_config_check(const struct etm_config *cfg, const char **why)
{
	const char *dummy;

	if (!why)
		why = &dummy;
	*why = NULL;
	if (!cfg) {
		*why = "no configuration";
		return -etme_invalid;
	}
	if (cfg->protocol == etm_proto_etmv1 || cfg->protocol == etm_proto_etmv2)
		return etm_e1_config_check(cfg, why);
	if (cfg->protocol == etm_proto_itm) {
		if (etm_cfg_trace_id(cfg) >= 0x70) {
			*why = "trace ID must be 0x00-0x6f";
			return -etme_bad_config;
		}
		return 0; /* no register changes how ITM/DWT is read */
	}
	if (cfg->protocol != etm_proto_etmv3 && cfg->protocol != etm_proto_ptm) {
		*why = "unknown trace protocol";
		return -etme_bad_config;
	}
	if (etm_cfg_trace_id(cfg) == 0 || etm_cfg_trace_id(cfg) >= 0x70) {
		*why = "trace ID must be 0x01-0x6f";
		return -etme_bad_config;
	}
	if (cfg->protocol == etm_proto_ptm && etm_cfg_ret_stack(cfg) &&
	    etm_cfg_branch_bcast(cfg)) {
		/* IHI 0035B §4.6: return stack with branch broadcast is
		 * UNPREDICTABLE. */
		*why = "return stack and branch broadcast both enabled";
		return -etme_bad_config;
	}
	if (cfg->protocol == etm_proto_etmv3 && cfg->etmidr &&
	    !etm_bit(cfg->etmidr, 18)) {
		/* ETMIDR[18] = 0: a 32-bit Thumb instruction is traced as two
		 * halves, each with its own atom (IHI 0014Q ETMIDR); the flow
		 * decoder walks it as one instruction and would misplace every
		 * atom after it */
		*why = "ETMIDR[18] = 0 (32-bit Thumb instructions traced as "
		       "two halves) is not supported";
		return -etme_bad_config;
	}
	return 0;
}

int etm_cfg_cycle_acc(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 12);
}
int etm_cfg_branch_bcast(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 8);
}
int etm_cfg_timestamps(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 28);
}
int etm_cfg_vmid(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 30);
}
int etm_cfg_data_only(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 20);
}
int etm_cfg_data_value(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 2);
}
int etm_cfg_data_addr(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 3);
}
int etm_cfg_data_suppress(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmcr, 18);
}
int etm_cfg_arch_major(const struct etm_config *cfg)
{
	return (int)etm_bits(cfg->etmidr, 11, 8);
}
int etm_cfg_arch_minor(const struct etm_config *cfg)
{
	return (int)etm_bits(cfg->etmidr, 7, 4);
}
int etm_cfg_ts_64bit(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmccer, 29);
}
int etm_cfg_ts_binary(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmccer, 28);
}
int etm_cfg_virt_ext(const struct etm_config *cfg)
{
	return etm_bit(cfg->etmccer, 26);
}
unsigned etm_cfg_trace_id(const struct etm_config *cfg)
{
	return cfg->traceid & 0x7f;
}

int etm_cfg_data_trace(const struct etm_config *cfg)
{
	return etm_bits(cfg->etmcr, 3, 2) != 0;
}

int etm_cfg_ctxid_bytes(const struct etm_config *cfg)
{
	static const unsigned char sz[4] = { 0, 1, 2, 4 };

	return sz[etm_bits(cfg->etmcr, 15, 14)];
}

int etm_cfg_ret_stack(const struct etm_config *cfg)
{
	/* ETMCR[29] is reserved (SBZ) in ETMv3: only PTM has a return stack. */
	return cfg->protocol == etm_proto_ptm && etm_bit(cfg->etmcr, 29);
}

int etm_cfg_dmb_waypoint(const struct etm_config *cfg)
{
	return cfg->protocol == etm_proto_ptm && etm_bit(cfg->etmccer, 24);
}

int etm_cfg_alt_branch(const struct etm_config *cfg)
{
	if (cfg->protocol == etm_proto_ptm)
		return 1;
	/* IHI 0014Q: ETMIDR[20] is meaningful from ETMv3.4 on. */
	return etm_bit(cfg->etmidr, 20) && etm_cfg_arch_major(cfg) == 2 &&
	       etm_cfg_arch_minor(cfg) >= 4;
}

int etm_cfg_m_profile(const struct etm_config *cfg)
{
	return (cfg->flags & ETM_CFG_M_PROFILE) != 0;
}

int etm_cfg_security_ext(const struct etm_config *cfg)
{
	if (cfg->protocol != etm_proto_etmv3 && cfg->protocol != etm_proto_ptm)
		return 0;
	return etm_bit(cfg->etmidr, 19) && !etm_cfg_m_profile(cfg);
}

const char *etm_protocol_name(enum etm_protocol p)
{
	switch (p) {
	case etm_proto_etmv3: return "etmv3";
	case etm_proto_ptm: return "ptm";
	case etm_proto_etmv1: return "etmv1";
	case etm_proto_etmv2: return "etmv2";
	case etm_proto_itm: return "itm";
	case etm_proto_unknown: break;
	}
	return "unknown";
}

const char *etm_isa_name(enum etm_isa isa)
{
	switch (isa) {
	case etmi_a32: return "A32";
	case etmi_t32: return "T32";
	case etmi_tee: return "TEE";
	case etmi_jazelle: return "Jazelle";
	case etmi_unknown: break;
	}
	return "?";
}
