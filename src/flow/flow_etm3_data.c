/* flow/flow_etm3_data.c - ETMv3 data trace (IHI 0014Q §7.4, ../shared/docs/
 * etmv3.md §13, doc/datatrace.md): each data packet tied to the load/store
 * it belongs to - the most recently executed data instruction - and made an
 * etmk_data element held behind the range that holds that instruction.
 * With data trace on the drain hook is etm_e3_drain_data() (tokens for
 * P-header runs, branch address and data packets); the instruction-only
 * fast path is untouched. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/sbuf.h"
#include "flow/flow_etm3_int.h"

void etm_e3_data_mark(struct etm3_flow *e, struct e3_dmark *m)
{
	struct etm_flow *f = e->f;

	m->q0 = f->qhead + f->qlen;
	m->pend_on = e->pend_on && e->pend == &f->q[m->q0];
	m->old_end = m->pend_on ? e->pend->end : 0;
	m->old_n = m->pend_on ? e->pend->ninsn : 0;
}

/* A scan of @n instructions from @start (memo entry). */
struct e3_smemo {
	uint64_t start;
	uint32_t n;
	uint8_t key;   /* 1 + ISA, | 0x80 Non-secure; 0 = empty */
	uint8_t found; /* iaddr, ls: the last data instruction */
	struct etm_ldst ls;
	uint64_t iaddr;
};

void etm_e3_img_changed(struct etm_flow *f)
{
	struct etm3_flow *e = f->impl;

	e->cb = NULL;
	memset(e->cmemo, 0, sizeof(e->cmemo));
	if (e->d.smemo)
		memset(e->d.smemo, 0, E3_SMEMO * sizeof(*e->d.smemo));
}

/* The memo entry of a scan (NULL without the cache or memory). */
static struct e3_smemo *e3_smemo_at(struct etm3_flow *e, uint64_t start,
				    uint32_t n)
{
	if (!e->f->cache_on)
		return NULL;
	if (!e->d.smemo)
		e->d.smemo = calloc(E3_SMEMO, sizeof(*e->d.smemo));
	if (!e->d.smemo)
		return NULL;
	return &e->d.smemo[((start >> 1) ^ (start >> 11) ^ (uint64_t)n * 0x9e37u) &
			   (E3_SMEMO - 1)];
}

/* The last data instruction executed in @n instructions of range @r from
 * @start into the state; returns 1 if one was found. */
static int e3_scan_range(struct etm3_flow *e, const struct etm_elem *r,
			 uint64_t start, uint32_t n)
{
	uint8_t key = (uint8_t)((1 + r->isa) | (r->ns ? 0x80 : 0));
	struct e3_smemo *m = e3_smemo_at(e, start, n);
	struct etm_elem t;
	struct etm_walk w;
	struct etm_insn in;
	struct etm_ldst ls;
	int found = 0;

	if (!m || m->start != start || m->n != n || m->key != key) {
		t = *r;
		t.start = start;
		t.ninsn = n;
		if (etm_walk_init(&w, e->f->img, &t) < 0)
			return 0;
		while (etm_walk_next(&w, &in) == 0) {
			if (etm_insn_ldst(&in, &ls) <= 0)
				continue;
			e->d.iaddr = in.addr;
			e->d.isa = in.isa;
			e->d.ls = ls;
			found = 1;
		}
		if (!m)
			return found;
		m->start = start;
		m->n = n;
		m->key = key;
		m->found = (uint8_t)found;
		m->ls = e->d.ls;
		m->iaddr = e->d.iaddr;
		return found;
	}
	if (m->found) {
		e->d.iaddr = m->iaddr;
		e->d.isa = r->isa;
		e->d.ls = m->ls;
	}
	return m->found;
}

void etm_e3_data_scan(struct etm3_flow *e, const struct e3_dmark *m)
{
	struct etm_flow *f = e->f;
	unsigned j, end = f->qhead + f->qlen + (e->pend_on ? 1u : 0u);
	const struct etm_elem *r;
	uint64_t start;
	uint32_t n;
	int found = 0;

	if (!f->img)
		return;
	if (end > ETM_FLOW_QMAX)
		end = ETM_FLOW_QMAX;
	/* the last data instruction: the ranges from the newest back, to
	 * the first that holds one */
	for (j = end; !found && j-- > m->q0;) {
		r = &f->q[j];
		if (r->kind != etmk_range)
			continue;
		start = r->start;
		n = r->ninsn;
		if (j == m->q0 && m->pend_on) {
			if (r->ninsn < m->old_n)
				continue; /* (not the same range) */
			start = m->old_end;
			n -= m->old_n;
		}
		if (n && r->last_atom && !r->last_exec)
			n--; /* failed its condition: no transfer */
		if (n)
			found = e3_scan_range(e, r, start, n);
	}
	if (!found)
		return;
	/* the pending range ends at the data instruction inside a block: a
	 * load/store that is not a branch (a load of the PC ends its block),
	 * which is what its flush would classify it as */
	if (e->pend_on && e->pend->last_addr == e->d.iaddr &&
	    e->pend->last_cls == etmc_unknown && e->pend->isa == e->d.isa) {
		e->pend->last_cls = etmc_other;
		e->pend->last_link = 0;
	}
	e->d.have = 1;
	e->d.insn = 1;
	e->d.stacking = 0;
	e->d.k = 0;
	e->d.have_base = 0;
}

/* Bytes between the addresses of consecutive transfers: a word for LDM,
 * LDRD, VLDM, the stacking; none for SWP (read, then write, one address). */
static uint64_t e3_step(const struct e3_data *d)
{
	return d->ls.dir == etm_ldst_swap ? 0 : 4;
}

/* A transfer of the current data instruction for data packet @pkt. */
static void e3_transfer(struct etm3_flow *e, const struct etm_packet *pkt,
			struct etm_elem *el)
{
	struct e3_data *d = &e->d;
	uint32_t k = d->have ? d->k++ : 0;

	e3_init_elem(e, el, etmk_data);
	el->dindex = (uint8_t)(k > 255 ? 255 : k);
	if (d->have && d->insn) {
		el->dflags |= ETM_DATA_INSN;
		el->addr = d->iaddr;
		el->isa = d->isa;
	}
	if (d->have && d->ls.dir) {
		int w = d->ls.dir == etm_ldst_store ||
			(d->ls.dir == etm_ldst_swap && k > 0);

		el->dflags |= ETM_DATA_DIR | (w ? ETM_DATA_WRITE : 0);
		el->dsize = d->ls.size;
	}
	if (d->stacking)
		el->dflags |= ETM_DATA_STACKING;
	if (pkt->has_daddr) {
		el->daddr = pkt->daddr;
		el->dflags |= ETM_DATA_ADDR;
		d->have_base = d->have;
		d->base = pkt->daddr - e3_step(d) * k;
	} else if (d->have && d->have_base && k && k < d->ls.count &&
		   pkt->type != etmp_data_suppressed) {
		/* later transfers of a multiple load/store: consecutive
		 * words from the first one's address (§7.4.2) */
		el->daddr = (d->base + e3_step(d) * k) & 0xffffffffu;
		el->dflags |= ETM_DATA_ADDR;
	}
	if (pkt->has_dvalue) {
		el->dvalue = pkt->dvalue;
		el->dflags |= ETM_DATA_VALUE;
		if (!el->dsize)
			el->dsize = pkt->dvalue_size;
	}
}

static int e3_data_err(struct etm3_flow *e)
{
	struct etm_elem el;

	e3_init_elem(e, &el, etmk_error);
	el.err = etme_bad_packet;
	return etm_e3_out(e, &el);
}

/* Out-of-order transfer @t never matched: out without its value. */
static int e3_ooo_drop(struct etm3_flow *e, unsigned t)
{
	int err;

	e->d.ooo_used &= (uint8_t) ~(1u << t);
	e->d.ooo[t].offset = e->off;
	err = etm_e3_out(e, &e->d.ooo[t]);
	return err < 0 ? err : e3_data_err(e);
}

static int e3_ooo_data(struct etm3_flow *e, const struct etm_packet *pkt)
{
	unsigned t = pkt->dtag & 3;
	struct etm_elem *el = &e->d.ooo[t];

	if (!t || !(e->d.ooo_used & (1u << t)))
		return e3_data_err(e); /* no placeholder for this tag */
	e->d.ooo_used &= (uint8_t) ~(1u << t);
	el->offset = e->off; /* listed where the value comes */
	el->dtag = (uint8_t)t;
	if (pkt->has_dvalue) {
		el->dvalue = pkt->dvalue;
		el->dflags |= ETM_DATA_VALUE;
		if (!el->dsize)
			el->dsize = pkt->dvalue_size;
	}
	return etm_e3_out(e, el);
}

/* ARMv7-M exception entry: the transfers that follow are the stacking
 * (IHI 0014Q §7.5.3), eight words stored. */
static void e3_stacking(struct etm3_flow *e)
{
	struct e3_data *d = &e->d;

	d->have = 1;
	d->insn = 0;
	d->stacking = 1;
	d->ls.dir = etm_ldst_store;
	d->ls.size = 4;
	d->ls.count = 8;
	d->ls.excl = 0;
	d->k = 0;
	d->have_base = 0;
}

int etm_e3_data(struct etm3_flow *e, const struct etm_packet *pkt)
{
	struct etm_elem el;
	unsigned t;
	int err;

	if (!e->d.on)
		return 0;
	switch (pkt->type) {
	case etmp_exc_entry:
		e3_stacking(e);
		return 0;
	case etmp_ooo_data:
		return e3_ooo_data(e, pkt);
	case etmp_ooo_place:
		t = pkt->dtag & 3;
		if (t && (e->d.ooo_used & (1u << t))) {
			err = e3_ooo_drop(e, t); /* tag reused unmatched */
			if (err < 0)
				return err;
		}
		e3_transfer(e, pkt, &e->d.ooo[t]);
		e->d.ooo_used |= (uint8_t)(1u << t);
		return 0;
	case etmp_data_suppressed:
		/* not a transfer: the rest of the instruction's are untraced */
		e3_transfer(e, pkt, &el);
		e->d.k -= e->d.have ? 1 : 0;
		el.dflags |= ETM_DATA_SUPPRESSED;
		e->d.have_base = 0;
		return etm_e3_out(e, &el);
	case etmp_store_failed:
		e3_transfer(e, pkt, &el);
		el.dflags |= ETM_DATA_FAILED;
		return etm_e3_out(e, &el);
	default: /* normal data, value not traced */
		if (e->pend_on && e->nheld < E3_HELD_MAX) {
			/* held behind the pending range (etm_e3_out()):
			 * built in place */
			e3_transfer(e, pkt, &e->held[e->nheld++]);
			return 0;
		}
		e3_transfer(e, pkt, &el);
		return etm_e3_out(e, &el);
	}
}

int etm_e3_data_gap(struct etm3_flow *e)
{
	unsigned t;
	int err;

	e->d.have = 0;
	e->d.insn = 0;
	e->d.stacking = 0;
	for (t = 1; t < 4; t++) {
		if (!(e->d.ooo_used & (1u << t)))
			continue;
		err = e3_ooo_drop(e, t);
		if (err < 0)
			return err;
	}
	return 0;
}

void etm_e3_data_save(const struct etm3_flow *e, struct etm_sbuf *s)
{
	const struct e3_data *d = &e->d;
	unsigned t;

	etm_sbuf_u8(s, (unsigned)(d->have | d->insn << 1 | d->stacking << 2 |
				  d->have_base << 3));
	etm_sbuf_u64(s, d->iaddr);
	etm_sbuf_u8(s, d->isa);
	etm_sbuf_u32(s, (uint32_t)d->ls.dir | (uint32_t)d->ls.size << 8 |
				(uint32_t)d->ls.count << 16 |
				(uint32_t)d->ls.excl << 24);
	etm_sbuf_u32(s, d->k);
	etm_sbuf_u64(s, d->base);
	etm_sbuf_u8(s, d->ooo_used);
	for (t = 1; t < 4; t++)
		if (d->ooo_used & (1u << t))
			etm_elem_save(s, &d->ooo[t]);
}

/* With data trace on: atoms and I-syncs (LSiP implies an instruction)
 * walked, then the last load/store among what they walked is the data
 * instruction of the data packets that follow (flow_etm3_data.c). */
int etm_e3_data_walk(struct etm3_flow *e, const struct etm_packet *pkt)
{
	struct e3_dmark m;
	int err;

	if (pkt->type == etmp_isync &&
	    (!e->synced || pkt->reason != etm_isync_periodic || pkt->lsip)) {
		err = etm_e3_data_gap(e); /* a gap: nothing carries over */
		if (err < 0)
			return err;
	}
	etm_e3_data_mark(e, &m);
	err = pkt->type == etmp_atom ? etm_e3_atoms(e, pkt) : etm_e3_isync(e, pkt);
	if (err >= 0)
		etm_e3_data_scan(e, &m);
	return err;
}

/* The drain hook with data trace on: runs of one-byte P-headers, branch
 * address packets and data packets as tokens, as etm_e3_drain() without
 * its plain loop, each run's walk scanned for the data instruction; the
 * rest (I-syncs, exception entries, timestamps, ...) put as the general
 * path would (etm_e3_drain_general()) but errors, which end the batch.
 * The instruction-only fast path stays as it is. */
int etm_e3_drain_data(struct etm_flow *f, uint64_t *np)
{
	struct etm3_flow *e = f->impl;
	struct etm_pkt_decoder *pd = f->pd;
	struct etm_packet *pkt = &e->d.tok;
	struct etm_atom_run r;
	struct etm_brc br;
	struct e3_dmark m;
	unsigned k;
	int err, d = 0;

	do {
		k = etm_pkt_tok_atom_run(pd, &r, ETM_ATOM_RUN_PKTS);
		if (k) {
			*np += k;
			etm_flow_qstart(f);
			etm_e3_data_mark(e, &m);
			err = etm_e3_run(e, &r);
			if (err < 0)
				return err;
			/* a placeholder unmatched at the end of the trace is
			 * given at the last packet's offset, as on the general
			 * path (only a walk looked offsets up) */
			if (e->d.ooo_used)
				e->off = etm_atom_run_off(&r, r.npkt - 1);
			etm_e3_data_scan(e, &m);
			etm_pkt_tok_run_done(pd, &r);
			if (!etm_flow_qopen(f))
				break;
		}
		/* the data packets of the P-headers walked (a P-header
		 * usually follows them) */
		while (etm_pkt_tok_data(pd, pkt)) {
			/* as e3_put_pkt() on the general path */
			(*np)++;
			d = 1;
			etm_flow_qstart(f);
			e->off = pkt->offset;
			err = etm_e3_data(e, pkt);
			if (err < 0)
				return err;
			if (!etm_flow_qopen(f))
				return 0;
		}
		if (d) {
			d = 0;
			continue;
		}
		if (!etm_pkt_tok_branch(pd, &br)) {
			if (k)
				continue;
			err = etm_e3_drain_general(f, np);
			if (err <= 0)
				return err;
			continue;
		}
		(*np)++;
		etm_flow_qstart(f);
		e->off = br.offset;
		err = etm_e3_branch(e, &br, NULL);
		if (err < 0)
			return err;
	} while (etm_flow_qopen(f));
	return 0;
}
