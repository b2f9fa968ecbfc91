/* flow/retstack.c - the PTM return stack model: bounded circular LIFO that
 * drops the oldest entry on overflow (IHI0035B §4.13). */
#include <etmtrace/error.h>

#include "flow/retstack.h"

void etm_retstack_flush(struct etm_retstack *rs)
{
	rs->top = 0;
	rs->count = 0;
}

void etm_retstack_push(struct etm_retstack *rs, uint64_t addr,
		       enum etm_isa isa, uint8_t ns)
{
	struct etm_retent *e = &rs->e[rs->top];

	e->addr = addr;
	e->isa = isa;
	e->ns = ns;
	rs->top = (rs->top + 1) % ETM_RETSTACK_DEPTH;
	if (rs->count < ETM_RETSTACK_DEPTH)
		rs->count++;
}

int etm_retstack_pop(struct etm_retstack *rs, struct etm_retent *out)
{
	if (!rs->count)
		return -etme_retstack_empty;
	rs->top = (rs->top + ETM_RETSTACK_DEPTH - 1) % ETM_RETSTACK_DEPTH;
	rs->count--;
	*out = rs->e[rs->top];
	return 0;
}
