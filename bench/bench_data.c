/* bench/bench_data.c - etm_bench_data: ETMv3 data trace on against off on
 * the same execution (doc/measurements/2026-12-07-dataspeed.md). One
 * program and execution of ETM_GEN_DATA (seed 21, A32 + T32 + exceptions,
 * about one transfer per four instructions) encoded under ETMCR[3:2] as
 * given (0x0c: address and value; 0x00: no data trace), periodic I-syncs,
 * decoded by etm_decoder in element mode without formatting.
 *
 *   etm_bench_data [INSNS [ETMCR [REPEATS]]]
 *
 * For instruction counts run it under callgrind with
 * --toggle-collect=bench_decode: the decode alone, not the generator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

struct bd_counts {
	unsigned long long elems, insns, data, errors;
};

/* Decode @buf (@n bytes) under @cfg over @img, counting into @c. Returns
 * what the last etm_decoder_next() returned (-etme_eos at the end). */
__attribute__((noinline)) int bench_decode(const struct etm_config *cfg,
					   const struct etm_image *img,
					   const uint8_t *buf, size_t n,
					   struct bd_counts *c)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	struct etm_item it;
	int r;

	if (!d || etm_decoder_add_source(d, cfg, img) < 0 ||
	    etm_decoder_push(d, buf, n) < 0) {
		etm_decoder_free(d);
		return -1;
	}
	etm_decoder_finish(d);
	while ((r = etm_decoder_next(d, &it, sizeof(it))) == 0) {
		if (it.kind != etm_item_elem)
			continue;
		c->elems++;
		if (it.elem.kind == etmk_range)
			c->insns += it.elem.ninsn;
		else if (it.elem.kind == etmk_data)
			c->data++;
		else if (it.elem.kind == etmk_error)
			c->errors++;
	}
	etm_decoder_free(d);
	return r;
}

/* The trace of @g's execution under @cfg into @e (NULL on failure). */
static struct etm_enc *bd_encode(const struct etm_config *cfg,
				 const struct etm_image *img,
				 struct etm_gen *g)
{
	struct etm_enc_opts eo;
	struct etm_enc *e;
	const struct etm_ev *ev;
	size_t nev, i;

	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = *cfg;
	eo.seed = 21;
	eo.isync_period = 4096;
	e = etm_enc_alloc(&eo, sizeof(eo), img);
	ev = etm_gen_events(g, &nev);
	for (i = 0; e && i < nev; i++)
		if (etm_enc_put(e, &ev[i]) < 0) {
			etm_enc_free(e);
			return NULL;
		}
	if (e)
		etm_enc_finish(e);
	return e;
}

int main(int argc, char **argv)
{
	uint32_t ninsn = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 300000;
	uint32_t etmcr = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0x0c;
	int reps = argc > 3 ? atoi(argv[3]) : 1, k, r = 0;
	struct etm_image *img = etm_image_alloc();
	struct bd_counts c = { 0 };
	struct etm_gen_opts go;
	struct etm_config cfg;
	struct etm_gen *g;
	struct etm_enc *e;
	const uint8_t *buf;
	size_t n;

	memset(&go, 0, sizeof(go));
	go.size = sizeof(go);
	go.seed = 21;
	go.proto = etm_proto_etmv3;
	go.flags = ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_EXC | ETM_GEN_DATA;
	go.ninsn = ninsn;
	g = etm_gen_alloc(&go, sizeof(go));
	if (!g || !img || etm_gen_add_to_image(g, img) < 0)
		return 1;
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.traceid = 0x10;
	cfg.etmidr = 0x410cf250;
	cfg.etmcr = etmcr;
	e = bd_encode(&cfg, img, g);
	if (!e)
		return 1;
	buf = etm_enc_data(e, &n);
	for (k = 0; k < reps && r == 0; k++)
		if (bench_decode(&cfg, img, buf, n, &c) != -etme_eos)
			r = 1;
	printf("etmcr 0x%x: %zu bytes, %llu elements, %llu instructions, "
	       "%llu transfers, %llu errors\n",
	       etmcr, n, c.elems, c.insns, c.data, c.errors);
	etm_enc_free(e);
	etm_gen_free(g);
	etm_image_free(img);
	return r;
}
