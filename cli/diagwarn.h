/* cli/diagwarn.h - `etmtrace decode` configuration-mismatch warnings: feeds
 * every item to per-source diagnostics and prints one line per suspicious
 * source, with a better-fitting configuration when a probe finds one. */
#ifndef ETM_CLI_DIAGWARN_H
#define ETM_CLI_DIAGWARN_H

#include <etmtrace/diag.h>

#include "session.h"

struct diagwarn;

/* Diagnostics for every source of @s; NULL on no memory (then the other
 * calls do nothing). */
struct diagwarn *diagwarn_open(const struct session *s);
void diagwarn_item(struct diagwarn *w, const struct etm_item *it);
/* diagwarn_item() of an element. */
void diagwarn_elem(struct diagwarn *w, const struct etm_elem *el);
/* Parallel decode: diagnostics of a piece of the output whose preceding
 * items were not seen, added to the whole with diagwarn_append() in input
 * order; diagwarn_reset() empties one for reuse. */
struct diagwarn *diagwarn_open_segment(const struct session *s);
void diagwarn_append(struct diagwarn *w, const struct diagwarn *seg);
void diagwarn_reset(struct diagwarn *seg);
/* Print the warnings to stderr; returns how many were printed. */
int diagwarn_report(struct diagwarn *w, const struct session *s);
void diagwarn_close(struct diagwarn *w);
/* The symptom counts of every source added up into *@sum. */
void diagwarn_sum(const struct diagwarn *w, struct etm_diag_counts *sum);

#endif
