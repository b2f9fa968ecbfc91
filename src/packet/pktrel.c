/* packet/pktrel.c - the per-byte offset table of a push with an offset
 * map, for the batch records (pktrec.c): built from the segments when the
 * records first ask for it, so a packet decoder that only feeds a flow
 * decoder (which needs few offsets, and finds them in the segments) never
 * builds one. Measured against reading the segments per record in
 * doc/performance.md ("One offset scheme") and
 * doc/measurements/2026-11-26-one-offset-scheme.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "packet/pktbuf.h"

/* Four consecutive offsets at a time (vectors where the compiler has
 * them). */
typedef uint32_t rel_v4u __attribute__((vector_size(16)));

/* Offsets @v, @v + 1, ... into @r[0..@e - @r): 16 in four vector stores
 * (a frame's data; those past @e are overwritten by the next segment's,
 * or land in the table's slack), a longer segment in a loop. */
static inline void rel_seg(uint32_t *r, const uint32_t *e, rel_v4u v)
{
	const rel_v4u four = { 4, 4, 4, 4 };

	for (;;) {
		memcpy(r, &v, sizeof(v));
		v += four;
		memcpy(r + 4, &v, sizeof(v));
		v += four;
		memcpy(r + 8, &v, sizeof(v));
		v += four;
		memcpy(r + 12, &v, sizeof(v));
		if (__builtin_expect(r + 16 >= e, 1))
			return;
		v += four;
		r += 16;
	}
}

/* etm_offseg_rel(), inlined into etm_pktp_build_rel() (a stage push of a
 * few bytes calls it: TC2 with every source makes 1,400 a copy). */
static inline __attribute__((always_inline)) int
rel_fill(const struct etm_offseg *map, size_t nmap, size_t len, uint32_t *rel)
{
	const struct etm_offseg *g = map, *gl = g + nmap - 1;
	const rel_v4u iota = { 0, 1, 2, 3 };
	uint64_t off0 = g->off;

	if (gl->off - off0 > UINT32_MAX - 16)
		return -1; /* 4 GiB of input: the segments serve */
	for (; g < gl; g++)
		rel_seg(rel + g->pos, rel + g[1].pos,
			(uint32_t)(g->off - off0) + iota);
	rel_seg(rel + g->pos, rel + len, (uint32_t)(g->off - off0) + iota);
	return 0;
}

int etm_offseg_rel(const struct etm_offseg *map, size_t nmap, size_t len,
		   uint32_t *rel)
{
	return rel_fill(map, nmap, len, rel);
}

void etm_pktp_build_rel(struct etm_pktp *p)
{
	const struct etm_offseg *g = p->map, *gl = g + p->nmap - 1;
	uint32_t *rel;

	p->rel_tried = 1;
	if (gl->off - g->off > UINT32_MAX - 16)
		return; /* 4 GiB of input: the segments serve */
	if (p->len + 16 > p->nrelbuf) {
		rel = realloc(p->relbuf, (p->len + 16) * sizeof(*rel));
		if (!rel)
			return; /* the segments serve */
		p->relbuf = rel;
		p->nrelbuf = p->len + 16;
	}
	rel = p->relbuf;
	if (rel_fill(p->map, p->nmap, p->len, rel) < 0)
		return;
	p->rel = rel;
	p->rel_base = g->off;
}

int etm_pkt_push_map_rel(struct etm_pkt_decoder *pd, const uint8_t *buf,
			 size_t n, const struct etm_offseg *map, size_t nmap,
			 const uint32_t *rel)
{
	int err = etm_pkt_push_map(pd, buf, n, map, nmap);

	if (err < 0 || !rel)
		return err;
	pd->core.rel = rel;
	pd->core.rel_base = map[0].off;
	pd->core.rel_tried = 1;
	return 0;
}
