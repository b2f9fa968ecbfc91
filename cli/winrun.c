/* cli/winrun.c - the decode's elements through the window of --start,
 * --stop, --last and --at (etmtrace/window.h). */
#include <stdio.h>

#include "winrun.h"

int winrun_open(struct winrun *wr, const struct session *s,
		const struct opts *o,
		int (*elems)(void *ctx, const struct etm_elem *els, size_t n),
		void *ctx)
{
	struct etm_window_opts wo = { .start = o->win_start,
				      .stop = o->win_stop,
				      .last = o->win_last,
				      .at = o->win_at_halt ? etm_win_at_halt :
							     etm_win_at_end };
	int i;

	wr->w = NULL;
	wr->elems = elems;
	wr->ctx = ctx;
	wr->nout = 0;
	wr->err = 0;
	if (o->win_at_halt && !o->win_last) {
		fprintf(stderr, "etmtrace %s: --at halt needs --last N\n", o->cmd);
		return 2;
	}
	if (!o->win_start.kind && !o->win_stop.kind && !o->win_last)
		return 0;
	wr->w = etm_window_alloc(&wo);
	if (!wr->w) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	for (i = 0; i < s->nsrc; i++)
		etm_window_add_source(wr->w, s->src[i].id, &s->src[i].cfg,
				      s->src[i].img);
	return 0;
}

static int flush_out(struct winrun *wr)
{
	int r = wr->nout ? wr->elems(wr->ctx, wr->out, wr->nout) : 0;

	wr->nout = 0;
	return r;
}

/* Take what the window released into the batch. */
static int take(struct winrun *wr)
{
	while (etm_window_next(wr->w, &wr->out[wr->nout]) == 0)
		if (++wr->nout == sizeof(wr->out) / sizeof(wr->out[0]) &&
		    flush_out(wr) < 0)
			return -1;
	return 0;
}

static int put(struct winrun *wr, const struct etm_elem *el)
{
	int r = etm_window_put(wr->w, el);

	if (r < 0) {
		wr->err = r;
		return -1;
	}
	return take(wr);
}

int winrun_elems(void *ctx, const struct etm_elem *els, size_t n)
{
	struct winrun *wr = ctx;
	size_t i;

	for (i = 0; i < n; i++)
		if (put(wr, &els[i]) < 0)
			return -1;
	if (flush_out(wr) < 0)
		return -1;
	return etm_window_done(wr->w) ? -1 : 0;
}

int winrun_item(void *ctx, const struct etm_item *it)
{
	if (it->kind != etm_item_elem)
		return 0;
	return winrun_elems(ctx, &it->elem, 1);
}

int winrun_finish(struct winrun *wr)
{
	int r;

	if (!wr->w)
		return 0;
	r = etm_window_finish(wr->w);
	if (!r)
		r = take(wr);
	if (!r)
		r = flush_out(wr);
	if (wr->err || r < 0) {
		fprintf(stderr, "etmtrace: window: %s\n",
			etm_errstr(wr->err ? wr->err : r));
		return 2;
	}
	if (etm_window_dropped(wr->w))
		fprintf(stderr, "etmtrace: --last: %llu elements that are not "
				"instructions left out among the last instructions\n",
			(unsigned long long)etm_window_dropped(wr->w));
	return 0;
}

int winrun_done(const struct winrun *wr)
{
	return wr->w && etm_window_done(wr->w);
}

void winrun_close(struct winrun *wr)
{
	etm_window_free(wr->w);
	wr->w = NULL;
}
