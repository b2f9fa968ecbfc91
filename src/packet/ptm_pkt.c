/* packet/ptm_pkt.c - PTM / PFT packet reader (IHI 0035B chapter 4, see
 * ../shared/docs/ptm.md) and its entry for the packet decoder (pktdec.c). */
#include <stdlib.h>
#include <string.h>

#include "packet/addr.h"
#include "packet/inline_fields.h"
#include "packet/field.h"
#include "packet/pktbuf.h"

#include <etmtrace/error.h>

/* Header byte classes, IHI 0035B Table 4.1 (../shared/docs/ptm.md §2): those of
 * ETMv3 (etm_pktp_hdr_common()) and the waypoint update. */
static enum etm_hdr ptm_classify(unsigned b)
{
	return b == 0x72 ? etmh_waypoint : etm_pktp_hdr_common(b);
}

static void ptm_hdr_table(const struct etm_config *cfg, uint8_t hdr[256])
{
	unsigned b;

	(void)cfg;
	for (b = 0; b < 256; b++)
		hdr[b] = (uint8_t)ptm_classify(b);
}

/* Cycle count field (§7): first byte bx C cccc xx gives count[3:0], then
 * up to 4 bytes of 7 bits with a continuation bit (the 5th byte ends it).
 * The cycle-accurate atom header has the same first-byte layout. The
 * reader is the fast paths' (inline_fields.h); -etme_again when cut. */
static int ptm_cc(const uint8_t *b, size_t n, uint32_t *v)
{
	int r = etm_ptm_cc_short(b, n, v);

	return r ? r : -etme_again;
}

/* Atom packet (§5): non-CA 1-5 atoms, oldest in the highest atom bit;
 * CA one atom in bit 1 plus a cycle count. */
static int ptm_read_atom(const struct etm_pktp *p, const uint8_t *b, size_t n,
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
	r = ptm_read_atom(p, b, n, &a);
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
static int ptm_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			   struct etm_brc *br, struct etm_pkt_state *st,
			   uint32_t *drop)
{
	struct etm_addr_res a;
	int r, i;

	i = etm_brc_read_addr(b, n, ETM_ADDR_ALT, st, &a, drop);
	if (i < 0)
		return i;
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
	etm_brc_set_addr(br, &a, st);
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
	size_t cid = p->o.ctxid_bytes, i = 6;
	uint32_t addr;
	int r;

	if (n < 6)
		return -etme_again;
	addr = etm_field_le(b + 1, 4);
	etm_field_isync_info(b[5], pkt);
	pkt->altisa = (b[5] >> 2) & 1;
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
	if (etm_field_ctxid(b + i, n - i, cid, pkt) < 0)
		return -etme_again;
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

	i = etm_field_ts_pkt(b, n, p->o.ts64, p->o.ts_binary, &st->ts, pkt);
	if (i < 0)
		return i;
	if (p->o.cycle_acc) {
		r = ptm_cc(b + i, n - (size_t)i, &pkt->cycle_count);
		if (r < 0)
			return r;
		pkt->has_cc = 1;
		i += r;
	}
	return i;
}

static int ptm_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		    struct etm_packet *pkt, struct etm_pkt_state *st)
{
	size_t cid = p->o.ctxid_bytes;

	switch ((enum etm_hdr)p->hdr[b[0]]) {
	case etmh_atom:
		return ptm_atom(p, b, n, pkt);
	case etmh_branch:
		return etm_pktp_read_branch(p, b, n, pkt, st);
	case etmh_isync:
		return ptm_isync(p, b, n, pkt, st);
	case etmh_timestamp:
		return ptm_timestamp(p, b, n, pkt, st);
	case etmh_waypoint:
		return ptm_waypoint(b, n, pkt, st);
	case etmh_ctxid:
		return etm_field_ctxid_pkt(b, n, cid, pkt);
	case etmh_vmid:
		return etm_field_vmid_pkt(b, n, pkt);
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
		return -etme_bad_opc; /* the core drops the header byte */
	}
}

const struct etm_pkt_proto etm_ptm_proto = {
	.proto = etm_proto_ptm,
	.hdr_table = ptm_hdr_table,
	.read = ptm_read,
	.read_branch = ptm_read_branch,
	.read_atom = ptm_read_atom,
	.br_cc = 1,
};
