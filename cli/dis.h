/* cli/dis.h - the disassembler the listings get: capstone's (etmtrace/disasm.h)
 * when the build found it, else none (the listings show the instruction
 * class). One per formatting thread; the calling thread's first one is
 * opened by cli_dis_first(), which tells when capstone's library (loaded
 * then, not at start-up) is missing. */
#ifndef ETM_CLI_DIS_H
#define ETM_CLI_DIS_H

#include <stdio.h>

#include <etmtrace/listing.h>

#ifdef ETM_HAVE_CAPSTONE
#include <etmtrace/disasm.h>

static inline struct etm_disasm_hook cli_dis_open(void)
{
	return etm_disasm_open();
}

static inline void cli_dis_close(struct etm_disasm_hook *h)
{
	etm_disasm_close(h);
}

/* The calling thread's disassembler into *@h: 0, or 2 (error printed)
 * when there is none - capstone's shared library cannot be loaded (the
 * build found capstone, so a listing without it would not be the one
 * asked for) or no memory. */
static inline int cli_dis_first(struct etm_disasm_hook *h)
{
	*h = etm_disasm_open();
	if (h->insn)
		return 0;
	fprintf(stderr, "etmtrace: cannot disassemble: capstone's library " ETM_CAPSTONE_SONAME " does not load (is it installed?), or out of memory\n");
	return 2;
}
#else
static inline struct etm_disasm_hook cli_dis_open(void)
{
	struct etm_disasm_hook h = { NULL, NULL };

	return h;
}

static inline void cli_dis_close(struct etm_disasm_hook *h)
{
	(void)h;
}

static inline int cli_dis_first(struct etm_disasm_hook *h)
{
	*h = cli_dis_open();
	return 0;
}
#endif

#endif
