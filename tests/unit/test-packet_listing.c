/* tests/unit/test-packet_listing.c - the public packet listing
 * (etm_packet_listing_*, etmtrace/listing.h) on hand-made items: its
 * arguments, the lines of a frame error and of a buffer-end note in text
 * (decimal and hex offsets) and JSON lines, the counts, the buffering
 * until etm_packet_listing_flush() and a failing write callback. The
 * expected lines are written by hand from the `etmtrace packets` format
 * (offset right-aligned in 10 columns, or 0x and 8 hex digits; "--" for
 * the trace ID of what is not a packet; etm_errstr()/etm_errname() of
 * etme_bad_frame: "corrupt formatter frame", "bad_frame"). */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/listing.h>

#include "etest.h"

static struct etest_sink k;

static struct etm_item elem_item(enum etm_elem_kind kind, uint64_t off)
{
	struct etm_item it;

	memset(&it, 0, sizeof(it));
	it.kind = etm_item_elem;
	it.elem.kind = kind;
	it.elem.offset = off;
	it.elem.err = etme_bad_frame;
	return it;
}

/* A frame error at 5 and a note at 7 listed as @f and @offsets say, into
 * k.buf. */
static void list_two(enum etm_listing_format f, int offsets,
		     uint64_t *packets, uint64_t *errors)
{
	struct etm_packet_listing_opts o = { .size = sizeof(o),
					     .format = f,
					     .offsets = offsets,
					     .write = etest_sink_write,
					     .write_ctx = &k };
	struct etm_packet_listing *l = NULL;
	struct etm_item a = elem_item(etmk_error, 5);
	struct etm_item b = elem_item(etmk_buffer_end, 7);

	memset(&k, 0, sizeof(k));
	ET_EQ(etm_packet_listing_alloc(&l, &o), 0);
	ET_EQ(etm_packet_listing_item(l, &a), 0);
	ET_EQ(etm_packet_listing_item(l, &b), 0);
	ET_EQ(k.len, 0); /* buffered until the flush */
	ET_EQ(etm_packet_listing_flush(l), 0);
	etm_packet_listing_counts(l, packets, errors);
	etm_packet_listing_free(l);
}

static void t_lines(void)
{
	uint64_t p = 9, e = 9;

	list_two(etm_listing_text, 0, &p, &e);
	ET_CHECK(!strcmp(k.buf,
			 "         5  --  frame error: corrupt formatter frame\n"
			 "         7  --  note: a partial frame cut by the end of "
			 "the trace buffer\n"));
	ET_EQ(p, 0);
	ET_EQ(e, 1); /* the note is not an error */
	list_two(etm_listing_text, 2, NULL, NULL);
	ET_CHECK(!strcmp(k.buf,
			 "0x00000005  --  frame error: corrupt formatter frame\n"
			 "0x00000007  --  note: a partial frame cut by the end of "
			 "the trace buffer\n"));
	list_two(etm_listing_jsonl, 0, NULL, NULL);
	ET_CHECK(!strcmp(k.buf,
			 "{\"offset\":5,\"type\":\"FRAME_ERROR\",\"error\":\"bad_frame\"}\n"
			 "{\"offset\":7,\"type\":\"BUFFER_END\"}\n"));
}

static void t_bad_args_and_write_error(void)
{
	struct etm_packet_listing_opts o = { .size = sizeof(o),
					     .write = etest_sink_write,
					     .write_ctx = &k };
	struct etm_packet_listing *l = NULL;
	struct etm_item a = elem_item(etmk_error, 5);

	o.size = 0;
	ET_EQ(etm_packet_listing_alloc(&l, &o), -etme_invalid);
	o.size = sizeof(o);
	o.format = etm_listing_canon; /* packets are text or JSON lines */
	ET_EQ(etm_packet_listing_alloc(&l, &o), -etme_invalid);
	o.format = etm_listing_text;
	o.write = NULL;
	ET_EQ(etm_packet_listing_alloc(&l, &o), -etme_invalid);
	ET_EQ(etm_packet_listing_alloc(NULL, &o), -etme_invalid);
	o.write = etest_sink_write;
	memset(&k, 0, sizeof(k));
	k.fail_at = 1;
	ET_EQ(etm_packet_listing_alloc(&l, &o), 0);
	ET_EQ(etm_packet_listing_item(l, &a), 0);
	ET_EQ(etm_packet_listing_flush(l), -etme_io);
	etm_packet_listing_free(l);
}

int main(void)
{
	ETEST(t_lines);
	ETEST(t_bad_args_and_write_error);
	return etest_end();
}
