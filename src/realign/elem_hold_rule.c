/* realign/elem_hold_rule.c - the element hold's switch (doc/realign.md,
 * "Element hold"): in etm_realign_precise the hold is always on; in
 * etm_realign_basic it engages at the first suspicion of damage and lets
 * go once it is empty, nothing is to be withdrawn and the input is
 * 2 * ETM_DFMT_REACH past the latest suspicion; elements still waiting
 * keep it on in any mode (those two rules inline in elem_hold.h). Rules
 * over the hold's state only: the decoder asks them and moves its own
 * state (decoder/realign.c). */
#include <stdint.h>

#include <etmtrace/decoder.h>

#include "realign/elem_hold.h"
#include "source/dfmt_bulk.h"

void etm_realign_hold_set_mode(struct etm_realign_hold *h,
			       enum etm_realign mode)
{
	if (mode != etm_realign_basic)
		h->engaged = 0;
}

int etm_realign_hold_suspect(struct etm_realign_hold *h,
			     enum etm_realign mode, uint64_t off)
{
	if (mode != etm_realign_basic)
		return 0;
	if (off + 2 * ETM_DFMT_REACH > h->engaged_until)
		h->engaged_until = off + 2 * ETM_DFMT_REACH;
	if (h->engaged)
		return 0;
	h->engaged = 1;
	return 1;
}

uint64_t etm_realign_hold_out_from(const struct etm_realign_hold *h, int on)
{
	if (!on)
		return UINT64_MAX;
	return h->maxoff > ETM_DFMT_REACH ? h->maxoff - ETM_DFMT_REACH + 1 : 0;
}
