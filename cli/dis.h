/* cli/dis.h - the disassembler the listings get: capstone's (etmtrace/disasm.h)
 * when the build found it, else none (the listings show the instruction
 * class). One per formatting thread. */
#ifndef ETM_CLI_DIS_H
#define ETM_CLI_DIS_H

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
