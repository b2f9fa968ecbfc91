/* cli/decsym.h - annotations of the `etmtrace decode` listing: function
 * and offset of each instruction, symbolized branch targets, source lines
 * (--source), input offsets (--offsets), and time from timestamps and
 * cycle counts where the clock is known (trace.ini or --clock). */
#ifndef ETM_CLI_DECSYM_H
#define ETM_CLI_DECSYM_H

#include <etmtrace/symbols.h>

#include "session.h"
#include "output/wbuf.h"

struct decsym;

/* The annotations the options ask for (symbols loaded here), in *@out;
 * NULL when there are none. Returns 0 or 2 (error printed). */
int decsym_open(const struct session *s, const struct opts *o,
		struct decsym **out);
void decsym_close(struct decsym *d);
/* Whether the annotations carry state from element to element (source
 * lines, time): the listing must then be formatted on one thread. */
int decsym_sequential(const struct decsym *d);

/* Whether lines carry more than their instruction (--offsets, --source). */
int decsym_per_line(const struct decsym *d);
/* Text: the --offsets column (before each line of @el). */
void decsym_prefix(const struct decsym *d, struct wbuf *w,
		   const struct etm_elem *el);
/* Text: the source line of @in when it changed (--source), before it. */
void decsym_source(struct decsym *d, struct wbuf *w,
		   const struct etm_elem *el, const struct etm_insn *in);
/* Text: " <func+0xoff>" of a direct branch's target appended to @dis. */
void decsym_target(const struct decsym *d, const struct etm_insn *in,
		   char *dis, size_t n);
/* Text: "  func+0xoff" of @addr into @buf (empty if none); returns its
 * length as snprintf does. */
int decsym_symstr(const struct decsym *d, uint64_t addr, char *buf, size_t n);
/* Text: on the last instruction of a range with cycles, the cycles so far
 * and the time (clock known). */
void decsym_tail(struct decsym *d, struct wbuf *w, const struct etm_elem *el,
		 int last);
/* Text: " (S s)" of a timestamp element; the clock state moves on. */
void decsym_other(struct decsym *d, struct wbuf *w, const struct etm_elem *el);
/* jsonl: ,"sym","off","file","line" of a range's start. */
void decsym_json(const struct decsym *d, struct wbuf *w,
		 const struct etm_elem *el);

#endif
