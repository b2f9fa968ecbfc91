/* cli/decpar.h - `etmtrace decode --jobs N`: the output formatted on the
 * decoding worker threads (etm_decoder_run_ops), written in input order. */
#ifndef ETM_CLI_DECPAR_H
#define ETM_CLI_DECPAR_H

#include "listing/listing.h"
#include "listing/run_totals.h"
#include "session.h"

/* Decode the session's trace file on s->jobs threads, formatting like @f
 * (its format, counters and diagnostics, which get the totals; its writer
 * gets the output) with the annotations @ann (which must not be
 * line_annot_sequential()). Returns 0, 2 on an error (message printed), or -1
 * if the input is not a regular file (then use session_run()). The run's
 * figures are added to @rf if not NULL. */
int decpar_run(struct session *s, struct decfmt *f,
	       const struct line_annot_opts *ann, struct run_totals *rf);

#endif
