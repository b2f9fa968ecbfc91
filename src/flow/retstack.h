/* flow/retstack.h - the PTM return stack model: a bounded LIFO of return
 * addresses (with ISA and security state) that discards its oldest entry. */
#ifndef ETM_FLOW_RETSTACK_H
#define ETM_FLOW_RETSTACK_H

#include <stdint.h>

#include <etmtrace/config.h>

/* Deeper than any known PTM (OpenCSD models 16): a decoder stack deeper than
 * the hardware one is harmless, the top entries always agree. */
#define ETM_RETSTACK_DEPTH 32

struct etm_retent {
	uint64_t addr;
	enum etm_isa isa;
	uint8_t ns;
};

struct etm_retstack {
	struct etm_retent e[ETM_RETSTACK_DEPTH];
	unsigned top;   /* index of the next free slot (circular) */
	unsigned count; /* valid entries, <= ETM_RETSTACK_DEPTH */
};

/* Empty the stack. */
void etm_retstack_flush(struct etm_retstack *rs);
/* Push an entry; when full the oldest entry is discarded. */
void etm_retstack_push(struct etm_retstack *rs, uint64_t addr,
		       enum etm_isa isa, uint8_t ns);
/* Pop the newest entry into @out. Returns 0, or -etme_retstack_empty. */
int etm_retstack_pop(struct etm_retstack *rs, struct etm_retent *out);

static inline unsigned etm_retstack_count(const struct etm_retstack *rs)
{
	return rs->count;
}

#endif
