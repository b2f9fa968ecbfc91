/* cli/dis.h - the disassembler the listings get: capstone's (src/disasm/)
 * when the build found it, else none (the listings show the instruction
 * class). One per formatting thread. */
#ifndef ETM_CLI_DIS_H
#define ETM_CLI_DIS_H

#include <etmtrace/listing.h>

#ifdef ETM_HAVE_CAPSTONE
#include "disasm/disasm.h"

static inline struct etm_disasm_hook cli_dis_open(void)
{
	return disasm_hook(disasm_open());
}

static inline void cli_dis_close(struct etm_disasm_hook *h)
{
	disasm_close(h->ctx);
	h->insn = NULL;
	h->ctx = NULL;
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
#endif

#endif
