/* cli/covcmd.h - the coverage decode driver of `etmtrace coverage` and
 * `etmtrace fdo` (the reports are src/covout/). */
#ifndef ETM_CLI_COVCMD_H
#define ETM_CLI_COVCMD_H

#include <etmtrace/coverage.h>

#include "covout/covout.h"

struct session;
/* Decode the session's trace file on s->jobs threads into @total
 * (covpar.c). Returns 0, 2 on an error (message printed), or -1 if the
 * input is not a regular file (then use session_run()). */
int covpar_run(struct session *s, struct etm_cov *total);

/* Write callback of the library writers: @ctx is a FILE *. */
int cov_fwrite(void *ctx, const char *s, size_t n);

#endif
