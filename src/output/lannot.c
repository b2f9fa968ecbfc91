/* cli/decsym.c - listing annotations from the symbols layer: func+0xoff,
 * branch targets, source lines and text, input offsets, and time. Lookups
 * are memoised per thread (the listing is formatted on worker threads);
 * the stateful parts (source lines, time) ask for one formatting thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decsym.h"
#include "symload.h"

/* Source files larger than this are not shown. */
#define DECSYM_MAX_SRC (16u << 20)

/* Clock state of a trace source: cycles so far, the last timestamp and the
 * cycle count when it came. Timestamps and cycles are taken to count the
 * same clock (--clock, else trace.ini's [timestamp] frequency). */
struct decsym_clk {
	uint64_t cyc, ts, cyc_at_ts;
	uint8_t have_ts;
};

/* The source file shown last: its text and where each line starts. */
struct decsym_src {
	char *path, *text;
	size_t *line, nlines;
};

struct decsym {
	struct etm_symbols *sy;
	int source, offsets;
	double hz;
	struct decsym_clk clk[256];
	const char *file; /* last source position shown */
	uint32_t lineno;
	struct decsym_src src;
};

static _Thread_local long memo = -1; /* last function found */

int decsym_open(const struct session *s, const struct opts *o,
		struct decsym **out)
{
	struct decsym *d;
	struct etm_symbols *sy = NULL;
	double hz = o->clock_hz > 0 ? o->clock_hz : symload_ts_hz(s);

	*out = NULL;
	if (symload_open(s, &sy))
		return 2;
	if (!sy && !o->offsets && !(hz > 0))
		return 0;
	d = calloc(1, sizeof(*d));
	if (!d) {
		etm_symbols_free(sy);
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	d->sy = sy;
	d->source = o->source && sy;
	d->offsets = o->offsets;
	d->hz = hz;
	*out = d;
	return 0;
}

void decsym_close(struct decsym *d)
{
	if (!d)
		return;
	etm_symbols_free(d->sy);
	free(d->src.path);
	free(d->src.text);
	free(d->src.line);
	free(d);
}

int decsym_sequential(const struct decsym *d)
{
	return d && (d->source || d->hz > 0);
}

/* @s as the inside of a JSON string. */
static void json_esc(struct wbuf *w, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			wbuf_char(w, '\\');
		if (c < 0x20)
			wbuf_printf(w, "\\u%04x", c);
		else
			wbuf_char(w, (char)c);
	}
}

int decsym_per_line(const struct decsym *d)
{
	return d && (d->offsets || d->source);
}

static int decsym_find(const struct decsym *d, uint64_t addr,
		       struct etm_sym *y)
{
	if (!d || !d->sy)
		return -1;
	if (memo >= 0 && etm_symbols_get(d->sy, (size_t)memo, y) == 0 &&
	    addr >= y->start && addr < y->end)
		return 0;
	memo = etm_symbols_find(d->sy, addr);
	return memo >= 0 ? etm_symbols_get(d->sy, (size_t)memo, y) : -1;
}

void decsym_prefix(const struct decsym *d, struct wbuf *w,
		   const struct etm_elem *el)
{
	if (d && d->offsets)
		wbuf_printf(w, "@%-8llu ", (unsigned long long)el->offset);
}

/* Load @path's text and line starts (the previous file is dropped).
 * Returns 0, or -1 if it cannot be read. */
static int src_load(struct decsym_src *s, const char *path)
{
	FILE *f;
	long n;
	size_t i, k = 1;

	if (s->path && !strcmp(s->path, path))
		return s->text ? 0 : -1;
	free(s->path);
	free(s->text);
	free(s->line);
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    (size_t)n > DECSYM_MAX_SRC || fseek(f, 0, SEEK_SET) ||
	    !(s->text = malloc((size_t)n + 1)) ||
	    fread(s->text, 1, (size_t)n, f) != (size_t)n) {
		if (f)
			fclose(f);
		free(s->text);
		s->text = NULL;
		return -1;
	}
	fclose(f);
	s->text[n] = 0;
	for (i = 0; i < (size_t)n; i++)
		k += s->text[i] == '\n';
	s->line = malloc(k * sizeof(*s->line));
	if (!s->line)
		return -1;
	s->line[s->nlines++] = 0;
	for (i = 0; i < (size_t)n; i++)
		if (s->text[i] == '\n')
			s->line[s->nlines++] = i + 1;
	return 0;
}

void decsym_source(struct decsym *d, struct wbuf *w,
		   const struct etm_elem *el, const struct etm_insn *in)
{
	struct etm_line l;

	if (!d || !d->source || etm_symbols_line(d->sy, in->addr, &l) < 0 ||
	    (l.line == d->lineno && l.file == d->file))
		return;
	d->file = l.file;
	d->lineno = l.line;
	decsym_prefix(d, w, el);
	wbuf_printf(w, "  %s:%u", l.file, l.line);
	if (l.line && src_load(&d->src, l.file) == 0 && l.line <= d->src.nlines) {
		const char *t = d->src.text + d->src.line[l.line - 1];

		wbuf_str(w, "  ");
		wbuf_put(w, t, strcspn(t, "\r\n"));
	}
	wbuf_char(w, '\n');
}

void decsym_target(const struct decsym *d, const struct etm_insn *in,
		   char *dis, size_t n)
{
	struct etm_sym y;
	size_t k = strlen(dis);

	if (in->cls != etmc_br_direct || decsym_find(d, in->target, &y) < 0 ||
	    k >= n)
		return;
	if (in->target == y.start)
		snprintf(dis + k, n - k, " <%s>", y.name);
	else
		snprintf(dis + k, n - k, " <%s+0x%llx>", y.name,
			 (unsigned long long)(in->target - y.start));
}

static double decsym_time(const struct decsym *d, const struct decsym_clk *c)
{
	if (c->have_ts)
		return (double)(c->ts + (c->cyc - c->cyc_at_ts)) / d->hz;
	return (double)c->cyc / d->hz;
}

int decsym_symstr(const struct decsym *d, uint64_t addr, char *buf, size_t n)
{
	struct etm_sym y;

	if (decsym_find(d, addr, &y) < 0) {
		buf[0] = 0;
		return 0;
	}
	return snprintf(buf, n, "  %s+0x%llx", y.name,
			(unsigned long long)(addr - y.start));
}

void decsym_tail(struct decsym *d, struct wbuf *w, const struct etm_elem *el,
		 int last)
{
	struct decsym_clk *c;

	if (!d || !last || !el->has_cycles)
		return;
	c = &d->clk[el->id];
	c->cyc += el->cycles;
	if (d->hz > 0)
		wbuf_printf(w, " (%llu) t=%.9f", (unsigned long long)c->cyc,
			    decsym_time(d, c));
}

void decsym_other(struct decsym *d, struct wbuf *w, const struct etm_elem *el)
{
	struct decsym_clk *c;

	if (!d || !(d->hz > 0))
		return;
	c = &d->clk[el->id];
	if (el->kind == etmk_cycle_count) {
		c->cyc += el->cycles;
	} else if (el->kind == etmk_timestamp) {
		c->ts = el->timestamp;
		c->cyc_at_ts = c->cyc;
		c->have_ts = 1;
		wbuf_printf(w, " (%.9f s)", (double)el->timestamp / d->hz);
	}
}

void decsym_json(const struct decsym *d, struct wbuf *w,
		 const struct etm_elem *el)
{
	struct etm_sym y;
	struct etm_line l;

	if (!d || el->kind != etmk_range)
		return;
	if (decsym_find(d, el->start, &y) == 0) {
		wbuf_str(w, ",\"sym\":\"");
		json_esc(w, y.name);
		wbuf_printf(w, "\",\"off\":%llu", (unsigned long long)(el->start - y.start));
	}
	if (d->sy && etm_symbols_line(d->sy, el->start, &l) == 0) {
		wbuf_str(w, ",\"file\":\"");
		json_esc(w, l.file);
		wbuf_printf(w, "\",\"line\":%u", l.line);
	}
}
