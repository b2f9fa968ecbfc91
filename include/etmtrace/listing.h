/* etmtrace/listing.h - what an instruction listing takes from the layers
 * that are optional to the decoder: a disassembler (capstone) and symbols
 * (libdw, libetmtrace_symbols). The listing formatters of the library
 * (decode listing, coverage listing) call these hooks; without them they
 * print the instruction class and no names. */
#ifndef ETMTRACE_LISTING_H
#define ETMTRACE_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/image.h>
#include <etmtrace/insn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A disassembler: the text of instruction @in (read from @img in @space;
 * the image gives context such as a T32 IT block) into @buf of @n bytes,
 * always NUL-terminated. @ctx is the disassembler's own state: one per
 * thread. */
struct etm_disasm_hook {
	void (*insn)(void *ctx, const struct etm_image *img,
		     enum etm_space space, const struct etm_insn *in,
		     char *buf, size_t n);
	void *ctx;
};

/* Symbols: lookups the listing makes (func+0xoff, branch targets, source
 * lines). Any may be NULL. The strings stay valid while the symbols do. */
struct etm_sym_hook {
	/* The function holding @addr: its name and [start, end). 0, or -1
	 * if none. */
	int (*func)(const void *ctx, uint64_t addr, const char **name,
		    uint64_t *start, uint64_t *end);
	/* The source file and line of @addr; 0, or -1 if none. The same file
	 * gives the same pointer. */
	int (*line)(const void *ctx, uint64_t addr, const char **file,
		    uint32_t *line);
	const void *ctx;
};

#ifdef __cplusplus
}
#endif

#endif
