/* tests/fuzz/fuzz-flow_etm1.c - fuzz target for the ETMv1 decoder: the
 * input is a configuration (ETMCR, ETMCCR protocol number, latency) and
 * either a stream of sample records or, with option bit 7, a sample file
 * (etm_e1_read(): binary, text, OpenOCD dump or ETB image) whose records
 * are then decoded. Decoded over the fixed image whole with the block
 * cache, and again in chunks without it: every element checked (as the
 * other flow targets) and the two runs equal. */
#include <stdlib.h>

#include <etmtrace/etmv1.h>

#include "fuzz-flow.h"

static struct flow_sum e1_run(const struct etm_config *cfg,
			      const struct etm_image *img, const uint8_t *in,
			      size_t n, uint8_t sel, int cache)
{
	struct flow_sum s = { cache, FZ_HASH_INIT, 0, 0, NULL, FZ_HASH_INIT,
			      0, 0 };
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw,
						  etm_dec_elements);
	struct etm_item it;
	size_t pos = 0;
	unsigned k = 0;
	int rc, final = 0;

	FZ_ASSERT(d && etm_decoder_add_source(d, cfg, img) == 0);
	etm_decoder_set_cache(d, cache);
	for (;;) {
		if (pos < n) {
			size_t c = fz_chunk(sel, k++, n - pos);

			FZ_ASSERT(etm_decoder_push(d, in + pos, c) == 0);
			pos += c;
		} else if (!final) {
			FZ_ASSERT(etm_decoder_finish(d) == 0);
			final = 1;
		}
		while ((rc = etm_decoder_next(d, &it, sizeof(it))) == 0) {
			FZ_ASSERT(it.is_elem);
			if (s.check)
				elem_check(img, &it.elem, n);
			s.hash = elem_hash(s.hash, &it.elem);
			/* at most a few elements per sample */
			FZ_ASSERT(++s.nelem <= 4 * (n / ETM_E1_REC) + 8);
		}
		FZ_ASSERT(rc == (final ? -etme_eos : -etme_again));
		if (final)
			break;
	}
	etm_decoder_free(d);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct etm_image *img;
	struct fz_in in = { data, size };
	struct etm_e1_capture cap = { 0 };
	struct etm_config cfg;
	struct flow_sum a, b;
	const uint8_t *rec;
	size_t nrec;
	uint8_t opt, sel;

	if (!img)
		img = fz_image(); /* built once, kept for the process */
	FZ_ASSERT(img);
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv1;
	cfg.traceid = 0x10;
	cfg.etmcr = fz_u32(&in);
	cfg.etmccr = (uint32_t)(fz_u8(&in) & 7) << 28;
	opt = fz_u8(&in);
	sel = fz_u8(&in);
	if (opt & 1)
		cfg.flags |= ETM_CFG_E1_LATENCY1;
	rec = in.p;
	nrec = in.n;
	if (opt & 0x80) {
		/* a sample file: its header's configuration wins */
		cap.cfg = cfg;
		if (etm_e1_read(&cap, (enum etm_e1_format)(opt >> 4 & 7),
				in.p, in.n, NULL, 0) < 0)
			return 0;
		FZ_ASSERT(cap.n == 0 || cap.rec);
		cap.cfg.traceid = 0x10;
		cfg = cap.cfg;
		rec = cap.rec;
		nrec = cap.n * ETM_E1_REC;
	}
	if (etm_config_check(&cfg, NULL) == 0 &&
	    cfg.protocol == etm_proto_etmv1) {
		a = e1_run(&cfg, img, rec, nrec, 0, 1);
		b = e1_run(&cfg, img, rec, nrec, sel, 0);
		FZ_ASSERT(a.hash == b.hash && a.nelem == b.nelem);
	}
	etm_e1_capture_fini(&cap);
	return 0;
}

/* the ETMv3/PTM body of fuzz-flow.h is not used here */
static int (*const e1_flow_fuzz)(enum etm_protocol, const uint8_t *, size_t)
	__attribute__((unused)) = flow_fuzz;
