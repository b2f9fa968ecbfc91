/* listing/pktlist.c - packets as listing lines (listing/pktlist.h): text
 * with the packet's description (etm_pkt_describe()) or JSON lines
 * (etm_pkt_json_fields()), and where a compressed address cannot be
 * completed yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/listing.h>
#include <etmtrace/packet.h>

#include "listing/pktlist.h"

/* A compressed address before the first full one (I-sync or a 32-bit
 * branch address) of its source: its high bits are not known. */
static int addr_unknown(struct pktlist *c, const struct etm_packet *p)
{
	if (p->type == etmp_isync ||
	    ((p->type == etmp_branch || p->type == etmp_waypoint) &&
	     p->addr_bits >= 32))
		c->full[p->id & 0x7f] = 1;
	return (p->type == etmp_branch || p->type == etmp_waypoint) &&
	       !c->full[p->id & 0x7f];
}

/* The bytes column of the text listing is 36 characters: 12 bytes. */
#define PKT_BYTES_COL 36

/* The raw bytes of @p in hex (@spaced: "08 00 80", the text listing;
 * a run of unsynchronised bytes, whose count its line gives, only as many
 * as fill the column, then " ..."). */
static void put_hex_bytes(struct wbuf *w, const struct etm_packet *p, int spaced)
{
	static const char hx[] = "0123456789abcdef";
	char *q = wbuf_reserve(w, 3 * ETM_PKT_MAX_RAW + 8);
	size_t n = 0;
	unsigned i, shown = p->raw_len;

	if (spaced && p->type == etmp_notsync && 3u * shown - 1 > PKT_BYTES_COL)
		shown = (PKT_BYTES_COL - 4 + 1) / 3; /* 11 bytes and " ..." */
	for (i = 0; i < shown; i++) {
		if (spaced && i)
			q[n++] = ' ';
		q[n++] = hx[p->raw[i] >> 4];
		q[n++] = hx[p->raw[i] & 15];
	}
	if ((p->size > p->raw_len || shown < p->raw_len) && spaced) {
		memcpy(q + n, " ...", 4);
		n += 4;
	}
	wbuf_commit(w, n);
}

int pktlist_item(void *vctx, const struct etm_item *it)
{
	struct pktlist *c = vctx;
	char fields[1024];
	const struct etm_packet *p = &it->pkt;
	int unknown;

	if (it->kind == etm_item_elem && it->elem.kind == etmk_buffer_end) {
		/* a partial last frame: the end of the buffer, a note */
		if (c->jsonl)
			wbuf_printf(c->w, "{\"offset\":%llu,\"type\":\"BUFFER_END\"}\n",
				    (unsigned long long)it->elem.offset);
		else
			wbuf_printf(c->w, c->hexoff ? "0x%08llx  --  note: a partial frame cut by the end of the trace buffer\n" : "%10llu  --  note: a partial frame cut by the end of the trace buffer\n",
				    (unsigned long long)it->elem.offset);
		return 0;
	}
	if (it->kind == etm_item_elem) {
		/* deformatter errors arrive as error elements */
		c->errors++;
		if (c->jsonl)
			wbuf_printf(c->w, "{\"offset\":%llu,\"type\":\"FRAME_ERROR\",\"error\":\"%s\"}\n",
				    (unsigned long long)it->elem.offset,
				    etm_errname(it->elem.err));
		else
			wbuf_printf(c->w, c->hexoff ? "0x%08llx  --  frame error: %s\n" : "%10llu  --  frame error: %s\n",
				    (unsigned long long)it->elem.offset,
				    etm_errstr(it->elem.err));
		return 0;
	}
	if (p->type == etmp_error && p->err != etme_truncated)
		c->errors++; /* truncated: cut by the end of the data, a note */
	else if (p->type != etmp_notsync)
		c->packets++;
	unknown = addr_unknown(c, p);
	if (c->jsonl) {
		etm_pkt_json_fields(p, it->proto, fields, sizeof(fields));
		if (unknown)
			strncat(fields, ",\"addr_known\":false",
				sizeof(fields) - strlen(fields) - 1);
		wbuf_printf(c->w, "{\"offset\":%llu,\"id\":\"0x%02x\",\"bytes\":\"",
			    (unsigned long long)p->offset, p->id);
		put_hex_bytes(c->w, p, 0);
		wbuf_printf(c->w, "\",\"type\":\"%s\"%s%s}\n",
			    etm_pkt_type_name(p->type, it->proto),
			    fields[0] ? "," : "", fields);
		return 0;
	}
	etm_pkt_describe(p, it->proto, fields, sizeof(fields));
	if (unknown)
		snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
			 " (low %u address bits only: no full address yet)",
			 p->addr_bits);
	if (c->hexoff)
		wbuf_printf(c->w, "0x%08llx  0x%02x  ", (unsigned long long)p->offset,
			    p->id);
	else
		wbuf_printf(c->w, "%10llu  0x%02x  ", (unsigned long long)p->offset,
			    p->id);
	{
		size_t before = c->w->len;
		size_t used;

		put_hex_bytes(c->w, p, 1);
		used = c->w->len >= before ? c->w->len - before : 0;
		while (used++ < PKT_BYTES_COL)
			wbuf_char(c->w, ' ');
	}
	if (fields[0]) /* no trailing whitespace */
		wbuf_printf(c->w, " %-18s %s\n",
			    etm_pkt_type_name(p->type, it->proto), fields);
	else
		wbuf_printf(c->w, " %s\n", etm_pkt_type_name(p->type, it->proto));
	return 0;
}

struct etm_packet_listing {
	struct pktlist c;
	struct wsink sink;
	struct wbuf w;
};

int etm_packet_listing_alloc(struct etm_packet_listing **out,
			     const struct etm_packet_listing_opts *o)
{
	struct etm_packet_listing *l;

	if (!out || !o || o->size < sizeof(*o) || !o->write ||
	    (o->format != etm_listing_text && o->format != etm_listing_jsonl))
		return -etme_invalid;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -etme_nomem;
	l->sink.fn = o->write;
	l->sink.ctx = o->write_ctx;
	wbuf_init_sink(&l->w, &l->sink);
	l->c.w = &l->w;
	l->c.jsonl = o->format == etm_listing_jsonl;
	l->c.hexoff = o->offsets == 2;
	*out = l;
	return 0;
}

int etm_packet_listing_item(struct etm_packet_listing *l,
			    const struct etm_item *it)
{
	return pktlist_item(&l->c, it);
}

int etm_packet_listing_flush(struct etm_packet_listing *l)
{
	wbuf_flush(&l->w);
	return l->w.err ? -etme_io : 0;
}

void etm_packet_listing_counts(const struct etm_packet_listing *l,
			       uint64_t *packets, uint64_t *errors)
{
	if (packets)
		*packets = l->c.packets;
	if (errors)
		*errors = l->c.errors;
}

void etm_packet_listing_free(struct etm_packet_listing *l)
{
	free(l);
}
