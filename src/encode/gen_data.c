/* encode/gen_data.c - the generator's loads and stores (ETM_GEN_DATA): the
 * program gets data instructions of every class among its plain ones, and
 * every executed one an etmev_data event per transfer, with the choices the
 * ETMv3 data trace has: out of order (tags 1-3), value not traced, data
 * suppressed, store-exclusive failed (doc/datatrace.md). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "common/grow.h"
#include "encode/gen_int.h"

/* A32 load/stores (no condition; base r8, never the PC): LDR, STR, LDRB,
 * STRH, LDRSH, LDRD, STRD, LDM, PUSH, LDREX, STREX, SWP, VSTM, VLDR. */
#define GD_A32_KINDS 14
/* T32 16-bit: LDR, STR, LDRB, STRH, PUSH, POP, STMIA, LDR (register). */
#define GD_T16_KINDS 8
/* T32 32-bit: LDR.W, STR.W, LDRD, STRD, LDM.W, LDREX, STREX, VLDM. */
#define GD_T32_KINDS 8

void gen_data_item(struct etm_gen *g, int i)
{
	struct gitem *it = &g->it[i];
	unsigned n;

	if (g->v5 || !etm_rng_chance(&g->rng, 1, 3))
		return;
	n = it->isa == etmi_a32 ? GD_A32_KINDS :
	    it->size == 2       ? GD_T16_KINDS :
				  GD_T32_KINDS;
	it->ldst = (uint8_t)(1 + etm_rng_below(&g->rng, n));
}

static uint32_t gd_list(const struct gitem *it)
{
	return ((uint32_t)it->variant & 0x3f) | 1; /* r0-r5, not empty */
}

static uint32_t gd_a32(const struct gitem *it, unsigned k)
{
	static const uint32_t op[GD_A32_KINDS] = {
		0x05980000, 0x05880000, 0x05d80000, 0x01c800b0, 0x01d800f0,
		0x01c820d0, 0x01c820f0, 0x08980000, 0x092d0000, 0x01980f9f,
		0x01880f91, 0x01080091, 0x0c880a00, 0x0d980b00
	};
	uint32_t rd = (uint32_t)it->variant & 7;

	switch (k) {
	case 5:
	case 6:
	case 9:
	case 10:
	case 11:
	case 13: return op[k];
	case 7:
	case 8: return op[k] | gd_list(it);
	case 12: return op[k] | (1 + ((uint32_t)it->variant & 3));
	default: return op[k] | rd << 12;
	}
}

static uint32_t gd_t16(const struct gitem *it, unsigned k)
{
	static const uint16_t op[GD_T16_KINDS] = { 0x6830, 0x6030, 0x7830,
						   0x8030, 0xb400, 0xbc00,
						   0xc600, 0x59f0 };
	uint32_t rd = (uint32_t)it->variant & 7;

	if (k >= 4 && k <= 6)
		return op[k] | gd_list(it);
	return op[k] | rd;
}

static uint32_t gd_t32(const struct gitem *it, unsigned k)
{
	static const uint32_t op[GD_T32_KINDS] = {
		0xf8d60004, 0xf8c60004, 0xe9d60100, 0xe9c60100,
		0xe8960000, 0xe8560f00, 0xe8461000, 0xec960a02
	};
	uint32_t rd = (uint32_t)it->variant & 7;

	if (k < 2)
		return op[k] | rd << 12;
	if (k == 4)
		return op[k] | gd_list(it) | 2; /* two or more registers */
	return op[k];
}

uint32_t gen_data_enc(const struct gitem *it)
{
	unsigned k = it->ldst - 1u;

	if (it->isa == etmi_a32)
		return gd_a32(it, k);
	return it->size == 2 ? gd_t16(it, k) : gd_t32(it, k);
}

/* ---- the data events ----------------------------------------------------- */

/* An out-of-order transfer waiting for its value. */
struct gd_ooo {
	uint32_t value;
	uint8_t size, tag;
	uint32_t after; /* instruction events to go before the value */
};

struct gd {
	struct etm_gen *g;
	struct etm_ev *ev;
	size_t n, cap;
	struct gd_ooo ooo[3];
	unsigned nooo;
	uint32_t daddr; /* the last data address (locality) */
};

static int gd_push(struct gd *d, const struct etm_ev *ev)
{
	struct etm_ev *p = etm_grow(d->ev, &d->cap, d->n + 1, sizeof(*p), 1024);

	if (!p)
		return -etme_nomem;
	d->ev = p;
	d->ev[d->n++] = *ev;
	return 0;
}

/* The out-of-order values due (all of them with @all). */
static int gd_ooo_out(struct gd *d, int all)
{
	unsigned i = 0;
	struct etm_ev ev;
	int err;

	while (i < d->nooo) {
		struct gd_ooo *o = &d->ooo[i];

		if (!all && o->after) {
			o->after--;
			i++;
			continue;
		}
		memset(&ev, 0, sizeof(ev));
		ev.kind = etmev_data_value;
		ev.dvalue = o->value;
		ev.dsize = o->size;
		ev.dtag = o->tag;
		err = gd_push(d, &ev);
		if (err)
			return err;
		d->ooo[i] = d->ooo[--d->nooo];
	}
	return 0;
}

/* The opcode of instruction event @ev from the program. */
static int gd_insn(const struct etm_gen *g, const struct etm_ev *ev,
		   struct etm_insn *in)
{
	int r = ev->addr >= g->o.code_base;
	uint64_t off = ev->addr - g->membase[r];

	if (ev->addr < g->membase[r] || off + 2 > g->memlen[r])
		return -1;
	return etm_insn_decode(in, ev->isa, ev->addr, g->mem[r] + off,
			       g->memlen[r] - off < 4 ? g->memlen[r] - off : 4) > 0 ?
		       0 :
		       -1;
}

/* A first data address: near the last one mostly (short compressed
 * addresses), anywhere sometimes (long ones). */
static uint32_t gd_addr(struct gd *d, unsigned size)
{
	struct etm_rng *r = &d->g->rng;
	uint32_t a;

	if (etm_rng_chance(r, 1, 4))
		a = (uint32_t)etm_rng_next(r);
	else
		a = d->daddr + (etm_rng_below(r, 512) - 256) * 4;
	a &= ~(uint32_t)(size - 1);
	if (a > 0xffffff00u)
		a = 0x20000000;
	d->daddr = a;
	return a;
}

/* The transfers of executed load/store @ls. */
static int gd_transfers(struct gd *d, const struct etm_insn *in,
			const struct etm_ldst *ls)
{
	struct etm_rng *r = &d->g->rng;
	unsigned k, n = ls->count ? ls->count : 1;
	uint32_t base = gd_addr(d, ls->size);
	uint32_t mask = ls->size == 4 ? ~0u : (1u << (8 * ls->size)) - 1;
	struct etm_ev ev;
	int err;

	(void)in;
	for (k = 0; k < n; k++) {
		int w = ls->dir == etm_ldst_store ||
			(ls->dir == etm_ldst_swap && k);

		memset(&ev, 0, sizeof(ev));
		ev.kind = etmev_data;
		ev.daddr = base + (ls->dir == etm_ldst_swap ? 0 : 4u * k);
		ev.dvalue = (uint32_t)etm_rng_next(r) & mask;
		ev.dsize = ls->size;
		ev.dflags = (uint8_t)((k ? 0 : ETM_EVD_ADDR) | ETM_EVD_VALUE |
				      (w ? ETM_EVD_WRITE : 0));
		if (ls->excl && etm_rng_chance(r, 1, 3)) {
			ev.dflags |= ETM_EVD_FAILED;
			return gd_push(d, &ev);
		}
		if (etm_rng_chance(r, 1, 24)) {
			ev.dflags |= ETM_EVD_SUPPRESSED;
			return gd_push(d, &ev);
		}
		if (etm_rng_chance(r, 1, 10))
			ev.dflags &= (uint8_t)~ETM_EVD_VALUE;
		else if (!w && n == 1 && d->nooo < 3 &&
			 etm_rng_chance(r, 1, 5)) {
			struct gd_ooo *o = &d->ooo[d->nooo];
			unsigned t, used = 0, i;

			for (i = 0; i < d->nooo; i++)
				used |= 1u << d->ooo[i].tag;
			for (t = 1; used & (1u << t); t++)
				;
			o->value = ev.dvalue;
			o->size = ev.dsize;
			o->tag = (uint8_t)t;
			o->after = 1 + etm_rng_below(r, 3);
			d->nooo++;
			ev.dtag = (uint8_t)t;
		}
		err = gd_push(d, &ev);
		if (err)
			return err;
	}
	return 0;
}

/* Whether event @i is an executed load/store that completed (not
 * cancelled by the exception after it): *@ls, *@in. */
static int gd_is_data(const struct etm_gen *g, size_t i, struct etm_insn *in,
		      struct etm_ldst *ls)
{
	const struct etm_ev *ev = &g->ev[i];

	if (ev->kind != etmev_insn || !ev->exec || gd_insn(g, ev, in) < 0 ||
	    etm_insn_ldst(in, ls) <= 0)
		return 0;
	return !(i + 1 < g->nev && g->ev[i + 1].kind == etmev_exception &&
		 g->ev[i + 1].cancel);
}

int gen_data_events(struct etm_gen *g)
{
	struct gd d;
	struct etm_insn in;
	struct etm_ldst ls;
	size_t i;
	int on = 0, err = 0;

	memset(&d, 0, sizeof(d));
	d.g = g;
	d.daddr = 0x20000000;
	for (i = 0; i < g->nev && !err; i++) {
		const struct etm_ev *ev = &g->ev[i];

		if (ev->kind != etmev_insn)
			err = gd_ooo_out(&d, 1); /* before gaps, exceptions */
		else if (on)
			err = gd_ooo_out(&d, 0);
		if (!err)
			err = gd_push(&d, ev);
		if (ev->kind == etmev_trace_on || ev->kind == etmev_overflow)
			on = 1;
		else if (ev->kind == etmev_trace_off ||
			 (ev->kind == etmev_exception && ev->exc_num == 1))
			on = 0;
		if (!err && on && gd_is_data(g, i, &in, &ls))
			err = gd_transfers(&d, &in, &ls);
	}
	if (!err)
		err = gd_ooo_out(&d, 1);
	if (err) {
		free(d.ev);
		return err;
	}
	free(g->ev);
	g->ev = d.ev;
	g->nev = d.n;
	g->evcap = d.cap;
	return 0;
}
