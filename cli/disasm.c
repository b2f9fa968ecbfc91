/* cli/disasm.c - instruction text for the decode listing, via capstone
 * (Debian libcapstone-dev) when available. */
#include <stdio.h>
#include <stdlib.h>

#include "disasm.h"

#ifdef ETM_HAVE_CAPSTONE
#include <capstone/capstone.h>

struct disasm {
	csh arm, thumb;
	int ok_arm, ok_thumb;
	cs_insn *insn;
};

struct disasm *disasm_open(void)
{
	struct disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->ok_arm = cs_open(CS_ARCH_ARM, CS_MODE_ARM, &d->arm) == CS_ERR_OK;
	d->ok_thumb = cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &d->thumb) == CS_ERR_OK;
	if (d->ok_arm)
		d->insn = cs_malloc(d->arm);
	return d;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	if (d->insn)
		cs_free(d->insn, 1);
	if (d->ok_arm)
		cs_close(&d->arm);
	if (d->ok_thumb)
		cs_close(&d->thumb);
	free(d);
}

void disasm_insn(struct disasm *d, const struct etm_insn *in, char *buf, size_t n)
{
	uint8_t b[4];
	const uint8_t *p = b;
	size_t sz = in->size;
	uint64_t addr = in->addr;
	int thumb = in->isa != etmi_a32;

	if (thumb && in->size == 4) {
		b[0] = (uint8_t)(in->opcode >> 16);
		b[1] = (uint8_t)(in->opcode >> 24);
		b[2] = (uint8_t)in->opcode;
		b[3] = (uint8_t)(in->opcode >> 8);
	} else {
		b[0] = (uint8_t)in->opcode;
		b[1] = (uint8_t)(in->opcode >> 8);
		b[2] = (uint8_t)(in->opcode >> 16);
		b[3] = (uint8_t)(in->opcode >> 24);
	}
	if (d && d->insn && ((thumb && d->ok_thumb) || (!thumb && d->ok_arm)) &&
	    cs_disasm_iter(thumb ? d->thumb : d->arm, &p, &sz, &addr, d->insn)) {
		snprintf(buf, n, "%s %s", d->insn->mnemonic, d->insn->op_str);
		return;
	}
	snprintf(buf, n, "(%s)", etm_insn_class_name(in->cls));
}
#else
struct disasm {
	int unused;
};

struct disasm *disasm_open(void)
{
	return NULL;
}

void disasm_close(struct disasm *d)
{
	(void)d;
}

void disasm_insn(struct disasm *d, const struct etm_insn *in, char *buf, size_t n)
{
	(void)d;
	snprintf(buf, n, "(%s)", etm_insn_class_name(in->cls));
}
#endif
