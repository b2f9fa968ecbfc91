/* symbols/symline.c - lookups in the DWARF tables: the line row covering
 * an address, every row in order, and the inlined calls around an address. */
#include <etmtrace/error.h>

#include "symbols/sym_int.h"

int etm_symbols_has_lines(const struct etm_symbols *s)
{
	return s && s->nrows > 0;
}

size_t etm_symbols_line_count(const struct etm_symbols *s)
{
	return s ? s->nrows : 0;
}

int etm_symbols_line_get(const struct etm_symbols *s, size_t i,
			 struct etm_line *out)
{
	const struct sym_row *r;

	if (!s || !out || i >= s->nrows)
		return -etme_invalid;
	r = &s->rows[i];
	out->file = s->pool + r->file;
	out->line = r->line;
	out->column = r->column;
	out->start = r->start;
	out->end = r->end;
	return 0;
}

long etm_symbols_line_find(const struct etm_symbols *s, uint64_t addr)
{
	size_t lo;

	if (!s)
		return -1;
	lo = sym_upper(s->rows, s->nrows, sizeof(*s->rows), addr);
	if (!lo || addr >= s->rows[lo - 1].end)
		return -1;
	return (long)(lo - 1);
}

int etm_symbols_line(const struct etm_symbols *s, uint64_t addr,
		     struct etm_line *out)
{
	long i;

	if (!s || !out)
		return -etme_invalid;
	i = etm_symbols_line_find(s, addr);
	if (i < 0)
		return -etme_nomap;
	return etm_symbols_line_get(s, (size_t)i, out);
}

/* The entry at nesting @depth containing @addr, or NULL. Entries are sorted
 * by start and maxend bounds every end up to an entry, so the walk back
 * stops where no earlier entry reaches @addr. */
static const struct sym_inl *inl_at_depth(const struct etm_symbols *s,
					  size_t up, uint64_t addr,
					  uint32_t depth, uint32_t *maxdepth)
{
	const struct sym_inl *found = NULL;

	while (up > 0 && s->inl[up - 1].maxend > addr) {
		const struct sym_inl *e = &s->inl[--up];

		if (addr >= e->end)
			continue;
		if (e->depth > *maxdepth)
			*maxdepth = e->depth;
		if (e->depth == depth && !found)
			found = e;
	}
	return found;
}

int etm_symbols_inlined(const struct etm_symbols *s, uint64_t addr,
			struct etm_inline *out, size_t max)
{
	size_t up, n = 0;
	uint32_t maxdepth = 0, d;

	if (!s || (!out && max))
		return -etme_invalid;
	up = sym_upper(s->inl, s->ninl, sizeof(*s->inl), addr);
	if (!inl_at_depth(s, up, addr, 0, &maxdepth))
		return 0;
	/* innermost first: the deepest nesting down to 0 */
	for (d = maxdepth + 1; d-- > 0;) {
		uint32_t ignore = 0;
		const struct sym_inl *e = inl_at_depth(s, up, addr, d, &ignore);

		if (!e)
			continue;
		if (n < max) {
			out[n].name = s->pool + e->name;
			out[n].call_file = e->call_file == UINT32_MAX ? NULL :
									s->pool + e->call_file;
			out[n].call_line = e->call_line;
			out[n].start = e->start;
			out[n].end = e->end;
		}
		n++;
	}
	return (int)n;
}
