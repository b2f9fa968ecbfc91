/* packet/ptm_pkt.c - PTM / PFT packet reader (IHI 0035B chapter 4, see
 * docs/ptm.md) and the public etm_ptm_* parser API. */
#include <stdlib.h>
#include <string.h>

#include "packet/addr.h"
#include "packet/field.h"
#include "packet/pktbuf.h"

#include <etmtrace/error.h>

struct etm_ptm {
	struct etm_pktp core;
};

/* Header byte classes, IHI 0035B Table 4.1 (docs/ptm.md §2). */
static enum etm_hdr ptm_classify(unsigned b)
{
	if (b & 0x01)
		return etmh_branch; /* bCxxxxxx1 */
	if (b & 0x80)
		return etmh_atom; /* b1xxxxxx0 */
	switch (b) {
	case 0x00: return etmh_async;
	case 0x08: return etmh_isync;
	case 0x0c: return etmh_trigger;
	case 0x3c: return etmh_vmid;
	case 0x42:
	case 0x46: return etmh_timestamp; /* b01000R10 */
	case 0x66: return etmh_ignore;
	case 0x6e: return etmh_ctxid;
	case 0x72: return etmh_waypoint;
	case 0x76: return etmh_exc_return;
	default: break;
	}
	return etmh_reserved;
}

void etm_ptm_hdr_table(const struct etm_config *cfg, uint8_t hdr[256])
{
	unsigned b;

	(void)cfg;
	for (b = 0; b < 256; b++)
		hdr[b] = (uint8_t)ptm_classify(b);
}

/* Cycle count field (§7): first byte bx C cccc xx gives count[3:0], then
 * up to 4 bytes of 7 bits with a continuation bit (the 5th byte ends it).
 * The cycle-accurate atom header has the same first-byte layout. */
static int ptm_cc(const uint8_t *b, size_t n, uint32_t *v)
{
	uint32_t x;
	unsigned i;

	if (n < 1)
		return -etme_again;
	x = (b[0] >> 2) & 0x0f;
	if (!(b[0] & 0x40)) {
		*v = x;
		return 1;
	}
	for (i = 1; i < 5; i++) {
		if (i >= n)
			return -etme_again;
		x |= (uint32_t)(b[i] & 0x7f) << (4 + 7 * (i - 1));
		if (!(b[i] & 0x80))
			break;
	}
	*v = x;
	return i < 5 ? (int)i + 1 : 5;
}

/* Atom packet (§5): non-CA 1-5 atoms, oldest in the highest atom bit;
 * CA one atom in bit 1 plus a cycle count. */
int etm_ptm_read_atom(const struct etm_pktp *p, const uint8_t *b, size_t n,
		      struct etm_patom *a)
{
	uint8_t h = b[0];
	unsigned k, j, cnt;

	a->bits = 0;
	a->cc = 0;
	a->has_cc = 0;
	if (p->o.cycle_acc) {
		a->n = 1;
		a->bits = (h >> 1) & 1;
		a->has_cc = 1;
		return ptm_cc(b, n, &a->cc);
	}
	for (k = 6; k >= 2; k--)
		if (h & (1u << k))
			break;
	if (k < 2)
		return -etme_bad_opc; /* 0x80 / 0x82: see ptm.md §5.1 */
	cnt = k - 1;
	a->n = (uint8_t)cnt;
	for (j = 0; j < cnt; j++)
		a->bits |= (uint32_t)((h >> (cnt - j)) & 1) << j;
	return 1;
}

static int ptm_atom(const struct etm_pktp *p, const uint8_t *b, size_t n,
		    struct etm_packet *pkt)
{
	struct etm_patom a;
	int r;

	pkt->type = etmp_atom;
	r = etm_ptm_read_atom(p, b, n, &a);
	if (r == -etme_bad_opc)
		return r;
	pkt->atom_count = a.n;
	pkt->atom_bits = a.bits;
	pkt->has_cc = a.has_cc;
	if (r > 0)
		pkt->cycle_count = a.cc;
	return r;
}

/* Exception information bytes (§6.2): byte 0 C A x eeee N, byte 1
 * 0 0 H eeeee; never a third. */
static int ptm_exc(const uint8_t *b, size_t n, struct etm_brc *br)
{
	if (n < 1)
		return -etme_again;
	br->has_exc = 1;
	br->has_state = 1;
	br->ns = b[0] & 1;
	br->exc_num = (b[0] >> 1) & 0x0f;
	br->altisa = (b[0] >> 6) & 1;
	if (!(b[0] & 0x80))
		return 1;
	if (n < 2)
		return -etme_again;
	br->hyp = (b[1] >> 5) & 1;
	br->exc_num |= (uint16_t)((b[1] & 0x1f) << 4);
	return 2;
}

/* Branch address packet (§6): address, exception bytes, CA cycle count. */
int etm_ptm_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			struct etm_brc *br, struct etm_pkt_state *st,
			uint32_t *drop)
{
	struct etm_addr_res a;
	enum etm_isa isa;
	int r, i;

	*drop = 0;
	r = etm_addr_read(b, n, ETM_ADDR_ALT, st->addr, st->isa, &a);
	if (r < 0) {
		*drop = a.len;
		return r;
	}
	i = r;
	if (a.exc) {
		r = ptm_exc(b + i, n - i, br);
		if (r < 0)
			return r;
		i += r;
	}
	if (p->o.cycle_acc) {
		r = ptm_cc(b + i, n - i, &br->cycle_count);
		if (r < 0)
			return r;
		br->has_cc = 1;
		i += r;
	}
	isa = a.isa;
	if (br->has_state && (isa == etmi_t32 || isa == etmi_tee))
		isa = br->altisa ? etmi_tee : etmi_t32;
	br->addr = a.addr;
	br->addr_bits = a.nbits;
	br->isa = isa;
	br->isa_changed = a.isa_set || isa != st->isa;
	br->jazelle = isa == etmi_jazelle;
	st->addr = a.addr;
	st->isa = isa;
	return i;
}

/* Waypoint update (§8): 0x72 + 1-5 address bytes; a 5-byte address with
 * bit 6 set is followed by one byte whose bit 6 is AltISA (OpenCSD and
 * ptm2human agree). The address becomes the compression base. */
static int ptm_waypoint(const uint8_t *b, size_t n, struct etm_packet *pkt,
			struct etm_pkt_state *st)
{
	struct etm_addr_res a;
	enum etm_isa isa;
	int r, i;

	r = etm_addr_read(b + 1, n - 1, ETM_ADDR_ALT, st->addr, st->isa, &a);
	if (r < 0) {
		pkt->size = a.len + 1;
		return r;
	}
	i = r + 1;
	pkt->type = etmp_waypoint;
	isa = a.isa;
	if (a.isa_set && a.exc) {
		if ((size_t)i >= n)
			return -etme_again;
		pkt->altisa = (b[i] >> 6) & 1;
		if (isa == etmi_t32 && pkt->altisa)
			isa = etmi_tee;
		i++;
	}
	pkt->addr = a.addr;
	pkt->addr_bits = a.nbits;
	pkt->isa = isa;
	pkt->isa_changed = a.isa_set;
	st->addr = a.addr;
	st->isa = isa;
	return i;
}

/* I-sync (§4): addr[4] (bit 0 = T), info, [CC if CA and not periodic],
 * Context ID. */
static int ptm_isync(const struct etm_pktp *p, const uint8_t *b, size_t n,
		     struct etm_packet *pkt, struct etm_pkt_state *st)
{
	size_t i = 6, cid = p->o.ctxid_bytes;
	uint32_t addr;
	uint8_t info;
	int r;

	if (n < 6)
		return -etme_again;
	addr = etm_field_le(b + 1, 4);
	info = b[5];
	pkt->type = etmp_isync;
	pkt->reason = (info >> 5) & 3;
	pkt->has_state = 1;
	pkt->ns = (info >> 3) & 1;
	pkt->altisa = (info >> 2) & 1;
	pkt->hyp = (info >> 1) & 1;
	if (addr & 1)
		pkt->isa = pkt->altisa ? etmi_tee : etmi_t32;
	else
		pkt->isa = etmi_a32;
	pkt->addr = addr & ~1u;
	pkt->addr_bits = 32;
	pkt->isa_changed = 1;
	if (p->o.cycle_acc && pkt->reason != etm_isync_periodic) {
		r = ptm_cc(b + i, n - i, &pkt->cycle_count);
		if (r < 0)
			return r;
		pkt->has_cc = 1;
		i += (size_t)r;
	}
	if (n < i + cid)
		return -etme_again;
	pkt->has_ctxid = cid != 0;
	pkt->ctxid = etm_field_le(b + i, (unsigned)cid);
	st->addr = (uint32_t)pkt->addr;
	st->isa = pkt->isa;
	return (int)(i + cid);
}

/* Timestamp (§12): value field, then a cycle count in CA mode. */
static int ptm_timestamp(const struct etm_pktp *p, const uint8_t *b,
			 size_t n, struct etm_packet *pkt,
			 struct etm_pkt_state *st)
{
	int r, i;

	pkt->type = etmp_timestamp;
	pkt->ts_freq_change = (b[0] >> 2) & 1;
	r = etm_field_ts(b + 1, n - 1, p->o.ts64, &st->ts, &pkt->ts_bits);
	if (r < 0)
		return r;
	i = r + 1;
	pkt->timestamp = p->o.ts_binary ? st->ts : etm_field_gray2bin(st->ts);
	if (p->o.cycle_acc) {
		r = ptm_cc(b + i, n - (size_t)i, &pkt->cycle_count);
		if (r < 0)
			return r;
		pkt->has_cc = 1;
		i += r;
	}
	return i;
}

int etm_ptm_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		 struct etm_packet *pkt, struct etm_pkt_state *st)
{
	size_t cid = p->o.ctxid_bytes;
	int r;

	switch ((enum etm_hdr)p->hdr[b[0]]) {
	case etmh_atom:
		r = ptm_atom(p, b, n, pkt);
		break;
	case etmh_branch:
		return etm_pktp_read_branch(p, b, n, pkt, st);
	case etmh_isync:
		return ptm_isync(p, b, n, pkt, st);
	case etmh_timestamp:
		return ptm_timestamp(p, b, n, pkt, st);
	case etmh_waypoint:
		return ptm_waypoint(b, n, pkt, st);
	case etmh_ctxid:
		if (n < 1 + cid)
			return -etme_again;
		pkt->type = etmp_ctxid;
		pkt->has_ctxid = cid != 0;
		pkt->ctxid = etm_field_le(b + 1, (unsigned)cid);
		return (int)(1 + cid);
	case etmh_vmid:
		if (n < 2)
			return -etme_again;
		pkt->type = etmp_vmid;
		pkt->vmid = b[1];
		return 2;
	case etmh_trigger:
		pkt->type = etmp_trigger;
		return 1;
	case etmh_ignore:
		pkt->type = etmp_ignore;
		return 1;
	case etmh_exc_return:
		pkt->type = etmp_exc_return;
		return 1;
	default:
		r = -etme_bad_opc;
		break;
	}
	if (r == -etme_bad_opc)
		pkt->size = 1;
	return r;
}

struct etm_ptm *etm_ptm_alloc(const struct etm_config *cfg)
{
	struct etm_config c;
	struct etm_ptm *p;

	if (!cfg || etm_config_from_user(&c, cfg, cfg->size) < 0)
		return NULL;
	if (c.protocol != etm_proto_ptm)
		return NULL;
	p = malloc(sizeof(*p));
	if (!p)
		return NULL;
	etm_pktp_init(&p->core, &c);
	return p;
}

void etm_ptm_free(struct etm_ptm *p)
{
	free(p);
}

int etm_ptm_push(struct etm_ptm *p, const uint8_t *buf, size_t n,
		 uint64_t offset)
{
	return p ? etm_pktp_push(&p->core, buf, n, offset) : -etme_invalid;
}

int etm_ptm_finish(struct etm_ptm *p)
{
	return p ? etm_pktp_finish(&p->core) : -etme_invalid;
}

int etm_ptm_next(struct etm_ptm *p, struct etm_packet *pkt, size_t size)
{
	return p ? etm_pktp_next(&p->core, pkt, size) : -etme_invalid;
}

int etm_ptm_next_recs(struct etm_ptm *p, struct etm_pkt_rec *recs,
		      size_t max)
{
	return p ? etm_pktp_next_recs(&p->core, recs, max) : -etme_invalid;
}

void etm_ptm_reset(struct etm_ptm *p)
{
	if (p)
		etm_pktp_reset(&p->core);
}

void etm_ptm_set_isa(struct etm_ptm *p, enum etm_isa isa)
{
	if (p)
		etm_pktp_set_isa(&p->core, isa);
}

void etm_ptm_save(const struct etm_ptm *p, struct etm_sbuf *s)
{
	etm_pktp_save(&p->core, s);
}

struct etm_pktp *etm_ptm_core(struct etm_ptm *p)
{
	return &p->core;
}
