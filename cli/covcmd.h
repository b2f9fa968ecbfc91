/* cli/covcmd.h - the coverage decode driver of `etmtrace coverage` and
 * `etmtrace fdo` (the reports: etmtrace/covreport.h). */
#ifndef ETM_CLI_COVCMD_H
#define ETM_CLI_COVCMD_H

#include <etmtrace/coverage.h>

#include <etmtrace/covreport.h>

#include "covctx.h"
#include "diagwarn.h"

/* What a decode adds up: the coverage, and the diagnostics and counts of
 * the verdict (diagwarn.h). */
struct cov_acc {
	struct etm_cov *cov;
	struct etm_diagset *dw;
	struct diagtally t;
	struct covctx *ctx; /* per-process coverage (covctx.h); may be NULL */
};

struct session;
/* Decode the session's trace file on s->jobs threads into @a
 * (etm_cov_run(); par_run.c). Returns 0, 2 on an error (message printed),
 * or -1 if the input is not a regular file (then use session_run()). */
int par_coverage_run(struct session *s, struct cov_acc *a);

/* Write callback of the library writers: @ctx is a FILE *. */
int cov_fwrite(void *ctx, const char *s, size_t n);

#endif
