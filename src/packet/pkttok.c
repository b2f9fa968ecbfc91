/* packet/pkttok.c - the packet decoder's compact tokens (pktdec.h): the
 * table of one-byte atom packets, runs of them as one batch, branch
 * address packets and PTM atom packets in compact form, and the token
 * reader the ETMv3 flow decoder's plain loop reads bytes through. */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/zero.h"
#include "packet/async.h"
#include "packet/inline_fields.h"
#include "packet/pktbuf.h"

#include <etmtrace/error.h>

/* The cycle-accurate run loop's entry of one-byte atom packet @a (see
 * acv[]) into @v. */
static void acv_entry(const struct etm_atomc *a, int ok, struct etm_acv *v)
{
	unsigned j, s = 0;

	_Static_assert(sizeof(*v) == 64, "etm_acv: one shift indexes it");
	for (j = 0; j < 8; j++) {
		s += j < a->n ? a->w[j] : 0;
		/* and the N flag of its atom (none past its atoms) */
		v->cw[j] = (uint16_t)(s | (j < a->n ? (a->bits >> j & 1u) : 0)
						  << ETM_ATOM_RUN_NBIT);
	}
	s += a->w_tail;
	/* and one packet more (the packet index in the slots' top bits) */
	for (j = 0; j < 8; j++)
		v->wt[j] = (uint16_t)(s + (1u << ETM_ATOM_RUN_WBITS));
	/* a run's W atoms are summed in 9 bits of cw[]: at most 8 a packet
	 * (ETM_ATOM_RUN_PKTS of them) */
	v->run = ok && a->n <= 8 && s <= 8;
	v->n = (uint8_t)(v->run ? a->n : 0);
	v->bits = (uint8_t)(v->run ? a->bits : 0);
}

/* Atom packets complete in one byte that leave the state alone. */
void etm_pktp_atom_table(struct etm_pktp *p, const struct etm_pkt_state *st0)
{
	struct etm_packet tmp, *pkt = &tmp;
	unsigned b, k;

	etm_zero(p->acv, sizeof(p->acv));
	for (b = 1; b < 256; b++) {
		struct etm_pkt_state st = *st0;
		uint8_t byte = (uint8_t)b;

		p->aok[b] = 0;
		if (p->hdr[b] != etmh_atom)
			continue;
		etm_zero(pkt, sizeof(*pkt));
		if (etm_pktp_read(p, &byte, 1, pkt, &st) != 1 ||
		    pkt->type != etmp_atom || st.addr != st0->addr ||
		    st.isa != st0->isa || st.ts != st0->ts ||
		    st.daddr != st0->daddr)
			continue;
		p->aok[b] = pkt->atom_count <= ETM_PKT_MAX_ATOMS;
		p->ac[b].n = pkt->atom_count;
		p->ac[b].w_tail = pkt->w_tail;
		p->ac[b].bits = (uint16_t)(pkt->atom_bits &
					   ((1u << pkt->atom_count) - 1));
		for (k = 0; k < ETM_PKT_MAX_ATOMS; k++)
			p->ac[b].w[k] = pkt->atom_w[k];
		acv_entry(&p->ac[b], p->aok[b], &p->acv[b]);
	}
}

/* Cycle-accurate atoms per header at most (struct etm_acv's run). */
#define CA_HDR_ATOMS 8

/* Eight running W sums at once (GCC/Clang vector extension: one add). */
typedef uint16_t ca_v8u16 __attribute__((vector_size(16)));

/* One cycle-accurate header (table entry @a) into @r, without a branch
 * on its kind (W-only and atom packets come in no predictable order): its
 * slots in cw are written and kept only if it has atoms; @vtot is the
 * run's packet index and W atoms so far in every lane (its slots are its
 * own running sums plus those, and it adds its total and one packet: two
 * vector adds from the table, no broadcast). The caller checked that its
 * atoms fit. */
static inline __attribute__((always_inline)) void
ca_take(const struct etm_acv *a, struct etm_atom_run *r, size_t *pn,
	ca_v8u16 *vtot)
{
	size_t n = *pn;
	ca_v8u16 v, t;

	memcpy(&v, a->cw, sizeof(v));
	memcpy(&t, a->wt, sizeof(t));
	v += *vtot;
	*vtot += t;
	memcpy(&r->cw[n + 1], &v, sizeof(v));
	*pn = n + a->n;
}

/* The E/N bits of the @n atoms of a cycle-accurate run from the N flags
 * in their slots of @cw (struct etm_atom_run's): once a run rather than a
 * shift and an or a header; 16 slots at a time with SSE2. */
static inline uint64_t ca_nbits(const uint16_t *cw, unsigned n)
{
	uint64_t bits = 0;
	unsigned j;

#ifdef __SSE2__
	/* the flags to the slots' sign bits, packed to bytes (signed
	 * saturation keeps the sign), a byte mask of them: slots past @n
	 * (read within the array) are masked off */
	for (j = 0; j < n; j += 16) {
		__m128i lo = _mm_loadu_si128((const __m128i *)&cw[j + 1]);
		__m128i hi = _mm_loadu_si128((const __m128i *)&cw[j + 9]);

		lo = _mm_slli_epi16(lo, 15 - ETM_ATOM_RUN_NBIT);
		hi = _mm_slli_epi16(hi, 15 - ETM_ATOM_RUN_NBIT);
		bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(
				_mm_packs_epi16(lo, hi))
			<< j;
	}
#else
	for (j = 0; j < n; j++)
		bits |= (uint64_t)(cw[j + 1] >> ETM_ATOM_RUN_NBIT & 1) << j;
#endif
	return n < 64 ? bits & ((1ull << n) - 1) : bits;
}

/* The cycle-accurate loop of etm_pkt_tok_atom_run(): packets from @pos
 * (the run's first) to before @end (at most ETM_ATOM_RUN_PKTS of them)
 * while the table acv[] (etm_pktp_atom_table()) says they are in it, each
 * through one 64-byte entry (its atoms and two 16-byte vectors: its
 * atoms' W sums and N flags, its W total); the run's state out through
 * the pointers (@pbits: the E/N bits, from the flags; @ptot: its
 * packets and W atoms, as a slot of cw[]). Two headers a turn while both
 * surely fit in the run (at most CA_HDR_ATOMS atoms each), so the
 * per-header room check is needed only near its end. Returns the
 * position after the last packet taken. */
static inline __attribute__((always_inline)) size_t
run_ca(const struct etm_pktp *p, struct etm_atom_run *r, size_t pos,
       size_t end, unsigned *pn, uint64_t *pbits, uint32_t *ptot)
{
	const uint8_t *buf = p->buf;
	const struct etm_acv *acv = p->acv, *a;
	/* (indices in full registers: no extension per header) */
	size_t n = 0, end1 = end - 1;
	ca_v8u16 vtot = { 0 };

	while (pos < end1 && n <= ETM_ATOM_RUN_MAX - 2 * CA_HDR_ATOMS) {
		a = &acv[buf[pos]];
		if (!a->run)
			goto out;
		ca_take(a, r, &n, &vtot);
		a = &acv[buf[pos + 1]];
		if (!a->run) {
			pos++;
			goto out;
		}
		ca_take(a, r, &n, &vtot);
		pos += 2;
	}
	/* near the end of the run: each header's atoms checked */
	while (pos < end) {
		a = &acv[buf[pos]];
		if (!a->run || n + a->n > ETM_ATOM_RUN_MAX)
			break;
		ca_take(a, r, &n, &vtot);
		pos++;
	}
out:
	*pn = (unsigned)n;
	*pbits = ca_nbits(r->cw, (unsigned)n);
	*ptot = vtot[0];
	return pos;
}

/* The packets of a run are added without branches on their kind (W-only
 * packets are as common as atom packets and in no predictable order):
 * every packet's slots in cw are written, and kept only if it has
 * atoms. The cycle-accurate and the other loop are separate, and the
 * usual reason not to start (the next byte is not an atom packet) is
 * checked first. */
unsigned etm_pkt_tok_atom_run(struct etm_pkt_decoder *pd,
			      struct etm_atom_run *r, unsigned maxpk)
{
	struct etm_pktp *p = &pd->core;
	const uint8_t *buf = p->buf;
	size_t pos = p->pos, len = p->len, end;
	unsigned n = 0;
	uint32_t wacc = 0;
	uint64_t bits = 0;

	etm_pktp_tables(p);
	if (pos >= len || !p->aok[buf[pos]] || p->mode != etm_pm_sync ||
	    p->asm_len || p->qi < p->qn)
		return 0;
	if (p->map && p->mapi < p->nmap && p->map[p->mapi].pos > pos)
		p->mapi = 0; /* the cursor only moves forwards */
	if (p->map && !p->rel_tried)
		etm_pktp_build_rel(p);
	r->map = p->map;
	r->nmap = p->nmap;
	r->mapi = p->mapi;
	r->rel = p->rel;
	r->rel_base = p->rel_base;
	r->off0 = p->off;
	r->pos0 = pos;
	if (maxpk > ETM_ATOM_RUN_PKTS)
		maxpk = ETM_ATOM_RUN_PKTS; /* packet indices and W counts fit
					    * in cw[] */
	end = len - pos > maxpk ? pos + maxpk : len;
	r->cw[0] = 0;
	if (!p->o.cycle_acc) {
		ca_v8u16 pk = { 0 };
		const ca_v8u16 one = pk + (1u << ETM_ATOM_RUN_WBITS);

		_Static_assert(ETM_PKT_MAX_ATOMS == 16, "two stores a packet");
		do {
			const struct etm_atomc *a = &p->ac[buf[pos]];

			if (n + a->n > ETM_ATOM_RUN_MAX)
				break;
			/* the packet index in its atoms' slots, no W */
			memcpy(&r->cw[n + 1], &pk, sizeof(pk));
			memcpy(&r->cw[n + 9], &pk, sizeof(pk));
			pk += one;
			/* n = 64 only before a W-only packet (bits 0) */
			bits |= (uint64_t)a->bits << (n & 63);
			n += a->n;
			pos++;
		} while (pos < end && p->aok[buf[pos]]);
	} else {
		pos = run_ca(p, r, pos, end, &n, &bits, &wacc);
		/* the W atoms after the last atom */
		wacc = etm_atom_run_w((uint16_t)wacc, r->cw[n]);
	}
	r->npkt = (unsigned)(pos - p->pos);
	p->pos = pos;
	r->n = n;
	r->bits = bits;
	r->w_tail = wacc;
	return r->npkt;
}

/* The branch fields of @pkt from @br (the rest of @pkt is left alone). */
static void brc_to_pkt(const struct etm_brc *br, struct etm_packet *pkt)
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

/* branch_short() for the parser's protocol, with the PTM cycle count. */
static inline int fast_branch_short(const struct etm_pktp *p,
				    const uint8_t *b, size_t n,
				    struct etm_brc *br)
{
	int r, c;

	r = p->o.alt_branch ? branch_short(p, b, n, br, 1) :
			      branch_short(p, b, n, br, 0);
	if (r <= 0 || !p->o.cycle_acc || !p->ops->br_cc)
		return r;
	c = etm_ptm_cc_short(b + r, n - (size_t)r, &br->cycle_count);
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
	r = p->ops->read_branch(p, b, n, &br, st, &drop);
	if (r < 0) {
		pkt->size = drop;
		return r;
	}
	pkt->type = etmp_branch;
	brc_to_pkt(&br, pkt);
	return r;
}

/* Whether tokens may be read: synchronised at a packet boundary, nothing
 * assembled or queued. */
static inline int tok_ready(const struct etm_pktp *p)
{
	return p->mode == etm_pm_sync && !p->asm_len && p->qi >= p->qn;
}

int etm_pkt_tok_ready(const struct etm_pkt_decoder *pd)
{
	return tok_ready(&pd->core);
}

int etm_pkt_has_bytes(const struct etm_pkt_decoder *pd)
{
	const struct etm_pktp *p = &pd->core;

	return p->qi < p->qn || p->pos < p->len;
}

int etm_pktp_branch_at(struct etm_pktp *p, const uint8_t *b, size_t n,
		       struct etm_brc *br)
{
	struct etm_pkt_state st;
	uint32_t drop;
	int r;

	if ((r = fast_branch_short(p, b, n, br)) > 0) {
		p->st.addr = (uint32_t)br->addr;
		p->st.isa = br->isa;
		return r;
	}
	brc_clear(br);
	st = p->st;
	r = p->ops->read_branch(p, b, n, br, &st, &drop);
	if (r <= 0)
		return 0; /* cut by the end of the chunk, or bad */
	p->st.addr = st.addr;
	p->st.isa = st.isa;
	return r;
}

/* The branch address packet at b = buf + pos (n bytes left) into @br, if
 * whole and valid: 1 (consumed), else 0. */
static inline int tok_branch(struct etm_pktp *p, const uint8_t *b, size_t n,
			     struct etm_brc *br)
{
	int r = etm_pktp_branch_at(p, b, n, br);

	if (r <= 0)
		return 0;
	br->offset = etm_pktp_off(p, p->pos);
	p->pos += (size_t)r;
	return 1;
}

/* The same for an atom packet of a protocol with a compact atom reader. */
static inline int tok_patom(struct etm_pktp *p, const uint8_t *b, size_t n,
			    struct etm_patom *a)
{
	int r;

	if (!p->ops->read_atom)
		return 0; /* one-byte atoms: etm_pkt_tok_atom_run() */
	r = p->ops->read_atom(p, b, n, a);
	if (r <= 0)
		return 0; /* cut by the end of the chunk, or bad */
	a->offset = etm_pktp_off(p, p->pos);
	p->pos += (size_t)r;
	return 1;
}

int etm_pkt_tok_branch(struct etm_pkt_decoder *pd, struct etm_brc *br)
{
	struct etm_pktp *p = &pd->core;
	const uint8_t *b;

	/* (no pointer arithmetic on a NULL buffer before the length check:
	 * clang's UBSan reports NULL + 0) */
	if (p->pos >= p->len)
		return 0;
	b = p->buf + p->pos;
	if (!tok_ready(p) || p->hdr[b[0]] != etmh_branch)
		return 0;
	return tok_branch(p, b, p->len - p->pos, br);
}

/* etm_pkt_tok_data() of a data packet header @h at @b (kept apart, so
 * that the usual answer, another packet next, is quick). */
static __attribute__((noinline)) int tok_data(struct etm_pktp *p,
					      const uint8_t *b, unsigned h,
					      struct etm_packet *pkt)
{
	struct etm_pkt_state st = p->st;
	int r = p->ops->read_data(p, h, b, p->len - p->pos, pkt, &st);

	if (r <= 0)
		return 0; /* cut by the end of the chunk, or bad */
	/* a packet long enough to hold an A-sync (etm_pktp_read()) needs
	 * its zero bytes: one without any holds none */
	if ((size_t)r >= ETM_ASYNC_ZEROS + 2 && memchr(b + 1, 0, (size_t)r - 1))
		return 0;
	return etm_pktp_tok_take(p, &st, pkt, r);
}

int etm_pkt_tok_data(struct etm_pkt_decoder *pd, struct etm_packet *pkt)
{
	struct etm_pktp *p = &pd->core;
	const uint8_t *b;
	unsigned h;

	if (p->pos >= p->len)
		return 0;
	b = p->buf + p->pos;
	h = p->hdr[b[0]];
	if (h < etmh_data || h > etmh_store_failed || !tok_ready(p) ||
	    !p->ops->read_data)
		return 0;
	return tok_data(p, b, h, pkt);
}

enum etm_tok_kind etm_pkt_tok_next(struct etm_pkt_decoder *pd,
				   struct etm_tok *t)
{
	struct etm_pktp *p = &pd->core;
	const uint8_t *b;
	size_t n;

	if (p->pos >= p->len || !tok_ready(p))
		return etm_tk_none;
	b = p->buf + p->pos;
	n = p->len - p->pos;
	switch (p->hdr[b[0]]) {
	case etmh_atom:
		return tok_patom(p, b, n, &t->atom) ? etm_tk_atom : etm_tk_none;
	case etmh_branch:
		return tok_branch(p, b, n, &t->br) ? etm_tk_branch :
						     etm_tk_none;
	default:
		return etm_tk_none;
	}
}

void etm_pkt_tok_run_done(struct etm_pkt_decoder *pd,
			  const struct etm_atom_run *r)
{
	if (pd->core.map == r->map)
		pd->core.mapi = r->mapi;
}

int etm_pkt_tok_open(struct etm_pkt_decoder *pd, struct etm_tok_reader *r)
{
	struct etm_pktp *p = &pd->core;

	if (!tok_ready(p))
		return 0;
	etm_pktp_tables(p);
	if (p->map && !p->rel_tried)
		etm_pktp_build_rel(p);
	r->buf = p->buf;
	r->pos = p->pos;
	r->len = p->len;
	r->aok = p->aok;
	r->ac = p->ac;
	r->hdr = p->hdr;
	r->br_hdr = etmh_branch;
	r->alt = p->o.alt_branch;
	r->ca_atom_hdr = p->ops->read_atom && p->o.cycle_acc ? etmh_atom :
							       ETM_TOK_NO_HDR;
	r->br_cc = p->o.cycle_acc && p->ops->br_cc;
	r->addr = p->st.addr;
	r->isa = p->st.isa;
	r->off = p->off;
	r->map = p->map;
	r->nmap = p->nmap;
	r->mapi = p->mapi;
	r->rel = p->rel;
	r->rel_base = p->rel_base;
	return 1;
}

void etm_pkt_tok_close(struct etm_pkt_decoder *pd,
		       const struct etm_tok_reader *r)
{
	struct etm_pktp *p = &pd->core;

	p->pos = r->pos;
	p->mapi = r->mapi;
	p->st.addr = r->addr;
	p->st.isa = r->isa;
}

int etm_pkt_tok_packet(struct etm_pkt_decoder *pd, struct etm_tok_reader *r,
		       size_t pos, struct etm_packet *pkt)
{
	struct etm_pktp *p = &pd->core;
	const uint8_t *b = r->buf + pos;
	size_t n = r->len - pos;
	struct etm_pkt_state st = p->st;
	int k;

	/* a zero byte begins an A-sync's run (step_fresh()'s zero run) */
	if (pos >= r->len || b[0] == 0x00)
		return 0;
	st.addr = r->addr;
	st.isa = r->isa;
	etm_zero(pkt, sizeof(*pkt));
	k = etm_pktp_read(p, b, n, pkt, &st);
	if (k <= 0 || pkt->type == etmp_error)
		return 0;
	/* complete(): the state, the packet's place and bytes */
	p->st = st;
	r->addr = st.addr;
	r->isa = st.isa;
	pkt->id = p->o.id;
	pkt->offset = etm_tok_off(r, pos);
	pkt->size = (uint32_t)k;
	pkt->raw_len = (size_t)k > ETM_PKT_MAX_RAW ? ETM_PKT_MAX_RAW :
						     (uint8_t)k;
	memcpy(pkt->raw, b, pkt->raw_len);
	return k;
}
