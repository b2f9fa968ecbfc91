/* cli/disasm.h - optional disassembly of listed instructions (capstone when
 * the build found it; otherwise the instruction class is shown). */
#ifndef ETM_CLI_DISASM_H
#define ETM_CLI_DISASM_H

#include <stddef.h>

#include <etmtrace/image.h>
#include <etmtrace/insn.h>

struct disasm;

struct disasm *disasm_open(void);
void disasm_close(struct disasm *d);
/* Write the mnemonic and operands of @in into @buf. */
/* Text of @in (read from @img in @space, which also gives the IT-block
 * context of T32 instructions: see disasm.c) into @buf. */
void disasm_insn(struct disasm *d, const struct etm_image *img,
		 enum etm_space space, const struct etm_insn *in, char *buf,
		 size_t n);

#endif
