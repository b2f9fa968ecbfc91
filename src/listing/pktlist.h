/* listing/pktlist.h - packets as listing lines (`etmtrace packets`): input
 * offset, trace ID, raw bytes, type and decoded fields, as text or JSON
 * lines, into a buffered writer, with the counts the command's verdict
 * needs. Library-internal. */
#ifndef ETM_LISTING_PKTLIST_H
#define ETM_LISTING_PKTLIST_H

#include <etmtrace/decoder.h>

#include "listing/wbuf.h"

struct pktlist {
	struct wbuf *w;
	int jsonl;
	int hexoff; /* text: input offsets in hex (--offsets hex) */
	unsigned long errors;
	unsigned long packets;
	uint8_t full[128]; /* a full address was seen, by trace ID */
};

/* List one item of a decoder in packet mode (@ctx: a struct pktlist):
 * a packet, or a deformatter error element. Returns 0. */
int pktlist_item(void *ctx, const struct etm_item *it);

#endif
