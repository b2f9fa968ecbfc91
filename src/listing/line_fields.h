/* listing/line_fields.h - the decode listing's instruction lines with the
 * columns the user picks (`etmtrace decode --fields`, in the spirit of
 * `perf script -F`): which fields, in which order, and the state the
 * stateful ones need (last timestamp and context ID per trace source).
 * Library-internal (listing/listing.c); names and widths: doc/listing.md. */
#ifndef ETM_LISTING_LINE_FIELDS_H
#define ETM_LISTING_LINE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/flow.h>

#include "listing/line_annot.h"
#include "listing/line_cache.h"
#include "listing/wbuf.h"

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
struct line_fields_spec {
	uint8_t f[LF_MAX];
	int n;
	int hex; /* offset in hex (--offsets hex) */
};

/* The comma-separated list @s ("addr,insn,sym") into @out. Returns 0, or -1
 * with the reason in @why (an unknown name: the names accepted). */
int line_fields_parse(const char *s, struct line_fields_spec *out, char *why,
		      size_t n);
/* The accepted names, comma-separated (for messages and help). */
const char *line_fields_names(void);
/* Whether @sp needs state carried from element to element (ts, ctx): the
 * listing must then be formatted on one thread. */
int line_fields_sequential(const struct line_fields_spec *sp);

struct line_fields;

/* The formatter of @sp's lines (copied), or NULL when out of memory. */
struct line_fields *line_fields_open(const struct line_fields_spec *sp);
void line_fields_close(struct line_fields *f);
/* Note what event @el (not a range) changes: timestamps, context IDs. */
void line_fields_event(struct line_fields *f, const struct etm_elem *el);
/* The line of instruction @in of range @el (@last: its last instruction),
 * @l its listing parts (listing/line_cache.h), @sym the annotations (source
 * positions; may be NULL). No trailing whitespace. */
void line_fields_line(struct line_fields *f, struct wbuf *w, const struct etm_elem *el,
		      const struct etm_insn *in, struct lc_text l, int last,
		      struct line_annot *sym);

#endif
