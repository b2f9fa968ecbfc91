/* flow/etm1_run.c - the ETMv1 decoder in a cut decode (flow/etm1_run.h):
 * the cut finder over raw sample records, restart at a record, the state
 * two decoders are compared by. doc/etmv1.md "Cut decode" gives the
 * reasons. */
#include <stdlib.h>
#include <string.h>

#include "common/sbuf.h"
#include "flow/etm1_int.h"
#include "flow/etm1_run.h"

/* Whether the status of resolved sample @w ends an address search for the
 * branch before it (e1_branch(): a BE/BD abandons it, a 4-bit status is an
 * error). */
static int e1_cut_stops(uint32_t w)
{
	unsigned ps = E1_PS(w);

	return ps == etm_e1_be || ps == etm_e1_bd || (w & E1_PSHI);
}

size_t etm_e1_cut_find(const uint8_t *buf, size_t n)
{
	size_t r, end = n / ETM_E1_REC * ETM_E1_REC;

	for (r = 0; r + 3 * ETM_E1_REC <= end; r += ETM_E1_REC) {
		uint32_t w = e1_word(e1_raw(buf + r)), w0, w1;
		unsigned a0, a1;

		if ((E1_PS(w) != etm_e1_be && E1_PS(w) != etm_e1_bd) ||
		    (w & (E1_TRIG | E1_PSHI)))
			continue;
		w0 = e1_word(e1_raw(buf + r + ETM_E1_REC));
		w1 = e1_word(e1_raw(buf + r + 2 * ETM_E1_REC));
		if (e1_cut_stops(w0) || e1_cut_stops(w1))
			continue;
		a0 = E1_PS(w0);
		a1 = E1_PS(w1);
		/* a TD in an APO cycle or APO 15 (e1_branch(): an error) */
		if ((a0 | a1) & 4 || (a0 | (a1 << 2)) == 15)
			continue;
		return r;
	}
	return end;
}

void etm_e1_restart(struct etm_e1 *d, uint64_t cycle)
{
	memset(&d->s, 0, sizeof(d->s));
	d->s.i = d->s.cc = cycle;
	d->in = NULL;
	d->in_n = 0;
	d->npart = 0;
	d->nsamples = cycle;
	d->finishing = 0;
	d->wn = 0;
	d->wbase = cycle;
	d->shortage = 0;
	d->ntrig_pend = 0;
	d->qh = d->qn = 0;
	d->done = 0;
	memset(&d->st, 0, sizeof(d->st));
}

/* The open range, field by field (no padding compared). */
static void e1_save_range(const struct etm_elem *r, struct etm_sbuf *s)
{
	etm_sbuf_u64(s, r->start);
	etm_sbuf_u64(s, r->end);
	etm_sbuf_u64(s, r->offset);
	etm_sbuf_u64(s, r->last_addr);
	etm_sbuf_u64(s, r->ninsn);
	etm_sbuf_u32(s, r->cycles);
	etm_sbuf_u32(s, r->ctxid);
	etm_sbuf_u8(s, r->isa);
	etm_sbuf_u8(s, r->has_ctxid);
	etm_sbuf_u8(s, r->last_size);
	etm_sbuf_u8(s, r->last_exec);
	etm_sbuf_u8(s, r->last_atom);
	etm_sbuf_u8(s, r->last_cls);
	etm_sbuf_u8(s, r->last_link);
}

void etm_e1_save(const struct etm_e1 *d, struct etm_sbuf *s)
{
	const struct e1_st *t = &d->s;
	uint64_t ls = 0;

	/* where e1_skipped() would look for abandoned addresses from */
	if (t->last_sync && t->last_sync >= d->wbase)
		ls = t->last_sync > t->cc ? t->last_sync : t->cc;
	etm_sbuf_u64(s, t->i);
	etm_sbuf_u64(s, t->cc);
	etm_sbuf_u8(s, t->lane);
	etm_sbuf_u64(s, ls);
	etm_sbuf_u64(s, d->wbase + d->wn); /* samples pushed */
	etm_sbuf_u8(s, (unsigned)d->npart);
	etm_sbuf_put(s, d->part, d->npart);
	etm_sbuf_u64(s, d->in_n);
	etm_sbuf_u8(s, (unsigned)d->finishing);
	etm_sbuf_u8(s, (unsigned)d->done);
	etm_sbuf_u32(s, d->qn);
	etm_sbuf_u8(s, (unsigned)t->pc_valid);
	etm_sbuf_u32(s, t->pc_valid ? t->pc : 0);
	etm_sbuf_u8(s, t->isa);
	etm_sbuf_u8(s, (unsigned)t->after_error);
	etm_sbuf_u32(s, t->nofull);
	etm_sbuf_u32(s, t->br_base);
	etm_sbuf_u32(s, t->br_known);
	etm_sbuf_u8(s, (unsigned)t->dsync);
	etm_sbuf_u8(s, (unsigned)t->has_ctx);
	etm_sbuf_u32(s, t->has_ctx ? t->ctxid : 0);
	/* the previous instruction's cycle makes the next range's cycle
	 * count (cycle-accurate only) */
	etm_sbuf_u64(s, d->o.cyc ? t->last_cyc : 0);
	etm_sbuf_u8(s, (unsigned)t->rng_open);
	if (t->rng_open)
		e1_save_range(&t->rng, s);
}
