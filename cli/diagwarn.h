/* cli/diagwarn.h - `etmtrace decode` configuration-mismatch warnings: one
 * line per suspicious source of the diagnostics the listing formatter
 * gathered (output/diagset.h), with a better-fitting configuration when a
 * probe finds one. */
#ifndef ETM_CLI_DIAGWARN_H
#define ETM_CLI_DIAGWARN_H

#include "output/diagset.h"
#include "session.h"

/* Print the warnings of @w to stderr; returns how many were printed. */
int diagwarn_report(const struct diagset *w, const struct session *s);

#endif
