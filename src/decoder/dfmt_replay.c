/* decoder/dfmt_replay.c - the deformatter's output for one trace ID recorded once
 * (data runs, staged data with its offset map, error items, where it
 * wanted more input) and replayed into decoders in place of their own
 * deformatter: what a decoder with the realignment off takes from the
 * deformatter depends on the input bytes and the selected ID only, not on
 * the configuration of the source that parses it. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "decoder/dec_int.h"
#include "decoder/dfmt_replay.h"
#include "packet/pktdec.h"
#include "source/dfmt_bulk.h"

enum replay_kind {
	replay_stage, /* struct etm_dfmt_stage */
	replay_item,  /* struct etm_dfmt_item (data run or error) */
	replay_again, /* -etme_again: the input was finished here */
	replay_end,   /* -etme_eos, or the error in err: stays there */
};

struct replay_ev {
	enum replay_kind kind;
	int err;
	struct etm_dfmt_item x; /* replay_item (run.data: see data) */
	unsigned id;            /* replay_stage */
	size_t data, n;         /* bytes at replay->data + data */
	size_t seg, nseg;       /* replay_stage: map at replay->seg + seg */
	int has_rel;            /* replay_stage: its table is in rel */
};

struct etm_dec_replay {
	enum etm_input_format fmt;
	unsigned id;
	struct replay_ev *ev;
	size_t nev, evcap;
	uint8_t *data;
	size_t ndata, datacap;
	struct etm_offseg *seg;
	size_t nseg, segcap;
	/* the per-byte offset tables of the stages, each at the place of its
	 * bytes in data (rel + data; made once, replay_rels()) */
	uint32_t *rel;
};

static struct replay_ev *replay_add(struct etm_dec_replay *t, enum replay_kind kind)
{
	struct replay_ev *e = etm_grow(t->ev, &t->evcap, t->nev + 1, sizeof(*e), 16);

	if (!e)
		return NULL;
	t->ev = e;
	e = &t->ev[t->nev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	return e;
}

static int replay_bytes(struct etm_dec_replay *t, struct replay_ev *e,
			const uint8_t *b, size_t n)
{
	uint8_t *data = etm_grow(t->data, &t->datacap, t->ndata + n, 1, 16);

	if (!data)
		return -etme_nomem;
	t->data = data;
	if (n)
		memcpy(t->data + t->ndata, b, n);
	e->data = t->ndata;
	e->n = n;
	t->ndata += n;
	return 0;
}

static int replay_stage_add(struct etm_dec_replay *t,
			    const struct etm_dfmt_stage *st)
{
	struct replay_ev *e = replay_add(t, replay_stage);
	void *seg;

	if (!e || replay_bytes(t, e, st->data, st->n) < 0)
		return -etme_nomem;
	seg = etm_grow(t->seg, &t->segcap, t->nseg + st->nseg,
		       sizeof(*t->seg), 16);
	if (!seg)
		return -etme_nomem;
	t->seg = seg;
	e->id = st->id;
	memcpy(t->seg + t->nseg, st->seg, st->nseg * sizeof(*t->seg));
	e->seg = t->nseg;
	e->nseg = st->nseg;
	t->nseg += st->nseg;
	return 0;
}

static int replay_item_add(struct etm_dec_replay *t, const struct etm_dfmt_item *x)
{
	struct replay_ev *e = replay_add(t, replay_item);

	if (!e)
		return -etme_nomem;
	e->x = *x;
	if (x->kind != etm_dfmt_data)
		return 0;
	e->x.run.data = NULL;
	return replay_bytes(t, e, x->run.data, x->run.size);
}

/* Pull everything from the deformatter of @d (its input pushed) onto @t,
 * finishing the input where it wants more. */
static int replay_fill(struct etm_dec_replay *t, struct etm_decoder *d)
{
	struct etm_dfmt_stage st;
	struct etm_dfmt_item x;
	struct replay_ev *e;
	int err;

	for (;;) {
		err = etm_dfmt_next_bulk(d->dfmt, d->sel, &x, &st);
		if (err == 1)
			err = replay_stage_add(t, &st);
		else if (err == 0)
			err = replay_item_add(t, &x);
		else if (err == ETM_DFMT_ASK) {
			etm_dec_decide(d);
			err = 0;
		} else if (err == -etme_again && !d->finishing) {
			err = replay_add(t, replay_again) ? 0 : -etme_nomem;
			etm_dfmt_finish(d->dfmt);
			d->finishing = 1;
		} else {
			e = replay_add(t, replay_end);
			if (!e)
				return -etme_nomem;
			e->err = err;
			return 0;
		}
		if (err < 0)
			return err;
	}
}

/* The per-byte offset table of every stage (each decoder that replays
 * @t would make its own, etm_pktp_build_rel(): as costly as decoding the
 * few hundred packets a probe's variant that is stopped early reads).
 * Made in order: the slack a stage's table overwrites past its end is
 * then that of the next one's bytes, written after. No memory: none (the
 * packet decoders make theirs). */
static void replay_rels(struct etm_dec_replay *t)
{
	size_t i;

	t->rel = malloc((t->ndata + 16) * sizeof(*t->rel));
	for (i = 0; t->rel && i < t->nev; i++) {
		struct replay_ev *e = &t->ev[i];

		if (e->kind == replay_stage && e->nseg)
			e->has_rel = etm_offseg_rel(t->seg + e->seg, e->nseg, e->n,
						    t->rel + e->data) == 0;
	}
}

void etm_dec_replay_free(struct etm_dec_replay *t)
{
	if (!t)
		return;
	free(t->rel);
	free(t->ev);
	free(t->data);
	free(t->seg);
	free(t);
}

struct etm_dec_replay *etm_dec_replay_fill(enum etm_input_format fmt,
					   unsigned id, struct etm_decoder *d)
{
	struct etm_dec_replay *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->fmt = fmt;
	t->id = id;
	if (replay_fill(t, d) < 0) {
		etm_dec_replay_free(t);
		return NULL;
	}
	replay_rels(t);
	return t;
}

enum etm_input_format etm_dec_replay_fmt(const struct etm_dec_replay *t)
{
	return t->fmt;
}

int etm_dec_replay_next(struct etm_decoder *d, struct etm_dfmt_item *x,
			struct etm_dfmt_stage *st)
{
	const struct etm_dec_replay *t = d->replay;
	const struct replay_ev *e = &t->ev[d->replay_at];

	switch (e->kind) {
	case replay_stage:
		st->id = e->id;
		st->data = t->data + e->data;
		st->n = e->n;
		st->seg = t->seg + e->seg;
		st->nseg = e->nseg;
		d->replay_rel = e->has_rel ? t->rel + e->data : NULL;
		d->replay_at++;
		return 1;
	case replay_item:
		*x = e->x;
		if (x->kind == etm_dfmt_data)
			x->run.data = t->data + e->data;
		d->replay_at++;
		return 0;
	case replay_again:
		if (!d->finishing)
			return -etme_again;
		d->replay_at++;
		return etm_dec_replay_next(d, x, st);
	default:
		return e->err;
	}
}
