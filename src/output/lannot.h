/* output/lannot.h - annotations of the decode listing (output/listing.h):
 * function and offset of each instruction, symbolized branch targets,
 * source lines, input offsets, and time from timestamps and cycle counts
 * where the clock is known. Symbols come through a hook
 * (etmtrace/listing.h), so this layer needs no libdw. Library-internal. */
#ifndef ETM_OUTPUT_LANNOT_H
#define ETM_OUTPUT_LANNOT_H

#include <etmtrace/flow.h>
#include <etmtrace/listing.h>
#include <etmtrace/srcpath.h>

#include "output/wbuf.h"

/* What to annotate the listing with. */
struct decsym_opts {
	struct etm_sym_hook sym; /* func/line NULL: no symbols */
	int source;              /* source lines (needs sym.line) */
	int offsets;             /* input offset of each line: 0 none,
				  * 1 decimal, 2 hex (DECSYM_OFF_HEX) */
	double hz;               /* clock of timestamps and cycles (0: none) */
	/* where source files are found (NULL: where DWARF says) */
	const struct etm_srcpath *srcpath;
	/* --fields: the columns of instruction lines (output/lfields.h);
	 * NULL: the default listing */
	const struct lfields_spec *fields;
	/* per-process images (a perf.data traced with Context IDs,
	 * etm_capture_ctx_images()): a range with a Context ID is read from
	 * ctx_img(ctx_img_arg, its Context ID) unless NULL (NULL: the source's
	 * image) */
	etm_ctx_image_fn ctx_img;
	void *ctx_img_arg;
};

#define DECSYM_OFF_DEC 1
#define DECSYM_OFF_HEX 2

struct decsym;

/* The annotations @o asks for in *@out (one object per formatting thread:
 * lookups are memoised in it); NULL when there are none. Returns 0 or
 * -etme_nomem. */
int decsym_open(const struct decsym_opts *o, struct decsym **out);
void decsym_close(struct decsym *d);
/* Whether the annotations carry state from element to element (source
 * lines, time, fields ts and ctx): the listing must then be formatted on
 * one thread. */
int decsym_sequential(const struct decsym_opts *o);

/* Whether lines carry more than their instruction (--offsets, --source). */
int decsym_per_line(const struct decsym *d);
/* Text: the --offsets column (before each line of @el). */
void decsym_prefix(const struct decsym *d, struct wbuf *w,
		   const struct etm_elem *el);
/* Text: the source line of @in when it changed (--source), before it. */
void decsym_source(struct decsym *d, struct wbuf *w,
		   const struct etm_elem *el, const struct etm_insn *in);
/* The source position of @addr (needs the symbols' line hook): 0 with
 * *@file, *@line set, or -1. */
int decsym_srcpos(const struct decsym *d, uint64_t addr, const char **file,
		  uint32_t *line);
/* Text: " <func+0xoff>" of a direct branch's target appended to @dis;
 * with @width > 0 the name is cut (ending in "..") so that @dis stays
 * within @width characters, keeping at least DECSYM_MIN_NAME of it. */
#define DECSYM_MIN_NAME 8
void decsym_target(struct decsym *d, const struct etm_insn *in, char *dis,
		   size_t n, size_t width);
/* Text: "  func+0xoff" of @addr into @buf (empty if none); returns its
 * length as snprintf does. */
int decsym_symstr(struct decsym *d, uint64_t addr, char *buf, size_t n);
/* Text: on the last instruction of a range with cycles, the cycles so far
 * and the time (clock known). */
void decsym_tail(struct decsym *d, struct wbuf *w, const struct etm_elem *el,
		 int last);
/* Text: " (S s)" of a timestamp element; the clock state moves on. */
void decsym_other(struct decsym *d, struct wbuf *w, const struct etm_elem *el);
/* jsonl: ,"sym","off","file","line" of a range's start. */
void decsym_json(struct decsym *d, struct wbuf *w, const struct etm_elem *el);

#endif
