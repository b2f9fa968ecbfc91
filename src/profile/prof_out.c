/* profile/prof_out.c - profile reports: per-function totals, the flat
 * table, collapsed stacks, and callgrind.out with line positions and call
 * edges; all through a caller's writer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "profile/prof_int.h"

int prof_w_flush(struct prof_w *w)
{
	if (w->n && !w->err) {
		int r = w->fn(w->ctx, w->buf, w->n);

		if (r < 0)
			w->err = r;
	}
	w->n = 0;
	return w->err;
}

void prof_w_printf(struct prof_w *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->n > sizeof(w->buf) - 1024)
		prof_w_flush(w);
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->n, sizeof(w->buf) - w->n, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(w->buf) - w->n) { /* long: write directly */
		char *big = malloc((size_t)n + 1);

		prof_w_flush(w);
		if (!big) {
			w->err = -etme_nomem;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		if (!w->err && w->fn(w->ctx, big, (size_t)n) < 0)
			w->err = -etme_io;
		free(big);
		return;
	}
	w->n += (size_t)n;
}

void prof_w_json_str(struct prof_w *w, const char *s)
{
	prof_w_printf(w, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			prof_w_printf(w, "\\%c", c);
		else if (c < 0x20)
			prof_w_printf(w, "\\u%04x", c);
		else
			prof_w_printf(w, "%c", c);
	}
	prof_w_printf(w, "\"");
}

/* Whether an ancestor of node @i runs the same function (recursion: its
 * instructions are already inclusive there). */
static int prof_recursive(const struct etm_profile *p, uint32_t i)
{
	uint32_t f = p->nodes[i].func, x;

	for (x = p->nodes[i].parent; x; x = p->nodes[x].parent)
		if (p->nodes[x].func == f)
			return 1;
	return 0;
}

static int func_cmp(const void *a, const void *b)
{
	const struct etm_prof_func *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Per-function totals into a zeroed array indexed by function id. */
static struct etm_prof_func *prof_by_func(struct etm_profile *p)
{
	struct etm_prof_func *f = calloc(p->nfunc, sizeof(*f));
	size_t i;

	if (!f)
		return NULL;
	prof_totals(p);
	for (i = 1; i < p->nnodes; i++) {
		const struct prof_node *n = &p->nodes[i];
		struct etm_prof_func *d = &f[n->func];

		d->self += n->self;
		d->self_cyc += n->self_cyc;
		d->calls += n->calls;
		if (!prof_recursive(p, (uint32_t)i)) {
			d->incl += n->incl;
			d->incl_cyc += n->incl_cyc;
		}
	}
	return f;
}

int etm_profile_funcs(struct etm_profile *p, const struct etm_prof_func **out,
		      size_t *n)
{
	struct etm_prof_func *f;
	size_t i, k = 0;

	if (!p || !out || !n)
		return -etme_invalid;
	f = prof_by_func(p);
	if (!f)
		return -etme_nomem;
	for (i = 0; i < p->nfunc; i++) {
		if (!f[i].self && !f[i].incl && !f[i].calls)
			continue;
		f[k] = f[i];
		f[k].sym = i < p->nsym ? (long)i : -1;
		f[k].name = prof_func_name(p, (uint32_t)i);
		k++;
	}
	if (k)
		qsort(f, k, sizeof(*f), func_cmp);
	free(p->funcs);
	p->funcs = f;
	*out = f;
	*n = k;
	return 0;
}
