/* tests/unit/test-isa.c - table-driven tests of the A32/T32 classifier over
 * hand-encoded instructions of every branch form (derivations inline). */
#include <string.h>

#include <etmtrace/config.h>
#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "etest.h"

/* Flags in a table row. */
#define L 0x01 /* link */
#define C 0x02 /* conditional */
#define X 0x04 /* exception return */
#define R 0x08 /* looks like a return */
#define I 0x10 /* IT instruction */

struct row {
	enum etm_isa isa;
	uint64_t addr;
	uint32_t op; /* A32 word; T32 hw1 (16-bit) or hw1<<16|hw2 */
	enum etm_insn_class cls;
	unsigned flags;
	uint64_t target; /* direct branches, ISB/barriers */
	enum etm_isa tisa;
};

#define A32 etmi_a32
#define T32 etmi_t32
#define TEE etmi_tee
#define OTH etmc_other
#define DIR etmc_br_direct
#define IND etmc_br_indirect
#define ISB etmc_isb
#define BAR etmc_barrier
#define EXC etmc_exc_gen
#define UND etmc_undefined

static const struct row a32_rows[] = {
	/* B: cond=1110 1010 imm24=8 -> 0x80000564+8+0x20 (doc §7) */
	{ A32, 0x80000564, 0xEA000008, DIR, 0, 0x8000058C, A32 },
	/* BL: imm24=0xFFFFE9 -> x4 = -0x5C; 0x80000560-0x5C (doc §7) */
	{ A32, 0x80000558, 0xEBFFFFE9, DIR, L, 0x80000504, A32 },
	/* BLX imm: 1111 101 H=0 imm24=0x2B -> +0xAC, to Thumb (doc §7) */
	{ A32, 0x80000214, 0xFA00002B, DIR, L, 0x800002C8, T32 },
	/* BLX imm H=1: 0xAC | 2 = 0xAE; 0x8000021C + 0xAE */
	{ A32, 0x80000214, 0xFB00002B, DIR, L, 0x800002CA, T32 },
	/* BNE: cond=0001 imm24=0 -> addr+8 */
	{ A32, 0x1000, 0x1A000000, DIR, C, 0x1008, A32 },
	/* B . : imm24=0xFFFFFE -> -8; 0x1008-8 */
	{ A32, 0x1000, 0xEAFFFFFE, DIR, 0, 0x1000, A32 },
	/* BLGT: cond=1100, imm24=0x000010 -> +0x40 */
	{ A32, 0x2000, 0xCB000010, DIR, L | C, 0x2048, A32 },
	/* BX lr: 0x012FFF1 Rm=14 */
	{ A32, 0, 0xE12FFF1E, IND, R, 0, 0 },
	/* BX r3 */
	{ A32, 0, 0xE12FFF13, IND, 0, 0, 0 },
	/* BLX r3: 0x012FFF3 Rm=3 */
	{ A32, 0, 0xE12FFF33, IND, L, 0, 0 },
	/* BXJ r0: 0x012FFF2 Rm=0 */
	{ A32, 0, 0xE12FFF20, IND, 0, 0, 0 },
	/* LDR pc, [sp], #4 (POP {pc}): 010 P=0 U=1 B=0 W=0 L=1 Rn=13 Rt=15 */
	{ A32, 0, 0xE49DF004, IND, R, 0, 0 },
	/* LDR pc, [pc, #-4]: 010 P=1 U=0 B=0 W=0 L=1 Rn=15 Rt=15 imm12=4 */
	{ A32, 0, 0xE51FF004, IND, 0, 0, 0 },
	/* LDR pc, [r0, r1, lsl #2]: 011 P=1 U=1 B=0 W=0 L=1 Rn=0 Rt=15
	 * imm5=2 type=00 0 Rm=1 */
	{ A32, 0, 0xE790F101, IND, 0, 0, 0 },
	/* LDRNE pc, [r2, #8]: cond=0001 */
	{ A32, 0, 0x1592F008, IND, C, 0, 0 },
	/* SADD16 pc, r0, r0 (media, 011 with bit4=1): not a load */
	{ A32, 0, 0xE610FF10, OTH, 0, 0, 0 },
	/* LDRB pc, [r0]: B=1, UNPREDICTABLE -> not a branch */
	{ A32, 0, 0xE5D0F000, OTH, 0, 0, 0 },
	/* POP {r4, pc} = LDMIA sp!, {r4,pc}: 100 P=0 U=1 S=0 W=1 L=1 Rn=13 */
	{ A32, 0, 0xE8BD8010, IND, R, 0, 0 },
	/* LDMIB r0, {pc}^: 100 P=1 U=1 S=1 W=0 L=1 Rn=0 list=pc */
	{ A32, 0, 0xE9D08000, IND, X, 0, 0 },
	/* LDMDB fp, {fp, sp, pc}: 100 P=1 U=0 S=0 W=0 L=1 Rn=11 0xA800 */
	{ A32, 0, 0xE91BA800, IND, R, 0, 0 },
	/* LDMIA r0, {r1, r2}: no pc */
	{ A32, 0, 0xE8900006, OTH, 0, 0, 0 },
	/* MOV pc, lr: 000 1101 S=0 Rd=15 Rm=14 */
	{ A32, 0, 0xE1A0F00E, IND, R, 0, 0 },
	/* MOVS pc, lr: S=1 -> exception return */
	{ A32, 0, 0xE1B0F00E, IND, X, 0, 0 },
	/* SUBS pc, lr, #4: 001 0010 S=1 Rn=14 Rd=15 imm12=4 */
	{ A32, 0, 0xE25EF004, IND, X, 0, 0 },
	/* ADD pc, pc, r0, lsl #2: 000 0100 S=0 Rn=15 Rd=15 imm5=2 Rm=0 */
	{ A32, 0, 0xE08FF100, IND, 0, 0, 0 },
	/* ADDLS pc, pc, #4 (immediate): cond=1001 001 0100 */
	{ A32, 0, 0x928FF004, IND, C, 0, 0 },
	/* ADD pc, r0, r1, lsl r2: register-shifted register, UNPREDICTABLE */
	{ A32, 0, 0xE080F211, OTH, 0, 0, 0 },
	/* TEQ with Rd field 1111 (op 1001 S=1): no destination */
	{ A32, 0, 0xE13FF000, OTH, 0, 0, 0 },
	/* MOVW pc, #0: op 1000 with I=1: PC destination UNPREDICTABLE */
	{ A32, 0, 0xE300F000, OTH, 0, 0, 0 },
	/* MUL pc, r0, r1: 0000 000 S=0 Rd=15 ... 1001 multiply space */
	{ A32, 0, 0xE00F0190, OTH, 0, 0, 0 },
	/* ERET: 0x0160006E */
	{ A32, 0, 0xE160006E, IND, X, 0, 0 },
	/* RFEIA sp!: 1111 100 P=0 U=1 0 W=1 1 Rn=13 0x0A00 */
	{ A32, 0, 0xF8BD0A00, IND, X, 0, 0 },
	/* SRSDB sp!, #19: 1111 100 P=1 U=0 1 W=1 0 1101 0x0513 */
	{ A32, 0, 0xF96D0513, OTH, 0, 0, 0 },
	/* ISB SY / DSB SY / DMB ISH: 0xF57FF06x / 4x / 5x */
	{ A32, 0x100, 0xF57FF06F, ISB, 0, 0x104, A32 },
	{ A32, 0x100, 0xF57FF04F, BAR, 0, 0x104, A32 },
	{ A32, 0x100, 0xF57FF05B, BAR, 0, 0x104, A32 },
	/* CLREX: 0xF57FF01F */
	{ A32, 0, 0xF57FF01F, OTH, 0, 0, 0 },
	/* MCR p15,0,r0,c7,c5,4: 1110 1110 opc1=000 0 CRn=7 Rt=0 cp=15
	 * opc2=100 1 CRm=5 -> CP15 ISB; c7,c10,4 DSB; c7,c10,5 DMB */
	{ A32, 0x100, 0xEE070F95, ISB, 0, 0x104, A32 },
	{ A32, 0x100, 0xEE075F9A, BAR, 0, 0x104, A32 },
	{ A32, 0x100, 0xEE070FBA, BAR, 0, 0x104, A32 },
	/* SVC #0, BKPT #0, SMC #0, HVC #0, UDF #0 */
	{ A32, 0, 0xEF000000, EXC, 0, 0, 0 },
	{ A32, 0, 0xE1200070, EXC, 0, 0, 0 },
	{ A32, 0, 0xE1600070, EXC, 0, 0, 0 },
	{ A32, 0, 0xE1400070, EXC, 0, 0, 0 },
	{ A32, 0, 0xE7F000F0, EXC, 0, 0, 0 },
	/* UDF space with cond NE: permanently undefined */
	{ A32, 0, 0x17F000F0, UND, C, 0, 0 },
	/* NOP, WFI, ADDEQ r0, r0, r0 */
	{ A32, 0, 0xE320F000, OTH, 0, 0, 0 },
	{ A32, 0, 0xE320F003, OTH, 0, 0, 0 },
	{ A32, 0, 0x00800000, OTH, C, 0, 0 },
};

static const struct row t32_rows[] = {
	/* BEQ T1: imm8=0xEA -> 9-bit 0x1D4 = -0x2C (doc §7) */
	{ T32, 0xC0021166, 0xD0EA, DIR, C, 0xC002113E, T32 },
	/* B T2: imm11=0x7D1 -> 12-bit 0xFA2 = -0x5E (doc §7) */
	{ T32, 0xC0018DE4, 0xE7D1, DIR, 0, 0xC0018D8A, T32 },
	/* CBZ r3: i=0 imm5=0x1E -> +0x3C (doc §7) */
	{ T32, 0xC0018D88, 0xB1F3, DIR, C, 0xC0018DC8, T32 },
	/* CBNZ r2: op=1 i=0 imm5=1 -> +2 (doc §7) */
	{ T32, 0xC0018D94, 0xB90A, DIR, C, 0xC0018D9A, T32 },
	/* CBNZ r0 with i=1 imm5=0x1F: 1011 1011 1111 1000 -> +0x7E */
	{ T32, 0x1000, 0xBBF8, DIR, C, 0x1082, T32 },
	/* BL: S=1 J1=J2=1 imm10=0x3FF imm11=0x7E5 -> -0x36 (doc §7) */
	{ T32, 0xC004F6A6, 0xF7FFFFE5, DIR, L, 0xC004F674, T32 },
	/* BL: S=0 J1=J2=1 -> I1=I2=0, +0x281172 (doc §7) */
	{ T32, 0xC0018DDA, 0xF281F8B9, DIR, L, 0xC0299F50, T32 },
	/* B.W T4: S=1 J1=J2=1 imm10=0x3CF imm11=0x535 (doc §7) */
	{ T32, 0xC003F2BA, 0xF7CFBD35, DIR, 0, 0xC000ED28, T32 },
	/* B.W T4: S=0 J1=J2=0 -> I1=I2=1: offset 0xC00000 */
	{ T32, 0, 0xF0009000, DIR, 0, 0xC00004, T32 },
	/* BNE.W T3: cond=0001 imm6=0 imm11=0x01C -> +0x38 (doc §7) */
	{ T32, 0xC000CD4A, 0xF040801C, DIR, C, 0xC000CD86, T32 },
	/* BEQ.W T3 -0x100: S=1 J2=1 J1=1 imm6=0x3F imm11=0x780:
	 * hw1 = 11110 1 0000 111111, hw2 = 10 1 0 1 0x780 */
	{ T32, 0x8000, 0xF43FAF80, DIR, C, 0x7F04, T32 },
	/* BLX imm: S=0 J1=J2=1 imm10H=0 imm10L=0x3FF -> Align(pc,4)+0xFFC,
	 * ARM (doc §7) */
	{ T32, 0xC0001002, 0xF000EFFE, DIR, L, 0xC0002000, A32 },
	/* BLX imm with H=1: UNDEFINED */
	{ T32, 0xC0001002, 0xF000EFFF, UND, 0, 0, 0 },
	/* BX lr 0x4770, BLX r3 = 0100 0111 1 0011 000, MOV pc, lr 0x46F7,
	 * ADD pc, r8 0x44C7 (doc §5) */
	{ T32, 0, 0x4770, IND, R, 0, 0 },
	{ T32, 0, 0x4798, IND, L, 0, 0 },
	{ T32, 0, 0x46F7, IND, R, 0, 0 },
	{ T32, 0, 0x44C7, IND, 0, 0, 0 },
	/* MOV r8, r1 (0100 0110 1 0001 000) and ADD r0, pc (0x4478): other */
	{ T32, 0, 0x4688, OTH, 0, 0, 0 },
	{ T32, 0, 0x4478, OTH, 0, 0, 0 },
	/* POP {r4, pc} 0xBD10; POP {r4} 0xBC10 */
	{ T32, 0, 0xBD10, IND, R, 0, 0 },
	{ T32, 0, 0xBC10, OTH, 0, 0, 0 },
	/* UDF #0, SVC #1, BKPT #0 */
	{ T32, 0, 0xDE00, EXC, 0, 0, 0 },
	{ T32, 0, 0xDF01, EXC, 0, 0, 0 },
	{ T32, 0, 0xBE00, EXC, 0, 0, 0 },
	/* IT EQ (firstcond 0000, mask 1000), NOP */
	{ T32, 0, 0xBF08, OTH, I, 0, 0 },
	{ T32, 0, 0xBF00, OTH, 0, 0, 0 },
	/* POP.W {r4, pc} = LDMIA.W sp!, {r4, pc}: E8BD 8010 */
	{ T32, 0, 0xE8BD8010, IND, R, 0, 0 },
	/* LDMDB r0, {r4, pc}: E910 8010 */
	{ T32, 0, 0xE9108010, IND, 0, 0, 0 },
	/* LDMIA.W r0, {r1, r2}: no pc */
	{ T32, 0, 0xE8900006, OTH, 0, 0, 0 },
	/* RFEIA sp! (doc §6.2), RFEDB r0 */
	{ T32, 0, 0xE9BDC000, IND, X, 0, 0 },
	{ T32, 0, 0xE810C000, IND, X, 0, 0 },
	/* TBB [r0, r1]: E8D0 F001; TBH [pc, r2, lsl #1]: E8DF F012 */
	{ T32, 0, 0xE8D0F001, IND, 0, 0, 0 },
	{ T32, 0, 0xE8DFF012, IND, 0, 0, 0 },
	/* LDREXB r1, [r0]: E8D0 1F4F (op 0100): other */
	{ T32, 0, 0xE8D01F4F, OTH, 0, 0, 0 },
	/* LDR.W pc, [r0, #4] (T3): F8D0 F004 */
	{ T32, 0, 0xF8D0F004, IND, 0, 0, 0 },
	/* LDR pc, [sp], #4 (T4, POP.W {pc}): F85D FB04 */
	{ T32, 0, 0xF85DFB04, IND, R, 0, 0 },
	/* LDR pc, [r0, r1, lsl #2] (T2): hw2 = 1111 000000 10 0001 */
	{ T32, 0, 0xF850F021, IND, 0, 0, 0 },
	/* LDR pc, [pc, #8] (literal, U=1): F8DF F008; U=0: F85F F008 */
	{ T32, 0, 0xF8DFF008, IND, 0, 0, 0 },
	{ T32, 0, 0xF85FF008, IND, 0, 0, 0 },
	/* LDR.W r0, [r1]: other; PLD [r1] (LDRB form with Rt=15): other */
	{ T32, 0, 0xF8D10000, OTH, 0, 0, 0 },
	{ T32, 0, 0xF891F000, OTH, 0, 0, 0 },
	/* SUBS pc, lr, #4: F3DE 8F04; ERET = SUBS pc, lr, #0 */
	{ T32, 0, 0xF3DE8F04, IND, X, 0, 0 },
	{ T32, 0, 0xF3DE8F00, IND, X, 0, 0 },
	/* BXJ r0: F3C0 8F00 */
	{ T32, 0, 0xF3C08F00, IND, 0, 0, 0 },
	/* ISB SY, DSB SY, DMB SY: F3BF 8F6F / 8F4F / 8F5F; CLREX 8F2F */
	{ T32, 0x200, 0xF3BF8F6F, ISB, 0, 0x204, T32 },
	{ T32, 0x200, 0xF3BF8F4F, BAR, 0, 0x204, T32 },
	{ T32, 0x200, 0xF3BF8F5F, BAR, 0, 0x204, T32 },
	{ T32, 0, 0xF3BF8F2F, OTH, 0, 0, 0 },
	/* ENTERX F3BF 8F1F -> ThumbEE at addr+4; LEAVEX F3BF 8F0F */
	{ T32, 0x300, 0xF3BF8F1F, DIR, 0, 0x304, TEE },
	{ TEE, 0x300, 0xF3BF8F0F, DIR, 0, 0x304, T32 },
	/* SMC #0: F7F0 8000; HVC #0: F7E0 8000; UDF.W #0: F7F0 A000 */
	{ T32, 0, 0xF7F08000, EXC, 0, 0, 0 },
	{ T32, 0, 0xF7E08000, EXC, 0, 0, 0 },
	{ T32, 0, 0xF7F0A000, EXC, 0, 0, 0 },
	/* MSR APSR_nzcvq, r0: F380 8800; MRS r0, APSR: F3EF 8000 */
	{ T32, 0, 0xF3808800, OTH, 0, 0, 0 },
	{ T32, 0, 0xF3EF8000, OTH, 0, 0, 0 },
	/* CP15 barriers: MCR T1 = EE07 + (Rt<<12 | 0F95 / 0F9A / 0FBA) */
	{ T32, 0x200, 0xEE070F95, ISB, 0, 0x204, T32 },
	{ T32, 0x200, 0xEE073F9A, BAR, 0, 0x204, T32 },
	{ T32, 0x200, 0xEE070FBA, BAR, 0, 0x204, T32 },
	/* ADD.W r0, r1, r2: EB01 0002 */
	{ T32, 0, 0xEB010002, OTH, 0, 0, 0 },
	/* ThumbEE: HBP 0xC0xx (no link), HBL 1100 0011 (link),
	 * HBLP 0xC4xx (link); in T32 0xC000 is STMIA: other */
	{ TEE, 0, 0xC005, IND, 0, 0, 0 },
	{ TEE, 0, 0xC312, IND, L, 0, 0 },
	{ TEE, 0, 0xC4A1, IND, L, 0, 0 },
	{ T32, 0, 0xC001, OTH, 0, 0, 0 },
	/* B T2 in ThumbEE stays in ThumbEE: imm11=2 -> +4 */
	{ TEE, 0x400, 0xE002, DIR, 0, 0x408, TEE },
};

static int to_bytes(const struct row *r, uint8_t b[4])
{
	uint32_t w = r->op;

	if (r->isa == A32 || r->op > 0xFFFF) {
		if (r->isa != A32) /* hw1 first, each halfword LE */
			w = (r->op >> 16) | (r->op << 16);
		b[0] = (uint8_t)w;
		b[1] = (uint8_t)(w >> 8);
		b[2] = (uint8_t)(w >> 16);
		b[3] = (uint8_t)(w >> 24);
		return 4;
	}
	b[0] = (uint8_t)w;
	b[1] = (uint8_t)(w >> 8);
	return 2;
}

static int check_row(const struct row *r)
{
	struct etm_insn in;
	uint8_t b[4];
	int size = to_bytes(r, b);
	int ok = 1;

	ok &= etm_insn_decode(&in, r->isa, r->addr, b, (size_t)size) == size;
	ok &= in.size == size && in.opcode == r->op && in.addr == r->addr;
	ok &= in.cls == r->cls;
	ok &= in.link == !!(r->flags & L) && in.cond == !!(r->flags & C);
	ok &= in.exc_return == !!(r->flags & X);
	ok &= in.is_return == !!(r->flags & R) && in.it == !!(r->flags & I);
	if (r->cls == DIR || r->cls == ISB || r->cls == BAR)
		ok &= in.target == r->target && in.target_isa == r->tisa;
	if (!ok)
		fprintf(stderr, "row %s %08x: cls %s link %u cond %u exc %u "
				"ret %u it %u target %llx/%d\n",
			etm_isa_name(r->isa),
			r->op, etm_insn_class_name(in.cls), in.link, in.cond,
			in.exc_return, in.is_return, in.it,
			(unsigned long long)in.target, in.target_isa);
	return ok;
}

static void a32_table(void)
{
	size_t i, bad = 0;

	for (i = 0; i < sizeof(a32_rows) / sizeof(a32_rows[0]); i++)
		bad += !check_row(&a32_rows[i]);
	ET_EQ(bad, 0);
}

static void t32_table(void)
{
	size_t i, bad = 0;

	for (i = 0; i < sizeof(t32_rows) / sizeof(t32_rows[0]); i++)
		bad += !check_row(&t32_rows[i]);
	ET_EQ(bad, 0);
}

static void short_input(void)
{
	static const uint8_t bl[4] = { 0xFF, 0xF7, 0xE5, 0xFF };
	struct etm_insn in;

	/* hw1 0xF7FF is 32-bit: 2 bytes are not enough */
	ET_EQ(etm_insn_decode(&in, T32, 0, bl, 2), -etme_again);
	ET_EQ(etm_insn_decode(&in, T32, 0, bl, 1), -etme_again);
	ET_EQ(etm_insn_decode(&in, A32, 0, bl, 3), -etme_again);
	ET_EQ(etm_insn_decode(&in, etmi_jazelle, 0, bl, 4), -etme_invalid);
	ET_EQ(etm_insn_decode(&in, etmi_unknown, 0, bl, 4), -etme_invalid);
	ET_EQ(etm_insn_decode(NULL, T32, 0, bl, 4), -etme_invalid);
	ET_EQ(etm_insn_decode(&in, T32, 0, NULL, 4), -etme_invalid);
	/* a 16-bit instruction (BX lr) needs only 2 bytes */
	ET_EQ(etm_insn_decode(&in, T32, 0, (const uint8_t *)"\x70\x47", 2), 2);
	ET_EQ(in.cls, IND);
}

/* Random encodings: sizes follow the T32 size rule (hw1[15:11] >= 11101
 * is 32-bit), classes are in range, direct targets have a target ISA and
 * are halfword (T32) / word (A32 from an aligned address) aligned. */
static void random_words(void)
{
	uint32_t seed = 7;
	int k, bad = 0;

	for (k = 0; k < 300000; k++) {
		static const enum etm_isa isas[3] = { A32, T32, TEE };
		enum etm_isa isa = isas[k % 3];
		struct etm_insn in;
		uint8_t b[4];
		int sz, want;

		seed = seed * 1103515245 + 12345;
		b[0] = (uint8_t)(seed >> 24);
		b[1] = (uint8_t)(seed >> 16);
		seed = seed * 1103515245 + 12345;
		b[2] = (uint8_t)(seed >> 24);
		b[3] = (uint8_t)(seed >> 16);
		want = isa == A32 || (b[1] & 0xF8) >= 0xE8 ? 4 : 2;
		sz = etm_insn_decode(&in, isa, 0x10000, b, 4);
		bad += sz != want || in.size != want;
		bad += in.cls < OTH || in.cls > UND;
		bad += in.link > 1 || in.cond > 1 || in.exc_return > 1 ||
		       in.is_return > 1 || in.it > 1;
		if (in.cls == DIR) {
			bad += in.target_isa == etmi_unknown;
			bad += (in.target & 1) != 0;
			if (in.target_isa == A32)
				bad += (in.target & 3) != 0;
		}
		if (want == 4 && isa != A32)
			bad += etm_insn_decode(&in, isa, 0, b, 3) !=
			       -etme_again;
	}
	ET_EQ(bad, 0);
}

static void waypoints(void)
{
	struct etm_config ptm, ptm_dmb, etm3;
	struct etm_insn isb = { .cls = ISB }, dmb = { .cls = BAR };
	struct etm_insn b = { .cls = DIR }, bx = { .cls = IND };
	struct etm_insn svc = { .cls = EXC }, add = { .cls = OTH };

	etm_config_init(&ptm);
	ptm.protocol = etm_proto_ptm;
	ptm_dmb = ptm;
	ptm_dmb.etmccer = 1u << 24;
	etm_config_init(&etm3);
	etm3.protocol = etm_proto_etmv3;
	ET_EQ(etm_insn_is_waypoint(&b, &ptm), 1);
	ET_EQ(etm_insn_is_waypoint(&bx, &ptm), 1);
	ET_EQ(etm_insn_is_waypoint(&isb, &ptm), 1);
	ET_EQ(etm_insn_is_waypoint(&dmb, &ptm), 0);
	ET_EQ(etm_insn_is_waypoint(&dmb, &ptm_dmb), 1);
	ET_EQ(etm_insn_is_waypoint(&svc, &ptm), 0);
	ET_EQ(etm_insn_is_waypoint(&add, &ptm), 0);
	ET_EQ(etm_insn_is_waypoint(&b, &etm3), 1);
	ET_EQ(etm_insn_is_waypoint(&isb, &etm3), 0);
	ET_EQ(etm_insn_is_waypoint(NULL, &ptm), 0);
}

static void names(void)
{
	ET_CHECK(!strcmp(etm_insn_class_name(DIR), "branch"));
	ET_CHECK(!strcmp(etm_insn_class_name(IND), "ibranch"));
	ET_CHECK(!strcmp(etm_insn_class_name(ISB), "isb"));
	ET_CHECK(!strcmp(etm_insn_class_name((enum etm_insn_class)99),
			 "unknown"));
}

int main(void)
{
	ETEST(a32_table);
	ETEST(t32_table);
	ETEST(short_input);
	ETEST(random_words);
	ETEST(waypoints);
	ETEST(names);
	return etest_end();
}
