/* decoder/decoder.c - the whole pipeline as one object: input bytes go
 * through the deformatter (formatted input: source/dfmt_bulk.h, whose
 * memory-aligned frames take its fast path) to per-trace-ID packet parsers
 * and flow decoders;
 * packets and elements come out in input order. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/zero.h"
#include "common/sbuf.h"
#include "decoder/clone.h"
#include "decoder/dec_int.h"
#include "flow/flow_pull.h"
#include "packet/pktdec.h"
#include "source/dfmt_bulk.h"

static void src_free(struct dec_source *s)
{
	if (!s)
		return;
	if (!s->flow)
		etm_pkt_free(s->pd);
	etm_flow_free(s->flow);
	if (s->kind)
		s->kind->free(s->kstate);
	free(s);
}

struct etm_decoder *etm_decoder_alloc(enum etm_input_format fmt,
				      enum etm_decoder_mode mode)
{
	struct etm_decoder *d;

	if (fmt != etm_fmt_raw && fmt != etm_fmt_coresight && fmt != etm_fmt_tpiu &&
	    fmt != etm_fmt_tpiu_nofsync)
		return NULL;
	if (mode != etm_dec_packets && mode != etm_dec_elements)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->fmt = fmt;
	d->mode = mode;
	d->want_packets = mode == etm_dec_packets;
	d->lose_id = ETM_DEC_MAX_SOURCES;
	d->realign = ETM_DEC_REALIGN_DEFAULT;
	if (fmt != etm_fmt_raw) {
		d->dfmt = etm_dfmt_alloc_bulk(fmt, 0);
		if (!d->dfmt) {
			free(d);
			return NULL;
		}
		etm_dec_set_judge(d);
	}
	return d;
}

int etm_decoder_set_frame_start(struct etm_decoder *d, uint64_t off)
{
	int r = d && d->fmt == etm_fmt_tpiu ? etm_dfmt_set_start(d->dfmt, off) :
					      -etme_invalid;

	if (!r) {
		d->frame_set = 1;
		d->frame_start = off;
	}
	return r;
}

void etm_dec_free(struct etm_decoder *d)
{
	unsigned i;

	if (!d)
		return;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		src_free(d->src[i]);
	etm_dfmt_free(d->dfmt);
	etm_realign_hold_free(&d->hold);
	etm_dec_left_free(d);
	free(d);
}

/* A source of another kind (dec_int.h: struct dec_kind): one element as
 * an item. */
static int kind_next(struct etm_decoder *d, struct etm_item *it)
{
	const struct etm_elem *el;
	int n = d->raw->kind->next_elems(d, &el, 1);

	if (n < 0)
		return n;
	it->elem = *el;
	it->kind = etm_item_elem;
	it->proto = d->raw->kind->proto;
	return 0;
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
	if (cfg->protocol == etm_proto_etmv1)
		return etm_dec_add_e1(d, s, img);
	if (d->mode == etm_dec_elements) {
		s->flow = etm_flow_alloc(&s->cfg, img);
		if (!s->flow)
			goto fail;
		s->pd = etm_flow_pkt(s->flow);
	} else {
		s->pd = etm_pkt_alloc(&s->cfg);
		if (!s->pd)
			goto fail;
	}
	d->src[id] = s;
	d->sel[id] = 1;
	d->img[id] = img;
	if (d->fmt == etm_fmt_raw)
		d->raw = s;
	etm_dec_ids_changed(d);
	return 0;
fail:
	src_free(s);
	return -etme_nomem;
}

int etm_dec_push(struct etm_decoder *d, const uint8_t *buf, size_t n)
{
	int err;

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
	if (d && d->mode == etm_dec_elements) {
		d->want_packets = on;
		etm_dec_set_judge(d); /* the hold is for elements only */
	}
}

int etm_decoder_set_ctx_images(struct etm_decoder *d, unsigned id,
			       etm_ctx_image_fn fn, void *ctx)
{
	if (!d || id >= ETM_DEC_MAX_SOURCES || !d->src[id] || !d->src[id]->flow)
		return -etme_invalid;
	etm_flow_set_ctx_images(d->src[id]->flow, fn, ctx);
	return 0;
}

void etm_decoder_set_cache(struct etm_decoder *d, int on)
{
	unsigned i;

	if (!d)
		return;
	d->cache_off = !on;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		if (d->src[i] && d->src[i]->flow)
			etm_flow_set_cache(d->src[i]->flow, on);
		if (d->src[i] && d->src[i]->kind)
			d->src[i]->kind->set_cache(d->src[i]->kstate, on);
	}
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

	const struct etm_elem *el;

	for (;;) {
		if (s->flow && (el = etm_flow_pop(s->flow))) {
			d->popped = el;
			it->elem = *el;
			it->kind = etm_item_elem;
			item_proto(it, s);
			return 0;
		}
		if (d->re_at)
			return -etme_again; /* realign first (realign.c) */
		if (s->flow && !d->want_packets) {
			/* the fast path: compact packets pulled by the flow
			 * decoder, until it has elements to deliver or the
			 * next packet needs the general path */
			err = etm_flow_drain(s->flow, &d->npackets);
			if (err < 0)
				return err;
			if (etm_flow_queued(s->flow))
				continue;
		}
		if (s->flow) {
			err = etm_flow_pull(s->flow, &it->pkt, &d->npackets);
		} else {
			err = etm_pkt_next(s->pd, &it->pkt, sizeof(it->pkt));
			d->npackets += err == 0;
		}
		if (err < 0)
			return err;
		if (it->pkt.type == etmp_error)
			etm_dec_bad_packet(d, &it->pkt);
		if (d->want_packets) {
			it->kind = etm_item_packet;
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
			etm_pkt_finish(s->pd);
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
			it->kind = etm_item_elem;
			item_proto(it, s);
			return 0;
		}
	}
	return -etme_eos;
}

static void dfmt_error_item(struct etm_item *it, const struct etm_dfmt_item *x)
{
	etm_zero(&it->elem, sizeof(it->elem));
	it->kind = etm_item_elem;
	it->proto = etm_proto_unknown;
	/* a partial frame at the end of the input: the end of the buffer */
	it->elem.kind = etm_flow_err_kind(x->err);
	it->elem.offset = x->offset;
	it->elem.err = x->err;
}

/* Staged data of one source from the deformatter's fast path, with its
 * offset map (segments, the one form of offsets the source layer hands
 * up; how the packet decoder reads them is its own business; a recording
 * also hands its per-byte table, made once for all its decoders). The
 * bytes stay in place until the source is drained. */
static int push_stage(struct etm_decoder *d, const struct etm_dfmt_stage *st)
{
	struct dec_source *s = d->src[st->id];
	int err;

	if (__builtin_expect(d->replay != NULL, 0))
		err = etm_pkt_push_map_rel(s->pd, st->data, st->n, st->seg,
					   st->nseg, d->replay_rel);
	else
		err = etm_pkt_push_map(s->pd, st->data, st->n, st->seg, st->nseg);
	if (err < 0)
		return err;
	d->cur = s;
	return 0;
}

/* etm_decoder_next() but for an element already queued (kept out of line:
 * the common case needs no stack frame). */
__attribute__((noinline)) int etm_dec_next_slow(struct etm_decoder *d,
						struct etm_item *it)
{
	struct etm_dfmt_stage st;
	struct etm_dfmt_item x;
	int err;

	for (;;) {
		if (d->cur) {
			err = drain_source(d, d->cur, it);
			if (err != -etme_again && err != -etme_eos)
				return err;
			d->cur = NULL;
		}
		if (d->lose_id < ETM_DEC_MAX_SOURCES) {
			/* after a realignment: every flow's elements */
			struct dec_source *s = d->src[d->lose_id++];

			if (s && s->flow && etm_flow_queued(s->flow))
				d->cur = s;
			continue;
		}
		if (d->re_at) {
			err = etm_dec_rewind(d);
			if (err < 0)
				return err;
			continue;
		}
		if (d->fmt == etm_fmt_raw) {
			if (d->raw_len) {
				err = etm_pkt_push(d->raw->pd, d->raw_buf,
						   d->raw_len, d->offset);
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
		err = d->replay ? etm_dec_replay_next(d, &x, &st) :
				  etm_dfmt_next_bulk(d->dfmt, d->sel, &x, &st);
		if (err == 1) {
			err = push_stage(d, &st);
			if (err < 0)
				return err;
			continue;
		}
		if (err == -etme_eos)
			return drain_finish(d, it);
		if (err < 0) {
			if (err != ETM_DFMT_ASK)
				return err;
			etm_dec_decide(d);
			continue;
		}
		if (x.kind == etm_dfmt_error) {
			if (x.err == etme_frame_align) {
				etm_dec_suspect(d, x.offset);
				etm_dec_retract(d, x.offset);
				etm_dec_lose_all(d, x.offset);
			}
			dfmt_error_item(it, &x);
			return 0;
		}
		if (x.kind != etm_dfmt_data || x.run.id >= ETM_DEC_MAX_SOURCES ||
		    !d->src[x.run.id])
			continue;
		d->cur = d->src[x.run.id];
		err = etm_pkt_push(d->cur->pd, x.run.data, x.run.size,
				   x.run.offset);
		if (err < 0)
			return err;
	}
}

static inline int pipe_pop(struct etm_decoder *d, struct etm_item *it)
{
	const struct etm_elem *el;

	if (!d->cur || !d->cur->flow || !(el = etm_flow_pop(d->cur->flow)))
		return 0;
	it->elem = *el;
	it->kind = etm_item_elem;
	item_proto(it, d->cur);
	return 1;
}

int etm_dec_pipe_pop(struct etm_decoder *d, struct etm_item *it)
{
	return pipe_pop(d, it);
}

int etm_dec_pipe_next(struct etm_decoder *d, struct etm_item *it)
{
	if (d->raw && d->raw->kind)
		return kind_next(d, it);
	/* the common case: an element already queued */
	if (pipe_pop(d, it))
		return 0;
	return etm_dec_next_slow(d, it);
}

int etm_decoder_serial(const struct etm_decoder *d)
{
	return (d->raw && d->raw->kind && !d->raw->kind->restart) || d->pc;
}

size_t etm_decoder_cut_find(const struct etm_decoder *d, const uint8_t *buf,
			    size_t n)
{
	return d->raw->kind->cut_find(buf, n);
}

unsigned etm_decoder_cut_align(const struct etm_decoder *d)
{
	return d->raw && d->raw->kind && d->raw->kind->cut_find ?
		       d->raw->kind->cut_align :
		       0;
}

int etm_decoder_elems_ok(const struct etm_decoder *d)
{
	return d->mode == etm_dec_elements && !d->want_packets;
}

int etm_dec_pipe_next_elems(struct etm_decoder *d, const struct etm_elem **els,
			    size_t max)
{
	struct dec_source *s;
	int err;

	if (d->raw && d->raw->kind)
		return d->raw->kind->next_elems(d, els, max);
	s = d->cur;
	if (s && s->flow && !d->re_at) {
		/* the queued elements in place, the fast path run first
		 * when there are none */
		err = etm_flow_next_batch(s->flow, &d->npackets, els, max);
		if (err)
			return err;
	}
	/* everything else (general packets, input, deformatter, end of
	 * input) as etm_decoder_next() does it: one element; one popped
	 * from the current source's queue comes with what that queued after
	 * it, in place (the next call would give those first) */
	d->popped = NULL;
	err = etm_dec_next_slow(d, &d->xit);
	if (err < 0)
		return err;
	s = d->cur;
	if (d->popped && s && s->flow && !d->re_at) {
		err = etm_flow_next_batch_from(s->flow, d->popped, els, max);
		if (err)
			return err;
	}
	*els = &d->xit.elem;
	return 1;
}

struct etm_decoder *etm_decoder_clone(const struct etm_decoder *d,
				      uint64_t base)
{
	struct etm_decoder *c;
	unsigned i;

	c = etm_decoder_alloc(d->fmt, d->mode);
	if (!c)
		return NULL;
	if (c->dfmt) {
		etm_dfmt_free(c->dfmt);
		c->dfmt = etm_dfmt_alloc_bulk(d->fmt, base);
		if (!c->dfmt)
			goto fail;
		if (d->frame_set && base <= d->frame_start)
			etm_decoder_set_frame_start(c, d->frame_start);
	}
	c->offset = base;
	c->want_packets = d->want_packets;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		if (d->src[i] &&
		    etm_decoder_add_source(c, &d->src[i]->cfg, d->img[i]) < 0)
			goto fail;
	memcpy(c->noted, d->noted, sizeof(c->noted));
	c->noted_any = d->noted_any;
	c->no_realign = d->no_realign;
	c->realign = d->realign;
	etm_dec_ids_changed(c);
	etm_dec_set_judge(c);
	if (etm_dec_left_clone(c, d) < 0)
		goto fail;
	if (d->cache_off)
		etm_decoder_set_cache(c, 0);
	if (c->raw && c->raw->kind && c->raw->kind->restart && base)
		c->raw->kind->restart(c->raw->kstate, base);
	return c;
fail:
	etm_dec_free(c);
	return NULL;
}

void etm_decoder_save(const struct etm_decoder *d, struct etm_sbuf *s)
{
	unsigned i;

	etm_sbuf_u8(s, (unsigned)d->finishing);
	etm_sbuf_u8(s, d->cur || d->hold_cur);
	etm_sbuf_u64(s, d->raw_len);
	if (d->dfmt)
		etm_dfmt_save(d->dfmt, s);
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		const struct dec_source *src = d->src[i];

		if (!src)
			continue;
		etm_sbuf_u8(s, i);
		etm_sbuf_u8(s, (unsigned)src->finished);
		if (src->kind) {
			if (src->kind->save)
				src->kind->save(src->kstate, s);
			continue;
		}
		etm_pkt_save(src->pd, s);
		if (src->flow)
			etm_flow_save(src->flow, s);
	}
	etm_sbuf_u8(s, (unsigned)d->hold_on);
	etm_realign_hold_save(&d->hold, d->hold_on, s);
}

uint64_t etm_decoder_packet_count(const struct etm_decoder *d)
{
	return d ? d->npackets : 0;
}

void etm_decoder_set_packet_count(struct etm_decoder *d, uint64_t n)
{
	d->npackets = n;
}

enum etm_input_format etm_decoder_format(const struct etm_decoder *d)
{
	return d->fmt;
}

int etm_decoder_frames_fast(const struct etm_decoder *d)
{
	if (d->fmt != etm_fmt_coresight)
		return 1;
	/* replaying a recording: its frames are not known here */
	return d->dfmt && !d->replay && etm_dfmt_stayed_fast(d->dfmt);
}

void etm_decoder_restart(struct etm_decoder *d, uint64_t base)
{
	unsigned i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		struct dec_source *s = d->src[i];

		if (!s)
			continue;
		s->finished = 0;
		if (s->kind) {
			if (s->kind->restart)
				s->kind->restart(s->kstate, base);
			continue;
		}
		etm_pkt_reset(s->pd);
		etm_flow_reset(s->flow);
	}
	if (d->dfmt)
		etm_dfmt_restart(d->dfmt, base);
	d->cur = d->hold_cur = NULL;
	d->raw_buf = NULL;
	d->raw_len = 0;
	d->re_at = 0;
	d->lose_id = ETM_DEC_MAX_SOURCES;
	etm_realign_hold_clear(&d->hold);
	etm_dec_set_judge(d);
	d->offset = base;
	d->finishing = 0;
	d->fin_id = 0;
	d->npackets = 0;
}
