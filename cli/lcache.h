/* cli/lcache.h - cache of the formatted, path-independent part of listing
 * lines: address, ISA, opcode, disassembly (with its symbolized target) and
 * func+0xoff, keyed by address, ISA and memory space. The text is a
 * function of the image alone (cli/disasm.c), so a hit equals a fresh
 * format, and the listing is spared printf and capstone on every line. */
#ifndef ETM_CLI_LCACHE_H
#define ETM_CLI_LCACHE_H

#include <etmtrace/flow.h>

#include "decsym.h"
#include "disasm.h"

struct lcache;

/* A line's parts: the head "  ADDR  ISA  OPCODE  disassembly<padding>"
 * (@hlen bytes at @text), then "  func+0xoff" or nothing (@slen bytes at
 * @text + @hlen). */
struct lc_text {
	const char *text;
	size_t hlen, slen;
};

/* The line parts of @in (read from @img in @space), formatted now or
 * taken from *@lc (allocated on first use; lines that do not fit a cache
 * entry, or all if that fails, are formatted every time). The text stays
 * valid until the next call on the thread. */
struct lc_text lcache_line(struct lcache **lc, struct disasm *dis,
			   const struct decsym *sym, const struct etm_image *img,
			   enum etm_space space, const struct etm_insn *in);
void lcache_free(struct lcache *lc);

#endif
