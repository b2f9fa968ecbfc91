/* tests/unit/test-ldst.c - the load/store classifier (etm_insn_ldst()) over
 * hand-encoded A32/T32 instructions: direction, transfer size and count
 * (encodings from the ARM ARM DDI 0406C, derivations inline; every opcode
 * disassembles to the instruction named in its comment with
 * arm-none-eabi-objdump -D -b binary -m arm [-M force-thumb]). */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "etest.h"

#define A32 etmi_a32
#define T32 etmi_t32
#define NO etm_ldst_none
#define LD etm_ldst_load
#define ST etm_ldst_store
#define SW etm_ldst_swap

struct row {
	enum etm_isa isa;
	uint32_t op; /* A32 word; T32 hw1 (16-bit) or hw1<<16|hw2 */
	unsigned dir, size, count, excl;
};

static const struct row rows[] = {
	/* LDR r0,[r1]: cond 1110 010 P=1 U=1 B=0 W=0 L=1: word load */
	{ A32, 0xe5910000, LD, 4, 1, 0 },
	/* STRB r2,[r1,#4]: B=1 L=0 */
	{ A32, 0xe5c12004, ST, 1, 1, 0 },
	/* LDR r0,[r1,r2]: register offset (bit 25 = 1, bit 4 = 0) */
	{ A32, 0xe7910002, LD, 4, 1, 0 },
	/* media (bit 25 = 1, bit 4 = 1): UADD8 - no data */
	{ A32, 0xe6510f92, NO, 0, 0, 0 },
	/* LDRH r0,[r1]: 000 P=1 U=1 1 W=0 L=1, 1011 */
	{ A32, 0xe1d100b0, LD, 2, 1, 0 },
	/* LDRSB r0,[r1]: op2 bits 6:5 = 10, L=1 */
	{ A32, 0xe1d100d0, LD, 1, 1, 0 },
	/* LDRSH: op2 = 11, L=1 */
	{ A32, 0xe1d100f0, LD, 2, 1, 0 },
	/* LDRD r2,r3,[r0]: op2 = 10, L=0: two words */
	{ A32, 0xe1c020d0, LD, 4, 2, 0 },
	/* STRD: op2 = 11, L=0 */
	{ A32, 0xe1c020f0, ST, 4, 2, 0 },
	/* MUL r0,r1,r2 (0000 000, 1001): bits 6:5 = 00, not a load/store */
	{ A32, 0xe0000291, NO, 0, 0, 0 },
	/* STREX r0,r1,[r2]: 0001 1000 Rn Rd 1111 1001 Rt */
	{ A32, 0xe1820f91, ST, 4, 1, 1 },
	/* LDREX r0,[r1]: 0001 1001 */
	{ A32, 0xe1910f9f, LD, 4, 1, 0 },
	/* STREXD r0,r2,r3,[r1]: bits 22:21 = 01 -> two words */
	{ A32, 0xe1a10f92, ST, 4, 2, 1 },
	/* LDREXB: bits 22:20 = 101 */
	{ A32, 0xe1d10f9f, LD, 1, 1, 0 },
	/* STREXH: 110 */
	{ A32, 0xe1e10f92, ST, 2, 1, 1 },
	/* SWP r0,r2,[r1]: 0001 0 B=0 00, 0000 1001 */
	{ A32, 0xe1010092, SW, 4, 2, 0 },
	/* SWPB: B=1 */
	{ A32, 0xe1410092, SW, 1, 2, 0 },
	/* LDMIA r1,{r8-r11}: list 0x0f00 -> 4 */
	{ A32, 0xe8910f00, LD, 4, 4, 0 },
	/* PUSH {r4-r11,lr} = STMDB sp!: list 0x4ff0 -> 9 */
	{ A32, 0xe92d4ff0, ST, 4, 9, 0 },
	/* RFEIA sp!: cond 1111 100 P=0 U=1 0 W=1 1: two words loaded */
	{ A32, 0xf8bd0a00, LD, 4, 2, 0 },
	/* SRSDB sp!,#19: 1111 100 1 0 1 1 0: two words stored */
	{ A32, 0xf96d0513, ST, 4, 2, 0 },
	/* PLD [r0]: 1111 0101 U101: no data */
	{ A32, 0xf5d0f000, NO, 0, 0, 0 },
	/* VPUSH {d8,d9}: 110 P=1 U=0 D=0 W=1 L=0, cp 1011, imm8 4 words */
	{ A32, 0xed2d8b04, ST, 4, 4, 0 },
	/* VLDR d0,[r0]: P=1 W=0 L=1, cp 1011: 2 words */
	{ A32, 0xed900b00, LD, 4, 2, 0 },
	/* VLDR s0,[r0]: cp 1010: one word */
	{ A32, 0xed900a00, LD, 4, 1, 0 },
	/* MCRR p15,0,r0,r1,c2 (op 00100): not a load/store */
	{ A32, 0xec410f02, NO, 0, 0, 0 },
	/* LDC p14,c5,[r0]: coprocessor 14: count not known */
	{ A32, 0xed905e00, LD, 4, 0, 0 },
	/* B: no data */
	{ A32, 0xea000008, NO, 0, 0, 0 },
	/* T32 LDR r0,[pc,#4]: 01001 */
	{ T32, 0x4801, LD, 4, 1, 0 },
	/* T32 STRH r0,[r1,r2]: 0101 001 */
	{ T32, 0x5288, ST, 2, 1, 0 },
	/* T32 LDRSB r0,[r1,r2]: 0101 011 */
	{ T32, 0x5688, LD, 1, 1, 0 },
	/* T32 LDRB r0,[r1]: 0111 1 */
	{ T32, 0x7808, LD, 1, 1, 0 },
	/* T32 STR r0,[r1]: 0110 0 */
	{ T32, 0x6008, ST, 4, 1, 0 },
	/* T32 LDRH r0,[r1]: 1000 1 */
	{ T32, 0x8808, LD, 2, 1, 0 },
	/* T32 STR r0,[sp,#4]: 1001 0 */
	{ T32, 0x9001, ST, 4, 1, 0 },
	/* T32 PUSH {r4,r5,lr}: 1011 010 M=1, list 0x30 -> 3 */
	{ T32, 0xb530, ST, 4, 3, 0 },
	/* T32 POP {r4,pc}: 1011 110 P=1, list 0x10 -> 2 */
	{ T32, 0xbd10, LD, 4, 2, 0 },
	/* T32 STMIA r1!,{r0-r3}: 1100 0 -> 4 */
	{ T32, 0xc10f, ST, 4, 4, 0 },
	/* T32 ADDS r0,#1: no data */
	{ T32, 0x3001, NO, 0, 0, 0 },
	/* T32 LDMIA.W r0,{r1,r2,r3}: 1110 1000 1001 0000, list 0x000e */
	{ T32, 0xe890000e, LD, 4, 3, 0 },
	/* T32 STMDB sp!,{r4-r11,lr} (PUSH.W): op 10, list 0x4ff0 -> 9 */
	{ T32, 0xe92d4ff0, ST, 4, 9, 0 },
	/* T32 LDRD r0,r1,[r2]: 1110 1001 1101 */
	{ T32, 0xe9d20100, LD, 4, 2, 0 },
	/* T32 STREX r0,r1,[r2]: 1110 1000 0100 Rn, Rt Rd imm8 */
	{ T32, 0xe8421000, ST, 4, 1, 1 },
	/* T32 LDREX r0,[r1]: 1110 1000 0101 */
	{ T32, 0xe8510f00, LD, 4, 1, 0 },
	/* T32 TBB [r0,r1]: 1110 1000 1101, op3 0000: reads a byte */
	{ T32, 0xe8d0f001, LD, 1, 1, 0 },
	/* T32 STREXB r0,r1,[r2]: 1110 1000 1100, op3 0100 */
	{ T32, 0xe8c21f40, ST, 1, 1, 1 },
	/* T32 LDR.W r0,[r1,#8]: 1111 1000 1101 (size 10, L=1) */
	{ T32, 0xf8d10008, LD, 4, 1, 0 },
	/* T32 STRH.W r0,[r1,#2]: 1111 1000 1010 */
	{ T32, 0xf8a10002, ST, 2, 1, 0 },
	/* T32 LDRSB.W r0,[r1,#1]: 1111 1001 1001 */
	{ T32, 0xf9910001, LD, 1, 1, 0 },
	/* T32 PLD [r0,#0]: 1111 1000 1001 0000, Rt = 1111: no data */
	{ T32, 0xf890f000, NO, 0, 0, 0 },
	/* T32 VPUSH {d8}: 1110 1101 0010 1101, 1000 1011 0000 0010 */
	{ T32, 0xed2d8b02, ST, 4, 2, 0 },
	/* T32 BL: no data */
	{ T32, 0xf000f800, NO, 0, 0, 0 },
};

static void table(void)
{
	struct etm_insn in;
	struct etm_ldst ls;
	uint8_t b[4];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		size_t n = 4;
		int got;

		if (r->isa == A32 || r->op > 0xffff) {
			uint32_t w = r->isa == A32 ? r->op : (r->op >> 16 | r->op << 16);

			b[0] = (uint8_t)w;
			b[1] = (uint8_t)(w >> 8);
			b[2] = (uint8_t)(w >> 16);
			b[3] = (uint8_t)(w >> 24);
		} else {
			b[0] = (uint8_t)r->op;
			b[1] = (uint8_t)(r->op >> 8);
			n = 2;
		}
		ET_CHECK(etm_insn_decode(&in, r->isa, 0x1000, b, n) > 0);
		got = etm_insn_ldst(&in, &ls);
		if (ls.dir != r->dir || ls.size != r->size ||
		    ls.count != r->count || ls.excl != r->excl)
			printf("row %zu (0x%08x): dir %u size %u count %u excl %u\n", i,
			       r->op, ls.dir, ls.size, ls.count, ls.excl);
		ET_EQ(got, r->dir != NO);
		ET_EQ(ls.dir, r->dir);
		ET_EQ(ls.size, r->size);
		ET_EQ(ls.count, r->count);
		ET_EQ(ls.excl, r->excl);
	}
}

static void bad_args(void)
{
	struct etm_insn in;
	struct etm_ldst ls;

	memset(&in, 0, sizeof(in));
	ET_EQ(etm_insn_ldst(NULL, &ls), -etme_invalid);
	ET_EQ(etm_insn_ldst(&in, NULL), -etme_invalid);
	in.isa = etmi_jazelle;
	ET_EQ(etm_insn_ldst(&in, &ls), 0);
}

int main(void)
{
	ETEST(table);
	ETEST(bad_args);
	return etest_end();
}
