/* probe/diagset.h - configuration-mismatch diagnostics (etmtrace/diag.h)
 * of every source of a decode, by trace ID, fed item by item by the
 * listing formatter (listing/listing.h). The set itself is public
 * (etmtrace/diag.h: struct etm_diagset). */
#ifndef ETM_PROBE_DIAGSET_H
#define ETM_PROBE_DIAGSET_H

#include <etmtrace/diag.h>
#include <etmtrace/listing.h>

/* The public calls are in etmtrace/diag.h; the listing formatter's: */

/* Empty a segment (etm_diagset_alloc_segment()) for reuse. */
void diagset_reset(struct etm_diagset *seg);
void diagset_item(struct etm_diagset *w, const struct etm_item *it);
/* diagset_item() of an element. */
void diagset_elem(struct etm_diagset *w, const struct etm_elem *el);

#endif
