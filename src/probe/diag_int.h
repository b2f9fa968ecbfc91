/* probe/diag_int.h - the configuration-mismatch diagnostics
 * (etmtrace/diag.h) of several sources fed a batch of elements at once
 * (probe/diagset.c). Library-internal. */
#ifndef ETM_PROBE_DIAG_INT_H
#define ETM_PROBE_DIAG_INT_H

#include <etmtrace/diag.h>

/* etm_diag_elem(@byid[id & 0x7f], e) of each of the @n elements @els in
 * order (NULL entries: ignored), in one loop: a segment's pending lookups
 * of one value in a row are counted in a register. */
void etm_diag_elems_byid(struct etm_diag *const *byid,
			 const struct etm_elem *els, size_t n);

/* Segment @d, not fed yet, keeps its pending lookups packed (the parallel
 * decode of several interleaved sources: outcomes the branch predictor
 * cannot learn, no runs of one value); the counts, and what
 * etm_diag_append() makes of them, are the same. Returns 0 or
 * -etme_invalid (not a segment, or fed). */
int etm_diag_pack_segment(struct etm_diag *d);

/* etm_diag_elems_byid() where every object is a packed segment. */
void etm_diag_elems_packed(struct etm_diag *const *byid,
			   const struct etm_elem *els, size_t n);

/* Read the program from @img from now on (a perf.data file's next
 * process: the counts go on). */
void etm_diag_set_image(struct etm_diag *d, const struct etm_image *img);

/* The configuration @d was made for. */
const struct etm_config *etm_diag_cfg(const struct etm_diag *d);

#endif
