/* encode/enc_etm1.c - ETMv1 back end of the encoder: execution events to
 * pipeline-status samples (records of etmtrace/etmv1.h), cycle by cycle. A
 * FIFO of packet bytes drains at the port rate in every cycle but TD and TR;
 * TRACESYNC marks the first byte (nibble) of each branch address; the two
 * cycles after a BE/BD carry the address packet offset (IHI 0014Q §5.6.1).
 * The generator model of doc/etmv1.md §Encoder (its §4.10 rules). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/e1cfg.h"
#include "encode/enc_int.h"

#define E1E_FIFO 1024        /* bytes; more would be an overflow */
#define E1E_FULL_PERIOD 1024 /* cycles between full branch addresses */
#define E1E_STALL 512        /* drain before a new instruction beyond */

struct e1e_byte {
	uint8_t b, sync;
};

struct enc_e1 {
	struct etm_e1_cfg o;  /* options from the registers */
	uint64_t cyc;         /* cycles output */
	uint64_t last_status; /* cycle of the last status */
	int last_be;          /* ... which was a BE/BD */
	struct e1e_byte fifo[E1E_FIFO];
	unsigned fh, fn; /* ring head, count */
	unsigned nsync;  /* sync starts not yet begun */
	int half;        /* 4-bit: low nibble of fifo head out */
	uint32_t br_base, da_base;
	uint64_t last_full; /* cycle of the last full branch address */
	int da_full;        /* next data address in 5 bytes */
	int have;           /* an instruction is pending */
	struct etm_ev pend;
	struct etm_insn pin;
	int on, sync_reason; /* sync BE due before the next insn */
	int ctx_pend;
	uint32_t ctxid;
	unsigned trig;
	uint64_t stretched;
};

static void e1e_push(struct etm_enc *e, struct enc_e1 *x, uint8_t b, int s)
{
	if (x->fn == E1E_FIFO) {
		e->out.err = 1; /* a bug of the stall logic */
		return;
	}
	x->fifo[(x->fh + x->fn++) % E1E_FIFO] = (struct e1e_byte){ b, (uint8_t)s };
	x->nsync += (unsigned)s;
}

/* Take the FIFO head byte. */
static struct e1e_byte e1e_pop(struct enc_e1 *x)
{
	struct e1e_byte b = x->fifo[x->fh];

	x->fh = (x->fh + 1) % E1E_FIFO;
	x->fn--;
	return b;
}

/* The bytes output in one cycle into @s (TRACEPKT, TRACESYNC). Returns
 * whether any was. */
static int e1e_drain(struct enc_e1 *x, struct etm_e1_sample *s)
{
	struct e1e_byte b;

	if (!x->fn)
		return 0;
	if (x->o.port == 4) {
		b = x->fifo[x->fh];
		if (!x->half) {
			s->pkt = b.b & 0xf;
			s->sync = b.sync;
			x->nsync -= b.sync;
			x->half = 1;
		} else {
			s->pkt = b.b >> 4;
			e1e_pop(x);
			x->half = 0;
		}
		return 1;
	}
	b = e1e_pop(x);
	s->pkt = b.b;
	s->sync = b.sync;
	x->nsync -= b.sync;
	/* 16-bit: a second byte, never the start of an address (the
	 * conservative policy of doc/etmv1.md §4.10 rule 9) */
	if (x->o.port == 16 && x->fn && !x->fifo[x->fh].sync)
		s->pkt |= (uint16_t)(e1e_pop(x).b << 8);
	return 1;
}

static void e1e_out(struct etm_enc *e, const struct etm_e1_sample *s)
{
	uint8_t rec[ETM_E1_REC];

	etm_e1_rec_put(rec, s);
	etm_obuf_put(&e->out, rec, sizeof(rec));
}

/* One cycle of status @ps (-1: a filler, WT or TD by the FIFO); @push
 * queues the status's own bytes (called before the drain with latency 0,
 * after it with latency 1). */
static void e1e_cycle(struct etm_enc *e, struct enc_e1 *x, int ps,
		      void (*push)(struct etm_enc *, struct enc_e1 *, void *),
		      void *arg)
{
	struct etm_e1_sample s = { 0 };
	int any;

	s.pkt = (uint16_t)etm_rng_next(&e->rng); /* garbage unless driven */
	if (push && !x->o.lat1)
		push(e, x, arg);
	if (ps >= 0 && x->trig) {
		/* TR: the status on TRACEPKT[2:0], no byte (Table 5.2) */
		x->trig--;
		s.ps = etm_e1_tr;
		s.pkt = (uint16_t)ps;
	} else {
		any = e1e_drain(x, &s);
		if (x->o.port != 16 && !any)
			s.pkt = (uint16_t)(s.pkt & (x->o.port == 4 ? 0xf : 0xff));
		s.ps = (uint8_t)(ps >= 0 ? ps : any ? etm_e1_wt :
						      etm_e1_td);
		if (s.ps == etm_e1_td && !any)
			s.sync = 0;
	}
	if (x->o.port == 4)
		s.pkt &= 0xf;
	else if (x->o.port == 8)
		s.pkt &= 0xff;
	if (push && x->o.lat1)
		push(e, x, arg);
	e1e_out(e, &s);
	x->cyc++;
}

/* A compressed address (§5.5.4) of @a against *@base; @reason >= 0: the
 * 5-byte form with that reason (and J bit 0). */
static void e1e_addr(struct etm_enc *e, struct enc_e1 *x, uint32_t a,
		     uint32_t *base, int reason, int sync)
{
	uint32_t d = a ^ *base;
	int k = 1, i;

	/* a full branch address at least every E1E_FULL_PERIOD cycles
	 * (IHI 0014Q §5.6.2; here at the first branch after that) */
	if (sync && reason < 0 && x->cyc - x->last_full >= E1E_FULL_PERIOD)
		reason = 0;
	if (reason >= 0)
		k = 5;
	else if (d)
		for (k = 1; k < 5 && (d >> (7 * k)); k++)
			;
	if (k == 5 && reason < 0)
		reason = 0;
	for (i = 0; i < k && i < 4; i++)
		e1e_push(e, x, (uint8_t)((a >> (7 * i) & 0x7f) | (i + 1 < k ? 0x80 : 0)),
			 sync && !i);
	if (k == 5)
		e1e_push(e, x, (uint8_t)(reason << 4 | (a >> 28)), 0);
	if (k == 5 && sync)
		x->last_full = x->cyc;
	*base = a;
}

/* The bytes of a status. */
struct e1e_bytes {
	int data;   /* value bytes (-1 none) */
	int branch; /* a branch address follows */
	uint32_t target;
	int reason; /* -1 compressed, else 5 bytes */
};

static void e1e_push_bytes(struct etm_enc *e, struct enc_e1 *x, void *arg)
{
	struct e1e_bytes *p = arg;
	int k;

	if (p->data >= 0) {
		if (x->o.daddr) {
			uint32_t a = (uint32_t)etm_rng_next(&e->rng) & ~3u;

			if (!x->da_full)
				a = (x->da_base & ~0xffu) | (a & 0xfc);
			e1e_addr(e, x, a, &x->da_base, x->da_full ? 0 : -1, 0);
			x->da_full = 0;
		}
		for (k = 0; x->o.dval && k < p->data; k++)
			e1e_push(e, x, (uint8_t)etm_rng_next(&e->rng), 0);
	}
	if (!p->branch)
		return;
	e1e_addr(e, x, p->target, &x->br_base, p->reason, 1);
	if (p->reason > 0 && x->o.minor >= 2 && x->o.ctx_bytes) {
		for (k = 0; k < x->o.ctx_bytes; k++)
			e1e_push(e, x, (uint8_t)(x->ctxid >> 8 * k), 0);
		x->ctx_pend = 0;
	}
}

/* Filler cycles so that the next status lands @gap cycles after the last
 * (cycle-accurate), or a few random ones; drain a FIFO grown too long. */
static void e1e_space(struct etm_enc *e, struct enc_e1 *x, uint32_t gap,
		      int is_be)
{
	uint64_t at, min = x->last_status + (x->last_be ? 3 : 1);

	if (!x->o.cyc) {
		gap = 1;
		if ((e->o.flags & ETM_ENC_RANDOM) &&
		    etm_rng_chance(&e->rng, 1, 8))
			gap += etm_rng_below(&e->rng, 4);
	}
	at = x->last_status + (gap ? gap : 1);
	if (at < min) {
		at = min;
		x->stretched += x->o.cyc;
	}
	while (x->cyc < at)
		e1e_cycle(e, x, -1, NULL, NULL);
	/* APO is 2 x 2 bits (14 at most) and the FIFO is finite: stall */
	while ((is_be && x->nsync > 14) || x->fn > E1E_STALL) {
		e1e_cycle(e, x, -1, NULL, NULL);
		x->stretched += x->o.cyc;
	}
}

/* A BE/BD at the current cycle and its two APO cycles. */
static void e1e_be(struct etm_enc *e, struct enc_e1 *x, int ps,
		   struct e1e_bytes *b)
{
	unsigned apo = x->nsync;

	x->last_status = x->cyc;
	x->last_be = 1;
	e1e_cycle(e, x, ps, e1e_push_bytes, b);
	e1e_cycle(e, x, (int)(apo & 3), NULL, NULL);
	e1e_cycle(e, x, (int)(apo >> 2 & 3), NULL, NULL);
}

/* ---- events ----------------------------------------------------------------- */

/* The target of a taken branch event (direct: from the opcode). */
static uint32_t e1e_target(const struct etm_ev *ev, const struct etm_insn *in)
{
	uint64_t t = in->cls == etmc_br_direct ? in->target : ev->target;
	enum etm_isa isa = in->cls == etmc_br_direct ? in->target_isa :
						       ev->target_isa;

	return (uint32_t)(isa == etmi_t32 ? t | 1u : t);
}

/* Output the pending instruction; @exc: an exception event that follows
 * it (the SVC/UDF it caused goes on the same BE), else NULL. */
static void e1e_flush(struct etm_enc *e, struct enc_e1 *x,
		      const struct etm_ev *exc)
{
	struct etm_ev *ev = &x->pend;
	struct etm_insn *in = &x->pin;
	struct e1e_bytes b = { -1, 0, 0, -1 };
	int ps = etm_e1_ie, n;

	if (!x->have)
		return;
	x->have = 0;
	n = etm_e1_data_bytes(in);
	if ((x->o.daddr || x->o.dval) && n > 0 && ev->exec)
		b.data = n;
	if (!ev->exec) {
		ps = etm_e1_in;
		b.data = -1;
	} else if (exc) {
		b.branch = 1;
		b.target = (uint32_t)exc->addr;
		b.data = -1;
	} else if (in->cls == etmc_br_indirect ||
		   (in->cls == etmc_br_direct && (x->o.brout || x->ctx_pend))) {
		b.branch = 1;
		b.target = e1e_target(ev, in);
	}
	if (b.branch && x->ctx_pend)
		b.reason = 4; /* forced context ID: doc/etmv1.md */
	if (b.data >= 0)
		ps = b.branch ? etm_e1_bd : etm_e1_id;
	else if (b.branch)
		ps = etm_e1_be;
	e1e_space(e, x, ev->cycles, b.branch);
	if (b.branch) {
		e1e_be(e, x, ps, &b);
		return;
	}
	x->last_status = x->cyc;
	x->last_be = 0;
	e1e_cycle(e, x, ps, b.data >= 0 ? e1e_push_bytes : NULL, &b);
}

/* A trace-enable / overflow / debug-exit BE before the instruction @ev. */
static void e1e_sync(struct etm_enc *e, struct enc_e1 *x,
		     const struct etm_ev *ev)
{
	struct e1e_bytes b = { -1, 1, 0, x->sync_reason };

	b.target = (uint32_t)(ev->isa == etmi_t32 ? ev->addr | 1 : ev->addr);
	e1e_space(e, x, 1, 1);
	e1e_be(e, x, etm_e1_be, &b);
	x->sync_reason = 0;
	x->da_full = 1;
}

/* Tracing stops: the FIFO drains (WT), then TD. */
static void e1e_off(struct etm_enc *e, struct enc_e1 *x)
{
	e1e_flush(e, x, NULL);
	while (x->fn)
		e1e_cycle(e, x, -1, NULL, NULL);
	e1e_cycle(e, x, -1, NULL, NULL);
	x->on = 0;
}

static int e1e_insn(struct etm_enc *e, struct enc_e1 *x,
		    const struct etm_ev *ev)
{
	struct etm_insn in;
	int err;

	if (!x->on)
		return 0;
	err = enc_classify(e, ev, &in);
	if (err == -etme_bad_insn) {
		uint8_t b[4];
		size_t n = etm_image_read(e->img, etm_space_any, ev->addr, b, 4);

		err = etm_insn_decode(&in, ev->isa, ev->addr, b, n) < 0 ?
			      err :
			      0; /* UDF: an undefined instruction */
	}
	if (err < 0)
		return err;
	e1e_flush(e, x, NULL);
	if (x->sync_reason)
		e1e_sync(e, x, ev);
	x->pend = *ev;
	x->pin = in;
	x->have = 1;
	return 0;
}

/* An exception before the next instruction: a BE to the vector. */
static void e1e_exc(struct etm_enc *e, struct enc_e1 *x,
		    const struct etm_ev *ev)
{
	struct e1e_bytes b = { -1, 1, (uint32_t)ev->addr, -1 };

	if (!x->on)
		return;
	if (x->have && x->pend.exec &&
	    ((ev->exc_num == 10 && x->pin.cls == etmc_exc_gen) ||
	     (ev->exc_num == 9 && (x->pin.cls == etmc_exc_gen ||
				   x->pin.cls == etmc_undefined)))) {
		e1e_flush(e, x, ev);
		return;
	}
	e1e_flush(e, x, NULL);
	if (x->ctx_pend)
		b.reason = 4;
	e1e_space(e, x, 3, 1); /* three cycles on: never stretched */
	e1e_be(e, x, etm_e1_be, &b);
}

int enc_e1_put(struct etm_enc *e, const struct etm_ev *ev)
{
	struct enc_e1 *x = e->e1;

	switch (ev->kind) {
	case etmev_insn:
		return e1e_insn(e, x, ev);
	case etmev_exception:
		e1e_exc(e, x, ev);
		return 0;
	case etmev_context:
		if (x->o.minor >= 2 && x->o.ctx_bytes &&
		    (!x->on || ev->ctxid != x->ctxid))
			x->ctx_pend = x->on;
		x->ctxid = ev->ctxid;
		return 0;
	case etmev_trace_on:
	case etmev_overflow:
		if (ev->kind == etmev_overflow && x->on)
			e1e_off(e, x);
		x->on = 1;
		x->sync_reason = ev->kind == etmev_overflow ? 2 :
				 ev->reason >= 1 && ev->reason <= 3 ?
							      ev->reason :
							      1;
		return 0;
	case etmev_trace_off:
		if (x->on)
			e1e_off(e, x);
		return 0;
	case etmev_trigger:
		x->trig++;
		return 0;
	default:
		return 0; /* timestamps: not in ETMv1 */
	}
}

int enc_e1_finish(struct etm_enc *e)
{
	struct enc_e1 *x = e->e1;

	e1e_flush(e, x, NULL);
	while (x->fn)
		e1e_cycle(e, x, -1, NULL, NULL);
	while (x->trig)
		e1e_cycle(e, x, etm_e1_td, NULL, NULL);
	e1e_cycle(e, x, -1, NULL, NULL);
	return 0;
}

int enc_e1_init(struct etm_enc *e)
{
	const struct etm_config *c = &e->o.cfg;
	struct enc_e1 *x = calloc(1, sizeof(*x));

	if (!x)
		return -etme_nomem;
	etm_e1_cfg_get(&x->o, c);
	x->da_full = 1;
	e->e1 = x;
	return 0;
}

uint64_t etm_e1_enc_stretched(const struct etm_enc *e)
{
	return e && e->e1 ? ((const struct enc_e1 *)e->e1)->stretched : 0;
}
