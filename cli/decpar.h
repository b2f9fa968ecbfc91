/* cli/decpar.h - `etmtrace decode --jobs N`: the output formatted on the
 * decoding worker threads (etm_decoder_run_ops), written in input order. */
#ifndef ETM_CLI_DECPAR_H
#define ETM_CLI_DECPAR_H

#include "output/listing.h"
#include "output/runfig.h"
#include "session.h"

/* Decode the session's trace file on s->jobs threads, formatting like @f
 * (its format, counters and diagnostics, which get the totals; its writer
 * gets the output) with the annotations @ann (which must not be
 * decsym_sequential()). Returns 0, 2 on an error (message printed), or -1
 * if the input is not a regular file (then use session_run()). The run's
 * figures are added to @rf if not NULL. */
int decpar_run(struct session *s, struct decfmt *f,
	       const struct decsym_opts *ann, struct runfig *rf);

#endif
