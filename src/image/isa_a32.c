/* image/isa_a32.c - A32 (ARM state) classifier: which instructions branch,
 * link, return from exceptions or are barriers (a32-t32-waypoints.md §4). */
#include <etmtrace/insn.h>

#include "common/bits.h"
#include "image/image_int.h"

static void a32_direct(struct etm_insn *insn, uint64_t off, int link,
		       enum etm_isa tisa)
{
	insn->cls = etmc_br_direct;
	insn->link = (uint8_t)link;
	insn->target = insn->addr + 8 + (uint64_t)etm_sext(off, 26);
	insn->target_isa = tisa;
}

static void a32_barrier(struct etm_insn *insn, enum etm_insn_class cls)
{
	insn->cls = cls;
	insn->target = insn->addr + 4;
	insn->target_isa = etmi_a32;
}

/* cond == 1111: unconditional space (BLX imm, RFE, barriers). */
static void a32_uncond(struct etm_insn *insn, uint32_t i)
{
	if ((i & 0xFE000000) == 0xFA000000) {
		/* BLX imm: target = addr + 8 + SignExtend(imm24:H:'0') */
		a32_direct(insn, (uint64_t)(i & 0x00FFFFFF) << 2 | etm_bit(i, 24) << 1, 1, etmi_t32);
	} else if ((i & 0xFE500000) == 0xF8100000) {
		/* RFE{IA,IB,DA,DB} (SRS is 100x x1x0) */
		insn->cls = etmc_br_indirect;
		insn->exc_return = 1;
	} else if ((i & 0xFFFFFFF0) == 0xF57FF060) {
		a32_barrier(insn, etmc_isb);
	} else if ((i & 0xFFFFFFE0) == 0xF57FF040) {
		a32_barrier(insn, etmc_barrier); /* DSB 0x4x, DMB 0x5x */
	}
}

/* Data-processing with Rd = PC (not TST/TEQ/CMP/CMN or the miscellaneous
 * space, not a register-shifted register form). */
static int a32_dp_writes_pc(uint32_t i)
{
	if ((i & 0x0C00F000) != 0x0000F000)
		return 0;
	if ((i & 0x01800000) == 0x01000000)
		return 0;
	return etm_bit(i, 25) || !etm_bit(i, 4);
}

/* LDR (word, not byte) with Rt = PC, outside the media space. */
static int a32_ldr_pc(uint32_t i)
{
	return (i & 0x0C50F000) == 0x0410F000 &&
	       (i & 0x02000010) != 0x02000010;
}

/* BX / BLX reg / BXJ / ERET / BKPT / SMC / HVC in the misc space.
 * Returns 1 if classified. */
static int a32_misc(struct etm_insn *insn, uint32_t i)
{
	uint32_t rm = i & 0xF;

	switch (i & 0x0FFFFFF0) {
	case 0x012FFF10: /* BX Rm */
		insn->cls = etmc_br_indirect;
		insn->is_return = rm == 14;
		return 1;
	case 0x012FFF30: /* BLX Rm */
		insn->cls = etmc_br_indirect;
		insn->link = 1;
		return 1;
	case 0x012FFF20: /* BXJ Rm */
		insn->cls = etmc_br_indirect;
		return 1;
	}
	if ((i & 0x0FFFFFFF) == 0x0160006E) { /* ERET */
		insn->cls = etmc_br_indirect;
		insn->exc_return = 1;
		return 1;
	}
	switch (i & 0x0FF000F0) {
	case 0x01200070: /* BKPT */
	case 0x01600070: /* SMC */
	case 0x01400070: /* HVC */
		insn->cls = etmc_exc_gen;
		return 1;
	}
	return 0;
}

/* LDM / POP with PC in the list (S bit: exception return). */
static void a32_ldm_pc(struct etm_insn *insn, uint32_t i)
{
	uint32_t rn = etm_bits(i, 19, 16);

	insn->cls = etmc_br_indirect;
	if (etm_bit(i, 22))
		insn->exc_return = 1;
	else
		insn->is_return = rn == 13 || (rn == 11 && !etm_bit(i, 23));
}

void etm_a32_classify(struct etm_insn *insn)
{
	uint32_t i = insn->opcode;
	uint32_t cond = i >> 28;

	if (cond == 0xF) {
		a32_uncond(insn, i);
		return;
	}
	insn->cond = cond != 0xE;
	if ((i & 0x0E000000) == 0x0A000000) {
		/* B / BL: target = addr + 8 + SignExtend(imm24:'00') */
		a32_direct(insn, (uint64_t)(i & 0x00FFFFFF) << 2,
			   etm_bit(i, 24), etmi_a32);
	} else if (a32_misc(insn, i)) {
		return;
	} else if ((i & 0x0E108000) == 0x08108000) {
		a32_ldm_pc(insn, i);
	} else if (a32_ldr_pc(insn->opcode)) {
		insn->cls = etmc_br_indirect;
		/* POP {pc} = LDR pc, [sp], #4 */
		insn->is_return = (i & 0x0FFFFFFF) == 0x049DF004;
	} else if (a32_dp_writes_pc(i)) {
		insn->cls = etmc_br_indirect;
		if (etm_bit(i, 20))
			insn->exc_return = 1; /* SUBS pc, lr / MOVS pc, lr */
		else
			insn->is_return = (i & 0x0FFFFFFF) == 0x01A0F00E;
	} else if ((i & 0x0F000000) == 0x0F000000) {
		insn->cls = etmc_exc_gen; /* SVC */
	} else if ((i & 0x0FF000F0) == 0x07F000F0) {
		/* UDF (cond AL); other conditions: permanently undefined */
		insn->cls = cond == 0xE ? etmc_exc_gen : etmc_undefined;
	} else if ((i & 0x0FFF0FFF) == 0x0E070F95) {
		a32_barrier(insn, etmc_isb); /* MCR p15,0,Rt,c7,c5,4 */
	} else if ((i & 0x0FFF0FFF) == 0x0E070F9A ||
		   (i & 0x0FFF0FFF) == 0x0E070FBA) {
		a32_barrier(insn, etmc_barrier); /* CP15 DSB / DMB */
	}
}
