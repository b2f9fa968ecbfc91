/* decoder/window.c - the element window (etmtrace/window.h): the elements
 * between a start and a stop bound (stage 1), then optionally only the last
 * N instructions before the end or each Debug Halt (stage 2, a bounded
 * ring). Ranges that straddle a bound are cut at the exact instruction by
 * walking them over their source's image. doc/window.md. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/window.h>

#include "common/digits.h"
#include "common/grow.h"

enum { W_BEFORE,
       W_IN,
       W_AFTER };

/* Elements other than instructions the ring holds beyond 2 * N. */
#define WIN_SLACK 4096
#define WIN_QMAX 4

struct win_src {
	const struct etm_config *cfg;
	const struct etm_image *img;
};

struct etm_window {
	struct etm_window_opts o;
	struct win_src src[256]; /* by trace ID (a uint8_t) */
	int state;
	uint64_t index; /* decode index of the next instruction */
	int kept_any;   /* an instruction of the window was kept */
	int finished;   /* etm_window_finish() called */
	uint64_t dropped;
	/* output queue */
	struct etm_elem q[WIN_QMAX];
	unsigned qh, qn;
	/* --last: ring of elements, oldest at head */
	struct etm_elem *ring;
	size_t cap, head, n, capmax;
	uint64_t insns;       /* instructions in the ring */
	int releasing;        /* the ring is being taken (next()) */
	struct etm_elem hold; /* goes into the ring after the release */
	int has_hold;
	/* left out of the ring since its last release: an etmk_window
	 * element before the next group (not before the first) */
	int released;
	uint64_t gap_elems, gap_insns, gap_off;
};

int etm_window_parse(const char *s, struct etm_win_bound *b)
{
	struct etm_win_bound r = { etm_win_none, 0 };

	if (!s || !b)
		return -etme_parse;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		r.kind = etm_win_addr;
	} else if (s[0] == '@') {
		r.kind = etm_win_offset;
		s++;
	} else if (s[0] == '#') {
		r.kind = etm_win_insn;
		s++;
	} else if (!strncmp(s, "ts:", 3)) {
		r.kind = etm_win_ts;
		s += 3;
	} else {
		return -etme_parse;
	}
	if (etm_digits(s, 0, &r.value) < 0)
		return -etme_parse;
	*b = r;
	return 0;
}

struct etm_window *etm_window_alloc(const struct etm_window_opts *o)
{
	struct etm_window *w;

	if (!o || (unsigned)o->start.kind > etm_win_insn ||
	    (unsigned)o->stop.kind > etm_win_insn ||
	    (unsigned)o->at > etm_win_at_halt)
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->o = *o;
	w->state = o->start.kind == etm_win_none ? W_IN : W_BEFORE;
	/* the ring: the N instructions' ranges (at most N + 1) and as many
	 * other elements again, and some */
	w->capmax = o->last > (SIZE_MAX - WIN_SLACK) / 4 ?
			    SIZE_MAX / 2 :
			    (size_t)o->last * 2 + WIN_SLACK;
	return w;
}

void etm_window_free(struct etm_window *w)
{
	if (!w)
		return;
	free(w->ring);
	free(w);
}

int etm_window_add_source(struct etm_window *w, unsigned id,
			  const struct etm_config *cfg,
			  const struct etm_image *img)
{
	if (!w || id > 0xff)
		return -etme_invalid;
	w->src[id].cfg = cfg;
	w->src[id].img = img;
	return 0;
}

/* ---- ranges, instruction by instruction --------------------------------- */

static int has_insns(const struct etm_elem *el)
{
	return el->kind == etmk_range && el->ninsn;
}

/* Split range @el before its instruction @k (0 < k < ninsn) into @head
 * (instructions 0..k-1) and @tail (k..). Returns 0, or -1 when its image
 * cannot give the instructions (then nothing is cut). */
static int cut_range(const struct etm_window *w, const struct etm_elem *el,
		     uint32_t k, struct etm_elem *head, struct etm_elem *tail)
{
	const struct win_src *s = &w->src[el->id];
	struct etm_insn in;
	struct etm_walk wk;
	uint32_t i;

	if (!s->img || !k || k >= el->ninsn || etm_walk_init(&wk, s->img, el))
		return -1;
	for (i = 0; i < k; i++)
		if (etm_walk_next(&wk, &in) < 0)
			return -1;
	*head = *el;
	*tail = *el;
	head->end = wk.addr;
	head->ninsn = k;
	head->last_addr = in.addr;
	head->last_size = in.size;
	head->last_cls = in.cls;
	head->last_link = in.link;
	head->last_mark = 0; /* not told: its consumers classify it */
	head->last_exec = 1; /* the range goes on past it: it passed */
	head->last_atom = 0;
	head->has_cycles = 0; /* the cycles come with the last instruction */
	head->cycles = 0;
	tail->start = wk.addr;
	tail->ninsn = el->ninsn - k;
	return 0;
}

/* The index in range @el (first instruction of decode index @base) of
 * the first instruction, from index @from on, that bound @b names; -1 if
 * none. An index bound before @base names the range's start. */
static long bound_in_range(const struct etm_window *w,
			   const struct etm_elem *el, uint64_t base,
			   const struct etm_win_bound *b, uint32_t from)
{
	const struct win_src *s = &w->src[el->id];
	struct etm_insn in;
	struct etm_walk wk;
	uint32_t i;

	if (b->kind == etm_win_insn && b->value < base)
		return 0; /* passed already (a stop before the start) */
	if (b->kind == etm_win_insn)
		return b->value - base < el->ninsn ? (long)(b->value - base) : -1;
	if (b->kind != etm_win_addr || b->value < el->start ||
	    b->value >= el->end || from >= el->ninsn)
		return -1;
	if (!s->img || etm_walk_init(&wk, s->img, el))
		return !from && b->value == el->start ? 0 : -1;
	for (i = 0; etm_walk_next(&wk, &in) == 0 && in.addr <= b->value; i++)
		if (i >= from && in.addr == b->value)
			return (long)i;
	return -1;
}

/* Whether non-range element @el is the one bound @b names. */
static int bound_at_elem(const struct etm_elem *el,
			 const struct etm_win_bound *b)
{
	if (b->kind == etm_win_offset)
		return el->offset >= b->value;
	if (b->kind == etm_win_ts)
		return el->kind == etmk_timestamp && el->timestamp >= b->value;
	return 0;
}

/* ---- stage 2: everything, or the last N instructions --------------------- */

static void queue(struct etm_window *w, const struct etm_elem *el)
{
	w->q[(w->qh + w->qn++) % WIN_QMAX] = *el;
}

static struct etm_elem *ring_at(struct etm_window *w, size_t i)
{
	return &w->ring[(w->head + i) % w->cap];
}

/* The ring full at its bound: the oldest half of the elements that are
 * not instructions go (counted), in one pass. */
static void ring_compact(struct etm_window *w)
{
	size_t i, j = 0, other = 0, drop;
	struct etm_elem *tmp;

	for (i = 0; i < w->n; i++)
		other += !has_insns(ring_at(w, i));
	drop = other ? (other + 1) / 2 : 1; /* none: the oldest */
	tmp = malloc(w->cap * sizeof(*tmp));
	if (!tmp) { /* no memory for the pass: the oldest element goes */
		w->insns -= has_insns(ring_at(w, 0)) ? ring_at(w, 0)->ninsn : 0;
		w->head = (w->head + 1) % w->cap;
		w->n--;
		w->dropped++;
		return;
	}
	for (i = 0; i < w->n; i++) {
		struct etm_elem *e = ring_at(w, i);

		if (drop && (!has_insns(e) || !other)) {
			drop--;
			w->dropped++;
			w->insns -= has_insns(e) ? e->ninsn : 0;
			continue;
		}
		tmp[j++] = *e;
	}
	free(w->ring);
	w->ring = tmp;
	w->head = 0;
	w->n = j;
}

/* Grow the ring to hold one more element in order (oldest at 0). */
static int ring_room(struct etm_window *w)
{
	size_t cap = w->cap ? w->cap * 2 : 64, i;
	struct etm_elem *r;

	if (w->n >= w->capmax) {
		ring_compact(w);
		return 0;
	}
	if (w->n < w->cap)
		return 0;
	if (cap > w->capmax)
		cap = w->capmax;
	r = malloc(cap * sizeof(*r));
	if (!r)
		return -etme_nomem;
	for (i = 0; i < w->n; i++)
		r[i] = *ring_at(w, i);
	free(w->ring);
	w->ring = r;
	w->cap = cap;
	w->head = 0;
	return 0;
}

/* The ring leaves out @el's first @k instructions (or all of @el). */
static void left_out(struct etm_window *w, const struct etm_elem *el,
		     uint64_t k)
{
	if (!w->gap_elems++)
		w->gap_off = el->offset;
	w->gap_insns += k;
}

/* Drop the oldest elements that are not among the last N instructions
 * or after the first of them. */
static void ring_trim(struct etm_window *w)
{
	while (w->n) {
		struct etm_elem *f = ring_at(w, 0);
		uint64_t k = has_insns(f) ? f->ninsn : 0;

		if (w->insns - k < w->o.last)
			break;
		left_out(w, f, k);
		w->insns -= k;
		w->head = (w->head + 1) % w->cap;
		w->n--;
	}
}

static int ring_push(struct etm_window *w, const struct etm_elem *el)
{
	int r = ring_room(w);

	if (r < 0)
		return r;
	*ring_at(w, w->n++) = *el;
	w->insns += has_insns(el) ? el->ninsn : 0;
	ring_trim(w);
	return 0;
}

/* Hand out the ring: its oldest range cut to the instructions among the
 * last N. */
static void ring_release(struct etm_window *w)
{
	struct etm_elem head, tail, *f;

	if (!w->n)
		return;
	f = ring_at(w, 0);
	if (w->insns > w->o.last && has_insns(f)) {
		uint64_t keep = w->o.last - (w->insns - f->ninsn);

		if (cut_range(w, f, f->ninsn - (uint32_t)keep, &head, &tail) == 0) {
			left_out(w, f, head.ninsn);
			*f = tail;
			w->insns = w->o.last;
		}
	}
	if (w->released && w->gap_elems) {
		struct etm_elem m;

		memset(&m, 0, sizeof(m));
		m.kind = etmk_window;
		m.offset = w->gap_off;
		m.ninsn = w->gap_insns > UINT32_MAX ? UINT32_MAX :
						      (uint32_t)w->gap_insns;
		queue(w, &m);
	}
	w->gap_elems = w->gap_insns = 0;
	w->released = 1;
	w->releasing = 1;
}

static int is_halt(const struct etm_window *w, const struct etm_elem *el)
{
	const struct etm_config *cfg = w->src[el->id].cfg;

	if (el->kind != etmk_exception || el->exc_num != 1)
		return 0;
	return !cfg || (!etm_cfg_m_profile(cfg) &&
			cfg->protocol != etm_proto_etmv1);
}

/* An element the window keeps, into the output or the ring. */
static int keep(struct etm_window *w, const struct etm_elem *el)
{
	int r;

	if (has_insns(el))
		w->kept_any = 1;
	if (!w->o.last) {
		queue(w, el);
		return 0;
	}
	if (w->o.at == etm_win_at_halt && el->kind == etmk_trace_on &&
	    el->reason == etm_on_enable) {
		ring_release(w); /* a trace stop before it */
		if (w->releasing) {
			w->hold = *el;
			w->has_hold = 1;
			return 0;
		}
	}
	r = ring_push(w, el);
	if (!r && w->o.at == etm_win_at_halt && is_halt(w, el))
		ring_release(w);
	return r;
}

/* ---- stage 1: between start and stop ------------------------------------ */

/* The window has passed its stop. */
static void stop(struct etm_window *w)
{
	w->state = W_AFTER;
	if (w->o.last)
		ring_release(w);
}

/* Range @el (first instruction of index @base) inside the window: kept up
 * to the stop. */
static int range_in(struct etm_window *w, const struct etm_elem *el,
		    uint64_t base)
{
	const struct etm_win_bound *b = &w->o.stop;
	uint32_t from = b->kind == etm_win_addr && !w->kept_any;
	struct etm_elem head, tail;
	long k;
	int r = 0;

	if (bound_at_elem(el, b) && b->kind == etm_win_offset) {
		stop(w);
		return 0;
	}
	k = bound_in_range(w, el, base, b, from);
	if (k < 0)
		return keep(w, el);
	if (k > 0)
		r = cut_range(w, el, (uint32_t)k, &head, &tail) == 0 ?
			    keep(w, &head) :
			    keep(w, el); /* cannot cut: kept whole */
	stop(w);
	return r;
}

/* Range @el before the window: the part from the start on goes in. */
static int range_before(struct etm_window *w, const struct etm_elem *el,
			uint64_t base)
{
	const struct etm_win_bound *b = &w->o.start;
	struct etm_elem head, tail;
	long k;

	if (b->kind == etm_win_offset && bound_at_elem(el, b)) {
		w->state = W_IN;
		return range_in(w, el, base);
	}
	k = bound_in_range(w, el, base, b, 0);
	if (k < 0)
		return 0;
	w->state = W_IN;
	if (k > 0 && cut_range(w, el, (uint32_t)k, &head, &tail) == 0)
		return range_in(w, &tail, base + (uint64_t)k);
	return range_in(w, el, base);
}

static int stage1(struct etm_window *w, const struct etm_elem *el)
{
	uint64_t base = w->index;

	if (el->kind == etmk_range) {
		w->index += el->ninsn;
		if (w->state == W_BEFORE)
			return range_before(w, el, base);
		return w->state == W_IN ? range_in(w, el, base) : 0;
	}
	if (w->state == W_BEFORE && bound_at_elem(el, &w->o.start))
		w->state = W_IN;
	if (w->state == W_IN && bound_at_elem(el, &w->o.stop)) {
		stop(w);
		return 0;
	}
	return w->state == W_IN ? keep(w, el) : 0;
}

static int busy(const struct etm_window *w)
{
	return w->qn || (w->releasing && w->n);
}

/* The element held back by a release goes into the ring. */
static int unhold(struct etm_window *w)
{
	if (!w->has_hold)
		return 0;
	w->has_hold = 0;
	return ring_push(w, &w->hold);
}

int etm_window_put(struct etm_window *w, const struct etm_elem *el)
{
	int r;

	if (!w || !el || w->finished)
		return -etme_invalid;
	if (busy(w))
		return -etme_busy;
	r = unhold(w);
	return r < 0 ? r : stage1(w, el);
}

int etm_window_finish(struct etm_window *w)
{
	int r;

	if (!w)
		return -etme_invalid;
	if (busy(w))
		return -etme_busy;
	if (w->finished)
		return 0;
	r = unhold(w);
	w->finished = 1;
	if (w->o.last && w->state != W_AFTER)
		ring_release(w);
	return r;
}

int etm_window_next(struct etm_window *w, struct etm_elem *out)
{
	if (!w || !out)
		return -etme_invalid;
	if (w->qn) {
		*out = w->q[w->qh];
		w->qh = (w->qh + 1) % WIN_QMAX;
		w->qn--;
		return 0;
	}
	if (w->releasing && w->n) {
		struct etm_elem *f = ring_at(w, 0);

		*out = *f;
		w->insns -= has_insns(f) ? f->ninsn : 0;
		w->head = (w->head + 1) % w->cap;
		w->releasing = --w->n != 0;
		return 0;
	}
	w->releasing = 0;
	return w->finished || etm_window_done(w) ? -etme_eos : -etme_again;
}

int etm_window_done(const struct etm_window *w)
{
	return w && w->state == W_AFTER && !w->qn && !w->n && !w->has_hold;
}

uint64_t etm_window_dropped(const struct etm_window *w)
{
	return w ? w->dropped : 0;
}
