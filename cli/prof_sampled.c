/* cli/prof_sampled.c - `etmtrace profile` of a capture with ITM/DWT and no
 * instruction flow: a flat profile of the DWT's periodic PC samples by
 * function, as orbuculum's orbtop shows it (doc/itm.md). Sampled: a
 * function's share of the samples estimates its share of the time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/symbols.h>

#include "prof_sampled.h"

struct sampled {
	const struct etm_symbols *sy;
	unsigned long long *count; /* per function, then unknown, sleeping */
	size_t nf;
	unsigned long long total;
};

static int sampled_item(void *ctx, const struct etm_item *it)
{
	struct sampled *p = ctx;
	long f;

	if (it->kind != etm_item_elem || it->elem.kind != etmk_dwt_pc)
		return 0;
	p->total++;
	if (it->elem.itm_flags & ETM_ITM_SLEEPING) {
		p->count[p->nf + 1]++;
		return 0;
	}
	f = p->sy ? etm_symbols_find(p->sy, it->elem.addr) : -1;
	p->count[f >= 0 && (size_t)f < p->nf ? (size_t)f : p->nf]++;
	return 0;
}

static const struct sampled *sort_ctx;

static const char *row_name(const struct sampled *p, size_t i)
{
	struct etm_sym sym;

	if (i == p->nf)
		return "[unknown]";
	if (i == p->nf + 1)
		return "[sleeping]";
	return etm_symbols_get(p->sy, i, &sym) == 0 ? sym.name : "?";
}

static int by_count(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	unsigned long long x = sort_ctx->count[i], y = sort_ctx->count[j];

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(row_name(sort_ctx, i), row_name(sort_ctx, j));
}

static void sampled_print(struct sampled *p)
{
	size_t *rows = malloc((p->nf + 2) * sizeof(*rows)), n = 0, i;

	printf("# sampled profile: %llu DWT PC samples\n"
	       "# %%samples  samples  function\n",
	       p->total);
	if (!rows)
		return;
	for (i = 0; i < p->nf + 2; i++)
		if (p->count[i])
			rows[n++] = i;
	sort_ctx = p;
	qsort(rows, n, sizeof(*rows), by_count);
	for (i = 0; i < n; i++)
		printf("%9.2f %8llu  %s\n",
		       100.0 * (double)p->count[rows[i]] / (double)p->total,
		       p->count[rows[i]], row_name(p, rows[i]));
	free(rows);
}

int prof_sampled_run(struct session *s, const struct opts *o,
		     const struct etm_symbols *sy)
{
	struct sampled p = { sy, NULL, sy ? etm_symbols_count(sy) : 0, 0 };
	int r;

	if (o->format && strcmp(o->format, "flat")) {
		fprintf(stderr, "etmtrace profile: PC samples alone give a flat "
				"profile only (--format flat)\n");
		return 2;
	}
	p.count = calloc(p.nf + 2, sizeof(*p.count));
	if (!p.count) {
		fprintf(stderr, "etmtrace profile: out of memory\n");
		return 2;
	}
	r = session_run(s, sampled_item, &p);
	if (!r)
		sampled_print(&p);
	free(p.count);
	if (!r && !p.total) {
		fprintf(stderr, "etmtrace profile: no PC samples in the ITM/DWT "
				"trace (DWT_CTRL.PCSAMPLENA off?)\n");
		return 1;
	}
	return r;
}

int prof_sampled_only(const struct session *s)
{
	int i, itm = 0;

	for (i = 0; i < s->nsrc; i++) {
		if (s->src[i].cfg.protocol != etm_proto_itm)
			return 0;
		itm = 1;
	}
	return itm;
}
