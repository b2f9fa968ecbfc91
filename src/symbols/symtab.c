/* symbols/symtab.c - the function table: storage, the sorted non-overlapping
 * index and lookups, single functions and nm-style symbol files. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "symbols/sym_int.h"

/* An unsized function with nothing after it and no known section end
 * (symbol files) covers this many bytes. */
#define SYM_UNSIZED_TAIL 4096u

struct etm_symbols *etm_symbols_alloc(void)
{
	return calloc(1, sizeof(struct etm_symbols));
}

void etm_symbols_free(struct etm_symbols *s)
{
	if (!s)
		return;
	free(s->fn);
	free(s->rows);
	free(s->inl);
	free(s->maps);
	free(s->pool);
	free(s);
}

int sym_pool_add(struct etm_symbols *s, const char *str, size_t n,
		 uint32_t *off)
{
	if (s->npool + n + 1 > UINT32_MAX)
		return -etme_nomem;
	char *pool = etm_grow(s->pool, &s->cappool, s->npool + n + 1, 1, 64);

	if (!pool)
		return -etme_nomem;
	s->pool = pool;
	memcpy(s->pool + s->npool, str, n);
	s->pool[s->npool + n] = 0;
	*off = (uint32_t)s->npool;
	s->npool += n + 1;
	return 0;
}

int sym_fn_push(struct etm_symbols *s, const struct sym_fn *f,
		const char *name)
{
	struct sym_fn *d = etm_grow(s->fn, &s->capfn, s->nfn + 1, sizeof(*d), 64);
	int r;

	if (!d)
		return -etme_nomem;
	s->fn = d;
	d = &s->fn[s->nfn];
	*d = *f;
	r = sym_pool_add(s, name, strlen(name), &d->name);
	if (r < 0)
		return r;
	d->seq = (uint32_t)s->nfn++;
	return 0;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int row_cmp(const void *a, const void *b)
{
	const struct sym_row *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int inl_cmp(const void *a, const void *b)
{
	const struct sym_inl *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Sort the functions, keep the preferred one per address, and give each its
 * range: its size (or up to its section end), cut at the next start. */
static void sym_index_fns(struct etm_symbols *s)
{
	size_t i, n = 0;

	if (s->nfn)
		qsort(s->fn, s->nfn, sizeof(*s->fn), fn_cmp);
	for (i = 0; i < s->nfn; i++)
		if (!n || s->fn[n - 1].start != s->fn[i].start)
			s->fn[n++] = s->fn[i];
	s->nfn = n;
	for (i = 0; i < n; i++) {
		struct sym_fn *f = &s->fn[i];
		uint64_t next = i + 1 < n ? s->fn[i + 1].start : UINT64_MAX;

		if (!f->sized)
			f->end = f->limit > f->start ? f->limit :
				 next != UINT64_MAX  ? next :
						       sym_end(f->start, SYM_UNSIZED_TAIL);
		if (f->end > next)
			f->end = next;
	}
}

/* Sort the line rows and cut each at the next row's start. */
static void sym_index_rows(struct etm_symbols *s)
{
	size_t i, n = 0;

	if (s->nrows)
		qsort(s->rows, s->nrows, sizeof(*s->rows), row_cmp);
	for (i = 0; i < s->nrows; i++) {
		struct sym_row *r = &s->rows[i];

		if (i + 1 < s->nrows && r->end > s->rows[i + 1].start)
			r->end = s->rows[i + 1].start;
		if (r->end > r->start)
			s->rows[n++] = *r;
	}
	s->nrows = n;
}

void sym_index(struct etm_symbols *s)
{
	size_t i;
	uint64_t m = 0;

	sym_index_fns(s);
	sym_index_rows(s);
	sym_map_index(s);
	if (s->ninl)
		qsort(s->inl, s->ninl, sizeof(*s->inl), inl_cmp);
	for (i = 0; i < s->ninl; i++) {
		if (s->inl[i].end > m)
			m = s->inl[i].end;
		s->inl[i].maxend = m;
	}
}

int etm_symbols_add(struct etm_symbols *s, uint64_t start, uint64_t size,
		    const char *name)
{
	struct sym_fn f = { 0 };
	int r;

	if (!s || !name)
		return -etme_invalid;
	f.thumb = start & 1;
	f.start = start & ~(uint64_t)1;
	f.sized = size != 0;
	f.end = sym_end(f.start, size);
	f.rank = f.sized ? sym_rank_global : sym_rank_unsized;
	f.module = s->nmod;
	r = sym_fn_push(s, &f, name);
	if (r < 0)
		return r;
	sym_index(s);
	return 0;
}

size_t etm_symbols_count(const struct etm_symbols *s)
{
	return s ? s->nfn : 0;
}

int etm_symbols_get(const struct etm_symbols *s, size_t i, struct etm_sym *out)
{
	const struct sym_fn *f;

	if (!s || !out || i >= s->nfn)
		return -etme_invalid;
	f = &s->fn[i];
	out->name = s->pool + f->name;
	out->start = f->start;
	out->end = f->end;
	out->index = (uint32_t)i;
	out->sized = f->sized;
	out->thumb = f->thumb;
	out->module = f->module;
	return 0;
}

_Static_assert(offsetof(struct sym_fn, start) == 0, "sym_upper reads start first");
_Static_assert(offsetof(struct sym_row, start) == 0, "sym_upper reads start first");
_Static_assert(offsetof(struct sym_inl, start) == 0, "sym_upper reads start first");

size_t sym_upper(const void *base, size_t n, size_t size, uint64_t addr)
{
	const char *b = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t start;

		memcpy(&start, b + mid * size, sizeof(start));
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

long etm_symbols_find(const struct etm_symbols *s, uint64_t addr)
{
	size_t lo;

	if (!s)
		return -1;
	lo = sym_upper(s->fn, s->nfn, sizeof(*s->fn), addr);
	if (!lo || addr >= s->fn[lo - 1].end)
		return -1;
	return (long)(lo - 1);
}

long etm_symbols_find_span(const struct etm_symbols *s, uint64_t addr,
			   uint64_t *first, uint64_t *last)
{
	size_t lo;

	*first = 0;
	*last = UINT64_MAX;
	if (!s || !s->nfn)
		return -1;
	/* the ranges are sorted and do not overlap (sym_index()): the answer
	 * holds from the previous range's end (or 0) to the next start */
	lo = sym_upper(s->fn, s->nfn, sizeof(*s->fn), addr);
	if (lo && addr < s->fn[lo - 1].end) {
		*first = s->fn[lo - 1].start;
		*last = s->fn[lo - 1].end - 1;
		return (long)(lo - 1);
	}
	if (lo)
		*first = s->fn[lo - 1].end;
	if (lo < s->nfn)
		*last = s->fn[lo].start - 1;
	return -1;
}

int etm_symbols_lookup(const struct etm_symbols *s, uint64_t addr,
		       struct etm_sym *out)
{
	long i;

	if (!s || !out)
		return -etme_invalid;
	i = etm_symbols_find(s, addr);
	if (i < 0)
		return -etme_nomap;
	return etm_symbols_get(s, (size_t)i, out);
}

/* ---- symbol files ------------------------------------------------------- */

static int parse_hex(const char *t, uint64_t *v)
{
	char *e;

	if (!*t || !isxdigit((unsigned char)*t))
		return -1;
	errno = 0;
	*v = strtoull(t, &e, 16);
	return *e || errno ? -1 : 0;
}

/* One line of a symbol file: 1 with *@f and *@name set, 0 to skip it,
 * -1 if malformed. */
static int symfile_line(char *line, struct sym_fn *f, char **name)
{
	char *tok[5];
	int n = 0;
	uint64_t size = 0;
	const char *type = NULL;

	for (char *p = strtok(line, " \t\r\n"); p && n < 5; p = strtok(NULL, " \t\r\n"))
		tok[n++] = p;
	if (!n || tok[0][0] == '#')
		return 0;
	/* nm prints nameless symbols as "ADDR [SIZE] TYPE" and undefined ones
	 * as "TYPE NAME" (U, w, v: no address): nothing to place */
	if ((n == 2 && strlen(tok[0]) == 1 && strchr("Uwv", tok[0][0])) ||
	    (n == 2 && strlen(tok[1]) == 1 && !isxdigit((unsigned char)tok[1][0])) ||
	    (n == 3 && strlen(tok[2]) == 1 && !isxdigit((unsigned char)tok[2][0]) &&
	     parse_hex(tok[1], &size) == 0))
		return 0;
	if (n == 4) {
		if (parse_hex(tok[1], &size) < 0)
			return -1;
		type = tok[2];
	} else if (n == 3 && strlen(tok[1]) == 1 && !isdigit((unsigned char)tok[1][0])) {
		type = tok[1];
	} else if (n != 3 || parse_hex(tok[1], &size) < 0) {
		return -1;
	}
	if (parse_hex(tok[0], &f->start) < 0)
		return -1;
	if (type && (strlen(type) != 1 || !strchr("tTwW", type[0])))
		return 0;
	*name = tok[n - 1];
	if ((*name)[0] == '$' && strchr("atdx", (*name)[1]) &&
	    ((*name)[2] == 0 || (*name)[2] == '.'))
		return 0;
	f->thumb = f->start & 1;
	f->start &= ~(uint64_t)1;
	f->sized = size != 0;
	f->end = sym_end(f->start, size);
	f->rank = f->sized ? sym_rank_global : sym_rank_unsized;
	return 1;
}

int etm_symbols_add_file(struct etm_symbols *s, const char *path,
			 char *errbuf, size_t errlen)
{
	char line[4096];
	unsigned long lno = 0;
	int added = 0, r = 0;
	FILE *fp;

	if (!s || !path)
		return -etme_invalid;
	fp = fopen(path, "r");
	if (!fp) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return -etme_io;
	}
	while (fgets(line, sizeof(line), fp)) {
		struct sym_fn f = { .module = s->nmod };
		char *name;

		lno++;
		r = symfile_line(line, &f, &name);
		if (r < 0) {
			if (errbuf && errlen)
				snprintf(errbuf, errlen, "%s:%lu: expected 'ADDR [SIZE] TYPE NAME'",
					 path, lno);
			r = -etme_parse;
			break;
		}
		if (r > 0) {
			r = sym_fn_push(s, &f, name);
			if (r < 0)
				break;
			added++;
		}
	}
	fclose(fp);
	s->nmod++;
	sym_index(s);
	return r < 0 ? r : added;
}
