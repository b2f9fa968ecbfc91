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

struct lc_line {
	uint8_t hlen, slen;
	char head[127];   /* "  ADDR  ISA  OPCODE  disassembly<padding>" */
	char sym[80];     /* "  func+0xoff" or empty */
};

/* The line parts of @in (read from @img in @space), formatted now or
 * taken from *@lc (allocated on first use; if that fails, a scratch line
 * is formatted every time). */
const struct lc_line *lcache_line(struct lcache **lc, struct disasm *dis,
				  const struct decsym *sym,
				  const struct etm_image *img,
				  enum etm_space space, const struct etm_insn *in);
void lcache_free(struct lcache *lc);

#endif
