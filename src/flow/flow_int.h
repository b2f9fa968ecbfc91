/* flow/flow_int.h - internals shared by the flow decoders: the common
 * decoder object, its element queue, and the protocol hooks. */
#ifndef ETM_FLOW_FLOW_INT_H
#define ETM_FLOW_FLOW_INT_H

#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "common/zero.h"
#include "image/bcache.h"
#include "packet/pktbuf.h"

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
	uint8_t id; /* trace ID, for the elements */
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
	/* The compact forms of the decoder's fast path (optional). On
	 * success they return what cur_isa() would return next (>= 0, the
	 * ISA the parser aligns compressed addresses for), else an error:
	 * a PTM atom packet */
	int (*put_patom)(struct etm_flow *f, const struct etm_patom *a);
	/* a run of one-byte atom packets, as if put one by one */
	int (*put_atoms)(struct etm_flow *f, struct etm_atom_run *r);
	/* a branch address packet, as etm_flow_put() of the packet it came
	 * from */
	int (*put_branch)(struct etm_flow *f, const struct etm_brc *br);
	/* The whole fast path in one call (optional, used instead of the
	 * hooks above): compact packets read from parser core @p with its
	 * fast-path readers, as if put one by one, while etm_flow_qopen();
	 * the packets consumed are added to *@np, the ISA is fed back to @p.
	 * Returns 0 (the next packet needs the general path, or the queue is
	 * full enough) or an error. */
	int (*drain_fast)(struct etm_flow *f, struct etm_pktp *p,
			  uint64_t *np);
	/* move an element being built in the queue's free space at qhead
	 * to q[0] (optional; see etm_flow_qstart()) */
	void (*rewind)(struct etm_flow *f);
	/* write the protocol state to @s (see etm_flow_save()) */
	void (*save)(const struct etm_flow *f, struct etm_sbuf *s);
};

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

/* etm_flow_put() of an atom packet whose offset field is not set: the
 * packet came from the parser's table of one-byte atoms. */
static inline int etm_flow_put_atom(struct etm_flow *f,
				    const struct etm_packet *pkt, uint64_t off)
{
	etm_flow_qstart(f);
	return f->put_atom(f, pkt, off);
}

/* The put_patom hook, same contract. */
static inline int etm_flow_put_patom(struct etm_flow *f,
				     const struct etm_patom *a)
{
	etm_flow_qstart(f);
	return f->put_patom(f, a);
}

/* The put_atoms hook, same contract. */
static inline int etm_flow_put_atoms(struct etm_flow *f,
				     struct etm_atom_run *r)
{
	etm_flow_qstart(f);
	return f->put_atoms(f, r);
}

struct etm_sbuf;
/* The put_branch hook, same contract. */
static inline int etm_flow_put_branch(struct etm_flow *f,
				      const struct etm_brc *br)
{
	etm_flow_qstart(f);
	return f->put_branch(f, br);
}

/* Write the state that decides the decoder's future output (everything but
 * the block cache, which only memoises the image) to @s, so that parallel
 * decode can tell when two decoders have converged. */
void etm_flow_save(const struct etm_flow *f, struct etm_sbuf *s);
/* Write every field of @el to @s. */
void etm_elem_save(struct etm_sbuf *s, const struct etm_elem *el);

/* Append a zeroed element of @kind produced by the packet at @offset; fills
 * id from the config. Returns NULL only if the queue is full (a bug). */
static inline struct etm_elem *etm_flow_emit(struct etm_flow *f,
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

/* etm_flow_isa() without the checks, for the decoder's fast path. */
static inline enum etm_isa etm_flow_isa_fast(const struct etm_flow *f)
{
	return f->cur_isa(f);
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

/* The oldest queued element, removed from the queue (NULL if none): what
 * etm_flow_next() copies out, for callers that copy it themselves. */
static inline const struct etm_elem *etm_flow_pop(struct etm_flow *f)
{
	if (!f->qlen)
		return NULL;
	f->qlen--;
	return &f->q[f->qhead++];
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

#endif
