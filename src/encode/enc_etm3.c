/* encode/enc_etm3.c - ETMv3 back end of the encoder: one atom per executed
 * instruction packed into P-headers (cycle-accurate formats 1-4), branch
 * packets for indirect branches and exceptions (Cancel bit), I-sync with
 * cycle count (IHI 0014Q chapter 7; ../shared/docs/etmv3.md). */
#include <etmtrace/error.h>

#include "encode/enc_int.h"

/* Non-cycle-accurate P-headers: format 1 b1NEEEE00 (0-15 E then 0-1 N),
 * format 2 b1000FF10 (two atoms, bit 3 the older; 1 = N). */
static unsigned e3_plain_one(struct etm_enc *e, unsigned i)
{
	unsigned left = e->natoms - i, k = 0, cap = 15, nbit;
	int rnd = (e->o.flags & ETM_ENC_RANDOM) != 0;

	if (e->o.flags & ETM_ENC_ATOM_SINGLE) {
		enc_byte(e, e->atom_n[i] ? 0xc0 : 0x84);
		return 1;
	}
	if (left >= 2 && rnd && etm_rng_chance(&e->rng, 1, 3)) {
		enc_byte(e, (uint8_t)(0x82 | (e->atom_n[i] << 3) |
				      (e->atom_n[i + 1] << 2)));
		return 2;
	}
	if (rnd)
		cap = 1 + etm_rng_below(&e->rng, 15);
	while (k < left && k < cap && !e->atom_n[i + k])
		k++;
	nbit = k < left && e->atom_n[i + k] &&
	       !(rnd && k && etm_rng_chance(&e->rng, 1, 4));
	enc_byte(e, (uint8_t)(0x80 | (nbit << 6) | (k << 2)));
	return k + nbit;
}

/* Cycle-accurate: atom i has atom_w[i] W atoms before it (its own
 * included). Format 3 b1E1WWW00 = WWW+1 W then optionally E; format 1
 * b1N0EEE00 = EEE x (W E) then optionally W N; format 2 b1000FF10 = W then
 * two atoms; format 4 b10010F10 = one atom without W (ETMv3.3+). */
static unsigned e3_ca_one(struct etm_enc *e, unsigned i)
{
	unsigned left = e->natoms - i, k = 0, nbit;
	uint32_t w = e->atom_w[i];
	uint8_t n = e->atom_n[i];
	int rnd = (e->o.flags & ETM_ENC_RANDOM) != 0;

	if (w == 0) {
		enc_byte(e, (uint8_t)(0x92 | (n << 2)));
		return 1;
	}
	if (w == 1 && left >= 2 && e->atom_w[i + 1] == 0 &&
	    !(rnd && etm_rng_chance(&e->rng, 1, 2))) {
		enc_byte(e, (uint8_t)(0x82 | (n << 3) | (e->atom_n[i + 1] << 2)));
		return 2;
	}
	while (w > 8) {
		enc_byte(e, 0xbc); /* 8 W */
		w -= 8;
	}
	if (!n && (w > 1 || (rnd && etm_rng_chance(&e->rng, 1, 3)))) {
		enc_byte(e, (uint8_t)(0xe0 | ((w - 1) << 2)));
		return 1;
	}
	if (w > 1) {
		enc_byte(e, (uint8_t)(0xa0 | ((w - 2) << 2)));
		w = 1;
	}
	/* now atom i has exactly one W: pack a format 1 run */
	e->atom_w[i] = 1;
	while (k < left && k < 7 && !e->atom_n[i + k] && e->atom_w[i + k] == 1 &&
	       !(e->o.flags & ETM_ENC_ATOM_SINGLE && k))
		k++;
	nbit = k < left && e->atom_n[i + k] && e->atom_w[i + k] == 1 &&
	       !(e->o.flags & ETM_ENC_ATOM_SINGLE && k);
	enc_byte(e, (uint8_t)(0x80 | (nbit << 6) | (k << 2)));
	return k + nbit;
}

static void e3_flush(struct etm_enc *e)
{
	unsigned i = 0;

	while (i < e->natoms)
		i += e->ca ? e3_ca_one(e, i) : e3_plain_one(e, i);
	e->natoms = 0;
}

static void e3_atom(struct etm_enc *e, int n_atom, uint32_t w)
{
	e->atom_n[e->natoms] = (uint8_t)n_atom;
	e->atom_w[e->natoms] = w;
	e->natoms++;
	if (e->natoms == ENC_MAX_ATOMS || (e->o.flags & ETM_ENC_ATOM_SINGLE))
		e3_flush(e);
}

/* I-sync: header (0x70 with cycle count), CC, Context ID, info, address
 * (../shared/docs/etmv3.md §4.1). */
static void e3_isync(struct etm_enc *e, uint64_t addr, enum etm_isa isa,
		     unsigned reason)
{
	uint32_t a = (uint32_t)addr | (isa == etmi_a32 ? 0 : 1);
	int cc = e->ca && reason != etm_isync_periodic;
	unsigned i;

	e3_flush(e);
	if (!e->ever_synced || enc_async_due(e))
		enc_async(e);
	enc_byte(e, cc ? 0x70 : 0x08);
	if (cc)
		enc_etm3_cc(e, e->gap);
	enc_ctxid_bytes(e, e->ctxid);
	enc_byte(e, enc_isync_info(e, reason));
	for (i = 0; i < 4; i++)
		enc_byte(e, (uint8_t)(a >> (8 * i)));
	/* VMID after every I-sync before the next P-header (§9) */
	if (e->vmid_on) {
		enc_byte(e, 0x3c);
		enc_byte(e, e->vmid);
	}
	e->isync_at = enc_pos(e);
	e->base = (uint32_t)addr;
	e->pisa = isa;
	e->isa = isa;
	e->pns = e->ns;
	e->phyp = e->hyp;
	e->ever_synced = 1;
	e->need_sync = 0;
	e->last_insn = 0;
	e->d_full = 1;
}

static void e3_branch(struct etm_enc *e, uint64_t addr, enum etm_isa isa,
		      int exc, unsigned num, int cancel, int ns, int hyp)
{
	int state = ns != e->pns || hyp != e->phyp;
	int full = exc && (e->o.flags & ETM_ENC_EXC_FULL_ADDR);

	e3_flush(e);
	enc_address(e, (uint32_t)addr, isa, exc || state, full);
	if (exc || state)
		enc_exc_bytes(e, exc ? num : 0, cancel, ns, hyp, 0);
}

static void e3_sync_point(struct etm_enc *e, uint64_t addr, enum etm_isa isa)
{
	if (e->need_sync)
		e3_isync(e, addr, isa, e->reason);
	else if (enc_isync_due(e))
		e3_isync(e, addr, isa, etm_isync_periodic);
	else if (enc_async_due(e))
		enc_async(e);
}

static int e3_insn(struct etm_enc *e, const struct etm_ev *ev)
{
	struct etm_insn in;
	int err;

	if (!e->on)
		return 0;
	if (e->d_only)
		return enc_etm3_donly_insn(e, ev);
	if (e->ca && !ev->cycles && e->minor < 3)
		return -etme_invalid; /* format 4 is ETMv3.3+ */
	err = enc_classify(e, ev, &in);
	if (err)
		return err;
	e3_sync_point(e, ev->addr, ev->isa);
	e->isa = ev->isa;
	e3_atom(e, !ev->exec, e->ca ? ev->cycles : 0);
	e->last_insn = 1;
	e->next = ev->addr + in.size;
	e->next_valid = 1;
	if (!ev->exec)
		return 0;
	if (in.cls == etmc_br_indirect) {
		if (in.exc_return && e->minor >= 5) {
			/* after the atom, before the branch packet (§12) */
			e3_flush(e);
			enc_byte(e, 0x76);
		}
		e3_branch(e, ev->target, ev->target_isa, 0, 0, 0, ev->ns,
			  ev->hyp);
		e->ns = ev->ns;
		e->hyp = ev->hyp;
		e->isa = ev->target_isa;
		e->next = ev->target;
	} else if (in.cls == etmc_br_direct) {
		enum etm_isa t = in.target_isa != etmi_unknown ?
					 in.target_isa :
					 e->isa;

		/* an ISA change (BLX imm) always gives the target in an
		 * address packet (IHI 0014 §4.5.2) */
		if (e->bcast || t != e->isa)
			e3_branch(e, in.target, t, 0, 0, 0, e->ns, e->hyp);
		e->isa = t;
		e->next = in.target;
	}
	return 0;
}

static int e3_exception(struct etm_enc *e, const struct etm_ev *ev)
{
	if (!e->on || e->d_only)
		return 0;
	if (e->need_sync) {
		if (!e->next_valid)
			return -etme_invalid;
		e3_isync(e, e->next, e->isa, e->reason);
	}
	e3_branch(e, ev->addr, ev->isa, 1, ev->exc_num,
		  ev->cancel && e->last_insn, ev->ns, ev->hyp);
	e->isa = ev->isa;
	e->ns = ev->ns;
	e->hyp = ev->hyp;
	e->next = ev->addr;
	e->next_valid = 1;
	e->last_insn = 0;
	enc_after_halt(e, ev);
	return 0;
}

static void e3_context(struct etm_enc *e, const struct etm_ev *ev)
{
	int cid = ev->ctxid != e->ctxid && e->cid_bytes;
	int vm = ev->vmid != e->vmid && e->vmid_on;

	e->ctxid = ev->ctxid;
	e->vmid = ev->vmid;
	if (!e->on || e->need_sync)
		return; /* the I-sync carries it */
	e3_flush(e);
	if (cid) {
		enc_byte(e, 0x6e);
		enc_ctxid_bytes(e, e->ctxid);
	}
	if (vm) {
		enc_byte(e, 0x3c);
		enc_byte(e, e->vmid);
	}
}

static void e3_trace_on(struct etm_enc *e, const struct etm_ev *ev,
			unsigned reason)
{
	e3_flush(e);
	e->on = 1;
	e->need_sync = 1;
	e->reason = (uint8_t)reason;
	e->gap = ev->cycles;
	e->ns = ev->ns;
	e->hyp = ev->hyp;
}

int enc_etm3_put(struct etm_enc *e, const struct etm_ev *ev)
{
	switch (ev->kind) {
	case etmev_insn:
		return e3_insn(e, ev);
	case etmev_exception:
		return e3_exception(e, ev);
	case etmev_context:
		e3_context(e, ev);
		return 0;
	case etmev_trace_on:
		e3_trace_on(e, ev, ev->reason ? ev->reason : etm_isync_trace_on);
		return 0;
	case etmev_overflow:
		e3_trace_on(e, ev, etm_isync_overflow);
		return 0;
	case etmev_trace_off:
		e3_flush(e);
		e->on = 0;
		return 0;
	case etmev_timestamp:
		if (!e->on || e->need_sync || !e->ts_on)
			return 0;
		e3_flush(e);
		enc_timestamp(e, ev->timestamp);
		return 0;
	case etmev_trigger:
		if (e->on && !e->need_sync) {
			e3_flush(e);
			enc_byte(e, 0x0c);
		}
		return 0;
	case etmev_data:
	case etmev_data_value:
		if (!e->on || e->need_sync)
			return 0;
		e3_flush(e);
		return enc_etm3_data(e, ev);
	default:
		return -etme_invalid;
	}
}

int enc_etm3_finish(struct etm_enc *e)
{
	e3_flush(e);
	return 0;
}
