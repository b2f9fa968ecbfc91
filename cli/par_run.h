/* cli/par_run.h - `etmtrace decode` and `coverage` / `fdo` with --jobs N:
 * the chosen buffer's trace file, when it is a regular file, decoded by
 * the library's parallel listing (listing/listing_par.h) or parallel
 * coverage (etm_cov_run(), etmtrace/coverage.h) or profile
 * (etm_profile_run(), etmtrace/profile.h) on s->jobs threads. */
#ifndef ETM_CLI_PAR_RUN_H
#define ETM_CLI_PAR_RUN_H

#include "diagwarn.h"
#include "listing/listing_par.h"
#include "listing/run_totals.h"
#include "session.h"

/* Decode the session's trace file on s->jobs threads, formatting like @f
 * (its format, counters and diagnostics, which get the totals; its writer
 * gets the output) with the annotations @ann (which must not be
 * line_annot_sequential()). Returns 0, 2 on an error (message printed), or -1
 * if the input is not a regular file (then use session_run()). The run's
 * figures are added to @rf if not NULL. */
int par_listing_run(struct session *s, struct decfmt *f,
		    const struct line_annot_opts *ann, struct run_totals *rf);

/* `profile --jobs N`: the session's trace file on s->jobs threads into
 * @p (etm_profile_run()), the diagnostics into @dw and @t. Returns as
 * par_coverage_run() (covcmd.h). */
struct etm_profile;
int par_profile_run(struct session *s, struct etm_profile *p,
		    struct etm_diagset *dw, struct diagtally *t);

#endif
