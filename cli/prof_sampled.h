/* cli/prof_sampled.h - the sampled flat profile of DWT PC samples, for a
 * capture with ITM/DWT and no instruction flow (cli/prof_sampled.c). */
#ifndef ETM_CLI_PROF_SAMPLED_H
#define ETM_CLI_PROF_SAMPLED_H

#include <etmtrace/symbols.h>

#include "session.h"

/* Whether the session's sources are all ITM/DWT (no instruction flow). */
int prof_sampled_only(const struct session *s);
/* Decode and print the profile (functions of @sy, may be NULL). Returns
 * the exit status: 0, 1 (no samples), 2 (error, printed). */
int prof_sampled_run(struct session *s, const struct opts *o,
		     const struct etm_symbols *sy);

#endif
