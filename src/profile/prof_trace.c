/* profile/prof_trace.c - the timeline: Chrome trace-event JSON (Perfetto,
 * chrome://tracing) with one complete event per function activation, nested
 * as the open call path of each source, written as activations end. */
#include <stdio.h>
#include <stdlib.h>

#include <etmtrace/error.h>

#include "profile/prof_int.h"

int etm_profile_set_timeline(struct etm_profile *p, etm_write_fn fn,
			     void *ctx, double ts_hz, double cyc_hz)
{
	if (!p || !fn || p->tl)
		return -etme_invalid;
	p->tl = calloc(1, sizeof(*p->tl));
	if (!p->tl)
		return -etme_nomem;
	p->tl->fn = fn;
	p->tl->ctx = ctx;
	p->ts_hz = ts_hz;
	p->cyc_hz = cyc_hz;
	p->tl_first = 1;
	prof_w_printf(p->tl, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	return 0;
}

static void tl_sep(struct etm_profile *p)
{
	if (!p->tl_first)
		prof_w_printf(p->tl, ",\n");
	p->tl_first = 0;
}

static void tl_name_track(struct etm_profile *p, uint8_t id, struct prof_src *s)
{
	if (s->named)
		return;
	s->named = 1;
	tl_sep(p);
	prof_w_printf(p->tl, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
			     "\"tid\":%u,\"args\":{\"name\":\"trace ID 0x%02x\"}}",
		      id, id);
}

static void tl_close(struct etm_profile *p, uint8_t id, struct prof_src *s)
{
	uint32_t i = --s->open.n;

	tl_sep(p);
	prof_w_printf(p->tl, "{\"name\":");
	prof_w_json_str(p->tl, prof_func_name(p, p->nodes[s->open.node[i]].func));
	prof_w_printf(p->tl, ",\"cat\":\"function\",\"ph\":\"X\",\"ts\":%.3f,"
			     "\"dur\":%.3f,\"pid\":1,\"tid\":%u}",
		      s->open.start[i],
		      s->t - s->open.start[i], id);
}

int prof_tl_sync(struct etm_profile *p, uint8_t id, struct prof_src *s,
		 uint32_t node)
{
	uint32_t path[PROF_MAX_DEPTH + 8], n = 0, c = 0, x;

	if (!p->tl)
		return 0;
	if (s->open.n && s->open.node[s->open.n - 1] == node)
		return 0;
	tl_name_track(p, id, s);
	for (x = node; x && n < PROF_MAX_DEPTH + 8; x = p->nodes[x].parent)
		path[n++] = x;
	/* path is leaf first: compare from the root */
	while (c < n && c < s->open.n && s->open.node[c] == path[n - 1 - c])
		c++;
	while (s->open.n > c)
		tl_close(p, id, s);
	for (; c < n; c++) {
		s->open.node[c] = path[n - 1 - c];
		s->open.start[c] = s->t;
	}
	s->open.n = n;
	return p->tl->err;
}

int prof_tl_instant(struct etm_profile *p, uint8_t id, struct prof_src *s,
		    const char *what)
{
	if (!p->tl)
		return 0;
	tl_name_track(p, id, s);
	tl_sep(p);
	prof_w_printf(p->tl, "{\"name\":\"%s\",\"cat\":\"trace\",\"ph\":\"i\","
			     "\"s\":\"t\",\"ts\":%.3f,\"pid\":1,\"tid\":%u}",
		      what, s->t, id);
	return p->tl->err;
}

void prof_tl_time(struct etm_profile *p, struct prof_src *s, uint32_t n,
		  uint32_t cyc, int has_cyc)
{
	if (has_cyc)
		s->t += p->cyc_hz > 0 ? cyc * 1e6 / p->cyc_hz : cyc;
	else
		s->t += p->ts_hz > 0 && s->have_ts0 ? n * 1e-3 : n;
}

void prof_tl_clock(struct etm_profile *p, struct prof_src *s,
		   const struct etm_elem *el)
{
	double t;

	if (el->kind == etmk_cycle_count) {
		s->t += p->cyc_hz > 0 ? el->cycles * 1e6 / p->cyc_hz : el->cycles;
		return;
	}
	if (p->ts_hz <= 0)
		return;
	if (!s->have_ts0) {
		s->have_ts0 = 1;
		s->ts0 = el->timestamp;
		s->tbase = s->t;
	}
	if (el->timestamp < s->ts0)
		return;
	t = s->tbase + (double)(el->timestamp - s->ts0) * 1e6 / p->ts_hz;
	if (t > s->t)
		s->t = t;
}

int prof_tl_finish(struct etm_profile *p)
{
	size_t id;
	int r;

	for (id = 0; id < 256; id++) {
		struct prof_src *s = p->src[id];

		while (s && s->open.n)
			tl_close(p, (uint8_t)id, s);
	}
	prof_w_printf(p->tl, "\n]}\n");
	r = prof_w_flush(p->tl);
	return r < 0 ? r : p->tl->err;
}
