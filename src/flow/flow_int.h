/* flow/flow_int.h - internals shared by the flow decoders: the common
 * decoder object, its element queue, and the protocol hooks. */
#ifndef ETM_FLOW_FLOW_INT_H
#define ETM_FLOW_FLOW_INT_H

#include <etmtrace/flow.h>

#include "image/bcache.h"

/* Queue capacity: a single packet produces at most ~40 elements (16 atoms,
 * each possibly a range plus a nomem, and context/exception elements). */
#define ETM_FLOW_QMAX 256

struct etm_flow {
	struct etm_config cfg;
	const struct etm_image *img;
	struct etm_bcache *bc;          /* owned; NULL when the cache is off */
	int cache_on;
	struct etm_elem q[ETM_FLOW_QMAX];
	unsigned qhead, qlen;
	/* protocol implementation (flow_etm3.c / flow_ptm.c) */
	void *impl;
	int (*put)(struct etm_flow *f, const struct etm_packet *pkt);
	int (*finish)(struct etm_flow *f);
	void (*reset)(struct etm_flow *f);
	void (*free_impl)(struct etm_flow *f);
};

/* Append a zeroed element of @kind produced by the packet at @offset; fills
 * id from the config. Returns NULL only if the queue is full (a bug). */
struct etm_elem *etm_flow_emit(struct etm_flow *f, enum etm_elem_kind kind,
			       uint64_t offset);

/* Classify the instruction at @addr: via the block cache if on, else direct.
 * Returns the block describing the straight-line run starting at @addr (see
 * bcache.h); the cache-off path fills @tmp and returns it.
 * Returns 0, -etme_nomap (first instruction unreadable). */
int etm_flow_block(struct etm_flow *f, enum etm_space space, uint64_t addr,
		   enum etm_isa isa, struct etm_block *tmp,
		   const struct etm_block **blk);

/* Protocol initialisers: allocate f->impl and set the hooks. Return 0 or
 * -etme_nomem. */
int etm_flow_etm3_init(struct etm_flow *f);
int etm_flow_ptm_init(struct etm_flow *f);

#endif
