/* tests/unit/etest_elems.h - the elements a decoder gives for a byte
 * stream of one source over a small code buffer, for the tests that
 * compare the flow decoder's two paths (header only). */
#ifndef ETM_TESTS_ETEST_ELEMS_H
#define ETM_TESTS_ETEST_ELEMS_H

#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "etest.h"

#define ETEST_MAXEL 64

/* The elements of one decode, the first ETEST_MAXEL kept. */
struct etest_run {
	struct etm_elem el[ETEST_MAXEL];
	int n;
};

/* Decode raw @b[0..n) of the source @cfg over @code[0..ncode) at 0x1000,
 * pushed whole, with packet items if @packets (the flow decoder's general
 * path) or without (its fast path); every element into @r. */
static inline void etest_decode_elems(const struct etm_config *cfg, const uint8_t *code,
				      size_t ncode, const uint8_t *b, size_t n, int packets,
				      struct etest_run *r)
{
	struct etm_image *img = etm_image_alloc();
	struct etm_decoder *d;
	struct etm_item it;
	int rc;

	memset(r, 0, sizeof(*r));
	ET_CHECK(img && etm_image_add_buffer(img, etm_space_any, 0x1000, code, ncode) == 0);
	d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	ET_CHECK(d != NULL);
	ET_EQ(etm_decoder_add_source(d, cfg, img), 0);
	etm_decoder_set_packets(d, packets);
	ET_EQ(etm_decoder_push(d, b, n), 0);
	ET_EQ(etm_decoder_finish(d), 0);
	while ((rc = etm_decoder_next(d, &it, sizeof(it))) == 0) {
		if (it.kind == etm_item_elem && r->n < ETEST_MAXEL)
			r->el[r->n++] = it.elem;
	}
	ET_EQ(rc, -etme_eos);
	etm_decoder_free(d);
	etm_image_free(img);
}

#endif
