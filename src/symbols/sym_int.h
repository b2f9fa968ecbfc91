/* symbols/sym_int.h - the symbol table's private state: functions, DWARF
 * line rows and inlined ranges, each a sorted array, names in one pool. */
#ifndef ETM_SYMBOLS_SYM_INT_H
#define ETM_SYMBOLS_SYM_INT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/symbols.h>

/* Preference between functions at one address (lower wins). */
enum sym_rank {
	sym_rank_global = 0,
	sym_rank_weak = 1,
	sym_rank_local = 2,
	sym_rank_notype = 4, /* added to the binding rank */
	sym_rank_unsized = 8,
};

struct sym_fn {
	uint64_t start, end; /* end: after sym_index(), the cut range */
	uint64_t limit;      /* unsized: end of its section (0: unknown) */
	uint32_t name;       /* pool offset */
	uint32_t seq;        /* insertion order (ties) */
	uint16_t module;
	uint8_t sized, thumb, rank;
};

struct sym_row {
	uint64_t start, end;
	uint32_t file; /* pool offset */
	uint32_t line, column;
};

struct sym_inl {
	uint64_t start, end;
	uint64_t maxend;          /* the largest end of this and every earlier entry */
	uint32_t name, call_file; /* pool offsets (call_file UINT32_MAX: none) */
	uint32_t call_line, depth;
};

/* A mapping symbol's stretch: [start, end) is A32 code ('a'), T32 code
 * ('t') or data ('d'). */
struct sym_map {
	uint64_t start, end;
	char kind;
};

struct etm_symbols {
	struct sym_fn *fn;
	size_t nfn, capfn;
	struct sym_row *rows;
	size_t nrows, caprows;
	struct sym_inl *inl;
	size_t ninl, capinl;
	struct sym_map *maps;
	size_t nmaps, capmaps;
	char *pool;
	size_t npool, cappool;
	uint16_t nmod;
};

/* @start + @size, or the top of the address space if that wraps. */
static inline uint64_t sym_end(uint64_t start, uint64_t size)
{
	return start + size < start ? UINT64_MAX : start + size;
}

/* Copy @n bytes of @str (NUL added) into the pool; its offset in *@off.
 * Returns 0 or -etme_nomem. */
int sym_pool_add(struct etm_symbols *s, const char *str, size_t n,
		 uint32_t *off);
/* Append one function (no index rebuild). Returns 0 or -etme_nomem. */
int sym_fn_push(struct etm_symbols *s, const struct sym_fn *f,
		const char *name);
/* Index one past the last of the @n entries of @size bytes at @base
 * (sorted by their leading uint64_t start) that start at or below @addr:
 * 0 if none does. */
size_t sym_upper(const void *base, size_t n, size_t size, uint64_t addr);
/* Sort functions, drop duplicates, cut ranges so that they do not overlap;
 * sort line rows and inlined ranges the same way. */
void sym_index(struct etm_symbols *s);
/* symmap.c: add the mapping symbol $@kind at @start, its section ending at
 * @limit (0: unknown); sort them and cut each at the next. Returns 0 or
 * -etme_nomem. */
int sym_map_push(struct etm_symbols *s, uint64_t start, uint64_t limit,
		 char kind);
void sym_map_index(struct etm_symbols *s);
/* Load DWARF lines and inlined ranges of the ELF open on @fd (libdw).
 * Returns 0 (also when there is no DWARF) or -etme_nomem. */
int sym_dwarf_load(struct etm_symbols *s, int fd, uint64_t bias);

#endif
