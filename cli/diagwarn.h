/* cli/diagwarn.h - the verdict on a decode, shared by `etmtrace decode`,
 * `profile`, `coverage` and `fdo`: configuration-mismatch warnings (one
 * line per suspicious source of the diagnostics gathered on the way,
 * etmtrace/diag.h, with a better-fitting configuration when a probe
 * finds one), and the exit status rule with its one-line reason. */
#ifndef ETM_CLI_DIAGWARN_H
#define ETM_CLI_DIAGWARN_H

#include <etmtrace/diag.h>

#include "session.h"

/* Print the warnings of @w to stderr; returns how many were printed. */
int diagwarn_report(const struct etm_diagset *w, const struct session *s);

/* What the exit status rule needs of the elements a command consumed:
 * instructions, error elements, elements of any kind. The rule reads
 * only whether @insns and @elems are 0 (`profile` stops adding to @insns
 * once it is not), and the number of @errors. */
struct diagtally {
	unsigned long long insns, errors, elems;
};

/* Count @n elements into @t and feed them to @dw (may be NULL). */
void diagtally_elems(struct diagtally *t, struct etm_diagset *dw,
		     const struct etm_elem *els, size_t n);
/* Count @n elements into @t only (no diagnostics). */
void diagtally_count(struct diagtally *t, const struct etm_elem *els, size_t n);
void diagtally_add(struct diagtally *to, const struct diagtally *from);

/* The exit status rule (README "Exit status"): print the warnings of @dw,
 * then return 1 with a one-line reason on stderr when the input gave no
 * instructions, or trace was lost (error elements) or contradicted (a
 * warning); else 0. @what names the output that is then incomplete
 * ("listing", "profile", "coverage"). */
int diagwarn_verdict(const struct etm_diagset *dw, const struct session *s,
		     const struct diagtally *t, const char *what);

#endif
