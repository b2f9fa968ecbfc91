/* etmtrace/disasm.h - capstone's disassembly as the disassembler hook of
 * the listing formatters (struct etm_disasm_hook, etmtrace/listing.h):
 * A32 and T32 text, T32 conditions from the IT block read in the image.
 * In libetmtrace_symbols when the build found capstone; without it a
 * listing passes a hook with insn NULL and shows the instruction class.
 * Capstone's shared library (the SONAME the build found) is loaded with
 * dlopen() by the first etm_disasm_open(), not linked: a program linking
 * libetmtrace_symbols does not load it unless it disassembles. */
#ifndef ETM_ETMTRACE_DISASM_H
#define ETM_ETMTRACE_DISASM_H

#include <etmtrace/listing.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A new disassembler as a hook: one per formatting thread (it keeps
 * capstone's state). On no memory, or when capstone's shared library
 * cannot be loaded, the hook's insn is NULL (the listing shows the
 * instruction class). Closed with etm_disasm_close(). */
struct etm_disasm_hook etm_disasm_open(void);
/** Free the disassembler of @h (opened by etm_disasm_open(); a hook with
 * ctx NULL does nothing) and clear @h. */
void etm_disasm_close(struct etm_disasm_hook *h);

#ifdef __cplusplus
}
#endif

#endif
