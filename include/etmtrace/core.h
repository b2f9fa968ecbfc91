/* etmtrace/core.h - what an ELF file says about the core that ran it (the
 * ARM build attributes of its .ARM.attributes section), and the trace
 * configurations such a core can have: the protocols its trace macrocell
 * may speak and the ETMIDR it reports (doc/inference.md). */
#ifndef ETM_ETMTRACE_CORE_H
#define ETM_ETMTRACE_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The file-scope "aeabi" build attributes that tell the core (ARM IHI 0045,
 * "Addenda to, and Errata in, the ABI for the ARM Architecture", build
 * attributes). */
struct etm_arm_attrs {
	size_t size;       /**< sizeof(struct etm_arm_attrs) */
	int found;         /**< 1: an "aeabi" file attribute set was read */
	char cpu_name[64]; /**< Tag_CPU_name (5), "" when absent */
	int cpu_arch;      /**< Tag_CPU_arch (6): 2 v4T, 3-5 v5, 6-9 v6,
			    *   10 v7, 11/12 v6-M, 13 v7E-M, 14+ v8...;
			    *   -1 when absent */
	int profile;       /**< Tag_CPU_arch_profile (7): 'A', 'R', 'M',
			    *   'S' (A or R), 0 when absent or none */
	int arm_isa;       /**< Tag_ARM_ISA_use (8), -1 when absent */
	int thumb_isa;     /**< Tag_THUMB_ISA_use (9): 0 none, 1 16-bit
			    *   Thumb, 2 Thumb-2, 3 as the architecture
			    *   has; -1 when absent */
};

/** Read the attributes from the contents of a .ARM.attributes section
 * (@n bytes at @p; @big: the ELF file is big-endian). Unknown vendors,
 * section- and symbol-scope sets are skipped. Returns 0 (a->found 0 when
 * there is no "aeabi" file set), or -etme_parse on a malformed section
 * (what was read before it is kept), -etme_invalid on NULL arguments. */
int etm_arm_attrs_parse(const uint8_t *p, size_t n, int big,
			struct etm_arm_attrs *a);

/** The build attributes of ELF file @path (via libelf): 0 (a->found 0
 * when it has none, e.g. not an ARM ELF), or -etme_io / -etme_parse with a
 * reason in @errbuf. */
int etm_elf_arm_attrs(const char *path, struct etm_arm_attrs *a, char *errbuf,
		      size_t errlen);

/* etm_core_trace.protocols bits: 1u << enum etm_protocol. */
#define ETM_CORE_ETMV1 (1u << 3)
#define ETM_CORE_ETMV3 (1u << 1)
#define ETM_CORE_PTM (1u << 2)

/** The trace a core can produce, derived from its build attributes. */
struct etm_core_trace {
	size_t size;        /**< sizeof(struct etm_core_trace) */
	unsigned protocols; /**< ETM_CORE_* its macrocell can speak;
			     *   0: nothing known (no attributes, or a core
			     *   whose trace etmtrace does not decode) */
	uint32_t etmidr;    /**< the ETMIDR an ETMv3 macrocell of the core
			     *   reports (0: not ETMv3) */
	uint32_t ptmidr;    /**< that of a PTM (0: not PTM) */
	int m_profile;      /**< 1: ARMv6-M/v7-M (ETM_CFG_M_PROFILE) */
	int thumb2;         /**< 1: 32-bit Thumb, 0: none, -1: unknown */
	int known;          /**< 1: the core name is in the table */
	char what[96];      /**< e.g. "Cortex-R5 (ARMv7-R): ETM-R5, ETMv3.3" */
};

/** What core @a describes can trace (the table and rules of
 * doc/inference.md: PTM only on ARMv7-A, ETMv1 only on ARMv4T/v5, ETMv3
 * on ARMv5-v7; the ETMIDR by core name, else by architecture). Returns 0,
 * or -etme_invalid on NULL arguments. */
int etm_core_trace_from_attrs(const struct etm_arm_attrs *a,
			      struct etm_core_trace *t);

#ifdef __cplusplus
}
#endif
#endif
