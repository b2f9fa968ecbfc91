/* etmtrace/insn.h - A32/T32 instruction classification for trace
 * decompression: size, waypoint kind, direct target, link, ISA change. */
#ifndef ETM_ETMTRACE_INSN_H
#define ETM_ETMTRACE_INSN_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Instruction kinds, as the trace protocols see them. */
enum etm_insn_class {
	etmc_unknown = 0,
	etmc_other,       /**< not a branch: ordinary instruction */
	etmc_br_direct,   /**< B, BL, BLX imm, CBZ/CBNZ (target known) */
	etmc_br_indirect, /**< BX, BLX reg, LDR/LDM/POP pc, data-proc pc, TBB/TBH, RFE, ERET ... */
	etmc_isb,         /**< ISB: a PTM waypoint */
	etmc_barrier,     /**< DMB / DSB: PTM waypoint only if ETMCCER[24] */
	etmc_exc_gen,     /**< SVC, BKPT, UDF, SMC, HVC: exception follows */
	etmc_undefined,   /**< not a valid encoding for this ISA */
};

/** Result of classifying one instruction. */
struct etm_insn {
	uint64_t addr;
	uint32_t opcode; /**< A32 word; T32: hw1 (16-bit) or hw1<<16|hw2 */
	uint8_t size;    /**< 2 or 4 */
	enum etm_isa isa;
	enum etm_insn_class cls;
	uint8_t link;            /**< branch with link (BL, BLX) */
	uint8_t cond;            /**< conditional encoding (cond != AL, CBZ/CBNZ,
				   *   B<c> in T32); IT blocks are not considered */
	uint8_t exc_return;      /**< exception return (SUBS pc,lr / RFE / ERET / LDM ^) */
	uint8_t is_return;       /**< looks like a function return (BX lr, POP {pc}, ...) */
	uint8_t it;              /**< T32 IT instruction */
	uint64_t target;         /**< etmc_br_direct: branch target */
	enum etm_isa target_isa; /**< etmc_br_direct: ISA at the target (BLX imm switches) */
};

/** Classify the instruction at @addr in @isa from @n bytes at @bytes
 * (little-endian memory order). For T32, 2 bytes suffice for a 16-bit
 * instruction; 4 are needed for a 32-bit one.
 * Returns the instruction size (2 or 4), -etme_again if @n is too small,
 * -etme_invalid for an unsupported ISA (Jazelle) or NULL. */
int etm_insn_decode(struct etm_insn *insn, enum etm_isa isa, uint64_t addr,
		    const uint8_t *bytes, size_t n);

/** Whether the instruction is a waypoint for @proto under @cfg (PTM: branches,
 * ISB, and DMB/DSB if ETMCCER[24]). */
int etm_insn_is_waypoint(const struct etm_insn *insn,
			 const struct etm_config *cfg);

/** Direction of a load/store's data transfers (etm_insn_ldst()). */
enum etm_ldst_dir {
	etm_ldst_none = 0,  /**< not a data instruction */
	etm_ldst_load = 1,  /**< reads memory (R) */
	etm_ldst_store = 2, /**< writes memory (W) */
	etm_ldst_swap = 3,  /**< SWP/SWPB: one read, then one write */
};

/** The data transfers of a load/store instruction, as ETMv3 data trace
 * sees them (doc/datatrace.md): LDM/STM/PUSH/POP one transfer per
 * register, LDRD/STRD/LDREXD/STREXD and RFE/SRS two words, VLDM/VSTM and
 * VLDR/VSTR one per 32-bit word; later transfers at the first address
 * plus 4 per transfer. */
struct etm_ldst {
	uint8_t dir;   /**< enum etm_ldst_dir */
	uint8_t size;  /**< bytes per transfer: 1, 2 or 4 */
	uint8_t count; /**< number of transfers; 0 = not known from the
			 *   opcode (generic LDC/STC) */
	uint8_t excl;  /**< exclusive store: STREX{B,H,D} (a store-failed
			 *   packet may replace its data) */
};

/** Whether classified instruction @insn (etm_insn_decode()) transfers data,
 * and how: fills @ls (zeroed for other instructions). Returns 1 for a
 * data instruction, 0 otherwise, -etme_invalid on NULL. Preload hints
 * (PLD/PLI) and barriers transfer no data. */
int etm_insn_ldst(const struct etm_insn *insn, struct etm_ldst *ls);

/** Name of an instruction class ("branch", "ibranch", "isb", ...). */
const char *etm_insn_class_name(enum etm_insn_class c);

#ifdef __cplusplus
}
#endif
#endif
