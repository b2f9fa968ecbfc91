/* cli/par_run.h - `etmtrace decode` and `coverage` / `fdo` with --jobs N:
 * the chosen buffer's trace, when the library reads it as a file range
 * (etm_capture_range()), decoded by the library's parallel listing
 * (etm_listing_run(), etmtrace/listing.h), coverage (etm_cov_run(),
 * etmtrace/coverage.h) or profile (etm_profile_run(), etmtrace/profile.h)
 * on s->jobs threads. */
#ifndef ETM_CLI_PAR_RUN_H
#define ETM_CLI_PAR_RUN_H

#include <etmtrace/listing.h>

#include "diagwarn.h"
#include "session.h"

/* List the session's chosen buffer into @l on s->jobs threads. Returns
 * 0, 1 if the buffer is not read so (then use session_run_buffer()), or
 * etm_listing_run()'s error (not printed). */
int par_listing_run(struct session *s, struct etm_listing *l);

/* `profile --jobs N`: the session's trace file on s->jobs threads into
 * @p (etm_profile_run_stats()), the diagnostics into @dw and @t, the
 * run's figures into *@st (may be NULL). Returns as par_coverage_run()
 * (covcmd.h). */
struct etm_profile;
struct etm_run_stats;
int par_profile_run(struct session *s, struct etm_profile *p,
		    struct etm_diagset *dw, struct diagtally *t,
		    struct etm_run_stats *st);

#endif
