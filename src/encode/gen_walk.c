/* encode/gen_walk.c - the generator's reference CPU (control flow only):
 * walks a random legal path through the generated program and records it
 * as execution events, with exceptions, context changes, gaps, timestamps. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "encode/gen_int.h"

struct gw_ret {
	uint64_t addr;
	enum etm_isa isa;
	uint8_t ns, hyp;
};

struct gw {
	struct etm_gen *g;
	uint64_t pc;
	enum etm_isa isa;
	struct gw_ret cs[GEN_MAX_FUNCS + 8]; /* call stack */
	unsigned ncs;
	struct gw_ret xs[16]; /* exception return stack */
	unsigned nxs;
	int silent;     /* trace off */
	int just_on;    /* trace_on emitted last */
	int last_wp;    /* last insn event: waypoint */
	int last_plain; /* ... executed plain insn */
	uint64_t last_addr;
	enum etm_isa last_isa;
	uint32_t traced;
	uint32_t ctxid;
	uint8_t vmid;
	uint8_t ns, hyp; /* security state */
	uint64_t ts;
};

int gen_ev_push(struct etm_gen *g, const struct etm_ev *ev)
{
	struct etm_ev *p = etm_grow(g->ev, &g->evcap, g->nev + 1, sizeof(*p), 1024);

	if (!p)
		return -etme_nomem;
	g->ev = p;
	g->ev[g->nev++] = *ev;
	return 0;
}

static int gw_emit(struct gw *w, const struct etm_ev *ev)
{
	if (w->silent)
		return 0;
	w->just_on = ev->kind == etmev_trace_on;
	return gen_ev_push(w->g, ev);
}

static int gw_chance(struct gw *w, uint32_t num, uint32_t den)
{
	return etm_rng_chance(&w->g->rng, num, den);
}

static uint32_t gw_below(struct gw *w, uint32_t n)
{
	return etm_rng_below(&w->g->rng, n);
}

static uint32_t gw_cycles(struct gw *w)
{
	uint32_t r;

	if (!(w->g->o.flags & ETM_GEN_CYCLES))
		return 1;
	r = gw_below(w, 100);
	if (r < 60)
		return 1;
	if (r < 75)
		return 2 + gw_below(w, 3);
	if (r < 80)
		return w->g->o.min_cycles ? 1 : 0;
	if (r < 97)
		return 5 + gw_below(w, 40);
	return 100 + gw_below(w, 3000);
}

static int gw_exception(struct gw *w, unsigned num, uint64_t ret,
			enum etm_isa risa, int cancel)
{
	struct etm_ev ev;

	if (w->nxs >= 16)
		return -etme_internal;
	w->xs[w->nxs].addr = ret;
	w->xs[w->nxs].isa = risa;
	w->xs[w->nxs].ns = w->ns;
	w->xs[w->nxs].hyp = w->hyp;
	w->nxs++;
	/* ETM_GEN_NS: FIQ is handled in Secure state, the Hyp trap in Hyp
	 * mode; other handlers keep the security state, not in Hyp */
	if (num == 15 && (w->g->o.flags & ETM_GEN_NS))
		w->ns = 0;
	w->hyp = num == 3;
	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_exception;
	ev.addr = gen_vector(w->g, num);
	ev.isa = etmi_a32;
	ev.exc_num = (uint16_t)num;
	ev.cancel = (uint8_t)cancel;
	ev.ns = w->ns;
	ev.hyp = w->hyp;
	w->pc = ev.addr;
	w->isa = etmi_a32;
	w->last_plain = 0;
	w->last_wp = 0;
	return gw_emit(w, &ev);
}

/* Asynchronous exceptions between instructions: IRQ, FIQ, data abort
 * (ETMv3: cancelling the last instruction), back to back IRQ + FIQ. */
static int gw_async(struct gw *w)
{
	unsigned fl = w->g->o.flags, r;
	int err;

	if (!(fl & ETM_GEN_EXC) || w->silent || w->just_on || w->nxs >= 2 ||
	    !gw_chance(w, 1, 120))
		return 0;
	r = gw_below(w, 100);
	if (w->g->o.proto == etm_proto_etmv1) {
		/* ARM7/9 (ETMv1): data aborts are precise, a load/store's own
		 * (not raised between instructions); IRQ/FIQ are masked in
		 * the handlers that end in an exception return. ETMv1 trace
		 * could not tell those apart (doc/etmv1.md). */
		int i = gen_item_at(w->g, w->pc);

		if (i >= 0 && w->g->it[i].op == go_eret)
			return 0;
		if (r < 55 && !(r < 20 && (fl & ETM_GEN_B2B)))
			r = 60;
	}
	if (r < 20 && (fl & ETM_GEN_B2B)) {
		err = gw_exception(w, 14, w->pc, w->isa, 0);
		return err ? err : gw_exception(w, 15, w->pc, etmi_a32, 0);
	}
	if (r < 45) {
		int cancel = w->last_plain && (fl & ETM_GEN_CANCEL) &&
			     w->g->o.proto == etm_proto_etmv3;

		/* a cancelled instruction is executed again after the
		 * handler; otherwise the abort is taken before w->pc */
		if (cancel)
			return gw_exception(w, 12, w->last_addr, w->last_isa, 1);
		return gw_exception(w, 12, w->pc, w->isa, 0);
	}
	if (r < 55 && (fl & ETM_GEN_NS) && w->ns && !w->hyp)
		return gw_exception(w, 3, w->pc, w->isa, 0);
	return gw_exception(w, r < 80 ? 14 : 15, w->pc, w->isa, 0);
}

static int gw_trace_on(struct gw *w, unsigned reason);

/* Debug Halt (exception 1) before the instruction at w->pc: the core
 * stops in Debug state and leaves it at that instruction; trace restarts
 * there with an I-sync whose reason is debug exit (IHI 0014Q §7.3.2). */
static int gw_halt(struct gw *w)
{
	struct etm_ev ev;
	int err;

	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_exception;
	ev.addr = w->pc;
	ev.isa = w->isa;
	ev.exc_num = 1;
	ev.ns = w->ns;
	ev.hyp = w->hyp;
	err = gw_emit(w, &ev);
	w->last_plain = 0;
	w->last_wp = 0;
	return err ? err : gw_trace_on(w, etm_isync_debug_exit);
}

/* Decide the outcome of item @it at w->pc into @ev; returns the next pc. */
static uint64_t gw_decide(struct gw *w, const struct gitem *it,
			  struct etm_ev *ev, enum etm_isa *tisa)
{
	const struct etm_gen *g = w->g;
	uint64_t next = it->addr + it->size, t;
	int back;

	*tisa = w->isa;
	switch (it->op) {
	case go_plain:
		ev->exec = (uint8_t)(!it->cond || gw_chance(w, 2, 3));
		return next;
	case go_bcond:
	case go_cbz:
		back = it->tgt <= (int32_t)(it - g->it);
		ev->exec = (uint8_t)gw_chance(w, back ? 3 : 1, back ? 4 : 2);
		return ev->exec ? g->it[it->tgt].addr : next;
	case go_b:
		return g->it[it->tgt].addr;
	case go_bl:
	case go_callr:
		w->cs[w->ncs].addr = next;
		w->cs[w->ncs].isa = w->isa;
		w->ncs++;
		*tisa = g->fn[it->func].isa;
		t = g->it[g->fn[it->func].first].addr;
		break;
	case go_jmp:
		t = g->it[g->tab[it->itab + gw_below(w, it->ntab)]].addr;
		break;
	case go_ret:
		w->ncs--;
		*tisa = w->cs[w->ncs].isa;
		t = w->cs[w->ncs].addr;
		break;
	case go_eret:
		w->nxs--;
		*tisa = w->xs[w->nxs].isa;
		t = w->xs[w->nxs].addr;
		w->ns = w->xs[w->nxs].ns;
		w->hyp = w->xs[w->nxs].hyp;
		break;
	default:
		return next;
	}
	ev->target = t;
	ev->target_isa = *tisa;
	ev->ns = w->ns;
	ev->hyp = w->hyp;
	return t;
}

/* Waypoint in every configuration (DMB/DSB only with ETMCCER[24]). */
static int gw_is_wp(const struct gitem *it)
{
	return it->op != go_plain && it->op != go_it && it->op != go_svc &&
	       it->op != go_udf && !(it->op == go_isb && it->variant % 3);
}

/* After a traced waypoint: context changes, trace gaps. */
static int gw_after_wp(struct gw *w)
{
	unsigned fl = w->g->o.flags;
	struct etm_ev ev;
	int err = 0;

	memset(&ev, 0, sizeof(ev));
	if ((fl & (ETM_GEN_CTX | ETM_GEN_VMID)) && gw_chance(w, 1, 40)) {
		ev.kind = etmev_context;
		if ((fl & ETM_GEN_CTX) && w->g->o.ctxid_bytes > 0) {
			uint64_t m = (1ull << (8 * w->g->o.ctxid_bytes)) - 1;

			w->ctxid = (uint32_t)(etm_rng_next(&w->g->rng) & m);
		}
		if (fl & ETM_GEN_VMID)
			w->vmid = (uint8_t)gw_below(w, 256);
		ev.ctxid = w->ctxid;
		ev.vmid = w->vmid;
		err = gw_emit(w, &ev);
	}
	/* ETMv1 has no Debug Halt exception nor I-sync reasons: its halts
	 * are not generated (the trace-off gaps below stand for them) */
	if (!err && (fl & ETM_GEN_GAPS) && w->g->o.proto != etm_proto_etmv1 &&
	    gw_chance(w, 1, 300))
		return gw_halt(w);
	if (!err && (fl & ETM_GEN_GAPS) && gw_chance(w, 1, 150)) {
		ev.kind = etmev_trace_off;
		err = gw_emit(w, &ev);
		w->silent = 5 + (int)gw_below(w, 60);
	}
	return err;
}

static int gw_trace_on(struct gw *w, unsigned reason)
{
	struct etm_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_trace_on;
	ev.reason = (uint8_t)reason;
	ev.ns = w->ns;
	ev.hyp = w->hyp;
	ev.cycles = 1 + gw_below(w, 5000);
	return gw_emit(w, &ev);
}

static int gw_step(struct gw *w)
{
	struct etm_gen *g = w->g;
	int i = gen_item_at(g, w->pc), err;
	const struct gitem *it;
	enum etm_isa tisa;
	struct etm_ev ev;
	uint64_t next;

	if (i < 0 || g->it[i].isa != w->isa)
		return -etme_internal;
	it = &g->it[i];
	if ((it->op == go_ret && !w->ncs) || (it->op == go_eret && !w->nxs))
		return -etme_internal;
	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_insn;
	ev.addr = w->pc;
	ev.isa = w->isa;
	ev.exec = 1;
	ev.cycles = gw_cycles(w);
	ev.ns = w->ns;
	ev.hyp = w->hyp;
	next = gw_decide(w, it, &ev, &tisa);
	err = gw_emit(w, &ev);
	if (err)
		return err;
	if (!w->silent) {
		w->traced++;
		w->last_wp = gw_is_wp(it);
		w->last_plain = it->op == go_plain && ev.exec;
		w->last_addr = w->pc;
		w->last_isa = w->isa;
	}
	w->pc = next;
	w->isa = tisa;
	if (it->op == go_svc || it->op == go_udf)
		return gw_exception(w, it->op == go_svc ? 10 : 9, next, tisa, 0);
	if (w->silent && !--w->silent) {
		static const uint8_t reasons[4] = { 1, 1, 2, 3 };

		return gw_trace_on(w, reasons[gw_below(w, 4)]);
	}
	if (!w->silent && (w->last_wp || g->o.proto != etm_proto_ptm))
		return gw_after_wp(w);
	return 0;
}

static int gw_timestamp(struct gw *w)
{
	struct etm_ev ev;

	if ((w->g->o.flags & ETM_GEN_TRIGGER) && !w->silent && !w->just_on &&
	    gw_chance(w, 1, 300)) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = etmev_trigger;
		if (gw_emit(w, &ev))
			return -etme_nomem;
	}
	if (!(w->g->o.flags & ETM_GEN_TS) || w->silent || w->just_on ||
	    !gw_chance(w, 1, 60))
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_timestamp;
	w->ts += 1 + gw_below(w, 1u << gw_below(w, 28));
	ev.timestamp = w->ts;
	return gw_emit(w, &ev);
}

int gen_walk(struct etm_gen *g)
{
	struct gw *w = calloc(1, sizeof(*w));
	uint64_t steps = 0, limit = 4ull * g->o.ninsn + 100000;
	int err, ptm = g->o.proto == etm_proto_ptm;

	if (!w)
		return -etme_nomem;
	w->g = g;
	w->pc = g->it[g->fn[0].first].addr;
	w->isa = g->fn[0].isa;
	w->ts = etm_rng_next(&g->rng) & ((1ull << 40) - 1);
	w->ns = (g->o.flags & ETM_GEN_NS) != 0;
	err = gw_trace_on(w, etm_isync_trace_on);
	while (!err && steps++ < limit &&
	       (w->traced < g->o.ninsn || w->silent || w->just_on ||
		(ptm && !w->last_wp))) {
		err = gw_async(w);
		if (!err)
			err = gw_step(w);
		if (!err)
			err = gw_timestamp(w);
	}
	free(w);
	return err;
}
