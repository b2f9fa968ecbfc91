/* symbols/symmap.c - the ARM mapping symbols of ELF files ($a: A32 code,
 * $t: T32 code, $d: data; ARM IHI 0044, ELF for the Arm Architecture,
 * "Mapping symbols"): what the bytes at an address are, so that listings
 * show literal pools as data words rather than as instructions. Each
 * mapping symbol covers its section from its address up to the next
 * mapping symbol. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "symbols/sym_int.h"

_Static_assert(offsetof(struct sym_map, start) == 0, "sym_upper reads start first");

int sym_map_push(struct etm_symbols *s, uint64_t start, uint64_t limit,
		 char kind)
{
	struct sym_map *m;

	if (kind != 'a' && kind != 't' && kind != 'd')
		return 0; /* $x: A64, not listed here */
	m = etm_grow(s->maps, &s->capmaps, s->nmaps + 1, sizeof(*m), 64);
	if (!m)
		return -etme_nomem;
	s->maps = m;
	m[s->nmaps].start = start;
	m[s->nmaps].end = limit ? limit : UINT64_MAX;
	m[s->nmaps].kind = kind;
	s->nmaps++;
	return 0;
}

static int map_cmp(const void *pa, const void *pb)
{
	const struct sym_map *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->kind > b->kind) - (a->kind < b->kind);
}

void sym_map_index(struct etm_symbols *s)
{
	size_t i;

	if (!s->nmaps)
		return;
	qsort(s->maps, s->nmaps, sizeof(*s->maps), map_cmp);
	/* each stretch ends where the next begins (or at its section end) */
	for (i = 0; i + 1 < s->nmaps; i++)
		if (s->maps[i + 1].start < s->maps[i].end)
			s->maps[i].end = s->maps[i + 1].start;
}

int etm_symbols_mapping(const struct etm_symbols *s, uint64_t addr,
			uint64_t *end)
{
	size_t i;

	if (!s || !s->nmaps)
		return 0;
	i = sym_upper(s->maps, s->nmaps, sizeof(*s->maps), addr);
	if (!i || addr >= s->maps[i - 1].end)
		return 0;
	if (end)
		*end = s->maps[i - 1].end;
	return s->maps[i - 1].kind;
}
