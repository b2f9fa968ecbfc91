/* flow/etm1.c - the ETMv1 decoder: the sample window over the pushed record
 * stream, the cycle loop that walks PIPESTAT against the program image
 * (IE/ID/IN step the PC, BE/BD hand over to etm1_br.c), range building and
 * the element queue. doc/etmv1.md gives the rules and their sources. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/zero.h"
#include "flow/etm1_int.h"

struct etm_e1 *etm_e1_alloc(const struct etm_config *cfg,
			    const struct etm_image *img)
{
	struct etm_e1 *d;

	if (!cfg || etm_config_check(cfg, NULL) < 0 ||
	    cfg->protocol != etm_proto_etmv1)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	etm_config_from_user(&d->cfg, cfg, cfg->size);
	d->img = img;
	etm_e1_cfg_get(&d->o, cfg);
	d->bc = etm_bcache_alloc(10, ETM_STOP_BRANCHES);
	if (!d->bc) {
		free(d);
		return NULL;
	}
	d->rng_tmpl.kind = etmk_range;
	d->rng_tmpl.id = (uint8_t)etm_cfg_trace_id(cfg);
	d->rng_tmpl.has_cycles = (uint8_t)d->o.cyc;
	return d;
}

void etm_e1_free(struct etm_e1 *d)
{
	if (!d)
		return;
	etm_bcache_free(d->bc);
	free(d->w);
	free(d);
}

void etm_e1_set_cache(struct etm_e1 *d, int on)
{
	if (!d)
		return;
	if (!on) {
		etm_bcache_free(d->bc);
		d->bc = NULL;
	} else if (!d->bc) {
		d->bc = etm_bcache_alloc(10, ETM_STOP_BRANCHES);
	}
	d->s.blk_ok = 0;
}

void etm_e1_stats(const struct etm_e1 *d, struct etm_e1_stats *st)
{
	if (d && st)
		*st = d->st;
}

int etm_e1_push(struct etm_e1 *d, const uint8_t *buf, size_t n)
{
	if (!d || (!buf && n) || d->finishing)
		return -etme_invalid;
	if (d->in_n)
		return -etme_busy;
	d->in = buf;
	d->in_n = n;
	return 0;
}

int etm_e1_finish(struct etm_e1 *d)
{
	if (!d)
		return -etme_invalid;
	d->finishing = 1;
	return 0;
}

/* ---- the window ------------------------------------------------------------ */

/* Drop samples no step can look at again: before the current cycle, the
 * cursor and the last address read (bounded by E1_LOOKAHEAD). */
static void e1_compact(struct etm_e1 *d)
{
	uint64_t keep = d->s.i;

	if (d->s.cc < keep)
		keep = d->s.cc;
	if (d->s.last_sync && d->s.last_sync < keep)
		keep = d->s.last_sync;
	if (keep + E1_LOOKAHEAD < d->s.i)
		keep = d->s.i - E1_LOOKAHEAD;
	if (keep <= d->wbase)
		return;
	if (keep - d->wbase >= d->wn) {
		d->wbase += d->wn;
		d->wn = 0;
		return;
	}
	memmove(d->w, d->w + (keep - d->wbase),
		(d->wn - (size_t)(keep - d->wbase)) * sizeof(*d->w));
	d->wn -= (size_t)(keep - d->wbase);
	d->wbase = keep;
}

/* Take up to E1_CHUNK more samples from the pushed buffer. Returns 1 if
 * any were added, 0 if the buffer is used up, -etme_nomem. */
static int e1_fill(struct etm_e1 *d)
{
	size_t want, k = 0;

	if (!d->in_n)
		return 0;
	e1_compact(d);
	want = (d->npart + d->in_n) / ETM_E1_REC;
	if (want > E1_CHUNK)
		want = E1_CHUNK;
	if (d->wn + want + 1 > d->wcap) {
		size_t cap = d->wn + want + E1_CHUNK;
		uint32_t *w = realloc(d->w, cap * sizeof(*w));

		if (!w)
			return -etme_nomem;
		d->w = w;
		d->wcap = cap;
	}
	while (d->npart && d->npart < ETM_E1_REC && d->in_n) {
		d->part[d->npart++] = *d->in++;
		d->in_n--;
		if (d->npart == ETM_E1_REC) {
			d->w[d->wn++] = e1_raw(d->part);
			d->npart = 0;
			k++;
		}
	}
	if (k < want) {
		/* whole records, in locals (no aliasing with the window) */
		size_t m = d->in_n / ETM_E1_REC;
		const uint8_t *in = d->in;
		uint32_t *w = d->w + d->wn;

		if (m > want - k)
			m = want - k;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		memcpy(w, in, m * ETM_E1_REC); /* records are the words */
#else
		for (size_t j = 0; j < m; j++)
			w[j] = e1_raw(in + j * ETM_E1_REC);
#endif
		d->wn += m;
		d->in += m * ETM_E1_REC;
		d->in_n -= m * ETM_E1_REC;
		k += m;
	}
	if (d->in_n && d->in_n < ETM_E1_REC && !d->npart) {
		memcpy(d->part, d->in, d->in_n);
		d->npart = (unsigned)d->in_n;
		d->in_n = 0;
	}
	d->nsamples += k;
	d->st.samples += k;
	return 1;
}

/* ---- elements ----------------------------------------------------------- */

struct etm_elem *e1_push_elem(struct etm_e1 *d, enum etm_elem_kind k,
			      uint64_t cycle)
{
	struct etm_elem *el;

	if (d->qh + d->qn >= E1_QMAX) {
		memmove(d->q, d->q + d->qh, d->qn * sizeof(*d->q));
		d->qh = 0;
	}
	el = &d->q[d->qh + d->qn++];
	etm_zero(el, sizeof(*el));
	el->kind = k;
	el->offset = cycle * ETM_E1_REC;
	el->id = (uint8_t)etm_cfg_trace_id(&d->cfg);
	return el;
}

void e1_close_range(struct etm_e1 *d)
{
	e1_close_range_in(d);
}

void e1_error(struct etm_e1 *d, uint64_t cycle, int err)
{
	e1_close_range(d);
	e1_push_elem(d, etmk_error, cycle)->err = err < 0 ? -err : err;
	d->st.errors++;
	d->s.pc_valid = 0;
	d->s.blk_ok = 0;
	d->s.after_error = 1;
}

/* Add the instruction at pc (size @size, class @cls) to the range. */
static void e1_range_add(struct etm_e1 *d, uint64_t cycle, unsigned size,
			 int exec)
{
	struct e1_st *s = &d->s;
	struct etm_elem *r = &s->rng;

	if (!s->rng_open || r->end != s->pc || r->isa != s->isa) {
		e1_close_range(d);
		*r = d->rng_tmpl;
		r->start = s->pc;
		r->end = s->pc;
		r->isa = s->isa;
		r->has_ctxid = (uint8_t)s->has_ctx;
		r->ctxid = s->ctxid;
		s->rng_open = 1;
	}
	r->offset = cycle * ETM_E1_REC;
	r->last_addr = s->pc;
	r->last_size = (uint8_t)size;
	r->end = (uint64_t)s->pc + size; /* 0x100000000 at the top */
	r->ninsn++;
	r->last_exec = (uint8_t)exec;
	r->last_atom = 1;
	r->last_cls = etmc_other;
	r->last_link = 0;
	if (d->o.cyc)
		r->cycles += (uint32_t)(cycle - s->last_cyc);
	s->last_cyc = cycle;
	d->st.insns++;
}

/* The block at pc, looked up when pc left the current one. */
static int e1_block(struct etm_e1 *d, uint64_t cycle)
{
	const struct etm_block *b;
	struct e1_st *s = &d->s;
	int err;

	if (s->blk_ok && s->bidx < s->blk.ninsn &&
	    etm_block_addr(&s->blk, s->bidx) == s->pc && s->blk.isa == s->isa)
		return 0;
	if (d->bc)
		err = etm_bcache_lookup(d->bc, d->img, etm_space_any, s->pc,
					s->isa, &b);
	else
		err = etm_block_build(&s->blk, d->img, etm_space_any, s->pc,
				      s->isa, ETM_STOP_BRANCHES),
		b = &s->blk;
	if (err < 0) {
		e1_close_range(d);
		e1_push_elem(d, etmk_nomem, cycle)->addr = s->pc;
		s->pc_valid = 0;
		s->blk_ok = 0;
		s->after_error = 1;
		return err;
	}
	if (b != &s->blk)
		s->blk = *b;
	s->blk_ok = 1;
	s->bidx = 0;
	return 0;
}

/* Classify the instruction at pc from the image (slow path). */
int e1_insn_at(struct etm_e1 *d, struct etm_insn *in)
{
	uint8_t b[4];
	size_t n = etm_image_read(d->img, etm_space_any, d->s.pc, b, 4);

	if (etm_insn_decode(in, d->s.isa, d->s.pc, b, n) < 0)
		return -etme_nomap;
	return 0;
}

/* The instruction at pc as e1_insn_at() classifies it, taken from a block
 * that ends there when one is at hand (the current block, or the cached
 * one-instruction block at pc: an indirect branch reached by a branch),
 * which saves the image read and the decode on every BE/BD. */
int e1_insn_cached(struct etm_e1 *d, struct etm_insn *in)
{
	const struct e1_st *s = &d->s;
	const struct etm_block *b;

	if (s->blk_ok && s->bidx < s->blk.ninsn && s->blk.isa == s->isa &&
	    etm_block_addr(&s->blk, s->bidx) == s->pc) {
		if (s->bidx + 1 != s->blk.ninsn)
			return e1_insn_at(d, in); /* inside the block */
		*in = s->blk.last;
		return 0;
	}
	if (!d->bc || (s->isa != etmi_a32 && s->isa != etmi_t32) ||
	    etm_bcache_lookup(d->bc, d->img, etm_space_any, s->pc, s->isa,
			      &b) < 0 ||
	    b->ninsn != 1)
		return e1_insn_at(d, in);
	*in = b->last;
	return 0;
}

/* An IE/ID/IN status at @cycle. */
static void e1_insn(struct etm_e1 *d, uint64_t cycle, unsigned ps)
{
	struct e1_st *s = &d->s;
	const struct etm_insn *last;
	unsigned size;
	int exec = ps != etm_e1_in, is_last;

	if (s->pc_valid && s->isa == etmi_jazelle)
		return; /* bytecodes: not followed */
	if (!s->pc_valid || e1_block(d, cycle) < 0) {
		if (ps == etm_e1_id)
			s->dsync = 0; /* its data cannot be sized */
		return;
	}
	is_last = s->bidx + 1 == s->blk.ninsn;
	size = s->blk.isa == etmi_a32        ? 4 :
	       (s->blk.size4 >> s->bidx & 1) ? 4 :
					       2;
	if (ps == etm_e1_id)
		e1_data(d, cycle);
	last = &s->blk.last;
	if (is_last && exec && s->blk.stop &&
	    last->cls != etmc_br_direct) {
		/* an indirect branch or exception-generating instruction
		 * that executed must come as BE/BD (IHI 0014Q §5.1) */
		e1_error(d, cycle, -etme_mismatch);
		return;
	}
	e1_range_add(d, cycle, size, exec);
	if (is_last) {
		s->rng.last_cls = last->cls;
		s->rng.last_link = last->link;
	}
	if (is_last && exec && last->cls == etmc_br_direct) {
		e1_close_range(d);
		s->pc = (uint32_t)last->target;
		s->isa = last->target_isa;
		s->blk_ok = 0;
		return;
	}
	if (!exec)
		e1_close_range(d);
	s->pc += size;
	s->bidx++;
	if (is_last)
		s->blk_ok = 0;
}

/* One cycle. */
static void e1_cycle(struct etm_e1 *d)
{
	struct e1_st *s = &d->s;
	uint64_t i = s->i;
	uint32_t w = e1_sample(d, i);
	unsigned ps = E1_PS(w);

	if (w & E1_PSHI) {
		/* a 4-bit PIPESTAT value: wrong port or not ETMv1 */
		e1_error(d, i, -etme_bad_packet);
		s->i = i + 1;
		return;
	}
	if (w & E1_TRIG) {
		e1_close_range(d);
		e1_push_elem(d, etmk_event, i);
		d->st.triggers++;
	}
	switch (ps) {
	case etm_e1_ie:
	case etm_e1_id:
	case etm_e1_in:
		e1_insn(d, i, ps);
		e1_bump(d, i);
		s->i = i + 1;
		return;
	case etm_e1_be:
	case etm_e1_bd:
		e1_branch(d, i, ps); /* advances s->i */
		return;
	default:
		s->i = i + 1;
		return;
	}
}

/* The block at pc for the fast loop: a pointer into the block cache,
 * valid until the next lookup (the loop makes no other). NULL if the block
 * cache is off or the opcode is unreadable (the general path reports it). */
static const struct etm_block *e1_fast_block(struct etm_e1 *d, uint32_t pc,
					     enum etm_isa isa)
{
	const struct etm_block *b;

	if (etm_bcache_lookup(d->bc, d->img, etm_space_any, pc, isa, &b) < 0)
		return NULL;
	return b;
}

/* A stretch of @n instructions of the fast loop into the open range: the
 * last at @pc (@size bytes, sample @li, class from @b if it ends @b). */
static void e1_fast_flush(struct etm_e1 *d, uint32_t n, uint32_t pc,
			  unsigned size, uint64_t li, int exec, uint32_t cyc,
			  const struct etm_block *b, int last)
{
	struct etm_elem *r = &d->s.rng;

	r->ninsn += n;
	r->end = (uint64_t)pc + size;
	r->last_addr = pc;
	r->last_size = (uint8_t)size;
	r->offset = li * ETM_E1_REC;
	r->last_exec = (uint8_t)exec;
	r->last_atom = 1;
	r->last_cls = last ? b->last.cls : etmc_other;
	r->last_link = last ? b->last.link : 0;
	r->cycles += cyc;
	d->st.insns += n;
}

/* Size of instruction @k of block @b. */
static inline unsigned e1_size(const struct etm_block *b, uint32_t k)
{
	return b->isa == etmi_a32 || (b->size4 >> k & 1) ? 4 : 2;
}

/* The current block if pc is in it. */
static const struct etm_block *e1_fast_cur(const struct e1_st *s)
{
	if (s->blk_ok && s->bidx < s->blk.ninsn && s->blk.isa == s->isa &&
	    etm_block_addr(&s->blk, s->bidx) == s->pc)
		return &s->blk;
	return NULL;
}

/* Open a new range at @pc (as e1_range_add() does). */
static void e1_fast_open(struct etm_e1 *d, uint32_t pc, enum etm_isa isa)
{
	struct e1_st *s = &d->s;

	e1_close_range_in(d);
	s->rng = d->rng_tmpl;
	s->rng.start = s->rng.end = pc;
	s->rng.isa = isa;
	s->rng.has_ctxid = (uint8_t)s->has_ctx;
	s->rng.ctxid = s->ctxid;
	s->rng_open = 1;
}

/* The fast loop's state back into d->s: next cycle @i, @pc in @isa, the
 * last instruction at cycle @lc (UINT64_MAX: none), block @b at @bidx. */
static inline void e1_fast_end(struct etm_e1 *d, uint64_t i, uint32_t pc,
			       enum etm_isa isa, uint64_t lc,
			       const struct etm_block *b, uint32_t bidx)
{
	struct e1_st *s = &d->s;

	if (lc != UINT64_MAX) {
		if (s->cc <= lc) { /* the cursor passes instruction cycles */
			s->cc = lc + 1;
			s->lane = 0;
		}
		s->last_cyc = lc;
	}
	s->i = i;
	s->pc = pc;
	s->isa = isa;
	s->blk_ok = b != NULL;
	if (b && b != &s->blk)
		s->blk = *b;
	s->bidx = bidx;
}

/* What a cycle is, by byte 0 of its raw record (PIPESTAT[3:0], TRACESYNC,
 * TRIGGER: 64 values), as e1_word() resolves it (IHI 0014Q Table 5.2): the
 * fast loop's action (E1C_ACT) and whether TRACEPKT carries a byte
 * (E1C_PKT). A trigger, TR, BE/BD, ID and a 4-bit status go to the general
 * step; TR and TD carry no byte, nor does a trigger cycle (a 4-bit status
 * does: e1_word() leaves it to the loop, which reports it). */
#define E1C_ROW(ps, t)                                                           \
	(uint8_t)(((ps) < 8 && ((t) || (ps) == etm_e1_tr || (ps) == etm_e1_td) ? \
			   0 :                                                   \
			   E1C_PKT) |                                            \
		  ((t) || (ps) > etm_e1_td                ? e1a_slow :           \
		   (ps) == etm_e1_ie                      ? e1a_exec :           \
		   (ps) == etm_e1_in                      ? e1a_nexec :          \
		   (ps) == etm_e1_wt || (ps) == etm_e1_td ? e1a_pass :           \
							    e1a_slow))
#define E1C_SIXTEEN(t)                                                        \
	E1C_ROW(0, t), E1C_ROW(1, t), E1C_ROW(2, t), E1C_ROW(3, t),           \
		E1C_ROW(4, t), E1C_ROW(5, t), E1C_ROW(6, t), E1C_ROW(7, t),   \
		E1C_ROW(8, t), E1C_ROW(9, t), E1C_ROW(10, t), E1C_ROW(11, t), \
		E1C_ROW(12, t), E1C_ROW(13, t), E1C_ROW(14, t), E1C_ROW(15, t)
/* index: PIPESTAT | TRACESYNC << 4 | TRIGGER << 5 (TRACESYNC: no matter) */
const uint8_t e1_cyc_tab[64] = { E1C_SIXTEEN(0), E1C_SIXTEEN(0),
				 E1C_SIXTEEN(1), E1C_SIXTEEN(1) };

/* The plain case in one loop: while the PC is known, IE/IN step through
 * cached blocks (an IE on a block's last instruction, a direct branch, goes
 * to its target), extending the open range and closing it at taken
 * branches and IN; WT/TD pass. Anything else (BE/BD, ID, a trigger, an
 * indirect branch as IE, an unreadable opcode, the queue filling up) is left
 * to e1_cycle(). Needs no lookahead past the current sample. The same
 * elements as e1_cycle() one by one. Each cycle is one look-up in
 * e1_cyc_tab; an instruction inside a block costs a size bit and two adds
 * (cycle counts and the byte cursor are settled per stretch: the sum of a
 * stretch's cycle gaps is its last cycle minus the cycle before it). */
static void e1_fast(struct etm_e1 *d, uint64_t end)
{
	struct e1_st *s = &d->s;
	const uint32_t *w = d->w - d->wbase; /* raw records */
	const struct etm_block *b = e1_fast_cur(s);
	uint64_t i = s->i, lc = s->last_cyc, lc0 = lc, s4 = 0;
	uint32_t pc = s->pc, bidx = s->bidx, n = 0, ninsn = 0;
	enum etm_isa isa = s->isa;
	int ca = d->o.cyc, full = d->qn >= E1_QHIGH, any = 0;

	if (!s->pc_valid || isa == etmi_jazelle || !d->bc)
		return;
	if (b) {
		ninsn = b->ninsn;
		s4 = b->isa == etmi_a32 ? ~0ull : b->size4;
	}
	for (; i < end && !full; i++) {
		unsigned act = e1_cyc_tab[w[i] & 0x3f] & E1C_ACT, size;
		int last;

		if (act == e1a_pass)
			continue;
		if (act == e1a_slow)
			break;
		if (!b) {
			b = e1_fast_block(d, pc, isa);
			bidx = 0;
			if (!b)
				break;
			ninsn = b->ninsn;
			s4 = b->isa == etmi_a32 ? ~0ull : b->size4;
		}
		last = bidx + 1 == ninsn;
		if (last && act == e1a_exec && b->stop &&
		    b->last.cls != etmc_br_direct)
			break; /* a mismatch: reported by e1_insn() */
		size = 2 + (unsigned)(s4 >> bidx & 1) * 2;
		if (!n && (!s->rng_open || s->rng.end != pc ||
			   s->rng.isa != isa)) {
			e1_fast_open(d, pc, isa);
			full = d->qn >= E1_QHIGH;
		}
		n++;
		lc = i;
		any = 1;
		if (act == e1a_exec && !last) {
			pc += size; /* the common case */
			bidx++;
			continue;
		}
		e1_fast_flush(d, n, pc, size, i, act == e1a_exec,
			      ca ? (uint32_t)(i - lc0) : 0, b, last);
		n = 0;
		lc0 = i;
		if (act == e1a_exec) {
			/* a taken direct branch (the last of a block that
			 * does not stop falls through to the next one) */
			if (b->stop) {
				e1_close_range_in(d);
				full = d->qn >= E1_QHIGH;
				pc = (uint32_t)b->last.target;
				isa = b->last.target_isa;
			} else {
				pc += size;
			}
			b = NULL;
			continue;
		}
		e1_close_range_in(d); /* IN */
		full = d->qn >= E1_QHIGH;
		pc += size;
		bidx += !last;
		b = last ? NULL : b;
	}
	if (n) /* the stretch since the last flush ends before pc */
		e1_fast_flush(d, n, pc - e1_size(b, bidx - 1),
			      e1_size(b, bidx - 1), lc, 1,
			      ca ? (uint32_t)(lc - lc0) : 0, b, 0);
	e1_fast_end(d, i, pc, isa, any ? lc : UINT64_MAX, b, bidx);
}

/* Decode cycles while the queue has room and samples are at hand.
 * Returns 0, or -etme_again when more input is needed. */
static int e1_run(struct etm_e1 *d)
{
	struct e1_st save;
	struct etm_e1_stats st;
	unsigned qn;
	int err;

	while (d->qn < E1_QHIGH) {
		if (d->s.i - d->wbase + 2 * E1_LOOKAHEAD > d->wn && d->in_n) {
			err = e1_fill(d);
			if (err < 0)
				return err;
		}
		if (d->s.i >= d->wbase + d->wn) {
			if (d->in_n)
				continue;
			if (!d->finishing)
				return -etme_again;
			if (!d->done) {
				e1_close_range(d);
				d->done = 1;
			}
			return 0;
		}
		e1_fast(d, d->wbase + d->wn);
		if (d->s.i >= d->wbase + d->wn)
			continue;
		if (d->finishing ||
		    d->s.i + 2 * E1_LOOKAHEAD < d->wbase + d->wn) {
			/* no step reads that far ahead (etm1_br.c) */
			e1_cycle(d);
			continue;
		}
		save = d->s;
		st = d->st;
		qn = d->qn;
		d->shortage = 0;
		e1_cycle(d);
		if (d->shortage) {
			d->s = save;
			d->st = st;
			d->qn = qn;
			if (d->in_n)
				continue;
			return -etme_again;
		}
	}
	return 0;
}

int etm_e1_next_elems(struct etm_e1 *d, const struct etm_elem **els,
		      size_t max)
{
	size_t n;
	int err;

	if (!d || !els || !max)
		return -etme_invalid;
	if (!d->qn) {
		d->qh = 0;
		err = e1_run(d);
		if (err < 0 && !d->qn)
			return err;
		if (!d->qn)
			return d->done ? -etme_eos : -etme_again;
	}
	n = d->qn < max ? d->qn : max;
	*els = &d->q[d->qh];
	d->qh += (unsigned)n;
	d->qn -= (unsigned)n;
	return (int)n;
}

int etm_e1_next(struct etm_e1 *d, struct etm_elem *el, size_t size)
{
	const struct etm_elem *p;
	int n;

	if (!el || size < sizeof(*el))
		return -etme_invalid;
	n = etm_e1_next_elems(d, &p, 1);
	if (n < 0)
		return n;
	*el = *p;
	return 0;
}
