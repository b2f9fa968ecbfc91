/* flow/etm1_br.c - the TRACEPKT side of the ETMv1 decoder: the byte cursor
 * (4/8/16-bit ports, no bytes in TD/TR cycles), compressed addresses
 * (IHI 0014Q §5.5.4), locating a branch address with TRACESYNC and the
 * address packet offset (§5.6.1), reason codes and context ID (§5.6.3),
 * data packets (§5.4 Table 5.2), and what a BE/BD means for the flow. */
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "flow/etm1_int.h"

/* Exception numbers of the A/R profile as the ETMv3 elements use them
 * (src/packet/describe.c). */
enum { e1x_generic = 13,
       e1x_reset = 8,
       e1x_undef = 9,
       e1x_svc = 10,
       e1x_pabort = 11,
       e1x_dabort = 12,
       e1x_irq = 14,
       e1x_fiq = 15 };

void e1_bump(struct etm_e1 *d, uint64_t cycle)
{
	if (d->s.cc <= cycle) {
		d->s.cc = cycle + 1;
		d->s.lane = 0;
	}
}

/* Move the cursor to the next cycle that carries a packet byte. Returns 0,
 * or -1 past the samples or more than E1_LOOKAHEAD cycles after @from. */
static int e1_skip(struct etm_e1 *d, uint64_t from, uint32_t *w)
{
	struct e1_st *s = &d->s;

	if (s->cc < d->wbase) {
		s->cc = d->wbase;
		s->lane = 0;
	}
	for (;;) {
		if (s->cc > from + E1_LOOKAHEAD)
			return -1;
		*w = e1_sample(d, s->cc);
		if (s->cc >= d->wbase + d->wn)
			return -1;
		if (!(*w & E1_NOPKT))
			return 0;
		s->cc++;
		s->lane = 0;
	}
}

/* The next packet byte (IHI 0014Q §5.2: a byte takes two cycles on a 4-bit
 * port, low nibble first; a 16-bit port carries up to two, low byte
 * first). Returns the byte or -1 (see e1_skip()). */
static int e1_byte(struct etm_e1 *d, uint64_t from)
{
	struct e1_st *s = &d->s;
	uint32_t w, lo;

	if (d->o.port == 8 && s->cc >= d->wbase && s->cc - d->wbase < d->wn &&
	    s->cc <= from + E1_LOOKAHEAD) {
		/* the common case: the cursor on a cycle in the window with
		 * a byte (e1_cyc_tab), read from the raw record directly */
		uint32_t raw = d->w[s->cc - d->wbase];

		if (e1_cyc_tab[raw & 0x3f] & E1C_PKT) {
			s->cc++;
			return (int)(raw >> 8 & 0xff);
		}
	}
	if (e1_skip(d, from, &w) < 0)
		return -1;
	if (d->o.port == 8) {
		s->cc++;
		return (int)(E1_PKT(w) & 0xff);
	}
	if (d->o.port == 16) {
		lo = E1_PKT(w) >> (8 * s->lane) & 0xff;
		if (s->lane) {
			s->lane = 0;
			s->cc++;
		} else {
			s->lane = 1;
		}
		return (int)lo;
	}
	lo = E1_PKT(w) & 0xf;
	s->cc++;
	/* a TR between the two nibbles delays the second (§5.2) */
	if (e1_skip(d, from, &w) < 0)
		return -1;
	s->cc++;
	return (int)(lo | (E1_PKT(w) & 0xf) << 4);
}

/* A compressed address (§5.5.4) against *@base / *@known (updated only
 * when complete). Returns the byte count 1-5, *@b5 the fifth byte; -1 if
 * the samples end first. */
static int e1_addr(struct etm_e1 *d, uint64_t from, uint32_t *base,
		   uint32_t *known, unsigned *b5)
{
	uint32_t a = *base, k = *known;
	int b, n;

	*b5 = 0;
	for (n = 0; n < 5; n++) {
		b = e1_byte(d, from);
		if (b < 0)
			return -1;
		if (n < 4) {
			a = (a & ~(0x7fu << 7 * n)) |
			    (uint32_t)(b & 0x7f) << 7 * n;
			k |= 0x7fu << 7 * n;
			if (!(b & 0x80))
				break;
		} else {
			a = (a & 0x0fffffffu) | (uint32_t)(b & 0xf) << 28;
			k = ~0u;
			*b5 = (unsigned)b;
		}
	}
	*base = a;
	*known = k;
	return n < 5 ? n + 1 : 5;
}

void e1_data(struct etm_e1 *d, uint64_t cycle)
{
	struct e1_st *s = &d->s;
	struct etm_insn in;
	unsigned b5;
	int n = -1, k, b;

	if ((!d->o.daddr && !d->o.dval) || !s->dsync)
		return;
	if (e1_insn_cached(d, &in) == 0)
		n = etm_e1_data_bytes(&in);
	/* an instruction's bytes enter the FIFO in its own cycle: on
	 * TRACEPKT from that cycle (latency 0) or the next (latency 1) */
	if (d->o.lat1)
		e1_bump(d, cycle);
	else if (cycle && s->cc < cycle)
		e1_bump(d, cycle - 1);
	if (d->o.daddr) {
		/* the same compression as branch addresses, against the
		 * last data address; bits [6:4] of a 5th byte unused */
		if (e1_addr(d, cycle, &s->da_base, &s->da_known, &b5) < 0)
			goto cut;
		d->st.data_addrs++;
	}
	if (n < 0) {
		s->dsync = 0; /* unknown count: lost until the next seek */
		return;
	}
	if (!d->o.dval || !n)
		return;
	for (k = 0; k < n; k++) {
		b = e1_byte(d, cycle);
		if (b < 0)
			goto cut;
	}
	d->st.data_values++;
	d->st.data_bytes += (uint64_t)n;
	return;
cut:
	if (!d->shortage)
		s->dsync = 0;
}

/* The cycle of the (@apo+1)-th TRACESYNC at or after @p (§5.6.1), -1 if
 * the samples end first, -2 if it is more than E1_LOOKAHEAD cycles on. */
static int64_t e1_seek(struct etm_e1 *d, uint64_t p, unsigned apo)
{
	uint64_t c;
	uint32_t w;
	unsigned k = 0;

	for (c = p; c <= p + E1_LOOKAHEAD; c++) {
		w = e1_sample(d, c);
		if (c >= d->wbase + d->wn)
			return -1;
		if ((w & E1_SYNC) && !(w & E1_NOPKT) && k++ == apo)
			return (int64_t)c;
	}
	return -2;
}

/* Addresses output but never claimed between the last one read and @c
 * (abandoned branches, §5.6.1: "still output, and can be ignored"): the
 * ETM compressed later ones against them, so they update the base. */
static void e1_skipped(struct etm_e1 *d, uint64_t c)
{
	struct e1_st *s = &d->s;
	uint64_t x = s->last_sync;
	unsigned b5;

	if (!x || x < d->wbase)
		return;
	for (; x < c; x++) {
		uint32_t w;

		/* a sample before the cursor is passed (its bytes are read
		 * or were instruction cycles): jump over them at once
		 * instead of looking at every cycle since the last branch */
		if (s->cc > x) {
			x = s->cc - 1;
			continue;
		}
		w = e1_sample(d, x);
		if (!(w & E1_SYNC) || (w & E1_NOPKT))
			continue;
		s->cc = x;
		s->lane = 0;
		if (e1_addr(d, x, &s->br_base, &s->br_known, &b5) < 0)
			return;
		d->st.abandoned++;
	}
}

/* Vector offset of @a if it is an exception vector (low or high), else -1. */
static int e1_vector(uint32_t a)
{
	if (a < 0x20 || (a >= 0xffff0000u && a < 0xffff0020u))
		return (int)(a & 0x1c);
	return -1;
}

static const uint16_t e1_vec_num[8] = {
	e1x_reset, e1x_undef, e1x_svc, e1x_pabort,
	e1x_dabort, e1x_generic, e1x_irq, e1x_fiq
};

/* A reason-0/4 branch address @a while the PC is known: the instruction at
 * pc executed and went to @a, or an exception came before it (doc/etmv1.md
 * §Exceptions). */
static void e1_branch_insn(struct etm_e1 *d, uint64_t p, uint32_t a,
			   enum etm_isa isa)
{
	struct e1_st *s = &d->s;
	struct etm_insn in;
	struct etm_elem *el;
	int v = isa == etmi_a32 ? e1_vector(a) : -1, exec = 1;

	if (s->isa == etmi_jazelle)
		return;
	if (e1_insn_cached(d, &in) < 0) {
		e1_close_range(d);
		e1_push_elem(d, etmk_nomem, p)->addr = s->pc;
		return;
	}
	/* a vector target is an exception (as OpenOCD has it) unless the
	 * instruction at pc is an exception return or a direct branch there
	 * (a return to a vector: back-to-back exceptions); only these
	 * caused it and executed (doc/etmv1.md, item 7) */
	if (in.exc_return || (in.cls == etmc_br_direct && in.target == a))
		v = -1;
	if (v >= 0)
		exec = (v == 0x08 && in.cls == etmc_exc_gen) ||
		       (v == 0x04 && (in.cls == etmc_exc_gen ||
				      in.cls == etmc_undefined)) ||
		       (v == 0x10 && etm_e1_data_bytes(&in) != 0);
	if (exec) {
		/* e1_range_add() through a one-instruction walk */
		struct etm_elem *r;

		if (!s->rng_open || s->rng.end != s->pc || s->rng.isa != s->isa) {
			e1_close_range(d);
			r = &s->rng;
			*r = d->rng_tmpl;
			r->start = r->end = s->pc;
			r->isa = s->isa;
			r->has_ctxid = (uint8_t)s->has_ctx;
			r->ctxid = s->ctxid;
			s->rng_open = 1;
		}
		r = &s->rng;
		r->offset = p * ETM_E1_REC;
		r->last_addr = s->pc;
		r->last_size = in.size;
		r->end = (uint64_t)s->pc + in.size;
		r->ninsn++;
		r->last_exec = 1;
		r->last_atom = 1;
		r->last_cls = in.cls;
		r->last_link = in.link;
		if (d->o.cyc)
			r->cycles += (uint32_t)(p - s->last_cyc);
		s->last_cyc = p;
		d->st.insns++;
	}
	e1_close_range(d);
	if (v < 0)
		return;
	s->last_cyc = p;
	el = e1_push_elem(d, etmk_exception, p);
	el->exc_num = e1_vec_num[v >> 2];
	el->addr = a;
	el->has_ret = 1;
	el->ret_addr = s->pc + (exec && v != 0x10 ? in.size : 0);
}

/* The context ID after a 5-byte address with reason != 0 (§5.6.3), least
 * significant byte first (doc/etmv1.md). Returns 0 or -1 (cut). */
static int e1_ctxid(struct etm_e1 *d, uint64_t p)
{
	struct e1_st *s = &d->s;
	uint32_t v = 0;
	int k, b;

	for (k = 0; k < d->o.ctx_bytes; k++) {
		b = e1_byte(d, p);
		if (b < 0)
			return -1;
		v |= (uint32_t)b << 8 * k;
	}
	d->st.ctxids++;
	if (!s->has_ctx || s->ctxid != v) {
		struct etm_elem *el;

		e1_close_range(d);
		el = e1_push_elem(d, etmk_context, p);
		el->has_ctxid = 1;
		el->ctxid = v;
	}
	s->ctxid = v;
	s->has_ctx = 1;
	return 0;
}

/* The first instruction address of a trace-on element for @a in @isa. */
static uint32_t e1_pc_of(uint32_t a, enum etm_isa isa)
{
	return isa == etmi_a32 ? a & ~3u : isa == etmi_t32 ? a & ~1u :
							     a;
}

static void e1_trace_on(struct etm_e1 *d, uint64_t p, unsigned reason,
			uint32_t a, enum etm_isa isa)
{
	struct etm_elem *el = e1_push_elem(d, etmk_trace_on, p);

	el->reason = (uint8_t)reason;
	el->addr = e1_pc_of(a, isa);
	el->isa = isa;
	d->s.last_cyc = p;
}

/* A branch address @a (complete if @known is all ones) with @reason
 * (5-byte form: J bit in @b5) read for the BE/BD at @p: a trace-on, the
 * branch of the instruction at pc, or the first PC. */
static void e1_apply(struct etm_e1 *d, uint64_t p, uint32_t a,
		     uint32_t known, unsigned reason, int jbit)
{
	struct e1_st *s = &d->s;
	enum etm_isa isa = jbit    ? etmi_jazelle :
			   (a & 1) ? etmi_t32 :
				     etmi_a32;

	if (reason >= 1 && reason <= 3) {
		e1_close_range(d);
		s->pc_valid = 0;
		if (known == ~0u)
			e1_trace_on(d, p, reason, a, isa);
		s->last_cyc = p;
	} else if (s->pc_valid) {
		e1_branch_insn(d, p, a, isa);
	} else if (known == ~0u) {
		e1_trace_on(d, p, s->after_error ? etm_on_resync : etm_on_start, a, isa);
	}
	if (known != ~0u) {
		/* the ETM sends a full address at least every 1024 cycles
		 * (IHI 0014Q §5.6.2): this many without one means the
		 * configuration (port width, version) does not fit */
		if (!s->pc_valid && ++s->nofull == E1_NOFULL) {
			e1_error(d, p, -etme_nosync);
			s->nofull = 0;
		}
		s->pc_valid = 0;
		return;
	}
	s->nofull = 0;
	if (isa == etmi_jazelle && s->isa != etmi_jazelle) {
		/* bytecodes cannot be followed (§5.11): a gap from here */
		struct etm_elem *el = e1_push_elem(d, etmk_nosync, p);

		el->addr = a;
		el->isa = isa;
	} else if (isa != etmi_jazelle && s->isa == etmi_jazelle &&
		   s->pc_valid && (reason == 0 || reason == 4)) {
		e1_trace_on(d, p, etm_on_resync, a, isa);
	}
	s->isa = isa;
	s->pc = e1_pc_of(a, isa);
	s->pc_valid = 1;
	s->after_error = 0;
	s->blk_ok = 0;
}

/* Read the address of the BE/BD at @p with offset @apo; apply it. */
static void e1_take(struct etm_e1 *d, uint64_t p, unsigned apo)
{
	struct e1_st *s = &d->s;
	uint32_t base, known;
	unsigned b5, reason = 0;
	int64_t c = e1_seek(d, p, apo);
	int n;

	if (c < 0) {
		e1_error(d, p, c == -1 ? -etme_truncated : -etme_bad_packet);
		return;
	}
	e1_skipped(d, (uint64_t)c);
	if (s->cc > (uint64_t)c) {
		/* bytes of earlier instructions overran the sync point:
		 * report it, trust TRACESYNC (doc/etmv1.md §4 item 4) */
		e1_push_elem(d, etmk_error, p)->err = etme_mismatch;
		d->st.errors++;
	}
	if (!(s->cc == (uint64_t)c && s->lane == 1)) {
		s->cc = (uint64_t)c;
		s->lane = 0;
	}
	base = s->br_base;
	known = s->br_known;
	n = e1_addr(d, p, &base, &known, &b5);
	if (n < 0) {
		e1_error(d, p, -etme_truncated);
		return;
	}
	d->st.branches++;
	s->br_base = base;
	s->br_known = known;
	s->last_sync = (uint64_t)c + 1;
	s->dsync = 1;
	if (n == 5)
		reason = b5 >> 4 & 7;
	if (n == 5 && reason && d->o.minor >= 2 && d->o.ctx_bytes &&
	    e1_ctxid(d, p) < 0) {
		e1_error(d, p, -etme_truncated);
		return;
	}
	if (reason > 4) {
		e1_error(d, p, -etme_bad_packet); /* reserved reason */
		return;
	}
	e1_apply(d, p, base, known, reason, n == 5 && (b5 & 0x80));
}

/* A trigger in an APO cycle (the APO is on TRACEPKT[1:0], §5.6.1):
 * reported after the branch, in cycle order. */
static void e1_apo_trig(struct etm_e1 *d, uint64_t c)
{
	d->trig_pend[d->ntrig_pend++] = c;
}

static void e1_apo_trig_flush(struct etm_e1 *d)
{
	unsigned k;

	for (k = 0; k < d->ntrig_pend; k++) {
		e1_close_range(d);
		e1_push_elem(d, etmk_event, d->trig_pend[k]);
		d->st.triggers++;
	}
	d->ntrig_pend = 0;
}

void e1_branch(struct etm_e1 *d, uint64_t p, unsigned ps)
{
	struct e1_st *s = &d->s;
	uint32_t w0 = e1_sample(d, p + 1), w1 = e1_sample(d, p + 2);
	unsigned a0 = E1_PS(w0), a1 = E1_PS(w1);

	d->ntrig_pend = 0;
	if (p + 2 >= d->wbase + d->wn) {
		if (d->shortage && !d->finishing)
			return;
		e1_error(d, p, -etme_truncated);
		s->i = d->wbase + d->wn;
		return;
	}
	if (a0 == etm_e1_be || a0 == etm_e1_bd || (w0 & E1_PSHI)) {
		d->st.abandoned++; /* §5.6.1: the earlier BE is abandoned */
		s->i = p + 1;
		return;
	}
	if (w0 & E1_TRIG) /* (in the loop if the BE is abandoned) */
		e1_apo_trig(d, p + 1);
	if (a1 == etm_e1_be || a1 == etm_e1_bd || (w1 & E1_PSHI)) {
		d->st.abandoned++;
		s->i = p + 2;
		e1_apo_trig_flush(d);
		return;
	}
	if (w1 & E1_TRIG)
		e1_apo_trig(d, p + 2);
	s->i = p + 3;
	if ((a0 | a1) & 4 || (a0 | (a1 << 2)) == 15) {
		/* a TD in an APO cycle (§5.6.1: cannot happen), or APO 15:
		 * the address cannot be located */
		e1_error(d, p, -etme_bad_packet);
		s->br_known = 0;
		e1_bump(d, p + 2);
		e1_apo_trig_flush(d);
		return;
	}
	if (ps == etm_e1_bd && s->pc_valid)
		e1_data(d, p);
	e1_take(d, p, (a0 & 3) | (a1 & 3) << 2);
	e1_bump(d, p + 2);
	e1_apo_trig_flush(d);
}
