/* listing/listing.h - the decode output of one item (listing, canonical
 * list, JSON lines, or counts only), into a buffered writer, with the
 * annotations of listing/line_annot.h, a disassembler hook, and the
 * configuration diagnostics of probe/diagset.h fed on the way.
 * Library-internal: the CLI's `decode` drives it, on one thread or one
 * formatter per worker thread. */
#ifndef ETM_LISTING_LISTING_H
#define ETM_LISTING_LISTING_H

#include <etmtrace/listing.h>

#include "probe/diagset.h"
#include "listing/line_annot.h"
#include "listing/line_cache.h"
#include "listing/line_fields.h"
#include "listing/out_fmt.h"
#include "listing/wbuf.h"

enum dec_fmt { DF_TEXT,
	       DF_CANON,
	       DF_JSONL,
	       DF_STATS,
	       DF_DATA /* data transfers, etm_out_data_line() */ };

/* Which elements are output (ETMv3 data trace): @only: data transfers
 * alone (with errors); @range: data transfers only at addresses in [lo,
 * hi]. Per element, no state: parallel formatters give the same. */
struct dec_dfilter {
	int on; /* only || range */
	int only, range;
	uint64_t lo, hi;
};

struct dec_counts {
	unsigned long long insns, elems[etmk_num_kinds], errors, packets;
};

/* A run of identical diagnostic lines (text listing: errors and losses of
 * sync of one source with one reason), printed as one line. */
struct dec_run {
	struct etm_elem el; /* the first */
	unsigned long long n, last_off;
};

struct decfmt {
	struct wbuf *w;
	enum dec_fmt fmt;
	int multi;                  /* several IDs: prefix lines with the ID */
	struct etm_disasm_hook dis; /* text: one disassembler per thread */
	struct etm_diagset *dw;     /* configuration-mismatch diagnostics */
	struct line_annot *sym;     /* listing annotations (may be NULL) */
	struct line_cache *lc;      /* text: formatted line parts */
	/* text: the image each ID's cached lines came from; when one changes
	 * (a perf.data file's next process) the cache is emptied */
	const struct etm_image *lc_img[128];
	struct lc_fresh fresh;  /* text: a line formatted now */
	struct line_fields *fl; /* text: --fields (NULL: default lines) */
	struct dec_counts n;
	struct dec_run run;                         /* text: the run being collected */
	struct dec_run head;                        /* split: the run the piece began with */
	int split;                                  /* pieces joined later: keep the head run */
	int lead;                                   /* split: nothing output in this piece yet */
	uint8_t lost[256];                          /* text: by ID, sync lost with no trace on
				   * since: the next range resumes the listing */
	const struct etm_listing_source *byid[256]; /* in the caller's list */
	struct dec_dfilter df;                      /* set after decfmt_init() */
	etm_ctx_image_fn ctx_img;                   /* line_annot_opts: per-process images */
	void *ctx_img_arg;
	int werr; /* the owner's write error (0: none): decfmt_elems() returns it */
};

/* A formatter of @fmt into @w for the @nsrc sources @src (borrowed, as are
 * @w and @dw; @dis is copied; @dis and @dw may be NULL), with the annotations @ann
 * asks for (NULL: none). Returns 0 or -etme_nomem. */
int decfmt_init(struct decfmt *f, const struct etm_listing_source *src, int nsrc,
		struct wbuf *w, enum dec_fmt fmt,
		const struct etm_disasm_hook *dis, struct etm_diagset *dw,
		const struct line_annot_opts *ann);
/* Output and count one item (a session_fn); returns 0. */
int decfmt_item(void *f, const struct etm_item *it);
/* Output and count one element; returns 0. */
int decfmt_elem(struct decfmt *f, const struct etm_elem *el);
/* decfmt_elem() of @n elements (a session_elems_fn); returns f->werr. */
int decfmt_elems(void *f, const struct etm_elem *els, size_t n);
/* End of a buffer: output the run of diagnostic lines being collected,
 * forget losses of sync. */
void decfmt_flush(struct decfmt *f);
/* Join a piece formatted with f->split set to the output of @f (not
 * split), so that runs do not depend on piece cuts: decfmt_join_head()
 * with the piece's head run before the caller writes its text (@has_text),
 * decfmt_join_tail() with the run it ended with after. */
void decfmt_join_head(struct decfmt *f, const struct dec_run *head,
		      int has_text);
void decfmt_join_tail(struct decfmt *f, const struct dec_run *tail);
void decfmt_add(struct dec_counts *to, const struct dec_counts *from);
/* Free what the formatter allocated (its line cache, annotations). */
void decfmt_fini(struct decfmt *f);

#endif
