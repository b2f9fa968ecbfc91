/* tests/fuzz/fuzz-itm.c - fuzz target for the ITM/DWT decoder: the packet
 * decoder under the invariants of fuzz-pkt.h (every packet within the
 * input, descriptions in snprintf style, the same packets however the
 * input is chunked), then the elements of the pipeline (raw input, one
 * ITM source): in input order, ITM/DWT kinds or errors only, the same in
 * one push and in the selector's chunks. */
#include "fuzz-pkt.h"

#include <etmtrace/decoder.h>

static const struct fz_parser parser = FZ_PKT_PARSER(etm_proto_itm);

static uint64_t elem_hash(uint64_t h, const struct etm_elem *e)
{
#define H(f) (h = fz_mix(h, (uint64_t)e->f))
	H(offset);
	H(kind);
	H(id);
	H(err);
	H(addr);
	H(exc_num);
	H(timestamp);
	H(itm_value);
	H(itm_chan);
	H(itm_size);
	H(itm_fn);
	H(itm_flags);
	H(itm_tc);
#undef H
	return h;
}

static uint64_t elem_run(const uint8_t *in, size_t n, uint8_t sel,
			 uint8_t id)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	struct etm_config c;
	struct etm_item it;
	uint64_t h = FZ_HASH_INIT, last = 0;
	size_t pos = 0, nel = 0;
	unsigned k = 0;
	int fin = 0;

	FZ_ASSERT(d);
	etm_config_init(&c);
	c.protocol = etm_proto_itm;
	c.traceid = id;
	FZ_ASSERT(etm_decoder_add_source(d, &c, NULL) == 0);
	while (!fin) {
		size_t ch = pos < n ? fz_chunk(sel, k++, n - pos) : 0;

		if (ch)
			FZ_ASSERT(etm_decoder_push(d, in + pos, ch) == 0);
		pos += ch;
		if (pos >= n) {
			etm_decoder_finish(d);
			fin = 1;
		}
		while (etm_decoder_next(d, &it, sizeof(it)) == 0) {
			FZ_ASSERT(it.kind == etm_item_elem);
			FZ_ASSERT(it.elem.offset >= last && it.elem.offset <= n);
			FZ_ASSERT((it.elem.kind >= etmk_itm_sw && it.elem.kind <= etmk_dwt_counter) ||
				  it.elem.kind == etmk_error ||
				  it.elem.kind == etmk_buffer_end);
			FZ_ASSERT(it.elem.id == id);
			last = it.elem.offset;
			h = elem_hash(h, &it.elem);
			FZ_ASSERT(++nel <= n + 2);
		}
	}
	etm_decoder_free(d);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct etm_config cfg;
	uint8_t sel;

	pkt_fuzz(&parser, data, size);
	fz_config(&in, &cfg, etm_proto_itm);
	sel = fz_u8(&in);
	FZ_ASSERT(elem_run(in.p, in.n, 0, (uint8_t)cfg.traceid) ==
		  elem_run(in.p, in.n, sel, (uint8_t)cfg.traceid));
	return 0;
}
