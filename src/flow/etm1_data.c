/* flow/etm1_data.c - how many data value bytes an ETMv1 load/store puts in
 * the trace (IHI 0014Q §5.4 Table 5.2: 1 byte, 2 halfword, 4 word, 4 per
 * register of a load/store multiple), from the ARMv4T/v5 encodings. */
#include "flow/etm1_int.h"

static int e1_bits4(uint32_t op)
{
	op = op - ((op >> 1) & 0x5555u);
	op = (op & 0x3333u) + ((op >> 2) & 0x3333u);
	op = (op + (op >> 4)) & 0x0f0fu;
	return (int)((op + (op >> 8)) & 0x1fu);
}

static int e1_a32(uint32_t op)
{
	if ((op >> 28) == 0xf)
		return 0; /* unconditional space */
	switch (op >> 25 & 7) {
	case 2:
		return op & (1u << 22) ? 1 : 4; /* LDR/STR(B) imm */
	case 3:
		if (op & 0x10)
			return 0;               /* media / undefined */
		return op & (1u << 22) ? 1 : 4; /* LDR/STR(B) register */
	case 4:
		return 4 * e1_bits4(op & 0xffff); /* LDM/STM */
	case 6:
		return -1; /* LDC/STC: count unknown */
	case 0:
		if ((op & 0x90) != 0x90)
			return 0;
		if ((op & 0x60) == 0) /* SWP(B) or multiply */
			return (op & 0x0fb00ff0u) == 0x01000090u ? -1 : 0;
		if ((op & 0x60) == 0x20)
			return 2; /* LDRH/STRH */
		if (op & (1u << 20))
			return (op & 0x60) == 0x40 ? 1 : 2; /* LDRSB/LDRSH */
		return -1;                                  /* LDRD/STRD: doc/etmv1.md */
	default:
		return 0;
	}
}

static int e1_t16(uint32_t op)
{
	static const int8_t reg[8] = { 4, 2, 1, 1, 4, 2, 1, 2 };

	if ((op & 0xf000) == 0x5000)
		return reg[op >> 9 & 7]; /* register offset */
	if ((op & 0xe000) == 0x6000)
		return op & 0x1000 ? 1 : 4; /* LDR/STR(B) imm */
	if ((op & 0xf000) == 0x8000)
		return 2; /* LDRH/STRH imm */
	if ((op & 0xf000) == 0x9000 || (op & 0xf800) == 0x4800)
		return 4;            /* SP-relative, literal */
	if ((op & 0xf600) == 0xb400) /* PUSH / POP */
		return 4 * (e1_bits4(op & 0xff) + (int)(op >> 8 & 1));
	if ((op & 0xf000) == 0xc000)
		return 4 * e1_bits4(op & 0xff); /* LDMIA/STMIA */
	return 0;
}

/* 32-bit T32 (not in ARMv4T/v5 cores, but the classifier knows them):
 * single loads/stores by their size field, LDM/STM by their list; the
 * exclusive and dual forms are of unknown count. */
static int e1_t32(uint32_t op)
{
	uint32_t hw1 = op >> 16;

	if ((hw1 & 0xfe00) == 0xf800)
		return (hw1 >> 5 & 3) == 0 ? 1 : (hw1 >> 5 & 3) == 1 ? 2 :
								       4;
	if ((hw1 & 0xfe40) == 0xe800)
		return 4 * e1_bits4(op & 0xffff);
	if ((hw1 & 0xfe40) == 0xe840)
		return -1;
	return 0;
}

int etm_e1_data_bytes(const struct etm_insn *in)
{
	if (in->isa == etmi_a32)
		return e1_a32(in->opcode);
	if (in->isa == etmi_t32)
		return in->size == 2 ? e1_t16(in->opcode) : e1_t32(in->opcode);
	return -1;
}
