/* tests/unit/test-listing_ctx.c - the public listing's per-process images
 * (etm_listing_opts.ctx_img, as a perf.data capture gives them through
 * etm_capture_ctx_images()): a range is listed from the image its Context
 * ID names, from its source's image when the callback gives none, and an
 * etm_listing_opts of the size before the field (older callers) lists
 * from the source's image. Two one-instruction images at 0x8000, told
 * apart by their opcode in the text listing: A holds mov r0,#0
 * (e3a00000), B add r0,r0,#1 (e2800001); Context ID 7 is process B. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/listing.h>

#include "etest.h"

static const uint8_t opa[4] = { 0x00, 0x00, 0xa0, 0xe3 };
static const uint8_t opb[4] = { 0x01, 0x00, 0x80, 0xe2 };
static struct etm_image *ia, *ib;
static char got[1024];
static size_t ngot;

static int collect(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (ngot + n < sizeof(got)) {
		memcpy(got + ngot, s, n);
		ngot += n;
		got[ngot] = 0;
	}
	return 0;
}

static const struct etm_image *by_ctx(void *ctx, uint32_t ctxid)
{
	(void)ctx;
	return ctxid == 7 ? ib : NULL;
}

/* The text listing of one instruction at 0x8000 in Context ID @ctxid. */
static const char *list(uint32_t ctxid, size_t size, int with_fn)
{
	static struct etm_config cfg;
	struct etm_listing_source src = { 0x10, &cfg, ia };
	struct etm_listing_opts o = { .size = size };
	struct etm_elem el = { .kind = etmk_range, .id = 0x10, .isa = etmi_a32, .start = 0x8000, .end = 0x8004, .ninsn = 1, .last_addr = 0x8000, .last_atom = 1, .last_exec = 1, .has_ctxid = 1, .ctxid = ctxid };
	struct etm_listing *l = NULL;

	etm_config_init(&cfg);
	o.format = etm_listing_text;
	o.src = &src;
	o.nsrc = 1;
	o.write = collect;
	if (with_fn) {
		o.ctx_img = by_ctx;
		o.ctx_img_arg = NULL;
	}
	ngot = 0;
	got[0] = 0;
	if (etm_listing_alloc(&l, &o) < 0)
		return "alloc failed";
	etm_listing_elems(l, &el, 1);
	etm_listing_flush(l);
	etm_listing_free(l);
	return got;
}

static void t_ctx_images(void)
{
	/* callers built before ctx_img (with or without the disassembler
	 * fields before it) list from the source's image; before those, the
	 * struct is too small */
	size_t old = offsetof(struct etm_listing_opts, ctx_img);
	size_t first = offsetof(struct etm_listing_opts, dis_open);

	ET_CHECK(strstr(list(7, sizeof(struct etm_listing_opts), 1), "e2800001") != NULL);
	ET_CHECK(strstr(list(9, sizeof(struct etm_listing_opts), 1), "e3a00000") != NULL);
	ET_CHECK(strstr(list(7, sizeof(struct etm_listing_opts), 0), "e3a00000") != NULL);
	ET_CHECK(strstr(list(7, old, 1), "e3a00000") != NULL);
	ET_CHECK(strstr(list(7, first, 1), "e3a00000") != NULL);
	ET_CHECK(strstr(list(7, first - 1, 1), "alloc failed") != NULL);
}

int main(void)
{
	ia = etm_image_alloc();
	ib = etm_image_alloc();
	if (!ia || !ib || etm_image_add_buffer(ia, etm_space_any, 0x8000, opa, 4) < 0 ||
	    etm_image_add_buffer(ib, etm_space_any, 0x8000, opb, 4) < 0)
		return 1;
	ETEST(t_ctx_images);
	etm_image_free(ia);
	etm_image_free(ib);
	return etest_end();
}
