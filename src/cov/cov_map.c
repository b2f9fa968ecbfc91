/* cov/cov_map.c - the (from, to) -> count maps of straight-line ranges and
 * taken branches (open addressing), sorted listings, and merging of whole
 * coverage objects. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "cov/cov_int.h"

static int cov_map_grow(struct cov_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 256, i;
	struct etm_cov_pair *e = calloc(cap, sizeof(*e));

	if (!e)
		return -etme_nomem;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->e[i].count)
			continue;
		j = cov_hash(m->e[i].from, m->e[i].to) & (cap - 1);
		while (e[j].count)
			j = (j + 1) & (cap - 1);
		e[j] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

int cov_map_insert(struct cov_map *m, uint64_t from, uint64_t to,
		   uint64_t n)
{
	size_t j;

	if (!n)
		return 0;
	if (2 * (m->n + 1) > m->cap && cov_map_grow(m) < 0)
		return -etme_nomem;
	j = cov_hash(from, to) & (m->cap - 1);
	while (m->e[j].count && (m->e[j].from != from || m->e[j].to != to))
		j = (j + 1) & (m->cap - 1);
	if (!m->e[j].count) {
		m->e[j].from = from;
		m->e[j].to = to;
		m->n++;
	}
	m->e[j].count += n;
	return 0;
}

/* Add @n to the count of (@from, @to), which is in @m (the map entry
 * itself changes, not @m). */
void cov_map_bump(const struct cov_map *m, uint64_t from, uint64_t to,
		  uint64_t n)
{
	size_t j;

	if (!m->cap)
		return;
	j = cov_hash(from, to) & (m->cap - 1);
	while (m->e[j].count && (m->e[j].from != from || m->e[j].to != to))
		j = (j + 1) & (m->cap - 1);
	if (m->e[j].count)
		m->e[j].count += n;
}

void cov_map_fini(struct cov_map *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

static int cov_pair_cmp(const void *a, const void *b)
{
	const struct etm_cov_pair *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return 0;
}

int etm_cov_pairs(const struct etm_cov *c, int branches,
		  struct etm_cov_pair **out, size_t *n)
{
	const struct cov_map *m;
	size_t i, k = 0;

	if (!c || !out || !n)
		return -etme_invalid;
	cov_memo_pairs(c);
	m = branches ? &c->branches : &c->ranges;
	*out = malloc((m->n ? m->n : 1) * sizeof(**out));
	if (!*out)
		return -etme_nomem;
	for (i = 0; i < m->cap; i++)
		if (m->e[i].count)
			(*out)[k++] = m->e[i];
	qsort(*out, k, sizeof(**out), cov_pair_cmp);
	*n = k;
	return 0;
}

static int cov_merge_page(struct etm_cov *dst, const struct cov_page *sp)
{
	struct cov_page *dp;
	unsigned i;

	/* nothing counted nor classified in it (e.g. a page a worker's part
	 * holds for its memo, cov_memo_carry()) */
	if (!sp->hi)
		return 0;
	dp = cov_page_get(dst, sp->base);
	if (!dp || (sp->fail && cov_page_fail(dp) < 0) ||
	    (sp->unk && cov_page_unk(dp) < 0))
		return -etme_nomem;
	cov_page_span(dp, sp->lo, sp->hi);
	for (i = sp->lo; i < sp->hi; i++) {
		/* @src comes after @dst: its classification (the last ISA the
		 * address ran in, or was marked in by an IT) wins, and the
		 * address is conditional if it was in either; an info byte
		 * carried from the worker's earlier part only where @src
		 * executed it (cov_memo_carry()) */
		if ((sp->info[i] & CI_VALID) &&
		    (sp->exec[i] || !cov_carried(sp, i)))
			dp->info[i] = sp->info[i] | (dp->info[i] & CI_COND);
		if (!sp->exec[i])
			continue;
		dp->exec[i] += sp->exec[i];
		if (sp->fail)
			dp->fail[i] += sp->fail[i];
		if (sp->unk)
			dp->unk[i] += sp->unk[i];
	}
	return 0;
}

static int cov_merge_map(struct cov_map *dst, const struct cov_map *src)
{
	size_t i;

	for (i = 0; i < src->cap; i++)
		if (src->e[i].count &&
		    cov_map_add(dst, src->e[i].from, src->e[i].to,
				src->e[i].count) < 0)
			return -etme_nomem;
	return 0;
}

int etm_cov_merge(struct etm_cov *dst, const struct etm_cov *src)
{
	size_t i;
	int err;

	if (!dst || !src || dst == src)
		return -etme_invalid;
	cov_memo_drop(dst); /* slot info may change */
	cov_memo_flush(src);
	cov_memo_pairs(src);
	for (i = 0; i < src->npages; i++) {
		err = cov_merge_page(dst, src->pages[i]);
		if (err)
			return err;
	}
	err = cov_merge_map(&dst->ranges, &src->ranges);
	return err ? err : cov_merge_map(&dst->branches, &src->branches);
}
