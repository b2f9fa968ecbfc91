/* probe/diagset.h - configuration-mismatch diagnostics (etmtrace/diag.h)
 * of every source of a decode, by trace ID, fed item by item by the
 * listing formatter (listing/listing.h). Library-internal: the CLI's decode
 * driver reports from it (cli/diagwarn.c). */
#ifndef ETM_PROBE_DIAGSET_H
#define ETM_PROBE_DIAGSET_H

#include <etmtrace/diag.h>
#include <etmtrace/listing.h>

struct diagset;

/* Diagnostics for the @n sources @src; NULL on no memory (then the other
 * calls do nothing). The last of equal IDs wins. */
struct diagset *diagset_open(const struct etm_listing_source *src, int n);
/* Parallel decode: diagnostics of a piece of the output whose preceding
 * items were not seen, added to the whole with diagset_append() in input
 * order; diagset_reset() empties one for reuse. */
struct diagset *diagset_open_segment(const struct etm_listing_source *src, int n);
void diagset_append(struct diagset *w, const struct diagset *seg);
void diagset_reset(struct diagset *seg);
void diagset_item(struct diagset *w, const struct etm_item *it);
/* diagset_item() of an element. */
void diagset_elem(struct diagset *w, const struct etm_elem *el);
/* diagset_elem() of @n elements in order. */
void diagset_elems(struct diagset *w, const struct etm_elem *els, size_t n);
/* The diagnostics of trace ID @id, or NULL. */
struct etm_diag *diagset_get(const struct diagset *w, unsigned id);
void diagset_close(struct diagset *w);
/* The images of the @n sources @src from now on (a perf.data file's
 * buffers hold the trace of different processes). */
void diagset_images(struct diagset *w, const struct etm_listing_source *src,
		    int n);
/* The symptom counts of every source added up into *@sum. */
void diagset_sum(const struct diagset *w, struct etm_diag_counts *sum);

#endif
