/* decoder/decoder.c - the whole pipeline as one object: input bytes go
 * through the deformatter (formatted input) to per-trace-ID packet parsers
 * and flow decoders; packets and elements come out in input order. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#define ETM_DEC_MAX_SOURCES 128

struct dec_source {
	struct etm_config cfg;
	struct etm_etm3 *etm3;
	struct etm_ptm *ptm;
	struct etm_flow *flow;
	int finished;
};

struct etm_decoder {
	enum etm_input_format fmt;
	enum etm_decoder_mode mode;
	int want_packets;
	struct etm_dfmt *dfmt;
	struct dec_source *src[ETM_DEC_MAX_SOURCES]; /* indexed by trace ID */
	struct dec_source *raw;   /* the source of raw input */
	struct dec_source *cur;   /* source whose parser is being drained */
	/* raw input: the pushed buffer until it is handed to the parser */
	const uint8_t *raw_buf;
	size_t raw_len;
	uint64_t offset;          /* input offset of the next pushed byte */
	int finishing;            /* finish() called */
	unsigned fin_id;          /* next ID to finish */
};

static int src_push(struct dec_source *s, const uint8_t *buf, size_t n,
		    uint64_t off)
{
	if (s->etm3)
		return etm_etm3_push(s->etm3, buf, n, off);
	return etm_ptm_push(s->ptm, buf, n, off);
}

static int src_next(struct dec_source *s, struct etm_packet *pkt)
{
	if (s->etm3)
		return etm_etm3_next(s->etm3, pkt, sizeof(*pkt));
	return etm_ptm_next(s->ptm, pkt, sizeof(*pkt));
}

static int src_finish(struct dec_source *s)
{
	if (s->etm3)
		return etm_etm3_finish(s->etm3);
	return etm_ptm_finish(s->ptm);
}

static void src_free(struct dec_source *s)
{
	if (!s)
		return;
	etm_etm3_free(s->etm3);
	etm_ptm_free(s->ptm);
	etm_flow_free(s->flow);
	free(s);
}

struct etm_decoder *etm_decoder_alloc(enum etm_input_format fmt,
				      enum etm_decoder_mode mode)
{
	struct etm_decoder *d;

	if (fmt != etm_fmt_raw && fmt != etm_fmt_coresight && fmt != etm_fmt_tpiu)
		return NULL;
	if (mode != etm_dec_packets && mode != etm_dec_elements)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->fmt = fmt;
	d->mode = mode;
	d->want_packets = mode == etm_dec_packets;
	if (fmt != etm_fmt_raw) {
		d->dfmt = etm_dfmt_alloc(fmt, 0);
		if (!d->dfmt) {
			free(d);
			return NULL;
		}
	}
	return d;
}

void etm_decoder_free(struct etm_decoder *d)
{
	unsigned i;

	if (!d)
		return;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		src_free(d->src[i]);
	etm_dfmt_free(d->dfmt);
	free(d);
}

int etm_decoder_add_source(struct etm_decoder *d, const struct etm_config *cfg,
			   const struct etm_image *img)
{
	struct dec_source *s;
	unsigned id;

	if (!d || !cfg)
		return -etme_invalid;
	if (etm_config_check(cfg, NULL) < 0)
		return -etme_bad_config;
	id = etm_cfg_trace_id(cfg);
	if (d->src[id] || (d->fmt == etm_fmt_raw && d->raw))
		return -etme_invalid;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -etme_nomem;
	etm_config_from_user(&s->cfg, cfg, cfg->size);
	if (cfg->protocol == etm_proto_ptm)
		s->ptm = etm_ptm_alloc(&s->cfg);
	else
		s->etm3 = etm_etm3_alloc(&s->cfg);
	if (!s->ptm && !s->etm3)
		goto fail;
	if (d->mode == etm_dec_elements) {
		s->flow = etm_flow_alloc(&s->cfg, img);
		if (!s->flow)
			goto fail;
	}
	d->src[id] = s;
	if (d->fmt == etm_fmt_raw)
		d->raw = s;
	return 0;
fail:
	src_free(s);
	return -etme_nomem;
}

int etm_decoder_push(struct etm_decoder *d, const uint8_t *buf, size_t n)
{
	int err;

	if (!d || (!buf && n))
		return -etme_invalid;
	if (d->finishing)
		return -etme_invalid;
	if (d->fmt != etm_fmt_raw) {
		err = etm_dfmt_push(d->dfmt, buf, n);
		if (err < 0)
			return err;
		d->offset += n;
		return 0;
	}
	if (!d->raw)
		return -etme_invalid;
	if (d->raw_len)
		return -etme_busy;
	d->raw_buf = buf;
	d->raw_len = n;
	return 0;
}

int etm_decoder_finish(struct etm_decoder *d)
{
	if (!d)
		return -etme_invalid;
	if (!d->finishing && d->dfmt)
		etm_dfmt_finish(d->dfmt);
	d->finishing = 1;
	return 0;
}

void etm_decoder_set_packets(struct etm_decoder *d, int on)
{
	if (d && d->mode == etm_dec_elements)
		d->want_packets = on;
}

void etm_decoder_set_cache(struct etm_decoder *d, int on)
{
	unsigned i;

	if (!d)
		return;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		if (d->src[i] && d->src[i]->flow)
			etm_flow_set_cache(d->src[i]->flow, on);
}

static void item_proto(struct etm_item *it, const struct dec_source *s)
{
	it->proto = s->cfg.protocol;
}

/* Drain the current source: queued elements first, then its next packet.
 * Returns 0 with an item, -etme_again when the source needs input. */
static int drain_source(struct etm_decoder *d, struct dec_source *s,
			struct etm_item *it)
{
	int err;

	for (;;) {
		if (s->flow) {
			err = etm_flow_next(s->flow, &it->elem, sizeof(it->elem));
			if (err == 0) {
				it->is_elem = 1;
				item_proto(it, s);
				return 0;
			}
		}
		err = src_next(s, &it->pkt);
		if (err < 0)
			return err;
		if (s->flow) {
			err = etm_flow_put(s->flow, &it->pkt);
			if (err < 0)
				return err;
		}
		if (d->want_packets) {
			it->is_elem = 0;
			item_proto(it, s);
			return 0;
		}
	}
}

/* After finish: flush every source's parser, then its flow decoder. */
static int drain_finish(struct etm_decoder *d, struct etm_item *it)
{
	for (; d->fin_id < ETM_DEC_MAX_SOURCES; d->fin_id++) {
		struct dec_source *s = d->src[d->fin_id];

		if (!s)
			continue;
		if (s->finished == 0) {
			src_finish(s);
			s->finished = 1;
		}
		if (s->finished == 1) {
			if (drain_source(d, s, it) == 0)
				return 0;
			if (s->flow)
				etm_flow_finish(s->flow);
			s->finished = 2;
		}
		if (s->flow &&
		    etm_flow_next(s->flow, &it->elem, sizeof(it->elem)) == 0) {
			it->is_elem = 1;
			item_proto(it, s);
			return 0;
		}
	}
	return -etme_eos;
}

static void dfmt_error_item(struct etm_item *it, const struct etm_dfmt_item *x)
{
	memset(&it->elem, 0, sizeof(it->elem));
	it->is_elem = 1;
	it->proto = etm_proto_unknown;
	it->elem.kind = etmk_error;
	it->elem.offset = x->offset;
	it->elem.err = x->err;
}

int etm_decoder_next(struct etm_decoder *d, struct etm_item *it, size_t size)
{
	struct etm_dfmt_item x;
	int err;

	if (!d || !it || size < sizeof(*it))
		return -etme_invalid;
	for (;;) {
		if (d->cur) {
			err = drain_source(d, d->cur, it);
			if (err != -etme_again && err != -etme_eos)
				return err;
			d->cur = NULL;
		}
		if (d->fmt == etm_fmt_raw) {
			if (d->raw_len) {
				err = src_push(d->raw, d->raw_buf, d->raw_len,
					       d->offset);
				if (err < 0)
					return err;
				d->offset += d->raw_len;
				d->raw_len = 0;
				d->cur = d->raw;
				continue;
			}
			if (!d->finishing)
				return -etme_again;
			return drain_finish(d, it);
		}
		err = etm_dfmt_next(d->dfmt, &x, sizeof(x));
		if (err == -etme_eos)
			return drain_finish(d, it);
		if (err < 0)
			return err;
		if (x.kind == etm_dfmt_error) {
			dfmt_error_item(it, &x);
			return 0;
		}
		if (x.kind != etm_dfmt_data || x.run.id >= ETM_DEC_MAX_SOURCES ||
		    !d->src[x.run.id])
			continue;
		d->cur = d->src[x.run.id];
		err = src_push(d->cur, x.run.data, x.run.size, x.run.offset);
		if (err < 0)
			return err;
	}
}
