/* image/isa_t32.c - T32 (Thumb-2) and ThumbEE classifier, 16- and 32-bit
 * encodings (docs/a32-t32-waypoints.md §5, §6, §9). */
#include <etmtrace/insn.h>

#include "common/bits.h"
#include "image/image_int.h"

static void t32_direct(struct etm_insn *insn, uint64_t base, int64_t off)
{
	insn->cls = etmc_br_direct;
	insn->target = (base + (uint64_t)off) & ~1ull;
	if (insn->target_isa == etmi_unknown)
		insn->target_isa = insn->isa;
}

static void t32_barrier(struct etm_insn *insn, enum etm_insn_class cls)
{
	insn->cls = cls;
	insn->target = insn->addr + insn->size;
	insn->target_isa = insn->isa;
}

static void t32_indirect(struct etm_insn *insn, int link, int ret)
{
	insn->cls = etmc_br_indirect;
	insn->link = (uint8_t)link;
	insn->is_return = (uint8_t)ret;
}

/* Hi-register BX / BLX / MOV pc / ADD pc (0x44xx-0x47xx). */
static void t16_hireg(struct etm_insn *insn, uint32_t hw)
{
	uint32_t rm = etm_bits(hw, 6, 3);

	switch (hw & 0xFF80) {
	case 0x4700: /* BX Rm */
		t32_indirect(insn, 0, rm == 14);
		return;
	case 0x4780: /* BLX Rm */
		t32_indirect(insn, 1, 0);
		return;
	}
	if ((hw & 0xFF87) == 0x4687) /* MOV pc, Rm (D:Rd = 1111) */
		t32_indirect(insn, 0, rm == 14);
	else if ((hw & 0xFF87) == 0x4487) /* ADD pc, Rm */
		t32_indirect(insn, 0, 0);
}

/* ThumbEE handler branches replace the 16-bit STM space 0xC000-0xC7FF:
 * HBP 0xC0xx, HB/HBL 1100 001L (HBL links), HBLP 0xC4xx-0xC7xx (links). */
static void tee_handler(struct etm_insn *insn, uint32_t hw)
{
	int link = (hw & 0xFC00) == 0xC400 || (hw & 0xFF00) == 0xC300;

	t32_indirect(insn, link, 0);
}

static void t16_classify(struct etm_insn *insn, uint32_t hw)
{
	uint64_t pc = insn->addr + 4;

	if ((hw & 0xF000) == 0xD000) {
		if ((hw & 0x0E00) != 0x0E00) { /* B<c> T1: imm8:'0' */
			insn->cond = 1;
			t32_direct(insn, pc, etm_sext((hw & 0xFF) << 1, 9));
		} else {
			insn->cls = etmc_exc_gen; /* UDF 0xDExx / SVC 0xDFxx */
		}
	} else if ((hw & 0xF800) == 0xE000) { /* B T2: imm11:'0' */
		t32_direct(insn, pc, etm_sext((hw & 0x7FF) << 1, 12));
	} else if ((hw & 0xF500) == 0xB100) { /* CBZ/CBNZ: i:imm5:'0' */
		insn->cond = 1;
		t32_direct(insn, pc, (int64_t)(etm_bit(hw, 9) << 6 | etm_bits(hw, 7, 3) << 1));
	} else if ((hw & 0xFC00) == 0x4400) {
		t16_hireg(insn, hw);
	} else if ((hw & 0xFF00) == 0xBD00) { /* POP {..., pc} */
		t32_indirect(insn, 0, 1);
	} else if ((hw & 0xFF00) == 0xBE00) { /* BKPT */
		insn->cls = etmc_exc_gen;
	} else if ((hw & 0xFF00) == 0xBF00 && (hw & 0xF)) {
		insn->it = 1; /* IT */
	} else if (insn->isa == etmi_tee && (hw & 0xF800) == 0xC000) {
		tee_handler(insn, hw);
	}
}

/* I1:I2 from J1, J2 and S: I = NOT(J XOR S). */
static uint32_t t32_i1i2(uint32_t hw1, uint32_t hw2)
{
	uint32_t s = etm_bit(hw1, 10);
	uint32_t i1 = !(etm_bit(hw2, 13) ^ s);
	uint32_t i2 = !(etm_bit(hw2, 11) ^ s);

	return s << 24 | i1 << 23 | i2 << 22;
}

/* Miscellaneous control (B<c>.W space with cond 111x). */
static void t32_misc_ctrl(struct etm_insn *insn, uint32_t hw1, uint32_t hw2)
{
	switch (hw1 & 0xFFF0) {
	case 0xF3B0: /* misc control: hw2[7:4] = op */
		switch (etm_bits(hw2, 7, 4)) {
		case 0x0: /* LEAVEX: ThumbEE -> Thumb */
			insn->target_isa = etmi_t32;
			t32_direct(insn, insn->addr + 4, 0);
			break;
		case 0x1: /* ENTERX: Thumb -> ThumbEE */
			insn->target_isa = etmi_tee;
			t32_direct(insn, insn->addr + 4, 0);
			break;
		case 0x4: /* DSB */
		case 0x5: /* DMB */
			t32_barrier(insn, etmc_barrier);
			break;
		case 0x6: /* ISB */
			t32_barrier(insn, etmc_isb);
			break;
		}
		return;
	case 0xF3C0: /* BXJ Rm */
		t32_indirect(insn, 0, 0);
		return;
	case 0xF3D0: /* SUBS pc, lr, #imm8 (ERET) */
		t32_indirect(insn, 0, 0);
		insn->exc_return = 1;
		return;
	case 0xF7E0: /* HVC */
		if ((hw2 & 0xF000) == 0x8000)
			insn->cls = etmc_exc_gen;
		return;
	case 0xF7F0: /* SMC 0x8xxx, UDF.W 0xAxxx */
		if ((hw2 & 0xF000) == 0x8000 || (hw2 & 0xF000) == 0xA000)
			insn->cls = etmc_exc_gen;
		return;
	}
}

/* Branches and miscellaneous control: hw1 = 11110..., hw2[15] = 1. */
static void t32_branch(struct etm_insn *insn, uint32_t hw1, uint32_t hw2)
{
	uint64_t pc = insn->addr + 4;
	uint32_t imm;

	switch (hw2 & 0xD000) {
	case 0x8000:
		if ((hw1 & 0x0380) == 0x0380) {
			t32_misc_ctrl(insn, hw1, hw2);
			return;
		}
		/* B<c>.W T3: S:J2:J1:imm6:imm11:'0' */
		imm = etm_bit(hw1, 10) << 20 | etm_bit(hw2, 11) << 19 |
		      etm_bit(hw2, 13) << 18 | etm_bits(hw1, 5, 0) << 12 |
		      etm_bits(hw2, 10, 0) << 1;
		insn->cond = 1;
		t32_direct(insn, pc, etm_sext(imm, 21));
		return;
	case 0x9000: /* B.W T4 */
	case 0xD000: /* BL */
		imm = t32_i1i2(hw1, hw2) | etm_bits(hw1, 9, 0) << 12 |
		      etm_bits(hw2, 10, 0) << 1;
		insn->link = (hw2 & 0xD000) == 0xD000;
		t32_direct(insn, pc, etm_sext(imm, 25));
		return;
	default: /* 0xC000: BLX imm, to A32 */
		if (hw2 & 1) {
			insn->cls = etmc_undefined; /* H = 1: UNDEFINED */
			return;
		}
		imm = t32_i1i2(hw1, hw2) | etm_bits(hw1, 9, 0) << 12 |
		      etm_bits(hw2, 10, 1) << 2;
		insn->link = 1;
		insn->target_isa = etmi_a32;
		t32_direct(insn, pc & ~3ull, etm_sext(imm, 25));
		insn->target &= ~3ull;
		return;
	}
}

/* Load/store multiple, table branch, RFE (hw1 = 1110 100x ...). */
static void t32_ldm(struct etm_insn *insn, uint32_t hw1, uint32_t hw2)
{
	uint32_t rn = hw1 & 0xF;

	switch (hw1 & 0xFFD0) {
	case 0xE890: /* LDM{IA}.W / POP.W */
	case 0xE910: /* LDMDB */
		if (hw2 & 0x8000)
			t32_indirect(insn, 0, rn == 13);
		return;
	case 0xE810: /* RFEDB */
	case 0xE990: /* RFEIA */
		t32_indirect(insn, 0, 0);
		insn->exc_return = 1;
		return;
	}
	/* TBB / TBH: 0xE8Dn, hw2 op[7:5] = 000 (LDREX* use other ops) */
	if ((hw1 & 0xFFF0) == 0xE8D0 && (hw2 & 0x00E0) == 0x0000)
		t32_indirect(insn, 0, 0);
}

/* LDR (word) with Rt = PC: T3 imm12, T4 imm8 / indexed, T2 register,
 * literal. */
static void t32_ldr(struct etm_insn *insn, uint32_t hw1, uint32_t hw2)
{
	if ((hw2 & 0xF000) != 0xF000)
		return;
	if ((hw1 & 0xFFF0) == 0xF8D0 || (hw1 & 0xFF7F) == 0xF85F) {
		t32_indirect(insn, 0, 0);
	} else if ((hw1 & 0xFFF0) == 0xF850) {
		if ((hw2 & 0x0800) || (hw2 & 0x0FC0) == 0)
			/* POP.W {pc} = LDR pc, [sp], #4 = F85D FB04 */
			t32_indirect(insn, 0, hw1 == 0xF85D && hw2 == 0xFB04);
	}
}

static void t32_classify32(struct etm_insn *insn, uint32_t hw1, uint32_t hw2)
{
	if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0x8000)) {
		t32_branch(insn, hw1, hw2);
	} else if ((hw1 & 0xFE00) == 0xE800) {
		t32_ldm(insn, hw1, hw2);
	} else if ((hw1 & 0xFF00) == 0xF800) {
		t32_ldr(insn, hw1, hw2);
	} else if (hw1 == 0xEE07) {
		/* CP15 barriers: MCR p15,0,Rt,c7,c5,4 / c7,c10,4 / c7,c10,5 */
		switch (hw2 & 0x0FFF) {
		case 0x0F95:
			t32_barrier(insn, etmc_isb);
			break;
		case 0x0F9A:
		case 0x0FBA:
			t32_barrier(insn, etmc_barrier);
			break;
		}
	}
}

void etm_t32_classify(struct etm_insn *insn)
{
	uint32_t op = insn->opcode;

	if (insn->size == 2)
		t16_classify(insn, op);
	else
		t32_classify32(insn, op >> 16, op & 0xFFFF);
}
