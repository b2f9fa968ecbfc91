/* image/ldst.c - which A32/T32 instructions transfer data and how many
 * transfers of which size (for ETMv3 data trace, doc/datatrace.md). The
 * encodings: ARM ARM (DDI 0406C) A5.3 (A32 load/store word and byte),
 * A5.2.8 (extra load/store), A5.2.10 (synchronization primitives), A5.5
 * (load/store multiple), A6.2.4 / A6.3.5-A6.3.10 (T32), A7.6 (extension
 * register load/store). */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "common/bits.h"

static int ls_set(struct etm_ldst *ls, unsigned dir, unsigned size,
		  unsigned count)
{
	ls->dir = (uint8_t)dir;
	ls->size = (uint8_t)size;
	ls->count = (uint8_t)count;
	return 1;
}

static unsigned popc(uint32_t v)
{
	return (unsigned)__builtin_popcount(v);
}

static unsigned ld_st(uint32_t l)
{
	return l ? etm_ldst_load : etm_ldst_store;
}

/* Coprocessor load/store (LDC/STC, VLDR/VSTR/VLDM/VSTM/VPUSH/VPOP): @op
 * = P U D W L (A32 bits 24:20), @cp = coprocessor, @imm8 = offset or
 * word count. */
static int ls_copro(struct etm_ldst *ls, uint32_t op, uint32_t cp,
		    uint32_t imm8)
{
	if ((op & 0x1a) == 0) /* P=0 U=0 W=0: MCRR/MRRC or undefined */
		return 0;
	if (cp != 10 && cp != 11)
		return ls_set(ls, ld_st(op & 1), 4, 0);
	if ((op & 0x12) == 0x10) /* P=1 W=0: VLDR/VSTR */
		return ls_set(ls, ld_st(op & 1), 4, cp == 11 ? 2 : 1);
	return ls_set(ls, ld_st(op & 1), 4, imm8); /* words */
}

/* A32 cond == 1111: RFE, SRS; PLD/PLI and the rest move no data. */
static int a32_uncond(uint32_t i, struct etm_ldst *ls)
{
	if ((i & 0xfe500000) == 0xf8100000)
		return ls_set(ls, etm_ldst_load, 4, 2); /* RFE */
	if ((i & 0xfe500000) == 0xf8400000)
		return ls_set(ls, etm_ldst_store, 4, 2); /* SRS */
	if ((i & 0x0e000000) == 0x0c000000)              /* LDC2/STC2 */
		return ls_copro(ls, etm_bits(i, 24, 20), etm_bits(i, 11, 8),
				i & 0xff);
	return 0;
}

/* A32 bits[27:25] == 000: extra load/store, synchronization primitives. */
static int a32_extra(uint32_t i, struct etm_ldst *ls)
{
	uint32_t l = etm_bit(i, 20), op2 = etm_bits(i, 6, 5);
	static const uint8_t xsz[4] = { 4, 4, 1, 2 }; /* STREX, D, B, H */

	if ((i & 0x0fb00ff0) == 0x01000090) /* SWP / SWPB */
		return ls_set(ls, etm_ldst_swap, etm_bit(i, 22) ? 1 : 4, 2);
	if ((i & 0x0f8000f0) == 0x01800090) { /* LDREX/STREX family */
		uint32_t op = etm_bits(i, 22, 21);

		ls->excl = (uint8_t)!l;
		return ls_set(ls, ld_st(l), xsz[op], op == 1 ? 2 : 1);
	}
	if ((i & 0x90) != 0x90 || !op2)
		return 0;
	if (op2 == 1)
		return ls_set(ls, ld_st(l), 2, 1); /* STRH / LDRH */
	if (!l)                                    /* LDRD (10) / STRD (11) */
		return ls_set(ls, op2 == 2 ? etm_ldst_load : etm_ldst_store,
			      4, 2);
	return ls_set(ls, etm_ldst_load, op2 == 2 ? 1 : 2, 1); /* LDRSB/SH */
}

static int a32_ldst(uint32_t i, struct etm_ldst *ls)
{
	if ((i >> 28) == 0xf)
		return a32_uncond(i, ls);
	switch (etm_bits(i, 27, 25)) {
	case 0:
		return a32_extra(i, ls);
	case 2:
		return ls_set(ls, ld_st(etm_bit(i, 20)), etm_bit(i, 22) ? 1 : 4,
			      1);
	case 3:
		if (etm_bit(i, 4))
			return 0; /* media instructions */
		return ls_set(ls, ld_st(etm_bit(i, 20)), etm_bit(i, 22) ? 1 : 4,
			      1);
	case 4:
		return ls_set(ls, ld_st(etm_bit(i, 20)), 4,
			      popc(i & 0xffff));
	case 6:
		return ls_copro(ls, etm_bits(i, 24, 20), etm_bits(i, 11, 8),
				i & 0xff);
	default:
		return 0;
	}
}

static int t16_ldst(uint32_t h, struct etm_ldst *ls)
{
	static const uint8_t rsz[8] = { 4, 2, 1, 1, 4, 2, 1, 2 };
	uint32_t op;

	if ((h & 0xf800) == 0x4800)
		return ls_set(ls, etm_ldst_load, 4, 1); /* LDR literal */
	if ((h & 0xf000) == 0x5000) {
		op = etm_bits(h, 11, 9);
		return ls_set(ls, op >= 3 ? etm_ldst_load : etm_ldst_store,
			      rsz[op], 1);
	}
	if ((h & 0xe000) == 0x6000) /* STR/LDR{B} imm */
		return ls_set(ls, ld_st(etm_bit(h, 11)), etm_bit(h, 12) ? 1 : 4,
			      1);
	if ((h & 0xf000) == 0x8000)
		return ls_set(ls, ld_st(etm_bit(h, 11)), 2, 1);
	if ((h & 0xf000) == 0x9000)
		return ls_set(ls, ld_st(etm_bit(h, 11)), 4, 1);
	if ((h & 0xfe00) == 0xb400) /* PUSH {list, LR} */
		return ls_set(ls, etm_ldst_store, 4, popc(h & 0x1ff));
	if ((h & 0xfe00) == 0xbc00) /* POP {list, PC} */
		return ls_set(ls, etm_ldst_load, 4, popc(h & 0x1ff));
	if ((h & 0xf000) == 0xc000)
		return ls_set(ls, ld_st(etm_bit(h, 11)), 4, popc(h & 0xff));
	return 0;
}

/* T32 1110100x x1xx: load/store dual, exclusive, table branch. */
static int t32_dual(uint32_t h1, uint32_t h2, struct etm_ldst *ls)
{
	uint32_t op1 = etm_bits(h1, 8, 7), op2 = etm_bits(h1, 5, 4);
	uint32_t l = etm_bit(h1, 4), op3 = etm_bits(h2, 7, 4);

	if (op1 == 0 && op2 < 2) { /* STREX / LDREX */
		ls->excl = (uint8_t)!l;
		return ls_set(ls, ld_st(l), 4, 1);
	}
	if ((op1 & 2) || (op2 & 2)) /* LDRD / STRD */
		return ls_set(ls, ld_st(l), 4, 2);
	if (op2 == 1 && op3 < 2) /* TBB / TBH: reads the table */
		return ls_set(ls, etm_ldst_load, op3 ? 2 : 1, 1);
	if (op3 == 4 || op3 == 5 || op3 == 7) {
		ls->excl = (uint8_t)!l;
		return ls_set(ls, ld_st(l), op3 == 4 ? 1 : op3 == 5 ? 2 :
								      4,
			      op3 == 7 ? 2 : 1);
	}
	return 0;
}

static int t32_ldst(uint32_t op, struct etm_ldst *ls)
{
	uint32_t h1 = op >> 16, h2 = op & 0xffff, sz;

	if ((h1 & 0xfe40) == 0xe800) { /* load/store multiple, RFE/SRS */
		if (etm_bits(h1, 8, 7) == 1 || etm_bits(h1, 8, 7) == 2)
			return ls_set(ls, ld_st(etm_bit(h1, 4)), 4, popc(h2));
		return ls_set(ls, ld_st(etm_bit(h1, 4)), 4, 2);
	}
	if ((h1 & 0xfe40) == 0xe840)
		return t32_dual(h1, h2, ls);
	if ((h1 & 0xfe00) == 0xf800) { /* load/store single */
		sz = etm_bits(h1, 6, 5);
		if (sz == 3)
			return 0;
		if (etm_bit(h1, 4) && sz < 2 && (h2 & 0xf000) == 0xf000)
			return 0; /* PLD / PLI / unallocated hints */
		if (!etm_bit(h1, 4) && etm_bit(h1, 8))
			return 0;
		return ls_set(ls, ld_st(etm_bit(h1, 4)), 1u << sz, 1);
	}
	if ((h1 & 0xee00) == 0xec00) /* coprocessor / extension registers */
		return ls_copro(ls, etm_bits(h1, 8, 4), etm_bits(h2, 11, 8),
				h2 & 0xff);
	return 0;
}

int etm_insn_ldst(const struct etm_insn *insn, struct etm_ldst *ls)
{
	if (!insn || !ls)
		return -etme_invalid;
	memset(ls, 0, sizeof(*ls));
	if (insn->cls == etmc_undefined)
		return 0;
	if (insn->isa == etmi_a32)
		return a32_ldst(insn->opcode, ls);
	if (insn->isa != etmi_t32 && insn->isa != etmi_tee)
		return 0;
	if (insn->size == 2)
		return t16_ldst(insn->opcode, ls);
	return t32_ldst(insn->opcode, ls);
}
