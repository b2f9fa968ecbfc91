/* disasm/disasm.h - disassembly of listed instructions with capstone: a
 * library unit of its own, built only when capstone is found (without it
 * the listings show the instruction class). Library-internal: the CLI
 * hands it to the listing formatters as their disassembler hook
 * (etmtrace/listing.h). */
#ifndef ETM_DISASM_DISASM_H
#define ETM_DISASM_DISASM_H

#include <stddef.h>

#include <etmtrace/image.h>
#include <etmtrace/insn.h>
#include <etmtrace/listing.h>

struct disasm;

struct disasm *disasm_open(void);
void disasm_close(struct disasm *d);
/* Text of @in (read from @img in @space, which also gives the IT-block
 * context of T32 instructions: see disasm.c) into @buf. */
void disasm_insn(struct disasm *d, const struct etm_image *img,
		 enum etm_space space, const struct etm_insn *in, char *buf,
		 size_t n);
/* @d (may be NULL: no hook) as a listing formatter's disassembler. */
struct etm_disasm_hook disasm_hook(struct disasm *d);

#endif
