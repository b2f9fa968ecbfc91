/* packet/pktbuf.c - the push/next engine shared by the ETMv3 and PTM parsers:
 * parses in place from the borrowed chunk, assembles straddling packets. */
#include <stdint.h>
#include <string.h>

#include "common/zero.h"
#include "common/sbuf.h"
#include "packet/brshort.h"
#include "packet/pktbuf.h"
#include "packet/sync.h"

#include <etmtrace/error.h>

static void opts_init(struct etm_pkt_opts *o, const struct etm_config *cfg)
{
	o->cycle_acc = (uint8_t)etm_cfg_cycle_acc(cfg);
	o->ctxid_bytes = (uint8_t)etm_cfg_ctxid_bytes(cfg);
	o->alt_branch = (uint8_t)etm_cfg_alt_branch(cfg);
	o->ts64 = (uint8_t)etm_cfg_ts_64bit(cfg);
	o->ts_binary = (uint8_t)etm_cfg_ts_binary(cfg);
	o->data_addr = (uint8_t)etm_cfg_data_addr(cfg);
	o->data_only = (uint8_t)etm_cfg_data_only(cfg);
	/* An unknown ETMIDR (0) is taken as the newest version (v3.5). */
	o->arch_minor = cfg->etmidr ? (uint8_t)etm_cfg_arch_minor(cfg) : 5;
	o->ts_ok = (uint8_t)(etm_cfg_timestamps(cfg) && o->arch_minor >= 5);
	o->id = (uint8_t)etm_cfg_trace_id(cfg);
}

static int read_pkt(const struct etm_pktp *p, const uint8_t *b, size_t n,
		    struct etm_packet *pkt, struct etm_pkt_state *st);

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
static void rec_table(struct etm_pktp *p)
{
	struct etm_packet pkt;
	unsigned b;

	for (b = 1; b < 256; b++) {
		struct etm_pkt_state st = p->st;
		uint8_t byte = (uint8_t)b;

		p->rok[b] = 0;
		etm_zero(&pkt, sizeof(pkt));
		if (read_pkt(p, &byte, 1, &pkt, &st) != 1 ||
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

/* Atom packets complete in one byte that leave the state alone. */
static void atom_table(struct etm_pktp *p)
{
	unsigned b, k;

	rec_table(p);
	for (b = 1; b < 256; b++) {
		struct etm_packet *pkt = &p->atab[b];
		struct etm_pkt_state st = p->st;
		uint8_t byte = (uint8_t)b;

		p->aok[b] = 0;
		if (p->hdr[b] != etmh_atom)
			continue;
		etm_zero(pkt, sizeof(*pkt));
		if (read_pkt(p, &byte, 1, pkt, &st) != 1 ||
		    pkt->type != etmp_atom || st.addr != p->st.addr ||
		    st.isa != p->st.isa || st.ts != p->st.ts ||
		    st.daddr != p->st.daddr)
			continue;
		pkt->id = p->o.id;
		pkt->size = 1;
		pkt->raw_len = 1;
		pkt->raw[0] = byte;
		p->aok[b] = pkt->atom_count <= ETM_PKT_MAX_ATOMS;
		p->ac[b].n = pkt->atom_count;
		p->ac[b].w_tail = pkt->w_tail;
		p->ac[b].bits = (uint16_t)(pkt->atom_bits &
					   ((1u << pkt->atom_count) - 1));
		for (k = 0; k < ETM_PKT_MAX_ATOMS; k++)
			p->ac[b].w[k] = pkt->atom_w[k];
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

/* The packets of a run are added without branches on their kind (W-only
 * packets are as common as atom packets and in no predictable order):
 * every packet's slot in apk/ppos/w is written, and kept only if it has
 * atoms. The cycle-accurate and the other loop are separate, and the
 * usual reason not to start (the next byte is not an atom packet) is
 * checked first. */
unsigned etm_pktp_atom_run(struct etm_pktp *p, struct etm_atom_run *r,
			   unsigned maxpk)
{
	const uint8_t *buf = p->buf;
	size_t pos = p->pos, len = p->len, end;
	unsigned n = 0, nap = 0, has;
	uint32_t wacc = 0;
	uint64_t bits = 0;

	if (pos >= len || !p->aok[buf[pos]] || p->mode != etm_pm_sync ||
	    p->asm_len || p->qi < p->qn)
		return 0;
	if (p->map && p->mapi < p->nmap && p->map[p->mapi].pos > pos)
		p->mapi = 0; /* the cursor only moves forwards */
	r->map = p->map;
	r->nmap = p->nmap;
	r->mapi = p->mapi;
	r->off0 = p->off;
	if (maxpk > 0xffff / 8)
		maxpk = 0xffff / 8; /* W counts fit in w[] */
	end = len - pos > maxpk ? pos + maxpk : len;
	if (!p->o.cycle_acc) {
		do {
			const struct etm_atomc *a = &p->ac[buf[pos]];

			if (n + a->n > ETM_ATOM_RUN_MAX)
				break;
			memset(&r->apk[n], (int)nap, ETM_PKT_MAX_ATOMS);
			r->ppos[nap] = pos;
			/* n = 64 only before a W-only packet (bits 0) */
			bits |= (uint64_t)a->bits << (n & 63);
			nap += a->n != 0;
			n += a->n;
			pos++;
		} while (pos < end && p->aok[buf[pos]]);
	} else {
		do {
			const struct etm_atomc *a = &p->ac[buf[pos]];
			uint64_t rep = nap * 0x0101010101010101ull;

			if (n + a->n > ETM_ATOM_RUN_MAX)
				break;
			has = a->n != 0;
			if (a->n <= 8) {
				/* cycle-accurate P-headers have at most 8 */
				memcpy(&r->apk[n], &rep, 8);
				memcpy(&r->w[n], a->w, 8 * sizeof(a->w[0]));
			} else {
				memset(&r->apk[n], (int)nap, ETM_PKT_MAX_ATOMS);
				memcpy(&r->w[n], a->w, sizeof(a->w));
			}
			r->ppos[nap] = pos;
			bits |= (uint64_t)a->bits << (n & 63);
			r->w[n] = (uint16_t)(r->w[n] + wacc);
			/* wacc = has ? w_tail : wacc + w_tail, without a branch
			 * (W-only and atom packets come in no predictable order) */
			wacc = (wacc & ((uint32_t)has - 1)) + a->w_tail;
			nap += has;
			n += a->n;
			pos++;
		} while (pos < end && p->aok[buf[pos]]);
	}
	r->npkt = (unsigned)(pos - p->pos);
	p->pos = pos;
	r->n = n;
	r->nap = nap;
	r->bits = bits;
	r->w_tail = wacc;
	return r->npkt;
}

void etm_brc_to_pkt(const struct etm_brc *br, struct etm_packet *pkt)
{
	pkt->addr = br->addr;
	pkt->addr_bits = br->addr_bits;
	pkt->isa = br->isa;
	pkt->isa_changed = br->isa_changed;
	pkt->has_exc = br->has_exc;
	pkt->exc_num = br->exc_num;
	pkt->cancel = br->cancel;
	pkt->resume = br->resume;
	pkt->has_state = br->has_state;
	pkt->ns = br->ns;
	pkt->hyp = br->hyp;
	pkt->altisa = br->altisa;
	pkt->jazelle = br->jazelle;
	pkt->has_cc = br->has_cc;
	pkt->cycle_count = br->cycle_count;
}

void etm_brc_from_pkt(struct etm_brc *br, const struct etm_packet *pkt)
{
	br->offset = pkt->offset;
	br->addr = pkt->addr;
	br->addr_bits = pkt->addr_bits;
	br->isa = pkt->isa;
	br->isa_changed = pkt->isa_changed;
	br->has_exc = pkt->has_exc;
	br->exc_num = pkt->exc_num;
	br->cancel = pkt->cancel;
	br->resume = pkt->resume;
	br->has_state = pkt->has_state;
	br->ns = pkt->ns;
	br->hyp = pkt->hyp;
	br->altisa = pkt->altisa;
	br->jazelle = pkt->jazelle;
	br->has_cc = pkt->has_cc;
	br->cycle_count = pkt->cycle_count;
}

/* Clear @br with vector stores (memset of this size may become "rep
 * stos", or a call). */
static inline void brc_clear(struct etm_brc *br)
{
	char *c = (char *)br;

	_Static_assert(sizeof(*br) > 32 && sizeof(*br) <= 48, "etm_brc size");
	memset(c, 0, 16);
	memset(c + 16, 0, 16);
	memset(c + 32, 0, sizeof(*br) - 32);
}

/* etm_br_short() into @br (cleared here). */
static inline __attribute__((always_inline)) int branch_short(const struct etm_pktp *p, const uint8_t *b, size_t n,
							      struct etm_brc *br, int alt)
{
	struct etm_br_short o;
	int r = etm_br_short(p->st.addr, p->st.isa, b, n, alt, &o);

	if (r <= 0)
		return 0;
	brc_clear(br);
	br->addr = o.addr;
	br->isa = o.isa;
	br->addr_bits = o.addr_bits;
	br->isa_changed = o.isa_changed;
	return r;
}

/* The PTM cycle count field that follows a branch address in
 * cycle-accurate trace, as ptm_pkt.c reads it: bits [5:2] of the first
 * byte, bit 6 to go on, then 7 bits a byte while bit 7 is set, at most 5
 * bytes. Returns the size, or 0 when cut. */
static inline int ptm_cc_short(const uint8_t *b, size_t n, uint32_t *v)
{
	uint32_t x;
	unsigned i;

	if (n < 1)
		return 0;
	x = (b[0] >> 2) & 0x0f;
	if (!(b[0] & 0x40)) {
		*v = x;
		return 1;
	}
	for (i = 1; i < 5; i++) {
		if (i >= n)
			return 0;
		x |= (uint32_t)(b[i] & 0x7f) << (4 + 7 * (i - 1));
		if (!(b[i] & 0x80))
			break;
	}
	*v = x;
	return i < 5 ? (int)i + 1 : 5;
}

/* branch_short() for the parser's protocol, with the PTM cycle count. */
static inline int fast_branch_short(const struct etm_pktp *p,
				    const uint8_t *b, size_t n,
				    struct etm_brc *br)
{
	int r, c;

	if (p->proto != etm_proto_ptm)
		return p->o.alt_branch ? branch_short(p, b, n, br, 1) :
					 branch_short(p, b, n, br, 0);
	r = branch_short(p, b, n, br, 1);
	if (r <= 0 || !p->o.cycle_acc)
		return r;
	c = ptm_cc_short(b + r, n - (size_t)r, &br->cycle_count);
	if (!c)
		return 0;
	br->has_cc = 1;
	return r + c;
}

int etm_pktp_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			 struct etm_packet *pkt, struct etm_pkt_state *st)
{
	struct etm_brc br;
	uint32_t drop;
	int r;

	memset(&br, 0, sizeof(br));
	if (p->proto == etm_proto_ptm)
		r = etm_ptm_read_branch(p, b, n, &br, st, &drop);
	else
		r = etm_etm3_read_branch(p, b, n, &br, st, &drop);
	if (r < 0) {
		pkt->size = drop;
		return r;
	}
	pkt->type = etmp_branch;
	etm_brc_to_pkt(&br, pkt);
	return r;
}

int etm_pktp_fast_branch(struct etm_pktp *p, struct etm_brc *br)
{
	const uint8_t *b;
	size_t n = p->len - p->pos;
	struct etm_pkt_state st;
	uint32_t drop;
	int r;

	/* (no pointer arithmetic on a NULL buffer before the length check:
	 * clang's UBSan reports NULL + 0) */
	if (p->pos >= p->len)
		return 0;
	b = p->buf + p->pos;
	if (p->mode != etm_pm_sync || p->asm_len || p->qi < p->qn ||
	    p->hdr[b[0]] != etmh_branch)
		return 0;
	if ((r = fast_branch_short(p, b, n, br)) > 0) {
		p->st.addr = (uint32_t)br->addr;
		p->st.isa = br->isa;
		br->offset = etm_pktp_off(p, p->pos);
		p->pos += (size_t)r;
		return 1;
	}
	brc_clear(br);
	st = p->st;
	if (p->proto == etm_proto_ptm)
		r = etm_ptm_read_branch(p, b, n, br, &st, &drop);
	else
		r = etm_etm3_read_branch(p, b, n, br, &st, &drop);
	if (r <= 0)
		return 0; /* cut by the end of the chunk, or bad */
	p->st.addr = st.addr;
	p->st.isa = st.isa;
	br->offset = etm_pktp_off(p, p->pos);
	p->pos += (size_t)r;
	return 1;
}

int etm_pktp_fast_patom(struct etm_pktp *p, struct etm_patom *a)
{
	const uint8_t *b;
	int r;

	if (p->pos >= p->len)
		return 0;
	b = p->buf + p->pos;
	if (p->mode != etm_pm_sync || p->asm_len || p->qi < p->qn ||
	    p->proto != etm_proto_ptm || p->hdr[b[0]] != etmh_atom)
		return 0;
	r = etm_ptm_read_atom(p, b, p->len - p->pos, a);
	if (r <= 0)
		return 0; /* cut by the end of the chunk, or bad */
	a->offset = etm_pktp_off(p, p->pos);
	p->pos += (size_t)r;
	return 1;
}

void etm_pktp_init(struct etm_pktp *p, const struct etm_config *cfg)
{
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->proto = cfg->protocol;
	opts_init(&p->o, cfg);
	if (p->proto == etm_proto_ptm)
		etm_ptm_hdr_table(cfg, p->hdr);
	else
		etm_etm3_hdr_table(cfg, p->hdr);
	etm_pktp_reset(p);
	atom_table(p);
}

void etm_pktp_reset(struct etm_pktp *p)
{
	memset(&p->st, 0, sizeof(p->st));
	p->st.isa = etmi_unknown;
	p->buf = NULL;
	p->len = p->pos = 0;
	p->off = 0;
	p->map = NULL;
	p->nmap = p->mapi = 0;
	p->rel = NULL;
	p->asm_len = 0;
	p->mode = etm_pm_search;
	p->zrun = 0;
	memset(&p->ns, 0, sizeof(p->ns));
	p->qn = p->qi = 0;
	p->finished = 0;
}

int etm_pktp_push(struct etm_pktp *p, const uint8_t *buf, size_t n,
		  uint64_t offset)
{
	if (!p || (!buf && n))
		return -etme_invalid;
	if (p->pos < p->len)
		return -etme_busy;
	if (p->finished)
		return -etme_invalid;
	p->buf = buf;
	p->len = n;
	p->pos = 0;
	p->off = offset;
	p->map = NULL;
	p->nmap = p->mapi = 0;
	p->rel = NULL;
	return 0;
}

int etm_pktp_push_map(struct etm_pktp *p, const uint8_t *buf, size_t n,
		      const struct etm_offseg *map, size_t nmap)
{
	int err;

	if (!map || !nmap || map[0].pos)
		return -etme_invalid;
	err = etm_pktp_push(p, buf, n, map[0].off);
	if (err < 0)
		return err;
	p->map = map;
	p->nmap = nmap;
	return 0;
}

int etm_pktp_push_rel(struct etm_pktp *p, const uint8_t *buf, size_t n,
		      const struct etm_offseg *map, size_t nmap,
		      const uint32_t *rel, uint64_t rel_base)
{
	int err = etm_pktp_push_map(p, buf, n, map, nmap);

	if (err < 0)
		return err;
	p->rel = rel;
	p->rel_base = rel_base;
	return 0;
}

int etm_pktp_finish(struct etm_pktp *p)
{
	if (!p)
		return -etme_invalid;
	p->finished = 1;
	return 0;
}

static int read_proto(const struct etm_pktp *p, const uint8_t *b, size_t n,
		      struct etm_packet *pkt, struct etm_pkt_state *st)
{
	if (p->proto == etm_proto_ptm)
		return etm_ptm_read(p, b, n, pkt, st);
	return etm_etm3_read(p, b, n, pkt, st);
}

/* Index of the 0x80 that completes an A-sync (>= 5 x 0x00 then 0x80) in
 * b[1..n), or 0 if there is none. */
static size_t async_end(const uint8_t *b, size_t n)
{
	size_t i, z = 0;

	for (i = 1; i < n; i++) {
		if (b[i] == 0x00) {
			z++;
		} else if (b[i] == 0x80 && z >= ETM_ASYNC_ZEROS) {
			return i;
		} else {
			z = 0;
		}
	}
	return 0;
}

/* Read one packet. The A-sync bit pattern "can occur only as the result of
 * an A-sync packet" (IHI 0035B §4.5.1; the same rule for ETMv3, our
 * docs/etmv3.md §3: "scan for it"), so a packet whose bytes would hold one
 * was begun by a corrupted byte - typically a bit flip that made an I-sync
 * or Context ID header, whose fixed-size payload then swallows the real
 * A-sync and the I-sync after it, losing the trace until the next A-sync.
 * Such a packet is reported bad with size 1, so the search for A-sync goes
 * on from the byte after its header and finds the A-sync. Whichever comes
 * first in byte order wins: the reader's own verdict (a complete packet or
 * an error) within the bytes before the A-sync completes, or the A-sync;
 * this keeps the result independent of how the input is chunked. Packets
 * of valid trace never hold the pattern, so valid trace is unaffected. */
static int read_pkt(const struct etm_pktp *p, const uint8_t *b, size_t n,
		    struct etm_packet *pkt, struct etm_pkt_state *st)
{
	struct etm_pkt_state st0 = *st;
	int r = read_proto(p, b, n, pkt, st);
	size_t span = r > 0 ? (size_t)r : n, e;

	if (span > ETM_PKT_ASM_MAX)
		span = ETM_PKT_ASM_MAX;
	if (span < ETM_ASYNC_ZEROS + 2)
		return r;
	e = async_end(b, span);
	if (!e)
		return r;
	if (r < 0 && r != -etme_again) {
		/* did the reader find its error before the A-sync ended? */
		*st = st0;
		r = read_proto(p, b, e, pkt, st);
		if (r != -etme_again)
			return r;
	}
	*st = st0;
	etm_zero(pkt, sizeof(*pkt));
	pkt->size = 1;
	return -etme_bad_packet;
}

/* Complete @pkt (reader result @r over @bytes at @offset); commit the state
 * or, for an error, keep only the error fields and start searching. Returns
 * the number of bytes the packet covers. */
static size_t complete(struct etm_pktp *p, struct etm_packet *pkt,
		       const uint8_t *bytes, size_t avail, int r,
		       uint64_t offset, const struct etm_pkt_state *st)
{
	size_t size;

	if (r > 0) {
		size = (size_t)r;
		p->st = *st;
	} else {
		size = pkt->size;
		if (size == 0)
			size = 1;
		if (size > avail)
			size = avail;
		etm_zero(pkt, sizeof(*pkt));
		pkt->type = etmp_error;
		pkt->err = r == -etme_again ? etme_internal : -r;
		p->mode = etm_pm_search;
	}
	pkt->id = p->o.id;
	pkt->offset = offset;
	pkt->size = (uint32_t)size;
	pkt->raw_len = size > ETM_PKT_MAX_RAW ? ETM_PKT_MAX_RAW : (uint8_t)size;
	memcpy(pkt->raw, bytes, pkt->raw_len);
	return size;
}

/* The next @k bytes of the chunk (at p->pos) join the assembly buffer,
 * whose bytes already are in asmb: note their input offsets. */
static void asm_offsets(struct etm_pktp *p, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		p->asm_offs[p->asm_len + i] = etm_pktp_off(p, p->pos + i);
	p->asm_len += k;
}

/* An A-sync found inside a packet assembled across pushes (read_pkt): the
 * packet was dropped with its first @from bytes only, and the search for
 * A-sync goes on over asmb[from..to) - bytes of earlier pushes - before
 * the current chunk, as it would have had the input come in one piece.
 * (The A-sync itself cannot end within those bytes: the reader would have
 * been stopped there already.) */
static void replay_search(struct etm_pktp *p, size_t from, size_t to)
{
	struct etm_offseg seg[ETM_PKT_ASM_MAX];
	const uint8_t *buf = p->buf;
	const struct etm_offseg *map = p->map;
	size_t len = p->len, pos = p->pos, nmap = p->nmap, mapi = p->mapi;
	uint64_t off = p->off;
	size_t i, ns = 0;

	for (i = from; i < to; i++)
		if (i == from || p->asm_offs[i] != p->asm_offs[i - 1] + 1) {
			seg[ns].pos = i - from;
			seg[ns++].off = p->asm_offs[i];
		}
	p->buf = p->asmb + from;
	p->len = to - from;
	p->pos = 0;
	p->map = seg;
	p->nmap = ns;
	p->mapi = 0;
	p->off = ns ? seg[0].off : 0;
	while (p->pos < p->len &&
	       p->qn < sizeof(p->q) / sizeof(p->q[0]))
		etm_sync_search(p);
	p->buf = buf;
	p->len = len;
	p->pos = pos;
	p->map = map;
	p->nmap = nmap;
	p->mapi = mapi;
	p->off = off;
}

/* A packet begins in the current chunk. With @direct (the caller's packet,
 * the queue being empty) it is decoded in place: returns 2. */
static int step_fresh(struct etm_pktp *p, struct etm_packet *direct)
{
	const uint8_t *b = p->buf + p->pos;
	size_t n = p->len - p->pos;
	struct etm_pkt_state st = p->st;
	struct etm_packet *pkt;
	int r;

	if (b[0] == 0x00) {
		p->mode = etm_pm_zrun;
		p->zrun = 0;
		p->zrun_off = etm_pktp_off(p, p->pos);
		return etm_sync_zrun(p);
	}
	if (direct) {
		pkt = direct;
		etm_zero(pkt, sizeof(*pkt));
	} else {
		pkt = etm_sync_slot(p);
	}
	r = read_pkt(p, b, n, pkt, &st);
	if (r == -etme_again && n < ETM_PKT_ASM_MAX) {
		if (!direct)
			p->qn--;
		memcpy(p->asmb, b, n);
		p->asm_len = 0;
		asm_offsets(p, n);
		p->asm_off = p->asm_offs[0];
		p->pos = p->len;
		return 0;
	}
	p->pos += complete(p, pkt, b, n, r, etm_pktp_off(p, p->pos), &st);
	return direct ? 2 : 1;
}

/* Continue a packet held in the assembly buffer with bytes of this chunk.
 * Readers are monotonic, so a result always covers more than the bytes
 * assembled before. */
static int step_asm(struct etm_pktp *p)
{
	size_t old = p->asm_len, k = ETM_PKT_ASM_MAX - old, size;
	struct etm_pkt_state st = p->st;
	struct etm_packet *pkt;
	int r;

	if (k > p->len - p->pos)
		k = p->len - p->pos;
	if (k == 0)
		return 0;
	memcpy(p->asmb + old, p->buf + p->pos, k);
	pkt = etm_sync_slot(p);
	r = read_pkt(p, p->asmb, old + k, pkt, &st);
	if (r == -etme_again && old + k < ETM_PKT_ASM_MAX) {
		p->qn--;
		asm_offsets(p, k);
		p->pos += k;
		return 0;
	}
	size = complete(p, pkt, p->asmb, old + k, r, p->asm_off, &st);
	p->asm_len = 0;
	if (size < old)
		replay_search(p, size, old);
	p->pos += size > old ? size - old : 0;
	return 1;
}

/* Produce packets into the queue (returns 1) or into @direct (returns 2);
 * 0 if input is needed. */
static int step(struct etm_pktp *p, struct etm_packet *direct)
{
	switch (p->mode) {
	case etm_pm_search:
		return etm_sync_search(p);
	case etm_pm_zrun:
		return etm_sync_zrun(p);
	case etm_pm_sync:
		break;
	}
	if (p->asm_len)
		return step_asm(p);
	if (p->pos >= p->len)
		return 0;
	return step_fresh(p, direct);
}

/* End of data: a packet cut short, a pending notsync run or zero run. */
static int flush_end(struct etm_pktp *p)
{
	struct etm_packet *pkt;

	if (p->mode == etm_pm_sync && p->asm_len) {
		pkt = etm_sync_slot(p);
		pkt->type = etmp_error;
		pkt->err = etme_truncated;
		pkt->offset = p->asm_off;
		pkt->size = (uint32_t)p->asm_len;
		pkt->raw_len = (uint8_t)p->asm_len;
		memcpy(pkt->raw, p->asmb, p->asm_len);
		p->asm_len = 0;
		p->mode = etm_pm_search;
		return 1;
	}
	return etm_sync_flush(p);
}

int etm_pktp_next(struct etm_pktp *p, struct etm_packet *pkt, size_t size)
{
	struct etm_packet *direct;
	int r;

	if (!p || !pkt || !size)
		return -etme_invalid;
	direct = size >= sizeof(*pkt) ? pkt : NULL;
	for (;;) {
		if (p->qi < p->qn) {
			if (size > sizeof(*pkt))
				size = sizeof(*pkt);
			memcpy(pkt, &p->q[p->qi++], size);
			return 0;
		}
		p->qi = p->qn = 0;
		r = step(p, direct);
		if (r == 2)
			return 0;
		if (r)
			continue;
		if (!p->finished) {
			/* chunk consumed: the caller may push the next one */
			p->buf = NULL;
			p->pos = p->len = 0;
			p->map = NULL;
			p->rel = NULL;
			return -etme_again;
		}
		if (flush_end(p))
			continue;
		return -etme_eos;
	}
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
	struct etm_pkt_state st;
	struct off_cursor c;
	struct etm_patom pa;
	struct etm_brc br;
	uint32_t drop;
	int k, hk;

	if (how == ro_map)
		cursor_init(&c, p);
	while (n < max && pos < len) {
		lim = max - n < len - pos ? max - n : len - pos;
		/* two per iteration: half the loop overhead */
		for (i = 0; i + 1 < lim; i += 2) {
			uint8_t b0 = buf[pos + i], b1 = buf[pos + i + 1];

			recs[n + i] = rt[b0];
			recs[n + i].offset = rec_off(rel, base, &c, how,
						     pos + i);
			if (!rok[b0])
				goto stop;
			recs[n + i + 1] = rt[b1];
			recs[n + i + 1].offset = rec_off(rel, base, &c, how,
							 pos + i + 1);
			if (!rok[b1]) {
				i++;
				goto stop;
			}
		}
		if (i < lim) {
			uint8_t b = buf[pos + i];

			recs[n + i] = rt[b];
			recs[n + i].offset = rec_off(rel, base, &c, how,
						     pos + i);
			i += rok[b] != 0;
		}
	stop:
		n += i;
		pos += i;
		if (i == lim)
			break;
		hk = p->hdr[buf[pos]];
		if (hk == etmh_atom && p->proto == etm_proto_ptm) {
			/* a PTM atom with a cycle count (what
			 * etm_pktp_fast_patom() does, offset found here) */
			k = etm_ptm_read_atom(p, buf + pos, len - pos, &pa);
			if (k <= 0)
				break;
			pa.offset = rec_off(rel, base, &c, how, pos);
			rec_patom(&recs[n++], &pa, p->o.id, k);
			pos += (size_t)k;
			continue;
		}
		if (hk != etmh_branch)
			break;
		/* a branch (what etm_pktp_fast_branch() does) */
		memset(&br, 0, sizeof(br));
		st = p->st;
		k = p->proto == etm_proto_ptm ?
			    etm_ptm_read_branch(p, buf + pos, len - pos, &br, &st,
						&drop) :
			    etm_etm3_read_branch(p, buf + pos, len - pos, &br, &st,
						 &drop);
		if (k <= 0)
			break; /* cut by the end of the chunk, or bad */
		p->st.addr = st.addr;
		p->st.isa = st.isa;
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
	k = read_pkt(p, p->buf + p->pos, p->len - p->pos, pkt, &st);
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
	}
	return (int)n;
}

void etm_pktp_save(const struct etm_pktp *p, struct etm_sbuf *s)
{
	etm_sbuf_u8(s, p->mode);
	etm_sbuf_u8(s, p->finished);
	etm_sbuf_u32(s, p->st.addr);
	etm_sbuf_u8(s, p->st.isa);
	etm_sbuf_u64(s, p->st.ts);
	etm_sbuf_u32(s, p->st.daddr);
	/* unread input and queued packets (none between pushes) */
	etm_sbuf_u64(s, p->len - p->pos);
	etm_sbuf_u8(s, p->qn - p->qi);
	etm_sbuf_u64(s, p->asm_len);
	if (p->asm_len) {
		etm_sbuf_u64(s, p->asm_off);
		etm_sbuf_put(s, p->asmb, p->asm_len);
	}
	if (p->mode != etm_pm_sync) {
		etm_sbuf_u64(s, p->zrun);
		etm_sbuf_u64(s, p->zrun ? p->zrun_off : 0);
	}
	if (p->mode == etm_pm_search) {
		etm_sbuf_u64(s, p->ns.size);
		etm_sbuf_u64(s, p->ns.size ? p->ns.offset : 0);
		etm_sbuf_u8(s, p->ns.raw_len);
		etm_sbuf_put(s, p->ns.raw, p->ns.raw_len);
	}
}
