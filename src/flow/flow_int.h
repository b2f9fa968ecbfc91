/* flow/flow_int.h - internals shared by the flow decoders: the common
 * decoder object, its element queue, and the protocol hooks. */
#ifndef ETM_FLOW_FLOW_INT_H
#define ETM_FLOW_FLOW_INT_H

#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "common/zero.h"
#include "image/bcache.h"
#include "flow/flow_pull.h"
#include "packet/pktdec.h"

/* Queue capacity: a single packet produces at most ~40 elements (16 atoms,
 * each possibly a range plus a nomem, and context/exception elements). */
#define ETM_FLOW_QMAX 256

struct etm_flow {
	struct etm_config cfg;
	const struct etm_image *img;
	struct etm_bcache *bc; /* owned; NULL until first used */
	int cache_on;
	struct etm_elem q[ETM_FLOW_QMAX];
	unsigned qhead, qlen;
	uint8_t id;                 /* trace ID, for the elements */
	struct etm_pkt_decoder *pd; /* owned: the packets it decodes */
	/* protocol implementation (flow_etm3.c / flow_ptm.c) */
	void *impl;
	int (*put)(struct etm_flow *f, const struct etm_packet *pkt);
	int (*finish)(struct etm_flow *f);
	void (*reset)(struct etm_flow *f);
	void (*free_impl)(struct etm_flow *f);
	enum etm_isa (*cur_isa)(const struct etm_flow *f);
	/* The protocol's fast path (etm_flow_drain()): packets pulled from
	 * pd as compact tokens (packet/pktdec.h) and decoded as if put one
	 * by one, while etm_flow_qopen(); the packets consumed are added to
	 * *@np. Returns 0 (the next packet needs the general path, or the
	 * queue is full enough) or an error. */
	int (*drain)(struct etm_flow *f, uint64_t *np);
	/* move an element being built in the queue's free space at qhead
	 * to q[0] (optional; see etm_flow_qstart()) */
	void (*rewind)(struct etm_flow *f);
	/* write the protocol state to @s (see etm_flow_save()) */
	void (*save)(const struct etm_flow *f, struct etm_sbuf *s);
	/* per-process images (etm_flow_set_ctx_images()) and the protocol's
	 * hook to forget what it memoised of the image (optional) */
	etm_ctx_image_fn ctx_img;
	void *ctx_img_arg;
	void (*img_changed)(struct etm_flow *f);
};

/* The Context ID is now @ctxid: switch to its process's image (off the
 * hot paths: called at context changes only). */
void etm_flow_ctx_switch(struct etm_flow *f, uint32_t ctxid);

/* Start of a put (the queue is empty, or the decoder's fast path put
 * elements while fewer than a quarter of the slots were used, so qhead is
 * below a quarter): rewind the queue once it is past a quarter, so that a
 * put has room for its elements. An element the
 * protocol builds in place right after the queued ones (the ETMv3 pending
 * range) moves along. */
static inline void etm_flow_qstart(struct etm_flow *f)
{
	if (f->qhead < ETM_FLOW_QMAX / 4)
		return;
	if (f->rewind)
		f->rewind(f);
	f->qhead = 0;
}

/* Whether the decoder's fast path may put another packet: the queue is
 * empty, or it holds elements but the next put still has the room a put
 * may need (the queue is filled up to a quarter before elements are
 * delivered, so that delivery and the fast path's entry are paid once per
 * batch; etm_flow_qstart() does not rewind then). */
static inline int etm_flow_qopen(const struct etm_flow *f)
{
	return !f->qlen || f->qhead + f->qlen < ETM_FLOW_QMAX / 4;
}

/* Append a zeroed element of @kind produced by the packet at @offset; fills
 * id from the config. Returns NULL only if the queue is full (a bug). */
static inline __attribute__((always_inline)) struct etm_elem *
etm_flow_emit(struct etm_flow *f,
	      enum etm_elem_kind kind,
	      uint64_t offset)
{
	struct etm_elem *el;

	if (f->qhead + f->qlen >= ETM_FLOW_QMAX)
		return NULL;
	el = &f->q[f->qhead + f->qlen++];
	etm_zero(el, sizeof(*el));
	el->kind = kind;
	el->offset = offset;
	el->id = f->id;
	return el;
}

/* Append a copy of @el (complete: kind, offset and id set) to the queue,
 * without clearing the slot first. Returns -etme_internal if it is full. */
static inline int etm_flow_emit_copy(struct etm_flow *f,
				     const struct etm_elem *el)
{
	if (f->qhead + f->qlen >= ETM_FLOW_QMAX)
		return -etme_internal;
	f->q[f->qhead + f->qlen++] = *el;
	return 0;
}

/* etm_flow_block() with the cache off: builds into @tmp. */
int etm_flow_block_nocache(struct etm_flow *f, enum etm_space space,
			   uint64_t addr, enum etm_isa isa,
			   struct etm_block *tmp, const struct etm_block **blk);

/* Allocate the block cache (at its first use); on failure the cache is
 * turned off. Returns 0 or -etme_nomem. */
int etm_flow_cache_init(struct etm_flow *f);

/* Classify the instruction at @addr: via the block cache if on, else direct.
 * Returns the block describing the straight-line run starting at @addr (see
 * bcache.h); the cache-off path fills @tmp and returns it.
 * Returns 0, -etme_nomap (first instruction unreadable). */
static inline int etm_flow_block(struct etm_flow *f, enum etm_space space,
				 uint64_t addr, enum etm_isa isa,
				 struct etm_block *tmp,
				 const struct etm_block **blk)
{
	if (f->cache_on && (f->bc || etm_flow_cache_init(f) == 0))
		return etm_bcache_lookup(f->bc, f->img, space, addr, isa, blk);
	return etm_flow_block_nocache(f, space, addr, isa, tmp, blk);
}

/* Protocol initialisers: allocate f->impl and set the hooks. Return 0 or
 * -etme_nomem. */
int etm_flow_etm3_init(struct etm_flow *f);
int etm_flow_ptm_init(struct etm_flow *f);
int etm_flow_itm_init(struct etm_flow *f);

#endif
