/* etmtrace/symbols.h - program symbols for decoded trace: function names
 * from ELF symbol tables or symbol files, source file:line and inlined
 * frames from DWARF (elfutils libdw). Its own library, libetmtrace_symbols,
 * so that the decoder proper stays free of third-party dependencies. */
#ifndef ETM_ETMTRACE_SYMBOLS_H
#define ETM_ETMTRACE_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/listing.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etm_symbols;

/** A function: the address range one symbol covers. */
struct etm_sym {
	const char *name; /**< owned by the table */
	uint64_t start;   /**< first address (Thumb bit cleared) */
	uint64_t end;     /**< address after the last byte (see below) */
	uint32_t index;   /**< dense index, 0..etm_symbols_count()-1, in
			      *   address order */
	uint8_t sized;    /**< 1: st_size was given; 0: it runs up to the
			      *   next function or the end of its section */
	uint8_t thumb;    /**< the symbol value had bit 0 set (T32 code) */
	uint16_t module;  /**< which add call it came from (0, 1, ...) */
};

/** A source position: one row of the DWARF line table. */
struct etm_line {
	const char *file; /**< path as DWARF gives it (directory joined);
			      *   owned by the table */
	uint32_t line;    /**< 1-based; 0 = no line (compiler-generated) */
	uint32_t column;
	uint64_t start, end; /**< the addresses this row covers */
};

/** One inlined call containing an address (innermost first). */
struct etm_inline {
	const char *name;      /**< the inlined function */
	const char *call_file; /**< where it was inlined (may be NULL) */
	uint32_t call_line;
	uint64_t start, end; /**< the inlined range containing the address */
};

/** Allocate an empty table. NULL on no memory. */
struct etm_symbols *etm_symbols_alloc(void);
/** Free the table and everything it owns; NULL is a no-op. */
void etm_symbols_free(struct etm_symbols *s);

/** Add the functions of ELF file @path (its .symtab, else .dynsym), each at
 * its value + @bias, and its DWARF line table and inlined calls if it has
 * them (compile units are indexed from their own ranges: .debug_aranges is
 * not needed). Functions are STT_FUNC symbols, sized or not, and global or
 * weak STT_NOTYPE symbols in executable sections (assembler entry points);
 * the ARM mapping symbols $a, $t, $d (and $x) are skipped and bit 0 of a
 * Thumb function's value is cleared. An unsized function extends to the
 * next function or the end of its section. Where functions overlap, the
 * later start wins from its start on (see etm_symbols_find()).
 * Returns the number of functions added, -etme_io, -etme_parse (not an
 * ELF file), -etme_nomem. With @errbuf non-NULL a one-line reason is
 * written there. An ELF without DWARF is not an error (no lines). */
int etm_symbols_add_elf(struct etm_symbols *s, const char *path,
			uint64_t bias, char *errbuf, size_t errlen);

/** Add the functions listed in text file @path, one per line in the form
 * `nm -S` prints: "ADDR SIZE TYPE NAME" or "ADDR TYPE NAME" (unsized), hex
 * numbers, TYPE t/T/w/W (other types, e.g. data, are skipped), or
 * "ADDR SIZE NAME". Blank lines and lines starting with '#' are ignored.
 * Returns the number of functions added, -etme_io, -etme_parse (with the
 * line number in @errbuf), -etme_nomem. */
int etm_symbols_add_file(struct etm_symbols *s, const char *path,
			 char *errbuf, size_t errlen);

/** Add one function [@start, @start + @size) (@size 0: unsized). Bit 0 of
 * @start is cleared. The lookup index is rebuilt (O(n log n)): add many
 * functions through a file or an ELF instead.
 * Returns 0, -etme_nomem, -etme_invalid. */
int etm_symbols_add(struct etm_symbols *s, uint64_t start, uint64_t size,
		    const char *name);

/** What the bytes at @addr are by the ARM mapping symbols of the ELF files
 * added ($a A32 code, $t T32 code, $d data such as literal pools; ARM IHI
 * 0044 "Mapping symbols"; each covers its section up to the next one):
 * 'a', 't', 'd', or 0 where none covers @addr (symbol files, other
 * sections). *@end (may be NULL) gets the end of that stretch. */
int etm_symbols_mapping(const struct etm_symbols *s, uint64_t addr,
			uint64_t *end);

/** Number of functions. */
size_t etm_symbols_count(const struct etm_symbols *s);
/** Function @i (0 <= @i < count) into *@out. Returns 0 or -etme_invalid. */
int etm_symbols_get(const struct etm_symbols *s, size_t i, struct etm_sym *out);

/** Index of the function containing @addr, or -1 if none. Binary search
 * over the functions sorted by address; each function's range is cut at
 * the next function's start, so that ranges do not overlap. Safe to call
 * from several threads at once (all lookups are). */
long etm_symbols_find(const struct etm_symbols *s, uint64_t addr);
/** etm_symbols_find(), and the addresses around @addr that give the same
 * answer: [*@first, *@last] (inclusive), the function's range or the gap
 * between two functions (0 to UINT64_MAX when there is none), so that a
 * caller can look up the next address only when it leaves them. */
long etm_symbols_find_span(const struct etm_symbols *s, uint64_t addr,
			   uint64_t *first, uint64_t *last);
/** etm_symbols_find() into *@out. Returns 0, or -etme_nomap if no function
 * contains @addr, -etme_invalid. */
int etm_symbols_lookup(const struct etm_symbols *s, uint64_t addr,
		       struct etm_sym *out);

/** Whether any DWARF line information was loaded (0 or 1). */
int etm_symbols_has_lines(const struct etm_symbols *s);
/** Source position of @addr (the line-table row covering it).
 * Returns 0, -etme_nomap if no row covers @addr, -etme_invalid. */
int etm_symbols_line(const struct etm_symbols *s, uint64_t addr,
		     struct etm_line *out);
/** Number of line-table rows (sorted by address, non-overlapping), and row
 * @i, for walking every line (per-line coverage and the like).
 * etm_symbols_line_get() returns 0 or -etme_invalid. */
size_t etm_symbols_line_count(const struct etm_symbols *s);
int etm_symbols_line_get(const struct etm_symbols *s, size_t i,
			 struct etm_line *out);
/** Index of the line-table row covering @addr, or -1. */
long etm_symbols_line_find(const struct etm_symbols *s, uint64_t addr);

/** Inlined calls containing @addr, innermost first, up to @max into
 * @out. Returns how many there are (may exceed @max: only @max are
 * written), 0 if @addr is in no inlined code, or -etme_invalid. */
int etm_symbols_inlined(const struct etm_symbols *s, uint64_t addr,
			struct etm_inline *out, size_t max);

/** The hook through which a listing formatter (etmtrace/listing.h) looks
 * up @s's functions (etm_symbols_find()) and lines (etm_symbols_line()),
 * into *@out; @s must outlive its use. */
void etm_symbols_hook(const struct etm_symbols *s, struct etm_sym_hook *out);

#ifdef __cplusplus
}
#endif
#endif
