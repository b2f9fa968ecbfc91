/* symbols/symhook.c - the symbol table as the listing formatters' lookup
 * hook (etmtrace/listing.h): functions and source lines by address. */
#include <etmtrace/symbols.h>

static int hook_func(const void *ctx, uint64_t addr, const char **name,
		     uint64_t *start, uint64_t *end)
{
	const struct etm_symbols *s = ctx;
	struct etm_sym y;
	long i = etm_symbols_find(s, addr);

	if (i < 0 || etm_symbols_get(s, (size_t)i, &y) < 0)
		return -1;
	*name = y.name;
	*start = y.start;
	*end = y.end;
	return 0;
}

static int hook_line(const void *ctx, uint64_t addr, const char **file,
		     uint32_t *line)
{
	struct etm_line l;

	if (etm_symbols_line(ctx, addr, &l) < 0)
		return -1;
	*file = l.file;
	*line = l.line;
	return 0;
}

void etm_symbols_hook(const struct etm_symbols *s, struct etm_sym_hook *out)
{
	out->func = s ? hook_func : NULL;
	out->line = s ? hook_line : NULL;
	out->ctx = s;
}
