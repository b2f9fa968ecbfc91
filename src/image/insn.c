/* image/insn.c - instruction classification entry point: fetch the opcode
 * from memory bytes, dispatch per ISA; waypoint test and class names. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "common/bits.h"
#include "image/image_int.h"

int etm_insn_decode(struct etm_insn *insn, enum etm_isa isa, uint64_t addr,
		    const uint8_t *bytes, size_t n)
{
	uint32_t hw1;

	if (!insn || !bytes)
		return -etme_invalid;
	if (isa != etmi_a32 && isa != etmi_t32 && isa != etmi_tee)
		return -etme_invalid;
	if (n < (isa == etmi_a32 ? 4u : 2u))
		return -etme_again;
	memset(insn, 0, sizeof(*insn));
	insn->addr = addr;
	insn->isa = isa;
	insn->cls = etmc_other;
	insn->target_isa = etmi_unknown;
	if (isa == etmi_a32) {
		insn->size = 4;
		insn->opcode = etm_le32(bytes);
		etm_a32_classify(insn);
		return 4;
	}
	hw1 = etm_le16(bytes);
	if (etm_t32_size(hw1) == 4) {
		if (n < 4)
			return -etme_again;
		insn->size = 4;
		insn->opcode = hw1 << 16 | etm_le16(bytes + 2);
	} else {
		insn->size = 2;
		insn->opcode = hw1;
	}
	etm_t32_classify(insn);
	return insn->size;
}

int etm_insn_is_waypoint(const struct etm_insn *insn,
			 const struct etm_config *cfg)
{
	if (!insn)
		return 0;
	switch (insn->cls) {
	case etmc_br_direct:
	case etmc_br_indirect:
		return 1;
	case etmc_isb:
		return !cfg || cfg->protocol != etm_proto_etmv3;
	case etmc_barrier:
		return cfg && cfg->protocol != etm_proto_etmv3 &&
		       etm_cfg_dmb_waypoint(cfg);
	default:
		return 0;
	}
}

const char *etm_insn_class_name(enum etm_insn_class c)
{
	switch (c) {
	case etmc_other: return "other";
	case etmc_br_direct: return "branch";
	case etmc_br_indirect: return "ibranch";
	case etmc_isb: return "isb";
	case etmc_barrier: return "barrier";
	case etmc_exc_gen: return "exception";
	case etmc_undefined: return "undefined";
	case etmc_unknown: break;
	}
	return "unknown";
}
