/* tests/unit/test-isa_objdump.c - cross-check of the A32/T32 classifier
 * against capstone on real code (TC2 kernel, trace_cov_a15). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "etest.h"

#ifdef ETM_HAVE_CAPSTONE
#include <capstone/capstone.h>

struct xcheck {
	long decoded; /* positions capstone decodes */
	long invalid; /* positions capstone rejects (skipped) */
	long agree;   /* same size and same branch / not-branch verdict */
	long size_diff;
	long br_diff;
	long unpred; /* capstone PC write in an UNPREDICTABLE form */
	long direct; /* direct branches whose target was compared */
	long tgt_diff;
	long exc; /* exception-generating instructions compared */
	long exc_diff;
	long bar; /* ISB / DSB / DMB (incl. CP15 forms) */
	long bar_diff;
};

static int load(const char *rel, uint8_t **buf, size_t *n)
{
	char path[512];
	const char *p = etest_shared(rel, path, sizeof(path));
	FILE *f;
	long len;

	if (!p || !(f = fopen(p, "rb")))
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	*buf = malloc((size_t)len + 4);
	*n = fread(*buf, 1, (size_t)len, f);
	memset(*buf + *n, 0, 4);
	fclose(f);
	return 0;
}

static int cs_writes_pc(csh h, const cs_insn *ci)
{
	cs_regs rd, wr;
	uint8_t nr, nw, i;

	if (cs_regs_access(h, ci, rd, &nr, wr, &nw) != CS_ERR_OK)
		return 0;
	for (i = 0; i < nw; i++)
		if (wr[i] == ARM_REG_PC)
			return 1;
	return 0;
}

/* Instructions that may legally write the PC as a destination register
 * (ARM ARM: for every other instruction Rd/Rt = PC is UNPREDICTABLE:
 * byte/halfword/dual loads, MOVW/MOVT, MRS, multiplies, media ops). */
static int cs_pc_capable(unsigned id)
{
	switch (id) {
	case ARM_INS_MOV:
	case ARM_INS_MVN:
	case ARM_INS_ADD:
	case ARM_INS_ADC:
	case ARM_INS_SUB:
	case ARM_INS_SBC:
	case ARM_INS_RSB:
	case ARM_INS_RSC:
	case ARM_INS_AND:
	case ARM_INS_ORR:
	case ARM_INS_EOR:
	case ARM_INS_BIC:
	case ARM_INS_LDR:
	case ARM_INS_LDM:
	case ARM_INS_LDMDA:
	case ARM_INS_LDMDB:
	case ARM_INS_LDMIB:
	case ARM_INS_POP:
	case ARM_INS_LSL:
	case ARM_INS_LSR:
	case ARM_INS_ASR:
	case ARM_INS_ROR:
	case ARM_INS_RRX:
		return 1;
	}
	return 0;
}

/* Capstone's verdict: 1 branch (writes the PC), 0 not, -1 a PC write in an
 * UNPREDICTABLE form (base writeback to PC, register-shifted register
 * operand, PC destination of an instruction that cannot write it). */
static int cs_branch(csh h, const cs_insn *ci)
{
	const cs_arm *arm = &ci->detail->arm;
	int i, dest_pc = 0;

	switch (ci->id) {
	case ARM_INS_RFEDA:
	case ARM_INS_RFEDB:
	case ARM_INS_RFEIA:
	case ARM_INS_RFEIB:
		return 1; /* capstone 4 omits PC from RFE's written regs */
	case ARM_INS_ERET:
		return 1; /* ... and does not put ERET in the IRET group */
	}
	if (cs_insn_group(h, ci, CS_GRP_JUMP) ||
	    cs_insn_group(h, ci, CS_GRP_CALL) ||
	    cs_insn_group(h, ci, CS_GRP_RET) ||
	    cs_insn_group(h, ci, CS_GRP_IRET))
		return 1;
	if (!cs_writes_pc(h, ci))
		return 0;
	if (!cs_pc_capable(ci->id))
		return -1;
	for (i = 0; i < arm->op_count; i++) {
		const cs_arm_op *op = &arm->operands[i];

		if (op->shift.type >= ARM_SFT_ASR_REG)
			return -1;
		if (arm->writeback && op->type == ARM_OP_MEM &&
		    op->mem.base == ARM_REG_PC)
			return -1;
		if (op->type == ARM_OP_REG && op->reg == ARM_REG_PC)
			dest_pc |= 1 << i;
	}
	if (ci->id >= ARM_INS_LDMDA && ci->id <= ARM_INS_LDMIB) {
		if (dest_pc & 1)
			return -1; /* LDM pc!, {...}: base is PC */
		return dest_pc ? 1 : 0;
	}
	if (ci->id == ARM_INS_POP)
		return dest_pc ? 1 : 0;
	return (dest_pc & 1) ? 1 : -1;
}

/* Exception-generating (SVC, BKPT, UDF, SMC, HVC) and barrier verdicts. */
static void xcheck_misc(csh h, const cs_insn *ci, const struct etm_insn *in,
			struct xcheck *x)
{
	int ce = cs_insn_group(h, ci, CS_GRP_INT) || ci->id == ARM_INS_SVC ||
		 ci->id == ARM_INS_UDF || ci->id == ARM_INS_BKPT ||
		 ci->id == ARM_INS_SMC || ci->id == ARM_INS_HVC;
	int oe = in->cls == etmc_exc_gen || in->cls == etmc_undefined;
	int cbar = ci->id == ARM_INS_ISB || ci->id == ARM_INS_DSB ||
		   ci->id == ARM_INS_DMB;
	int obar = in->cls == etmc_isb || in->cls == etmc_barrier;

	x->exc += ce;
	if (ce != oe) {
		x->exc_diff++;
		fprintf(stderr, "exc %08llx %08x cs=%d ours=%s: %s %s\n",
			(unsigned long long)in->addr, in->opcode, ce,
			etm_insn_class_name(in->cls), ci->mnemonic,
			ci->op_str);
	}
	x->bar += obar;
	/* the CP15 forms are MCR to capstone */
	if (cbar != obar && !(obar && ci->id == ARM_INS_MCR)) {
		x->bar_diff++;
		fprintf(stderr, "barrier %08llx %08x ours=%s: %s %s\n",
			(unsigned long long)in->addr, in->opcode,
			etm_insn_class_name(in->cls), ci->mnemonic,
			ci->op_str);
	}
}

static void xcheck_one(csh h, const cs_insn *ci, const struct etm_insn *in,
		       int sz, struct xcheck *x)
{
	const cs_arm *arm = &ci->detail->arm;
	int cb = cs_branch(h, ci);
	int ob = in->cls == etmc_br_direct || in->cls == etmc_br_indirect;

	x->decoded++;
	if (sz != (int)ci->size) {
		x->size_diff++;
		fprintf(stderr, "size %08llx %08x %s %s\n",
			(unsigned long long)in->addr, in->opcode,
			ci->mnemonic, ci->op_str);
		return;
	}
	xcheck_misc(h, ci, in, x);
	if (cb < 0) {
		x->unpred++;
		return;
	}
	if (cb != ob) {
		x->br_diff++;
		fprintf(stderr, "branch %08llx %08x cs=%d ours=%s: %s %s\n",
			(unsigned long long)in->addr, in->opcode, cb,
			etm_insn_class_name(in->cls), ci->mnemonic,
			ci->op_str);
		return;
	}
	x->agree++;
	if (in->cls == etmc_br_direct && arm->op_count &&
	    arm->operands[arm->op_count - 1].type == ARM_OP_IMM) {
		uint32_t t = (uint32_t)arm->operands[arm->op_count - 1].imm;

		x->direct++;
		if (t != (uint32_t)in->target) {
			x->tgt_diff++;
			fprintf(stderr, "target %08llx %s %s ours %08llx\n",
				(unsigned long long)in->addr, ci->mnemonic,
				ci->op_str, (unsigned long long)in->target);
		}
	}
}

/* Linear sweep of @buf at @base in @isa: at each position capstone decodes,
 * compare; where it does not, step by the minimum instruction size. */
static void sweep(const uint8_t *buf, size_t n, uint64_t base,
		  enum etm_isa isa, struct xcheck *x)
{
	csh h;
	cs_insn *ci;
	size_t off = 0;
	size_t step = isa == etmi_a32 ? 4 : 2;

	memset(x, 0, sizeof(*x));
	if (cs_open(CS_ARCH_ARM, isa == etmi_a32 ? CS_MODE_ARM : CS_MODE_THUMB,
		    &h) != CS_ERR_OK)
		return;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(h);
	while (off + step <= n) {
		const uint8_t *p = buf + off;
		size_t len = n - off < 4 ? n - off : 4;
		uint64_t a = base + off;
		struct etm_insn in;
		int sz = etm_insn_decode(&in, isa, a, p, len);

		if (!cs_disasm_iter(h, &p, &len, &a, ci)) {
			x->invalid++;
			off += step;
			continue;
		}
		xcheck_one(h, ci, &in, sz, x);
		off += ci->size;
	}
	cs_free(ci, 1);
	cs_close(&h);
}

static void report(const char *what, const struct xcheck *x)
{
	printf("  %s: %ld decoded (%ld rejected by capstone), %ld agree, "
	       "%ld size diffs, %ld branch diffs, %ld unpredictable PC "
	       "writes skipped, %ld/%ld direct targets differ, "
	       "%ld/%ld exception-generating differ, %ld/%ld barriers "
	       "differ\n",
	       what, x->decoded, x->invalid, x->agree,
	       x->size_diff, x->br_diff, x->unpred, x->tgt_diff, x->direct,
	       x->exc_diff, x->exc, x->bar_diff, x->bar);
}

/* TC2 Linux kernel (Thumb-2), loaded at 0xC0008000: linear Thumb sweep. */
static void kernel_thumb_sweep(void)
{
	struct xcheck x;
	uint8_t *buf;
	size_t n;

	if (load("snapshots/TC2/kernel_dump.bin", &buf, &n) < 0) {
		etest_skip("kernel_dump.bin not found");
		return;
	}
	sweep(buf, n, 0xC0008000, etmi_t32, &x);
	free(buf);
	report("TC2 kernel T32", &x);
	ET_CHECK(x.decoded > 100000);
	ET_EQ(x.size_diff, 0);
	ET_EQ(x.br_diff, 0);
	ET_EQ(x.tgt_diff, 0);
	ET_EQ(x.exc_diff, 0);
	ET_EQ(x.bar_diff, 0);
	ET_CHECK(x.direct > 5000);
}

/* The same bytes as A32 words: mostly not ARM code, so this exercises the
 * A32 classifier on arbitrary encodings. */
static void kernel_arm_words(void)
{
	struct xcheck x;
	uint8_t *buf;
	size_t n;

	if (load("snapshots/TC2/kernel_dump.bin", &buf, &n) < 0)
		return;
	sweep(buf, n, 0xC0008000, etmi_a32, &x);
	free(buf);
	report("TC2 kernel as A32 words", &x);
	ET_CHECK(x.decoded > 50000);
	ET_EQ(x.size_diff, 0);
	ET_EQ(x.br_diff, 0);
	ET_EQ(x.tgt_diff, 0);
	ET_EQ(x.exc_diff, 0);
	ET_EQ(x.bar_diff, 0);
}

/* trace_cov_a15 bare-metal program: ARM code at 0x80000000 (vectors) and
 * 0x80000278 (RO code). */
static void a15_arm_code(void)
{
	static const struct {
		const char *file;
		uint64_t addr;
	} dumps[] = {
		{ "snapshots/trace_cov_a15/mem_Cortex-A15_0_0_VECTORS.bin",
		  0x80000000 },
		{ "snapshots/trace_cov_a15/mem_Cortex-A15_0_1_RO_CODE.bin",
		  0x80000278 },
	};
	struct xcheck x;
	size_t i, n;
	uint8_t *buf;

	for (i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		if (load(dumps[i].file, &buf, &n) < 0)
			return;
		sweep(buf, n, dumps[i].addr, etmi_a32, &x);
		free(buf);
		report(dumps[i].file + 24, &x);
		ET_EQ(x.size_diff, 0);
		ET_EQ(x.br_diff, 0);
		ET_EQ(x.tgt_diff, 0);
		ET_EQ(x.exc_diff, 0);
		ET_EQ(x.bar_diff, 0);
	}
}

int main(void)
{
	ETEST(kernel_thumb_sweep);
	ETEST(kernel_arm_words);
	ETEST(a15_arm_code);
	return etest_end();
}

#else

int main(void)
{
	etest_skip("capstone not available");
	return etest_end();
}

#endif
