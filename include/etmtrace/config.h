/* etmtrace/config.h - trace source configuration: protocol plus the raw ETM/PTM
 * registers that change how trace is parsed and decoded, with accessors. */
#ifndef ETM_ETMTRACE_CONFIG_H
#define ETM_ETMTRACE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Trace protocol of one source. */
enum etm_protocol {
	etm_proto_unknown = 0,
	etm_proto_etmv3, /**< ETM architecture v3.x (also accepts ETMv1/v2 style IDR) */
	etm_proto_ptm,   /**< Program Flow Trace, PFT 1.0 / 1.1 */
	etm_proto_etmv1, /**< ETMv1.x pipeline-status trace (etmtrace/etmv1.h) */
	etm_proto_etmv2, /**< ETMv2.x (ETM10): recognised, rejected (doc/etmv1.md) */
	/** ITM/DWT trace of an ARMv7-M/ARMv8-M core (ARMv7-M ARM appendix
	 * D4): software (stimulus port) and hardware (DWT) source packets,
	 * timestamps; no instruction flow, no program image (doc/itm.md).
	 * Only the trace ID of the configuration is used. */
	etm_proto_itm,
};

/** Instruction set state. */
enum etm_isa {
	etmi_unknown = 0,
	etmi_a32,     /**< ARM */
	etmi_t32,     /**< Thumb / Thumb-2 */
	etmi_tee,     /**< ThumbEE */
	etmi_jazelle, /**< Jazelle (not decodable: address tracked only) */
};

/** Configuration of one trace source. Begins with its own size so the
 * library can accept older, shorter versions (etm_config_from_user()).
 * Registers are the raw values as found in a snapshot. */
struct etm_config {
	size_t size; /**< sizeof(struct etm_config) */
	enum etm_protocol protocol;
	uint32_t etmcr;   /**< ETMCR, main control (0x000) */
	uint32_t etmccer; /**< ETMCCER, config code extension (0x07A) */
	uint32_t etmidr;  /**< ETMIDR, ID register (0x079) */
	uint32_t traceid; /**< ETMTRACEIDR, trace ID in bits[6:0] (0x080) */
	uint32_t flags;   /**< ETM_CFG_* option bits */
	uint32_t etmccr;  /**< ETMCCR, config code (0x001); ETMv1/v2 */
};

/** Option: the core is an ARMv7-M part (M-profile exception numbers,
 * exception-return cancel semantics). */
#define ETM_CFG_M_PROFILE 0x1u
/** Option, ETMv1: packet bytes of an instruction appear on TRACEPKT at the
 * earliest one cycle after its status (FIFO latency 1; default 0). */
#define ETM_CFG_E1_LATENCY1 0x2u

/** Initialise @cfg to defaults (size set, everything else zero). */
void etm_config_init(struct etm_config *cfg);

/** Copy a caller's config of @size bytes into @dst, zero-filling fields the
 * caller does not know. Returns 0, or -etme_invalid if an argument is NULL. */
int etm_config_from_user(struct etm_config *dst, const struct etm_config *src,
			 size_t size);

/** Check that the configuration can be decoded.
 * Returns 0, or -etme_bad_config with a reason in *@why (static string). */
int etm_config_check(const struct etm_config *cfg, const char **why);

/* Register accessors: never mask ETMCR bits inline. All return 0 or 1 unless
 * stated otherwise. */
int etm_cfg_cycle_acc(const struct etm_config *cfg);     /**< ETMCR[12] */
int etm_cfg_ctxid_bytes(const struct etm_config *cfg);   /**< ETMCR[15:14] -> 0,1,2,4 */
int etm_cfg_branch_bcast(const struct etm_config *cfg);  /**< ETMCR[8] */
int etm_cfg_timestamps(const struct etm_config *cfg);    /**< ETMCR[28] */
int etm_cfg_ret_stack(const struct etm_config *cfg);     /**< ETMCR[29], PTM only */
int etm_cfg_vmid(const struct etm_config *cfg);          /**< ETMCR[30] */
int etm_cfg_data_only(const struct etm_config *cfg);     /**< ETMCR[20], ETMv3 */
int etm_cfg_data_trace(const struct etm_config *cfg);    /**< ETMCR[3:2] != 0, ETMv3 */
int etm_cfg_data_addr(const struct etm_config *cfg);     /**< ETMCR[3], data address tracing */
int etm_cfg_data_value(const struct etm_config *cfg);    /**< ETMCR[2], data value tracing */
int etm_cfg_data_suppress(const struct etm_config *cfg); /**< ETMCR[18] */
int etm_cfg_arch_major(const struct etm_config *cfg);    /**< ETMIDR[11:8] */
int etm_cfg_arch_minor(const struct etm_config *cfg);    /**< ETMIDR[7:4] */
int etm_cfg_alt_branch(const struct etm_config *cfg);    /**< ETMIDR[20] and v3.4+, or PTM */
int etm_cfg_ts_64bit(const struct etm_config *cfg);      /**< ETMCCER[29] */
int etm_cfg_ts_binary(const struct etm_config *cfg);     /**< ETMCCER[28] (1 = binary, 0 = Gray) */
int etm_cfg_virt_ext(const struct etm_config *cfg);      /**< ETMCCER[26] */
int etm_cfg_dmb_waypoint(const struct etm_config *cfg);  /**< ETMCCER[24], PTM */
int etm_cfg_m_profile(const struct etm_config *cfg);     /**< ETM_CFG_M_PROFILE */
/** The core has the Security Extensions: ETMIDR[19] of an ETMv3 or PTM
 * trace unit, not an M-profile core; never ETMv1 (ARMv4T/v5 cores).
 * Without them the NS and Hyp bits of the trace are ignored: elements
 * carry ns = hyp = 0 and the listings show no security state
 * (doc/design.md, "Decisions recorded where the specification is
 * ambiguous"). */
int etm_cfg_security_ext(const struct etm_config *cfg);
unsigned etm_cfg_trace_id(const struct etm_config *cfg); /**< ETMTRACEIDR[6:0] */

/** Name of a protocol ("etmv3", "ptm"), or "unknown". */
const char *etm_protocol_name(enum etm_protocol p);
/** Name of an ISA ("A32", "T32", "TEE", "Jazelle"), or "?". */
const char *etm_isa_name(enum etm_isa isa);

#ifdef __cplusplus
}
#endif
#endif
