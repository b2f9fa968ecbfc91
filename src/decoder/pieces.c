/* decoder/pieces.c - a circular buffer's pieces, each decoded as an input
 * of its own (etm_decoder_set_pieces(), etmtrace/decoder.h; the rules:
 * doc/circular.md). The decoder keeps what it is pushed; at the end it
 * finds the pieces (source/pieces.c) and runs a fresh copy of itself
 * (etm_decoder_clone()) over each piece's bytes in the order listed, with
 * a piece element before each. Nothing here runs unless pieces are on. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "clone.h"
#include "dec_int.h"

struct dec_pieces {
	unsigned mode;
	uint8_t *buf;
	size_t n, cap;
	int found;
	struct etm_circ_pieces ps;
	unsigned list[ETM_PIECES_MAX]; /* file index of the k-th listed */
	size_t k;                      /* the piece being listed */
	struct etm_decoder *inner;     /* its decoder (NULL: not begun) */
	int inner_fin;                 /* its input finished */
	int hdr_due;                   /* its piece element is next */
	struct etm_item held;          /* its first item, taken early */
	int has_held;
	/* the last piece listed ended in a debug halt with this return */
	uint64_t halt_ret;
	int halted;
	struct etm_item out; /* the item etm_decoder_next_elems() hands out */
};

int etm_decoder_set_pieces(struct etm_decoder *d, unsigned mode)
{
	if (!d || mode > ETM_PIECES_FILE)
		return -etme_invalid;
	if (mode == ETM_PIECES_OFF) {
		etm_dec_pieces_free(d);
		return 0;
	}
	if (d->fmt != etm_fmt_coresight || d->mode != etm_dec_elements ||
	    d->offset || d->finishing)
		return -etme_invalid;
	return etm_dec_pieces_on(d, mode);
}

int etm_dec_pieces_on(struct etm_decoder *d, unsigned mode)
{
	if (!d->pc) {
		d->pc = calloc(1, sizeof(*d->pc));
		if (!d->pc)
			return -etme_nomem;
	}
	d->pc->mode = mode;
	return 0;
}

const struct etm_circ_pieces *etm_decoder_pieces(const struct etm_decoder *d)
{
	return d && d->pc && d->pc->found ? &d->pc->ps : NULL;
}

int etm_decoder_in_pieces(const struct etm_decoder *d)
{
	return d->pc != NULL;
}

unsigned etm_dec_pieces_mode(const struct etm_decoder *d)
{
	return d->pc ? d->pc->mode : ETM_PIECES_OFF;
}

void etm_dec_pieces_free(struct etm_decoder *d)
{
	if (!d->pc)
		return;
	etm_dec_free(d->pc->inner);
	free(d->pc->buf);
	free(d->pc);
	d->pc = NULL;
}

int etm_dec_pieces_push(struct etm_decoder *d, const uint8_t *buf, size_t n)
{
	struct dec_pieces *pc = d->pc;

	if (n > ETM_PIECES_MAX_INPUT - pc->n)
		return -etme_nomem;
	if (pc->n + n > pc->cap) {
		size_t cap = pc->cap ? pc->cap : 65536;
		uint8_t *b;

		while (cap < pc->n + n)
			cap *= 2;
		b = realloc(pc->buf, cap);
		if (!b)
			return -etme_nomem;
		pc->buf = b;
		pc->cap = cap;
	}
	if (n)
		memcpy(pc->buf + pc->n, buf, n);
	pc->n += n;
	d->offset += n;
	return 0;
}

void etm_decoder_find_pieces(const struct etm_decoder *d, const uint8_t *buf,
			     size_t n, struct etm_circ_pieces *out)
{
	struct etm_config cfg[ETM_DEC_MAX_SOURCES];
	size_t ncfg = 0, i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		if (d->src[i]) {
			cfg[ncfg] = d->src[i]->cfg;
			cfg[ncfg++].traceid = (uint32_t)i;
		}
	/* the sources left out by a selection count too: the pieces are the
	 * buffer's, whichever sources are decoded */
	ncfg += etm_dec_left_cfgs(d, cfg + ncfg, ETM_DEC_MAX_SOURCES - ncfg);
	etm_pieces_find(buf, n, cfg, ncfg, out);
}

/* The pieces of the input, and the order they are listed in. */
static void pieces_plan(struct etm_decoder *d)
{
	struct dec_pieces *pc = d->pc;
	size_t i;

	etm_decoder_find_pieces(d, pc->buf, pc->n, &pc->ps);
	for (i = 0; i < pc->ps.n; i++) {
		const struct etm_circ_piece *p = &pc->ps.p[i];

		pc->list[pc->mode == ETM_PIECES_FILE ? i : p->time_index] =
			(unsigned)i;
	}
	pc->found = 1;
}

/* Is the halt's return address where the piece listed next resumes? Only
 * for pieces adjacent in time, the first element a debug-exit I-sync. */
static int pieces_join(const struct dec_pieces *pc, const struct etm_item *first)
{
	return pc->halted && first->kind == etm_item_elem &&
	       first->elem.kind == etmk_trace_on &&
	       first->elem.isync_reason == etm_isync_debug_exit &&
	       first->elem.addr == pc->halt_ret;
}

static enum etm_piece_gap pieces_gap(const struct dec_pieces *pc,
				     const struct etm_circ_piece *p)
{
	const struct etm_circ_piece *prev;

	if (!pc->k)
		return etm_gap_none;
	prev = &pc->ps.p[pc->list[pc->k - 1]];
	if (!pc->ps.order_known)
		return etm_gap_unknown;
	if (prev->time_index + 1 != p->time_index)
		return etm_gap_apart;
	if (p->begin != etm_piece_run_start)
		return etm_gap_overwritten;
	return pc->has_held && pieces_join(pc, &pc->held) ? etm_gap_joins :
							    etm_gap_runs;
}

/* The piece element of the piece being listed. */
static void pieces_header(struct dec_pieces *pc, struct etm_item *it)
{
	unsigned fi = pc->list[pc->k];
	const struct etm_circ_piece *p = &pc->ps.p[fi];
	struct etm_elem *e = &it->elem;

	memset(it, 0, sizeof(*it));
	it->kind = etm_item_elem;
	it->proto = etm_proto_unknown;
	e->kind = etmk_piece;
	e->offset = e->start = p->start;
	e->end = p->end;
	e->piece = (uint16_t)pc->k;
	e->ninsn = (uint32_t)pc->ps.n;
	e->reason = (uint8_t)pieces_gap(pc, p);
	e->exc_num = (uint16_t)etm_piece_role(&pc->ps, fi);
	e->isync_reason = (uint8_t)p->begin;
	e->last_size = (uint8_t)p->time_index;
	e->last_atom = (uint8_t)pc->ps.order_known;
	e->last_exec = pc->mode == ETM_PIECES_TIME;
	if (e->reason == etm_gap_joins) {
		e->has_ret = 1;
		e->ret_addr = pc->halt_ret;
	}
}

/* The next item of the piece's decoder; its input is finished only when
 * it asks for more (as a decoder pushed the piece's bytes would be: a
 * finish before the first next() leaves the deformatter's realignment an
 * empty hold to judge, and it never gets past a suspect first frame). */
static int pieces_inner_next(struct dec_pieces *pc, struct etm_item *it)
{
	int r = etm_dec_next(pc->inner, it);

	if (r == -etme_again && !pc->inner_fin) {
		etm_decoder_finish(pc->inner);
		pc->inner_fin = 1;
		r = etm_dec_next(pc->inner, it);
	}
	return r == -etme_again ? -etme_eos : r;
}

/* Begin the piece being listed: a fresh decoder over its bytes alone. */
static int pieces_begin(struct etm_decoder *d)
{
	struct dec_pieces *pc = d->pc;
	const struct etm_circ_piece *p = &pc->ps.p[pc->list[pc->k]];
	int r;

	pc->inner = etm_decoder_clone(d, p->start); /* one input: no pieces */
	if (!pc->inner)
		return -etme_nomem;
	r = etm_dec_push(pc->inner, pc->buf + p->start,
			 (size_t)(p->end - p->start));
	if (r < 0)
		return r;
	pc->inner_fin = 0;
	r = pieces_inner_next(pc, &pc->held);
	if (r < 0 && r != -etme_eos)
		return r;
	pc->has_held = r == 0;
	pc->hdr_due = pc->ps.n > 1;
	return 0;
}

/* An element of the piece being listed, as it goes out: its piece, and a
 * debug halt remembered for the join. (A packet cut by the piece's end is
 * the piece decoder's own end-of-buffer note, etmk_buffer_end.) */
static void pieces_stamp(struct etm_decoder *d, struct etm_item *it)
{
	struct dec_pieces *pc = d->pc;
	struct etm_elem *e = &it->elem;
	const struct dec_source *s;

	if (it->kind != etm_item_elem)
		return;
	e->piece = (uint16_t)pc->k;
	s = e->id < ETM_DEC_MAX_SOURCES ? d->src[e->id] : NULL;
	if (e->kind == etmk_exception && e->exc_num == 1 && e->has_ret && s &&
	    !(s->cfg.flags & ETM_CFG_M_PROFILE)) {
		pc->halted = 1; /* ETMv3/PTM exception 1: debug halt */
		pc->halt_ret = e->ret_addr;
	} else if (e->kind == etmk_range) {
		pc->halted = 0;
	}
}

int etm_dec_pieces_next(struct etm_decoder *d, struct etm_item *it)
{
	struct dec_pieces *pc = d->pc;
	int r;

	if (!d->finishing)
		return -etme_again;
	if (!pc->found)
		pieces_plan(d);
	for (;;) {
		if (pc->k >= pc->ps.n)
			return -etme_eos;
		if (!pc->inner && (r = pieces_begin(d)) < 0)
			return r;
		if (pc->hdr_due) {
			pieces_header(pc, it);
			pc->hdr_due = 0;
			pc->halted = 0;
			return 0;
		}
		if (pc->has_held) {
			*it = pc->held;
			pc->has_held = 0;
			pieces_stamp(d, it);
			return 0;
		}
		r = pieces_inner_next(pc, it);
		if (r == 0) {
			pieces_stamp(d, it);
			return 0;
		}
		if (r != -etme_eos)
			return r;
		etm_dec_free(pc->inner);
		pc->inner = NULL;
		pc->k++;
	}
}

int etm_dec_pieces_next_elems(struct etm_decoder *d,
			      const struct etm_elem **els, size_t max)
{
	int r;

	(void)max;
	r = etm_dec_pieces_next(d, &d->pc->out);
	if (r < 0)
		return r;
	*els = &d->pc->out.elem;
	return 1;
}
