/* listing/listing_par.h - a listing formatted on the decoding worker
 * threads (etm_decoder_run_ops()) and written in input order: the pieces
 * each worker formats (text, counters, configuration diagnostics) are
 * stitched so that the output equals that of one thread, repeated-line
 * runs and diagnostics segments included. Library-internal: the public
 * form is etm_listing_run() (etmtrace/listing.h); the CLI's `decode
 * --jobs N` calls this with its own formatter. */
#ifndef ETM_LISTING_LISTING_PAR_H
#define ETM_LISTING_LISTING_PAR_H

#include <etmtrace/decoder.h>
#include <etmtrace/listing.h>
#include <etmtrace/runstats.h>

#include "listing/listing.h"

struct listing_par {
	/* the calling thread's formatter: its format, data filter, counters
	 * and diagnostics (which get the totals) and writer (which gets the
	 * output: a file descriptor or a sink, wbuf.h) */
	struct decfmt *f;
	/* the annotations of each worker's formatter (must not be
	 * line_annot_sequential()) */
	const struct line_annot_opts *ann;
	const struct etm_listing_source *src; /* the decode's sources */
	int nsrc;
	/* text: each worker's disassembler, made on its thread (NULL: the
	 * workers share f->dis, which must then be thread-safe) */
	struct etm_disasm_hook (*dis_open)(void *ctx);
	void (*dis_close)(void *ctx, struct etm_disasm_hook *h);
	void *dis_ctx;
};

/* Decode the @size bytes read through @rd with @dec on @jobs threads,
 * formatted as @p says. Returns 0 or the run's error (a write error is
 * also left in p->f->w->err); the run's figures go to *@st if not NULL. */
int listing_par_run(const struct listing_par *p, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs,
		    struct etm_run_stats *st);

#endif
