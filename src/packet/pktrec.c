/* packet/pktrec.c - the packet decoder's batch records (struct
 * etm_pkt_rec): one-byte packets from a table, branch and PTM atom packets
 * through the compact readers, everything else through next(). */
#include <stdint.h>
#include <string.h>

#include "common/zero.h"
#include "packet/pktbuf.h"

#include <etmtrace/error.h>

/* One-byte packet types that neither read nor change the parser state. */
static int rec_table_type(enum etm_pkt_type t)
{
	switch (t) {
	case etmp_atom:
	case etmp_trigger:
	case etmp_ignore:
	case etmp_exc_return:
	case etmp_exc_entry:
	case etmp_data_suppressed:
	case etmp_store_failed:
		return 1;
	default:
		return 0;
	}
}

/* Records of the one-byte packets that leave the state alone. */
void etm_pktp_rec_table(struct etm_pktp *p, const struct etm_pkt_state *st0)
{
	struct etm_packet pkt;
	unsigned b;

	for (b = 1; b < 256; b++) {
		struct etm_pkt_state st = *st0;
		uint8_t byte = (uint8_t)b;

		p->rok[b] = 0;
		etm_zero(&pkt, sizeof(pkt));
		if (etm_pktp_read(p, &byte, 1, &pkt, &st) != 1 ||
		    !rec_table_type(pkt.type) || pkt.atom_count > 16)
			continue;
		pkt.id = p->o.id;
		pkt.size = 1;
		etm_pkt_rec_from(&p->rt[b], &pkt);
		p->rok[b] = 1;
	}
}

void etm_pkt_rec_from(struct etm_pkt_rec *r, const struct etm_packet *pkt)
{
	r->offset = pkt->offset;
	r->type = (uint8_t)pkt->type;
	r->id = pkt->id;
	r->size = pkt->size > 255 ? 255 : (uint8_t)pkt->size;
	r->count = 0;
	r->value = 0;
	switch (pkt->type) {
	case etmp_atom:
		r->value = pkt->atom_bits;
		r->count = pkt->atom_count;
		break;
	case etmp_branch:
		r->value = (uint32_t)pkt->addr;
		r->count = pkt->has_exc;
		break;
	case etmp_isync:
		r->value = (uint32_t)pkt->addr;
		r->count = pkt->reason;
		break;
	case etmp_waypoint:
		r->value = (uint32_t)pkt->addr;
		break;
	case etmp_ctxid:
		r->value = pkt->ctxid;
		break;
	case etmp_vmid:
		r->value = pkt->vmid;
		break;
	case etmp_timestamp:
		r->value = (uint32_t)pkt->timestamp;
		break;
	case etmp_cycle_count:
		r->value = pkt->cycle_count;
		break;
	case etmp_error:
		r->value = (uint32_t)pkt->err;
		break;
	case etmp_data:
	case etmp_ooo_data:
		r->value = pkt->dvalue;
		break;
	default:
		break;
	}
}

/* Input offsets of a run of pushed bytes, in increasing position order:
 * the segment of the offset map holding the current position. */
struct off_cursor {
	const struct etm_offseg *m;
	size_t nmap, i;
	size_t end;    /* position where segment i ends */
	uint64_t base; /* offset of position 0 in segment i */
};

static void cursor_init(struct off_cursor *c, const struct etm_pktp *p)
{
	c->m = p->map;
	c->nmap = p->nmap;
	c->i = p->mapi;
	if (!c->m) {
		c->end = SIZE_MAX;
		c->base = p->off;
		return;
	}
	c->end = c->i + 1 < c->nmap ? c->m[c->i + 1].pos : SIZE_MAX;
	c->base = c->m[c->i].off - c->m[c->i].pos;
}

static uint64_t cursor_off(struct off_cursor *c, size_t pos)
{
	while (pos >= c->end) {
		c->i++;
		c->end = c->i + 1 < c->nmap ? c->m[c->i + 1].pos : SIZE_MAX;
		c->base = c->m[c->i].off - c->m[c->i].pos;
	}
	return c->base + pos;
}

/* The record of branch packet @br. */
static void rec_branch(struct etm_pkt_rec *r, const struct etm_brc *br,
		       uint8_t id, int size)
{
	r->offset = br->offset;
	r->value = (uint32_t)br->addr;
	r->type = etmp_branch;
	r->id = id;
	r->size = (uint8_t)size;
	r->count = br->has_exc;
}

/* The record of PTM atom packet @a. */
static void rec_patom(struct etm_pkt_rec *r, const struct etm_patom *a,
		      uint8_t id, int size)
{
	r->offset = a->offset;
	r->value = a->bits;
	r->type = etmp_atom;
	r->id = id;
	r->size = (uint8_t)size;
	r->count = a->n;
}

/* How recs_fast() finds input offsets: consecutive (raw input), per byte
 * (rel), or through the segment map. */
enum rec_offs { ro_linear,
		ro_rel,
		ro_map };

/* Input offset of byte @pos for recs_fast(): @base + @pos, @base +
 * @rel[pos], or through the cursor. */
static inline uint64_t rec_off(const uint32_t *rel, uint64_t base,
			       struct off_cursor *c, enum rec_offs how,
			       size_t pos)
{
	if (how == ro_linear)
		return base + pos;
	if (how == ro_rel)
		return base + rel[pos];
	return cursor_off(c, pos);
}

/* The record of the one-byte packet @b[@i] into @r[@i] from the table
 * @rt, at offset @off; whether it is one (@rok: else the record is
 * written but not taken). */
static inline int rec_one(struct etm_pkt_rec *r,
			  const struct etm_pkt_rec *rt, const uint8_t *rok,
			  const uint8_t *b, size_t i, uint64_t off)
{
	uint8_t x = b[i];

	r[i] = rt[x];
	r[i].offset = off;
	return rok[x];
}

/* Records straight from the buffer while the parser is at a packet
 * boundary: one-byte packets from the table (each record written before
 * its byte is checked, so a run of them costs one branch per packet),
 * branch packets and PTM atoms through the compact readers. Returns how
 * many. Inlined once per way of finding offsets (@how is a constant). */
static inline __attribute__((always_inline))
size_t
recs_fast_how(struct etm_pktp *p, struct etm_pkt_rec *recs,
	      size_t max, enum rec_offs how)
{
	const uint8_t *buf = p->buf, *rok = p->rok;
	const struct etm_pkt_rec *rt = p->rt;
	const uint32_t *rel = p->rel;
	uint64_t base = how == ro_rel ? p->rel_base : p->off;
	size_t n = 0, pos = p->pos, len = p->len, i, lim;
	struct off_cursor c;
	struct etm_patom pa;
	struct etm_brc br;
	int k, hk;

	if (how == ro_map)
		cursor_init(&c, p);
	while (n < max && pos < len) {
		lim = max - n < len - pos ? max - n : len - pos;
		/* four per iteration: a quarter of the loop overhead */
		for (i = 0; i + 3 < lim; i += 4) {
			if (!rec_one(recs + n, rt, rok, buf + pos, i,
				     rec_off(rel, base, &c, how, pos + i)))
				goto stop;
			if (!rec_one(recs + n, rt, rok, buf + pos, i + 1,
				     rec_off(rel, base, &c, how, pos + i + 1))) {
				i += 1;
				goto stop;
			}
			if (!rec_one(recs + n, rt, rok, buf + pos, i + 2,
				     rec_off(rel, base, &c, how, pos + i + 2))) {
				i += 2;
				goto stop;
			}
			if (!rec_one(recs + n, rt, rok, buf + pos, i + 3,
				     rec_off(rel, base, &c, how, pos + i + 3))) {
				i += 3;
				goto stop;
			}
		}
		for (; i < lim; i++)
			if (!rec_one(recs + n, rt, rok, buf + pos, i,
				     rec_off(rel, base, &c, how, pos + i)))
				break;
	stop:
		n += i;
		pos += i;
		if (i == lim)
			break;
		hk = p->hdr[buf[pos]];
		if (hk == etmh_atom && p->ops->read_atom) {
			/* a PTM atom with a cycle count (what
			 * etm_pkt_tok_next() does, offset found here) */
			k = p->ops->read_atom(p, buf + pos, len - pos, &pa);
			if (k <= 0)
				break;
			pa.offset = rec_off(rel, base, &c, how, pos);
			rec_patom(&recs[n++], &pa, p->o.id, k);
			pos += (size_t)k;
			continue;
		}
		if (hk != etmh_branch)
			break;
		/* a branch (what etm_pkt_tok_branch() does) */
		k = etm_pktp_branch_at(p, buf + pos, len - pos, &br);
		if (k <= 0)
			break; /* cut by the end of the chunk, or bad */
		br.offset = rec_off(rel, base, &c, how, pos);
		rec_branch(&recs[n++], &br, p->o.id, k);
		pos += (size_t)k;
	}
	p->pos = pos;
	if (how == ro_map)
		p->mapi = c.i;
	return n;
}

static size_t recs_fast(struct etm_pktp *p, struct etm_pkt_rec *recs,
			size_t max)
{
	if (p->mode != etm_pm_sync || p->asm_len || p->qi < p->qn ||
	    p->pos >= p->len)
		return 0;
	if (!p->map)
		return recs_fast_how(p, recs, max, ro_linear);
	if (!p->rel_tried)
		etm_pktp_build_rel(p);
	if (p->rel)
		return recs_fast_how(p, recs, max, ro_rel);
	if (p->mapi < p->nmap && p->map[p->mapi].pos > p->pos)
		p->mapi = 0; /* the cursor only moves forwards */
	return recs_fast_how(p, recs, max, ro_map);
}

/* The record of a whole, valid packet at the current position of a
 * synchronised parser, read in place (what next() would give, without
 * the raw bytes and the queue). Returns 0 if next() must do it. */
static int rec_general(struct etm_pktp *p, struct etm_pkt_rec *r,
		       struct etm_packet *pkt)
{
	struct etm_pkt_state st = p->st;
	int k;

	if (p->mode != etm_pm_sync || p->asm_len || p->qi < p->qn ||
	    p->pos >= p->len || p->buf[p->pos] == 0x00)
		return 0;
	etm_zero(pkt, sizeof(*pkt));
	k = etm_pktp_read(p, p->buf + p->pos, p->len - p->pos, pkt, &st);
	if (k <= 0)
		return 0;
	p->st = st;
	pkt->id = p->o.id;
	pkt->offset = etm_pktp_off(p, p->pos);
	pkt->size = (uint32_t)k;
	etm_pkt_rec_from(r, pkt);
	p->pos += (size_t)k;
	return 1;
}

int etm_pktp_next_recs(struct etm_pktp *p, struct etm_pkt_rec *recs,
		       size_t max)
{
	struct etm_packet pkt;
	size_t n = 0;
	int err;

	if (!p || !recs || !max)
		return -etme_invalid;
	etm_pktp_tables(p);
	while (n < max) {
		n += recs_fast(p, recs + n, max - n);
		if (n == max)
			break;
		if (rec_general(p, &recs[n], &pkt)) {
			n++;
			continue;
		}
		err = etm_pktp_next(p, &pkt, sizeof(pkt));
		if (err < 0)
			return n ? (int)n : err;
		etm_pkt_rec_from(&recs[n++], &pkt);
		if (pkt.type == etmp_error)
			break; /* ends the batch: the caller may realign there */
	}
	return (int)n;
}
