/* flow/flow_int.h - internals shared by the flow decoders: the common
 * decoder object, its element queue, and the protocol hooks. */
#ifndef ETM_FLOW_FLOW_INT_H
#define ETM_FLOW_FLOW_INT_H

#include <etmtrace/flow.h>

#include "image/bcache.h"
#include "packet/pktbuf.h"

/* Most atoms in one put_atoms() batch. */
#define ETM_FLOW_ATOM_BATCH 64

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
	enum etm_isa (*cur_isa)(const struct etm_flow *f);
	/* an atom packet @pkt whose offset is @off (decoder fast path) */
	int (*put_atom)(struct etm_flow *f, const struct etm_packet *pkt,
			uint64_t off);
	/* @np consecutive one-byte atom packets at offsets @po, as if put
	 * one by one (optional; at most ETM_FLOW_ATOM_BATCH atoms) */
	int (*put_atoms)(struct etm_flow *f, const struct etm_atomc *const *pk,
			 const uint64_t *po, unsigned np);
	/* write the protocol state to @s (see etm_flow_save()) */
	void (*save)(const struct etm_flow *f, struct etm_sbuf *s);
};

/* etm_flow_put() of an atom packet whose offset field is not set: the
 * packet came from the parser's table of one-byte atoms. */
static inline int etm_flow_put_atom(struct etm_flow *f,
				    const struct etm_packet *pkt, uint64_t off)
{
	f->qhead = 0;
	return f->put_atom(f, pkt, off);
}

/* The put_atoms hook, same contract. */
static inline int etm_flow_put_atoms(struct etm_flow *f,
				     const struct etm_atomc *const *pk,
				     const uint64_t *po, unsigned np)
{
	f->qhead = 0;
	return f->put_atoms(f, pk, po, np);
}

struct etm_sbuf;
/* Write the state that decides the decoder's future output (everything but
 * the block cache, which only memoises the image) to @s, so that parallel
 * decode can tell when two decoders have converged. */
void etm_flow_save(const struct etm_flow *f, struct etm_sbuf *s);
/* Write every field of @el to @s. */
void etm_elem_save(struct etm_sbuf *s, const struct etm_elem *el);

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
