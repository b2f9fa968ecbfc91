/* tests/unit/test-out_fmt.c - the element formatters of src/listing/
 * (out_fmt.h) into a memory-mode writer, against lines written out by
 * hand from the element fields (the formats doc/design.md and the README
 * describe; the canonical form is tests/data/tools/canon.py's). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>

#include "etest.h"
#include "etest_wbuf.h"
#include "listing/out_fmt.h"

static struct wbuf w; /* large: static */
static char got[4096];

/* The writer's output so far as a string in got[]. */
static const char *text(void)
{
	return etest_wbuf_text(&w, got, sizeof(got));
}

static int init(void)
{
	return wbuf_init_mem(&w, NULL);
}

/* A32 at 0x8000: mov r0,#0; add r0,r0,#1; cmp r0,#2; bne 0x8004. */
static const uint8_t prog[] = {
	0x00, 0x00, 0xa0, 0xe3, 0x01, 0x00, 0x80, 0xe2,
	0x02, 0x00, 0x50, 0xe3, 0xfc, 0xff, 0xff, 0x1a
};

static void canon_range_last_n(void)
{
	struct etm_image *img = etm_image_alloc();
	struct etm_elem el = { .kind = etmk_range, .isa = etmi_a32, .start = 0x8000, .end = 0x8010, .ninsn = 4, .last_addr = 0x800c, .last_atom = 1 };

	ET_CHECK(img && init() == 0);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x8000, prog, sizeof(prog)), 0);
	/* four instructions; the last (bne) not executed: " N" */
	ET_EQ(etm_out_canon_range(&w, &el, img), 4);
	ET_CHECK(!strcmp(text(), "00008000 A\n00008004 A\n00008008 A\n0000800C A N\n"));
	el.last_exec = 1;
	ET_EQ(etm_out_canon_range(&w, &el, img), 4);
	ET_CHECK(!strcmp(text(), "00008000 A\n00008004 A\n00008008 A\n0000800C A\n"));
	/* not a range: nothing */
	el.kind = etmk_trace_on;
	ET_EQ(etm_out_canon_range(&w, &el, img), -1);
	ET_CHECK(!strcmp(text(), ""));
	wbuf_fini(&w);
	etm_image_free(img);
}

static void text_event_lines(void)
{
	struct etm_elem on = { .kind = etmk_trace_on, .reason = etm_on_enable, .isync_reason = 1, .addr = 0x8000 };
	struct etm_elem exc = { .kind = etmk_exception, .exc_num = 10, .addr = 0xffff0008, .has_ret = 1, .ret_addr = 0x8010 };
	struct etm_elem err = { .kind = etmk_error, .offset = 42, .err = etme_bad_packet };
	struct etm_elem ctx = { .kind = etmk_context, .ns = 1, .has_ctxid = 1, .ctxid = 0x1234 };
	struct etm_elem rng = { .kind = etmk_range };

	ET_CHECK(init() == 0);
	ET_EQ(etm_out_text_event(&w, &on, NULL), 1);
	ET_CHECK(!strcmp(text(), "-- trace on (trace enabled, I-sync: trace enabled) at 0x00008000"));
	/* exception 10 of an A/R core is SVC (shared/docs/ptm.md §6.2) */
	ET_EQ(etm_out_text_event(&w, &exc, NULL), 1);
	ET_CHECK(!strcmp(text(), "-- exception SVC (10) -> 0xffff0008, return 0x00008010"));
	ET_EQ(etm_out_text_event(&w, &err, NULL), 1);
	ET_CHECK(!strcmp(text(), "-- error at offset 42: malformed packet"));
	ET_EQ(etm_out_text_event(&w, &ctx, NULL), 1);
	ET_CHECK(!strcmp(text(), "-- context NS ctxid=0x00001234"));
	/* ranges are the caller's (they need the image and annotations) */
	ET_EQ(etm_out_text_event(&w, &rng, NULL), 0);
	ET_CHECK(!strcmp(text(), ""));
	etm_out_text_run(&w, &err, 3, 57);
	ET_CHECK(!strcmp(text(), "-- error at offsets 42-57: malformed packet (3 times)"));
	wbuf_fini(&w);
}

static void jsonl_open_fields(void)
{
	struct etm_elem exc = { .kind = etmk_exception, .id = 0x13, .offset = 7, .exc_num = 10, .addr = 0x8, .exc_cancel = 1 };
	struct etm_elem err = { .kind = etmk_error, .id = 0x10, .offset = 3, .err = etme_bad_packet };

	ET_CHECK(init() == 0);
	etm_out_jsonl_open(&w, &exc, NULL);
	ET_CHECK(!strcmp(text(), "{\"offset\":7,\"id\":\"0x13\",\"kind\":\"exception\","
				 "\"exception\":10,\"name\":\"SVC\",\"addr\":\"0x00000008\","
				 "\"cancel\":true"));
	etm_out_jsonl_open(&w, &err, NULL);
	ET_CHECK(!strcmp(text(), "{\"offset\":3,\"id\":\"0x10\",\"kind\":\"error\","
				 "\"error\":\"bad_packet\""));
	wbuf_fini(&w);
}

int main(void)
{
	ETEST(canon_range_last_n);
	ETEST(text_event_lines);
	ETEST(jsonl_open_fields);
	return etest_end();
}
