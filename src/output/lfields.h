/* output/lfields.h - the decode listing's instruction lines with the
 * columns the user picks (`etmtrace decode --fields`, in the spirit of
 * `perf script -F`): which fields, in which order, and the state the
 * stateful ones need (last timestamp and context ID per trace source).
 * Library-internal (output/listing.c); names and widths: doc/listing.md. */
#ifndef ETM_OUTPUT_LFIELDS_H
#define ETM_OUTPUT_LFIELDS_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/flow.h>

#include "output/lannot.h"
#include "output/lcache.h"
#include "output/wbuf.h"

enum lf_field {
	LF_OFFSET, /* input offset of the packet behind the line */
	LF_ID,     /* trace ID, 0x13 */
	LF_ADDR,   /* instruction address */
	LF_ISA,    /* A32 / T32 */
	LF_OPCODE, /* opcode as the listing prints it */
	LF_INSN,   /* disassembly (with the branch target) */
	LF_ATOM,   /* E / N on the last instruction of a range */
	LF_SYM,    /* func+0xoff */
	LF_SRC,    /* file:line */
	LF_CYCLES, /* cycles of the range, on its last instruction */
	LF_TS,     /* the source's last timestamp */
	LF_CTX,    /* the source's last context ID */
	LF_NUM
};

#define LF_MAX 32 /* fields in one selection (repeats allowed) */

/* A selection of fields, in order. */
struct lfields_spec {
	uint8_t f[LF_MAX];
	int n;
	int hex; /* offset in hex (--offsets hex) */
};

/* The comma-separated list @s ("addr,insn,sym") into @out. Returns 0, or -1
 * with the reason in @why (an unknown name: the names accepted). */
int lfields_parse(const char *s, struct lfields_spec *out, char *why,
		  size_t n);
/* The accepted names, comma-separated (for messages and help). */
const char *lfields_names(void);
/* Whether @sp needs state carried from element to element (ts, ctx): the
 * listing must then be formatted on one thread. */
int lfields_sequential(const struct lfields_spec *sp);

struct lfields;

/* The formatter of @sp's lines (copied), or NULL when out of memory. */
struct lfields *lfields_open(const struct lfields_spec *sp);
void lfields_close(struct lfields *f);
/* Note what event @el (not a range) changes: timestamps, context IDs. */
void lfields_event(struct lfields *f, const struct etm_elem *el);
/* The line of instruction @in of range @el (@last: its last instruction),
 * @l its listing parts (output/lcache.h), @sym the annotations (source
 * positions; may be NULL). No trailing whitespace. */
void lfields_line(struct lfields *f, struct wbuf *w, const struct etm_elem *el,
		  const struct etm_insn *in, struct lc_text l, int last,
		  struct decsym *sym);

#endif
