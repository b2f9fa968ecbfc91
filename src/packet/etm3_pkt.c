/* packet/etm3_pkt.c - ETMv3 packet reader (IHI 0014Q chapter 7, see
 * ../shared/docs/etmv3.md) and its entry for the packet decoder (pktdec.c). */
#include <stdlib.h>
#include <string.h>

#include "common/zero.h"
#include "packet/addr.h"
#include "packet/async.h"
#include "packet/field.h"
#include "packet/pktbuf.h"

#include <etmtrace/error.h>

static const uint8_t ss_bytes[4] = { 0, 1, 2, 4 };

/* Header byte classes, IHI 0014Q Table 7.1 (../shared/docs/etmv3.md §2.3 order):
 * those PTM shares (etm_pktp_hdr_common()), then the ETMv3-only ones. */
static enum etm_hdr etm3_classify(unsigned b, int data)
{
	enum etm_hdr h = etm_pktp_hdr_common(b);

	if (h != etmh_reserved)
		return h;
	switch (b) {
	case 0x04: return etmh_cycle_count;
	case 0x70: return etmh_isync_cc;
	case 0x7e: return etmh_exc_entry;
	default: break;
	}
	if (!data)
		return etmh_reserved; /* data headers need ETMCR[3:2] != 0 */
	if (b == 0x50)
		return etmh_store_failed;
	if (b == 0x62)
		return etmh_data_suppressed;
	if ((b & 0x93) == 0x00)
		return etmh_ooo_data; /* b0TT0SS00, TT != 0 */
	if ((b & 0xd3) == 0x50)
		return etmh_ooo_place; /* b01A1TT00, TT != 0 */
	if ((b & 0xd3) == 0x02)
		return etmh_data; /* b00A0SS10 */
	if ((b & 0xef) == 0x6a)
		return etmh_val_not_traced; /* b011A1010 */
	return etmh_reserved;
}

static void etm3_hdr_table(const struct etm_config *cfg, uint8_t hdr[256])
{
	int data = etm_cfg_data_trace(cfg);
	unsigned b;

	for (b = 0; b < 256; b++)
		hdr[b] = (uint8_t)etm3_classify(b, data);
}

/* Non-cycle-accurate P-header (§5.1): format 1 b1NEEEE00, format 2
 * b1000FF10. Bit i of atom_bits = 1 for N. */
static int phdr_plain(uint8_t h, struct etm_packet *pkt)
{
	unsigned e;

	if ((h & 0x83) == 0x80) {
		e = (h >> 2) & 0x0f;
		pkt->atom_count = (uint8_t)(e + ((h >> 6) & 1));
		pkt->atom_bits = (uint32_t)((h >> 6) & 1) << e;
		return 1;
	}
	if ((h & 0xf3) == 0x82) {
		pkt->atom_count = 2;
		pkt->atom_bits = ((h >> 3) & 1) | ((h >> 2) & 1) << 1;
		return 1;
	}
	return -etme_bad_opc;
}

/* Cycle-accurate P-header (§5.2): formats 0-4. */
static int phdr_ca(const struct etm_pktp *p, uint8_t h,
		   struct etm_packet *pkt)
{
	unsigned e, i, w;

	if (h == 0x80) { /* format 0: one W, v3.0 only */
		if (p->o.arch_minor != 0)
			return -etme_bad_opc;
		pkt->w_tail = 1;
	} else if ((h & 0xa3) == 0x80) { /* format 1: b1N0EEE00 */
		e = (h >> 2) & 7;
		pkt->atom_count = (uint8_t)(e + ((h >> 6) & 1));
		pkt->atom_bits = (uint32_t)((h >> 6) & 1) << e;
		for (i = 0; i < pkt->atom_count; i++)
			pkt->atom_w[i] = 1;
	} else if ((h & 0xf3) == 0x82) { /* format 2: W then 2 atoms */
		pkt->atom_count = 2;
		pkt->atom_bits = ((h >> 3) & 1) | ((h >> 2) & 1) << 1;
		pkt->atom_w[0] = 1;
	} else if ((h & 0xa3) == 0xa0) { /* format 3: b1E1WWW00 */
		w = ((h >> 2) & 7) + 1;
		if (h & 0x40) {
			pkt->atom_count = 1;
			pkt->atom_w[0] = (uint8_t)w;
		} else {
			pkt->w_tail = (uint8_t)w;
		}
	} else if ((h & 0xfb) == 0x92) { /* format 4: one atom, no W */
		if (p->o.arch_minor < 3)
			return -etme_bad_opc;
		pkt->atom_count = 1;
		pkt->atom_bits = (h >> 2) & 1;
	} else {
		return -etme_bad_opc;
	}
	return 1;
}

/* Exception information bytes 0-2 (§6.4, §6.6). */
static int etm3_exc(const uint8_t *b, size_t n, struct etm_brc *br)
{
	uint8_t e;
	size_t i = 1;

	if (n < 1)
		return -etme_again;
	e = b[0];
	br->has_exc = 1;
	br->has_state = 1;
	br->ns = e & 1;
	br->exc_num = (e >> 1) & 0x0f;
	br->cancel = (e >> 5) & 1;
	br->altisa = (e >> 6) & 1;
	if (!(e & 0x80))
		return 1;
	if (n < 2)
		return -etme_again;
	e = b[i++];
	if (!(e & 0x40)) { /* byte 1: C 0 H eeeee */
		br->hyp = (e >> 5) & 1;
		br->exc_num |= (uint16_t)((e & 0x1f) << 4);
		if (!(e & 0x80))
			return 2;
		if (n < 3)
			return -etme_again;
		e = b[i++];
	}
	br->resume = e & 0x0f; /* byte 2: 0 1 rr RRRR */
	return (int)i;
}

/* Deprecated inline exception codes (§6.2) mapped to the A/R numbers;
 * 000 follows OpenCSD's reading (reset). -1 = reserved. */
static const int8_t dep_exc[8] = { 8, 14, -1, -1, 5, 15, 4, 1 };

static int etm3_read_branch(const struct etm_pktp *p, const uint8_t *b,
			    size_t n, struct etm_brc *br,
			    struct etm_pkt_state *st, uint32_t *drop)
{
	unsigned flags = ETM_ADDR_DEPRECATED;
	struct etm_addr_res a;
	int r, i;

	if (p->o.alt_branch)
		flags |= ETM_ADDR_ALT;
	i = etm_brc_read_addr(b, n, flags, st, &a, drop);
	if (i < 0)
		return i;
	if (a.dep) {
		if (dep_exc[a.dep_code] < 0) {
			*drop = 5;
			return -etme_bad_packet;
		}
		br->has_exc = 1;
		br->exc_num = (uint16_t)dep_exc[a.dep_code];
		br->cancel = a.dep_cancel;
	}
	if (a.exc) {
		r = etm3_exc(b + i, n - i, br);
		if (r < 0)
			return r;
		i += r;
	}
	etm_brc_set_addr(br, &a, st);
	return i;
}

/* Cycle count field (§7): 7 bits per byte, 5th byte bits[3:0]. */
static int etm3_cc(const uint8_t *b, size_t n, uint32_t *v)
{
	uint32_t x = 0;
	unsigned i;

	for (i = 0; i < 4; i++) {
		if (i >= n)
			return -etme_again;
		x |= (uint32_t)(b[i] & 0x7f) << (7 * i);
		if (!(b[i] & 0x80)) {
			*v = x;
			return (int)i + 1;
		}
	}
	if (n < 5)
		return -etme_again;
	*v = x | (uint32_t)(b[4] & 0x0f) << 28;
	return 5;
}

/* Instruction-set state from the I-sync J/T/AltISA bits (§4.3). */
static enum etm_isa isync_isa(const struct etm_pktp *p, uint8_t info,
			      uint32_t *addr)
{
	if (info & 0x10)
		return etmi_jazelle; /* T bit is address bit 0 */
	if (!(*addr & 1))
		return etmi_a32;
	*addr &= ~1u;
	if (p->o.arch_minor >= 3 && (info & 0x04))
		return etmi_tee;
	return etmi_t32;
}

/* The I-sync's instruction address @addr (its 4 bytes) and state from
 * information byte @info, into @pkt and the compression state @st. */
static inline void isync_addr(const struct etm_pktp *p, uint8_t info,
			      uint32_t addr, struct etm_packet *pkt,
			      struct etm_pkt_state *st)
{
	pkt->jazelle = (info >> 4) & 1;
	pkt->altisa = p->o.arch_minor >= 3 ? (info >> 2) & 1 : 0;
	pkt->isa = isync_isa(p, info, &addr);
	pkt->isa_changed = 1;
	pkt->addr = addr;
	pkt->addr_bits = 32;
	st->addr = addr;
	st->isa = pkt->isa;
}

/* LSiP current-address field: a branch-style field merged against the
 * data-instruction address (§4.1). */
static int isync_lsip(const struct etm_pktp *p, const uint8_t *b, size_t n,
		      struct etm_packet *pkt, struct etm_pkt_state *st)
{
	struct etm_brc tmp;
	uint32_t drop;
	int r;

	memset(&tmp, 0, sizeof(tmp));
	r = etm3_read_branch(p, b, n, &tmp, st, &drop);
	if (r < 0) {
		pkt->size = drop;
		return r;
	}
	pkt->lsip = 1;
	pkt->lsip_next = tmp.addr;
	pkt->lsip_isa = tmp.isa;
	if (tmp.has_state) {
		pkt->ns = tmp.ns;
		pkt->hyp = tmp.hyp;
	}
	return r;
}

/* I-sync 0x08 / 0x70 (§4): [CC] CID info addr[4] [LSiP field]. */
static int etm3_isync(const struct etm_pktp *p, const uint8_t *b, size_t n,
		      struct etm_packet *pkt, struct etm_pkt_state *st)
{
	size_t i = 1, cid = p->o.ctxid_bytes;
	uint32_t addr;
	uint8_t info;
	int r;

	pkt->type = etmp_isync;
	if (b[0] == 0x70) {
		r = etm3_cc(b + 1, n - 1, &pkt->cycle_count);
		if (r < 0)
			return r;
		pkt->has_cc = 1;
		i += (size_t)r;
	}
	if (n < i + cid + 1)
		return -etme_again;
	etm_field_ctxid(b + i, n - i, cid, pkt);
	i += cid;
	info = b[i++];
	etm_field_isync_info(info, pkt);
	if (p->o.data_only)
		return (int)i;
	if (n < i + 4)
		return -etme_again;
	addr = etm_field_le(b + i, 4);
	i += 4;
	isync_addr(p, info, addr, pkt, st);
	if (!(info & 0x80))
		return (int)i;
	r = isync_lsip(p, b + i, n - i, pkt, st);
	if (r < 0) {
		pkt->size += (uint32_t)i;
		return r;
	}
	return (int)(i + (size_t)r);
}

/* Data address field (§13): 7 bits per byte, 5th byte A[31:28]. */
static int etm3_daddr(const uint8_t *b, size_t n, uint32_t *base)
{
	uint32_t v = 0, mask;
	unsigned i, bits = 0;

	for (i = 0; i < 5; i++) {
		if (i >= n)
			return -etme_again;
		if (i == 4) {
			v |= (uint32_t)(b[4] & 0x0f) << 28;
			bits = 32;
			break;
		}
		v |= (uint32_t)(b[i] & 0x7f) << (7 * i);
		bits += 7;
		if (!(b[i] & 0x80))
			break;
	}
	mask = bits >= 32 ? ~0u : (1u << bits) - 1;
	*base = (*base & ~mask) | (v & mask);
	return (int)i + 1;
}

/* Normal / out-of-order data, placeholder, value not traced (§13). */
static int etm3_data(const struct etm_pktp *p, enum etm_hdr h,
		     const uint8_t *b, size_t n, struct etm_packet *pkt,
		     struct etm_pkt_state *st)
{
	uint8_t c = b[0];
	unsigned ss = 0, a = 0;
	size_t i = 1;
	int r;

	switch (h) {
	case etmh_data:
		pkt->type = etmp_data;
		a = (c >> 5) & 1;
		ss = (c >> 2) & 3;
		break;
	case etmh_ooo_data:
		pkt->type = etmp_ooo_data;
		pkt->dtag = (c >> 5) & 3;
		ss = (c >> 2) & 3;
		break;
	case etmh_ooo_place:
		pkt->type = etmp_ooo_place;
		pkt->dtag = (c >> 2) & 3;
		a = (c >> 5) & 1;
		break;
	default:
		pkt->type = etmp_val_not_traced;
		a = (c >> 4) & 1;
		break;
	}
	if (a && p->o.data_addr) {
		r = etm3_daddr(b + 1, n - 1, &st->daddr);
		if (r < 0)
			return r;
		i += (size_t)r;
		pkt->has_daddr = 1;
		pkt->daddr = st->daddr;
	}
	if (ss) {
		if (n < i + ss_bytes[ss])
			return -etme_again;
		pkt->has_dvalue = 1;
		pkt->dvalue_size = ss_bytes[ss];
		pkt->dvalue = b[i];
		if (ss > 1)
			pkt->dvalue |= (uint32_t)b[i + 1] << 8;
		if (ss > 2)
			pkt->dvalue |= (uint32_t)b[i + 2] << 16 |
				       (uint32_t)b[i + 3] << 24;
		i += ss_bytes[ss];
	}
	return (int)i;
}

/* The data token's reader (etm_pkt_tok_data()): what etm3_read() gives
 * for these headers, every data field set. */
static int etm3_read_data(const struct etm_pktp *p, unsigned h,
			  const uint8_t *b, size_t n, struct etm_packet *pkt,
			  struct etm_pkt_state *st)
{
	pkt->dtag = 0;
	pkt->has_daddr = 0;
	pkt->daddr = 0;
	pkt->has_dvalue = 0;
	pkt->dvalue = 0;
	pkt->dvalue_size = 0;
	switch (h) {
	case etmh_data_suppressed:
		pkt->type = etmp_data_suppressed;
		return 1;
	case etmh_store_failed:
		pkt->type = etmp_store_failed;
		return 1;
	default:
		return etm3_data(p, (enum etm_hdr)h, b, n, pkt, st);
	}
}

static int etm3_timestamp(const struct etm_pktp *p, const uint8_t *b,
			  size_t n, struct etm_packet *pkt,
			  struct etm_pkt_state *st)
{
	/* timestamps exist from ETMv3.5 and only with ETMCR[28] set (IHI
	 * 0014Q §7.3.7): else the header is an error, not a timestamp */
	if (!p->o.ts_ok) {
		pkt->size = 1;
		return -etme_bad_timestamp;
	}
	return etm_field_ts_pkt(b, n, p->o.ts64, p->o.ts_binary, &st->ts, pkt);
}

static int etm3_simple(const struct etm_pktp *p, enum etm_hdr h,
		       const uint8_t *b, size_t n, struct etm_packet *pkt)
{
	static const uint8_t type[] = {
		[etmh_trigger] = etmp_trigger,
		[etmh_exc_return] = etmp_exc_return,
		[etmh_exc_entry] = etmp_exc_entry,
		[etmh_ignore] = etmp_ignore,
		[etmh_data_suppressed] = etmp_data_suppressed,
		[etmh_store_failed] = etmp_store_failed,
	};
	size_t cid = p->o.ctxid_bytes;

	switch (h) {
	case etmh_vmid:
		return etm_field_vmid_pkt(b, n, pkt);
	case etmh_ctxid:
		return etm_field_ctxid_pkt(b, n, cid, pkt);
	case etmh_cycle_count: {
		int r = etm3_cc(b + 1, n - 1, &pkt->cycle_count);

		if (r < 0)
			return r;
		pkt->type = etmp_cycle_count;
		pkt->has_cc = 1;
		return r + 1;
	}
	default:
		break;
	}
	pkt->type = (enum etm_pkt_type)type[h];
	return 1;
}

static int etm3_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		     struct etm_packet *pkt, struct etm_pkt_state *st)
{
	enum etm_hdr h = (enum etm_hdr)p->hdr[b[0]];
	int r;

	switch (h) {
	case etmh_atom:
		pkt->type = etmp_atom;
		r = p->o.cycle_acc ? phdr_ca(p, b[0], pkt) : phdr_plain(b[0], pkt);
		break;
	case etmh_branch:
		r = etm_pktp_read_branch(p, b, n, pkt, st);
		break;
	case etmh_isync:
	case etmh_isync_cc:
		r = etm3_isync(p, b, n, pkt, st);
		break;
	case etmh_timestamp:
		r = etm3_timestamp(p, b, n, pkt, st);
		break;
	case etmh_data:
	case etmh_ooo_data:
	case etmh_ooo_place:
	case etmh_val_not_traced:
		r = etm3_data(p, h, b, n, pkt, st);
		break;
	case etmh_trigger:
	case etmh_exc_return:
	case etmh_exc_entry:
	case etmh_ignore:
	case etmh_data_suppressed:
	case etmh_store_failed:
	case etmh_vmid:
	case etmh_ctxid:
	case etmh_cycle_count:
		r = etm3_simple(p, h, b, n, pkt);
		break;
	default:
		r = -etme_bad_opc; /* the core drops the header byte */
		break;
	}
	return r;
}

const struct etm_pkt_proto etm_etm3_proto = {
	.proto = etm_proto_etmv3,
	.hdr_table = etm3_hdr_table,
	.read = etm3_read,
	.read_branch = etm3_read_branch,
	.read_data = etm3_read_data,
	/* atoms: the one-byte P-headers; no cycle count after addresses */
};

/* ---- the sync token (etm_pkt_tok_sync()) ---------------------------------
 * The packets between the runs of P-headers and branch addresses - on TC2
 * the periodic and trace-on I-syncs, timestamps, exception returns - read
 * in place from the chunk, without the general path's queue, packet copy
 * and generic field readers: the packet etm_pkt_next() would give, or
 * nothing (that path then gives it). */

/* The I-sync at @b (@n bytes of the chunk) in its common form - no LSiP
 * field, instruction trace - into @pkt (zeroed) as etm3_isync() reads it,
 * with the compression state into @st: its size, or 0 (cut by the end of
 * the chunk, or another form). */
static int tok_isync(const struct etm_pktp *p, const uint8_t *b, size_t n,
		     struct etm_packet *pkt, struct etm_pkt_state *st)
{
	size_t i = 1, cid = p->o.ctxid_bytes, k;
	uint32_t addr, ctxid = 0;
	uint8_t info;
	int r;

	if (b[0] == 0x70) {
		r = etm3_cc(b + 1, n - 1, &pkt->cycle_count);
		if (r < 0)
			return 0;
		pkt->has_cc = 1;
		i += (size_t)r;
	}
	if (n < i + cid + 5)
		return 0;
	for (k = 0; k < cid; k++)
		ctxid |= (uint32_t)b[i + k] << (8 * k);
	pkt->has_ctxid = cid != 0;
	pkt->ctxid = ctxid;
	i += cid;
	info = b[i];
	if (info & 0x80)
		return 0; /* LSiP */
	etm_field_isync_info(info, pkt);
	addr = (uint32_t)b[i + 1] | (uint32_t)b[i + 2] << 8 |
	       (uint32_t)b[i + 3] << 16 | (uint32_t)b[i + 4] << 24;
	isync_addr(p, info, addr, pkt, st);
	return (int)(i + 5);
}

/* Whether an A-sync completes inside the @r bytes of the packet at @b (@n
 * readable): the packet is then bad (etm_pktp_read()'s rule). */
static int tok_has_async(const uint8_t *b, size_t r, size_t n)
{
	uint64_t z = 0;

	if (r < ETM_ASYNC_ZEROS + 2)
		return 0;
	if (n >= ETM_ASYNC_WIN)
		return etm_async_end32(b, r) != 0;
	return etm_async_find(b + 1, r - 1, &z) < r - 1;
}

/* The A-sync at @b (@n bytes of the chunk): five or more 0x00 then 0x80,
 * all in the chunk, into @pkt as the zero run's reader (packet/sync.c)
 * gives it: its size, or 0 (a run the chunk cuts, or a broken one). */
static int tok_async(const uint8_t *b, size_t n, struct etm_packet *pkt)
{
	size_t k = 1;

	while (k < n && b[k] == 0x00)
		k++;
	if (k >= n || b[k] != 0x80 || k < ETM_ASYNC_ZEROS ||
	    k >= ETM_PKT_ASM_MAX)
		return 0;
	pkt->type = etmp_async;
	return (int)k + 1;
}

/* The packet at @b of header class @h read into @pkt: its size, or 0. */
static int tok_sync_read(const struct etm_pktp *p, unsigned h,
			 const uint8_t *b, size_t n, struct etm_packet *pkt,
			 struct etm_pkt_state *st)
{
	int r;

	switch (h) {
	case etmh_isync:
	case etmh_isync_cc:
		return p->o.data_only ? 0 : tok_isync(p, b, n, pkt, st);
	case etmh_timestamp:
		r = etm3_timestamp(p, b, n, pkt, st);
		break;
	case etmh_trigger:
	case etmh_exc_return:
	case etmh_exc_entry:
	case etmh_ignore:
	case etmh_vmid:
	case etmh_ctxid:
	case etmh_cycle_count:
		r = etm3_simple(p, (enum etm_hdr)h, b, n, pkt);
		break;
	default:
		return 0;
	}
	return r > 0 ? r : 0;
}

int etm_pkt_tok_sync(struct etm_pkt_decoder *pd, struct etm_packet *pkt)
{
	struct etm_pktp *p = &pd->core;
	struct etm_pkt_state st;
	const uint8_t *b;
	size_t n;
	int r;

	/* (etm_pkt_tok_ready()) */
	if (p->pos >= p->len || p->mode != etm_pm_sync || p->asm_len ||
	    p->qi < p->qn || p->ops != &etm_etm3_proto)
		return 0;
	b = p->buf + p->pos;
	n = p->len - p->pos;
	st = p->st;
	etm_zero(pkt, sizeof(*pkt));
	if (b[0] == 0x00)
		r = tok_async(b, n, pkt);
	else if ((r = tok_sync_read(p, p->hdr[b[0]], b, n, pkt, &st)) > 0 &&
		 tok_has_async(b, (size_t)r, n))
		r = 0;
	if (r <= 0)
		return 0;
	return etm_pktp_tok_take(p, &st, pkt, r);
}
