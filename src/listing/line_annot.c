/* listing/line_annot.c - listing annotations: func+0xoff, branch targets,
 * source lines and text (symbols through the hook of etmtrace/listing.h),
 * input offsets, and time. Lookups are memoised in the object, one per
 * formatting thread; the stateful parts (source lines, time) ask for one
 * formatting thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "listing/line_annot.h"
#include "listing/line_fields.h"

/* Source files larger than this are not shown. */
#define LINE_ANNOT_MAX_SRC (16u << 20)

/* Clock state of a trace source: cycles so far, the last timestamp and the
 * cycle count when it came. Timestamps and cycles are taken to count the
 * same clock (--clock, else trace.ini's [timestamp] frequency). */
struct line_annot_clk {
	uint64_t cyc, ts, cyc_at_ts;
	uint8_t have_ts;
};

/* The source file shown last: its text and where each line starts. */
struct line_annot_src {
	char *path, *text;
	size_t *line, nlines;
};

/* A function as the symbol hook gives it. */
struct line_annot_fn {
	const char *name;
	uint64_t start, end;
};

struct line_annot {
	struct etm_sym_hook sy; /* sy.func NULL: no symbols */
	int source, offsets;
	double hz;
	const struct etm_srcpath *srcpath;
	struct line_annot_clk clk[256];
	const char *file; /* last source position shown */
	uint32_t lineno;
	struct line_annot_src src;
	struct line_annot_fn memo; /* the last function found */
	int have_memo;
};

int line_annot_open(const struct line_annot_opts *o, struct line_annot **out)
{
	struct line_annot *d;
	int sy = o->sym.func != NULL;

	*out = NULL;
	if (!sy && !o->offsets && !(o->hz > 0))
		return 0;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -etme_nomem;
	d->sy = o->sym;
	d->source = o->source && sy && o->sym.line;
	d->offsets = o->offsets;
	d->hz = o->hz;
	d->srcpath = o->srcpath;
	*out = d;
	return 0;
}

void line_annot_close(struct line_annot *d)
{
	if (!d)
		return;
	free(d->src.path);
	free(d->src.text);
	free(d->src.line);
	free(d);
}

int line_annot_sequential(const struct line_annot_opts *o)
{
	return (o->source && o->sym.func && o->sym.line) || o->hz > 0 ||
	       line_fields_sequential(o->fields);
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

int line_annot_per_line(const struct line_annot *d)
{
	return d && (d->offsets || d->source);
}

static int line_annot_find(struct line_annot *d, uint64_t addr,
			   struct line_annot_fn *y)
{
	if (!d || !d->sy.func)
		return -1;
	if (d->have_memo && addr >= d->memo.start && addr < d->memo.end) {
		*y = d->memo;
		return 0;
	}
	d->have_memo = d->sy.func(d->sy.ctx, addr, &d->memo.name,
				  &d->memo.start, &d->memo.end) == 0;
	*y = d->memo;
	return d->have_memo ? 0 : -1;
}

/* The source line of @addr through the hook; 0 or -1. */
static int line_annot_line(const struct line_annot *d, uint64_t addr,
			   const char **file, uint32_t *line)
{
	if (!d->sy.line)
		return -1;
	return d->sy.line(d->sy.ctx, addr, file, line);
}

int line_annot_srcpos(const struct line_annot *d, uint64_t addr, const char **file,
		      uint32_t *line)
{
	return d ? line_annot_line(d, addr, file, line) : -1;
}

void line_annot_prefix(const struct line_annot *d, struct wbuf *w,
		       const struct etm_elem *el)
{
	if (d && d->offsets == LINE_ANNOT_OFF_HEX)
		wbuf_printf(w, "@0x%08llx ", (unsigned long long)el->offset);
	else if (d && d->offsets)
		wbuf_printf(w, "@%-8llu ", (unsigned long long)el->offset);
}

/* Load the text and line starts of source file @path (as DWARF names it;
 * found through @sp) - the previous file is dropped. Returns 0, or -1 if
 * it cannot be found or read. */
static int src_load(struct line_annot_src *s, const struct etm_srcpath *sp,
		    const char *path)
{
	char local[4096];
	FILE *f = NULL;
	long n;
	size_t i, k = 1;

	if (s->path && !strcmp(s->path, path))
		return s->text ? 0 : -1;
	free(s->path);
	free(s->text);
	free(s->line);
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	if (etm_srcpath_find(sp, path, local, sizeof(local)) == 0)
		f = fopen(local, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    (size_t)n > LINE_ANNOT_MAX_SRC || fseek(f, 0, SEEK_SET) ||
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

void line_annot_source(struct line_annot *d, struct wbuf *w,
		       const struct etm_elem *el, const struct etm_insn *in)
{
	const char *file;
	uint32_t line;

	if (!d || !d->source || line_annot_line(d, in->addr, &file, &line) < 0 ||
	    (line == d->lineno && file == d->file))
		return;
	d->file = file;
	d->lineno = line;
	line_annot_prefix(d, w, el);
	wbuf_printf(w, "  %s:%u", file, line);
	if (line && src_load(&d->src, d->srcpath, file) == 0 && line <= d->src.nlines) {
		const char *t = d->src.text + d->src.line[line - 1];
		size_t k = strcspn(t, "\r\n");

		while (k && (t[k - 1] == ' ' || t[k - 1] == '\t'))
			k--; /* no trailing whitespace */
		if (k) {
			wbuf_str(w, "  ");
			wbuf_put(w, t, k);
		}
	}
	wbuf_char(w, '\n');
}

void line_annot_target(struct line_annot *d, const struct etm_insn *in, char *dis,
		       size_t n, size_t width)
{
	struct line_annot_fn y;
	size_t k = strlen(dis), name, tail;
	char off[24] = "";

	if (in->cls != etmc_br_direct || line_annot_find(d, in->target, &y) < 0 ||
	    k >= n)
		return;
	if (in->target != y.start)
		snprintf(off, sizeof(off), "+0x%llx",
			 (unsigned long long)(in->target - y.start));
	name = strlen(y.name);
	tail = strlen(off) + 3;                 /* " <", ">" */
	if (width && k + tail + name > width) { /* cut: "name..+0xoff" */
		size_t keep = width > k + tail + 2 ? width - k - tail - 2 : 0;

		keep = keep < LINE_ANNOT_MIN_NAME ? LINE_ANNOT_MIN_NAME : keep;
		if (keep < name) {
			snprintf(dis + k, n - k, " <%.*s..%s>", (int)keep, y.name,
				 off);
			return;
		}
	}
	snprintf(dis + k, n - k, " <%s%s>", y.name, off);
}

static double line_annot_time(const struct line_annot *d, const struct line_annot_clk *c)
{
	if (c->have_ts)
		return (double)(c->ts + (c->cyc - c->cyc_at_ts)) / d->hz;
	return (double)c->cyc / d->hz;
}

int line_annot_symstr(struct line_annot *d, uint64_t addr, char *buf, size_t n)
{
	struct line_annot_fn y;

	if (line_annot_find(d, addr, &y) < 0) {
		buf[0] = 0;
		return 0;
	}
	return snprintf(buf, n, "  %s+0x%llx", y.name,
			(unsigned long long)(addr - y.start));
}

void line_annot_tail(struct line_annot *d, struct wbuf *w, const struct etm_elem *el,
		     int last)
{
	struct line_annot_clk *c;

	if (!d || !last || !el->has_cycles)
		return;
	c = &d->clk[el->id];
	c->cyc += el->cycles;
	if (d->hz > 0)
		wbuf_printf(w, " (%llu) t=%.9f", (unsigned long long)c->cyc,
			    line_annot_time(d, c));
}

/* The code address an ITM/DWT element names (a PC sample, a data
 * comparator's PC), or 0. */
static uint64_t itm_code_addr(const struct etm_elem *el)
{
	if (el->kind == etmk_dwt_pc && !(el->itm_flags & ETM_ITM_SLEEPING))
		return el->addr;
	if (el->kind == etmk_dwt_cmp && (el->itm_flags & ETM_ITM_CMP_PC))
		return el->addr;
	return 0;
}

void line_annot_other(struct line_annot *d, struct wbuf *w, const struct etm_elem *el)
{
	struct line_annot_clk *c;
	struct line_annot_fn y;
	uint64_t a = itm_code_addr(el);

	if (d && a && line_annot_find(d, a, &y) == 0)
		wbuf_printf(w, "  %s+0x%llx", y.name,
			    (unsigned long long)(a - y.start));
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

void line_annot_json(struct line_annot *d, struct wbuf *w, const struct etm_elem *el)
{
	struct line_annot_fn y;
	const char *file;
	uint32_t line;
	uint64_t a = itm_code_addr(el);

	if (d && a && line_annot_find(d, a, &y) == 0) {
		wbuf_str(w, ",\"sym\":\"");
		json_esc(w, y.name);
		wbuf_printf(w, "\",\"off\":%llu", (unsigned long long)(a - y.start));
	}
	if (!d || el->kind != etmk_range)
		return;
	if (line_annot_find(d, el->start, &y) == 0) {
		wbuf_str(w, ",\"sym\":\"");
		json_esc(w, y.name);
		wbuf_printf(w, "\",\"off\":%llu", (unsigned long long)(el->start - y.start));
	}
	if (line_annot_line(d, el->start, &file, &line) == 0) {
		wbuf_str(w, ",\"file\":\"");
		json_esc(w, file);
		wbuf_printf(w, "\",\"line\":%u", line);
	}
}
