/* listing/line_annot.h - annotations of the decode listing (listing/listing.h):
 * function and offset of each instruction, symbolized branch targets,
 * source lines, input offsets, and time from timestamps and cycle counts
 * where the clock is known. Symbols come through a hook
 * (etmtrace/listing.h), so this layer needs no libdw. Library-internal. */
#ifndef ETM_LISTING_LINE_ANNOT_H
#define ETM_LISTING_LINE_ANNOT_H

#include <etmtrace/flow.h>
#include <etmtrace/listing.h>
#include <etmtrace/srcpath.h>

#include "listing/wbuf.h"

/* What to annotate the listing with. */
struct line_annot_opts {
	struct etm_sym_hook sym; /* func/line NULL: no symbols */
	int source;              /* source lines (needs sym.line) */
	int offsets;             /* input offset of each line: 0 none,
				  * 1 decimal, 2 hex (LINE_ANNOT_OFF_HEX) */
	double hz;               /* clock of timestamps and cycles (0: none) */
	/* where source files are found (NULL: where DWARF says) */
	const struct etm_srcpath *srcpath;
	/* --fields: the columns of instruction lines (listing/line_fields.h);
	 * NULL: the default listing */
	const struct line_fields_spec *fields;
	/* per-process images (a perf.data traced with Context IDs,
	 * etm_capture_ctx_images()): a range with a Context ID is read from
	 * ctx_img(ctx_img_arg, its Context ID) unless NULL (NULL: the source's
	 * image) */
	etm_ctx_image_fn ctx_img;
	void *ctx_img_arg;
};

#define LINE_ANNOT_OFF_DEC 1
#define LINE_ANNOT_OFF_HEX 2

struct line_annot;

/* The annotations @o asks for in *@out (one object per formatting thread:
 * lookups are memoised in it); NULL when there are none. Returns 0 or
 * -etme_nomem. */
int line_annot_open(const struct line_annot_opts *o, struct line_annot **out);
void line_annot_close(struct line_annot *d);
/* Whether the annotations carry state from element to element (source
 * lines, time, fields ts and ctx): the listing must then be formatted on
 * one thread. */
int line_annot_sequential(const struct line_annot_opts *o);

/* Whether lines carry more than their instruction (--offsets, --source). */
int line_annot_per_line(const struct line_annot *d);
/* Text: the --offsets column (before each line of @el). */
void line_annot_prefix(const struct line_annot *d, struct wbuf *w,
		       const struct etm_elem *el);
/* Text: the source line of @in when it changed (--source), before it. */
void line_annot_source(struct line_annot *d, struct wbuf *w,
		       const struct etm_elem *el, const struct etm_insn *in);
/* The source position of @addr (needs the symbols' line hook): 0 with
 * *@file, *@line set, or -1. */
int line_annot_srcpos(const struct line_annot *d, uint64_t addr, const char **file,
		      uint32_t *line);
/* Text: " <func+0xoff>" of a direct branch's target appended to @dis;
 * with @width > 0 the name is cut (ending in "..") so that @dis stays
 * within @width characters, keeping at least LINE_ANNOT_MIN_NAME of it. */
#define LINE_ANNOT_MIN_NAME 8
void line_annot_target(struct line_annot *d, const struct etm_insn *in, char *dis,
		       size_t n, size_t width);
/* Text: "  func+0xoff" of @addr into @buf (empty if none); returns its
 * length as snprintf does. */
int line_annot_symstr(struct line_annot *d, uint64_t addr, char *buf, size_t n);
/* Text: on the last instruction of a range with cycles, the cycles so far
 * and the time (clock known). */
void line_annot_tail(struct line_annot *d, struct wbuf *w, const struct etm_elem *el,
		     int last);
/* Text: " (S s)" of a timestamp element; the clock state moves on. */
void line_annot_other(struct line_annot *d, struct wbuf *w, const struct etm_elem *el);
/* jsonl: ,"sym","off","file","line" of a range's start. */
void line_annot_json(struct line_annot *d, struct wbuf *w, const struct etm_elem *el);

#endif
