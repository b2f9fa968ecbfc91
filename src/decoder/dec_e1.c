/* decoder/dec_e1.c - ETMv1 in the pipeline: a source of its own kind
 * (decoder/dec_int.h, struct dec_kind). There is no packet layer: the raw
 * input is sample records (etmtrace/etmv1.h) that one object, etm_e1,
 * turns into elements; element mode, raw input, one source. */
#include <stdlib.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "decoder/dec_int.h"
#include "flow/etm1_run.h"

/* The pushed records go to the ETMv1 decoder. */
static int e1_next_elems(struct etm_decoder *d, const struct etm_elem **els,
			 size_t max)
{
	struct etm_e1 *e = d->raw->kstate;
	int n;

	for (;;) {
		n = etm_e1_next_elems(e, els, max);
		if (n != -etme_again)
			return n;
		if (d->raw_len) {
			n = etm_e1_push(e, d->raw_buf, d->raw_len);
			if (n < 0)
				return n;
			d->offset += d->raw_len;
			d->raw_len = 0;
			continue;
		}
		if (!d->finishing)
			return -etme_again;
		etm_e1_finish(e);
	}
}

static void e1_set_cache(void *kstate, int on)
{
	etm_e1_set_cache(kstate, on);
}

static void e1_free(void *kstate)
{
	etm_e1_free(kstate);
}

/* Cut decode (flow/etm1_run.h): the input offset of record k is 4k. */
static void e1_restart(void *kstate, uint64_t base)
{
	etm_e1_restart(kstate, base / ETM_E1_REC);
}

static void e1_save(const void *kstate, struct etm_sbuf *s)
{
	etm_e1_save(kstate, s);
}

static const struct dec_kind e1_kind = {
	.proto = etm_proto_etmv1,
	.next_elems = e1_next_elems,
	.set_cache = e1_set_cache,
	.free = e1_free,
	.cut_find = etm_e1_cut_find,
	.cut_align = ETM_E1_REC,
	.restart = e1_restart,
	.save = e1_save,
};

int etm_dec_add_e1(struct etm_decoder *d, struct dec_source *s,
		   const struct etm_image *img)
{
	unsigned id = etm_cfg_trace_id(&s->cfg);
	struct etm_e1 *e;

	if (d->fmt != etm_fmt_raw || d->mode != etm_dec_elements) {
		free(s);
		return -etme_bad_config;
	}
	e = etm_e1_alloc(&s->cfg, img);
	if (!e) {
		free(s);
		return -etme_nomem;
	}
	s->kind = &e1_kind;
	s->kstate = e;
	d->src[id] = s;
	d->sel[id] = 1;
	d->img[id] = img;
	d->raw = s;
	return 0;
}
