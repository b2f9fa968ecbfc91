/* listing/out_fmt.h - decoded elements as text, into a buffered writer
 * (listing/wbuf.h): the canonical instruction list, the listing lines of
 * the elements that are not ranges, JSON lines. Library-internal: the
 * CLI's `decode` builds its listings from these and adds the annotations
 * that need symbols (libdw) or a disassembler (capstone). */
#ifndef ETM_LISTING_OUT_FMT_H
#define ETM_LISTING_OUT_FMT_H

#include <etmtrace/config.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/listing.h>

#include "listing/wbuf.h"

/* The canonical list of the instructions of range @el, read from @img:
 * one "ADDRESS A|T" line each, the last " N" when it failed its condition
 * (the form ../shared/tools/canon.py compares), up to the first opcode
 * @img cannot give. Returns how many lines, or -1 (nothing written) if @el
 * is not a range. */
long etm_out_canon_range(struct wbuf *w, const struct etm_elem *el,
			 const struct etm_image *img);

/* The gap line before an etmk_piece element's line (no newline): what
 * lies between the piece and the one listed before (el->reason). */
void etm_out_text_piece_gap(struct wbuf *w, const struct etm_elem *el);

/* The listing line of @el (not a range), without its newline: annotations
 * of timestamps and cycle counts may follow. @cfg is @el's source's
 * configuration (exception names depend on the profile; NULL: A/R).
 * Returns 1, or 0 when @el has no line (a range, an invalid kind). */
int etm_out_text_event(struct wbuf *w, const struct etm_elem *el,
		       const struct etm_config *cfg);

/* Whether the listing shows a line for event @el (not a range): all but
 * a context element with nothing to show (a core without the Security
 * Extensions, no context ID, no VMID). @cfg as above. */
int etm_out_text_shown(const struct etm_elem *el, const struct etm_config *cfg);

/* The listing line, without its newline, of @n > 1 consecutive error or
 * nosync elements of one source with one reason: @el the first, @last_off
 * the last one's offset. */
void etm_out_text_run(struct wbuf *w, const struct etm_elem *el,
		      unsigned long long n, unsigned long long last_off);

/* The line of data transfer @el (etmk_data) in `decode --format data`:
 * "INSN_ADDR R|W|? DATA_ADDR|- VALUE|- SIZE" in hex ("-" where the trace
 * does not say), then " suppressed", " failed", " stacking" as flagged;
 * with its newline. */
void etm_out_data_line(struct wbuf *w, const struct etm_elem *el);

/* The JSON object of @el without its closing "}\n": callers may append
 * fields. @cfg as for etm_out_text_event(). */
void etm_out_jsonl_open(struct wbuf *w, const struct etm_elem *el,
			const struct etm_config *cfg);

/* The listing line (etm_out_text_event()) and the JSON members
 * (etm_out_jsonl_open()) of an ITM/DWT element (listing/out_itm.c); the
 * first returns 0 for another kind. */
int etm_out_text_itm(struct wbuf *w, const struct etm_elem *el);
void etm_out_jsonl_itm(struct wbuf *w, const struct etm_elem *el);

#endif
