/* decoder/decoder.c - the whole pipeline as one object: input bytes go
 * through the deformatter (formatted input; memory-aligned frames take the
 * fast path of frames.c) to per-trace-ID packet parsers and flow decoders;
 * packets and elements come out in input order. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/zero.h"
#include "common/sbuf.h"
#include "decoder/decoder_int.h"
#include "decoder/frames.h"
#include "flow/flow_int.h"
#include "packet/pktbuf.h"

#define ETM_DEC_MAX_SOURCES 128

struct dec_source {
	struct etm_config cfg;
	struct etm_etm3 *etm3;
	struct etm_ptm *ptm;
	struct etm_flow *flow;
	struct etm_pktp *core; /* the parser's shared core (fast path) */
	int finished;
	struct etm_e1 *e1; /* ETMv1: samples to elements in one object */
};

struct etm_decoder {
	enum etm_input_format fmt;
	enum etm_decoder_mode mode;
	int want_packets;
	struct etm_dfmt *dfmt;                       /* TPIU, or frames after an FSYNC */
	struct etm_frames *fr;                       /* CoreSight frames fast path (dfmt NULL) */
	uint8_t sel[ETM_DEC_MAX_SOURCES];            /* IDs with a source */
	uint8_t noted[ETM_DEC_MAX_SOURCES];          /* etm_decoder_note_id() */
	int noted_any;                               /* the sources and noted are all the IDs */
	int no_realign;                              /* etm_decoder_set_realign(d, 0) */
	struct dec_source *src[ETM_DEC_MAX_SOURCES]; /* indexed by trace ID */
	struct dec_source *raw;                      /* the source of raw input */
	struct dec_source *cur;                      /* source whose parser is being drained */
	/* raw input: the pushed buffer until it is handed to the parser */
	const uint8_t *raw_buf;
	size_t raw_len;
	uint64_t offset;   /* input offset of the next pushed byte */
	int finishing;     /* finish() called */
	unsigned fin_id;   /* next ID to finish */
	int cache_off;     /* set_cache(0) was called */
	uint64_t npackets; /* packets parsed */
	/* sources in trace-ID order, for clone/save */
	const struct etm_image *img[ETM_DEC_MAX_SOURCES];
	/* etm_decoder_next_elems(): an item that did not come from a flow
	 * queue (e.g. an error of the deformatter) is handed out from here */
	struct etm_item xit;
	/* Frame realignment (CoreSight): a source's packets did not parse,
	 * input offset re_at after the bad packet (0: none); re_lo: the
	 * frame end of the last data pushed to another ID (the frames fast
	 * path cannot go back before it); tail: the end of the last input */
	uint64_t re_at, re_lo, push_end;
	int re_id, push_id;
	uint8_t tail[512];
	size_t ntail;
	uint64_t tail_off;
	unsigned lose_id;   /* next flow to drain after a realignment */
	uint64_t dfmt_from; /* input offset the deformatter took over at */
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

/* The parser aligns compressed branch addresses with the ISA the trace
 * last stated (I-sync, full branch address, exception AltISA): the flow
 * decoder's walked ISA is never fed back; it checks it instead. */

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
	etm_e1_free(s->e1);
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
	d->push_id = -1;
	if (fmt == etm_fmt_coresight) {
		d->fr = calloc(1, sizeof(*d->fr));
		if (!d->fr) {
			free(d);
			return NULL;
		}
		/* every ID may be in the input until told otherwise */
		memset(d->fr->known, 1, 0x70);
		etm_frames_init(d->fr);
	} else if (fmt != etm_fmt_raw) {
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
	free(d->fr);
	free(d);
}

/* ETMv1: raw sample records only, decoded to elements by one object
 * (etmtrace/etmv1.h); there are no packets. */
static int e1_add_source(struct etm_decoder *d, struct dec_source *s,
			 const struct etm_image *img)
{
	unsigned id = etm_cfg_trace_id(&s->cfg);

	if (d->fmt != etm_fmt_raw || d->mode != etm_dec_elements) {
		free(s);
		return -etme_bad_config;
	}
	s->e1 = etm_e1_alloc(&s->cfg, img);
	if (!s->e1) {
		free(s);
		return -etme_nomem;
	}
	d->src[id] = s;
	d->sel[id] = 1;
	d->img[id] = img;
	d->raw = s;
	return 0;
}

/* ETMv1 input: the pushed records go to the ETMv1 decoder. */
static int e1_next_elems(struct etm_decoder *d, const struct etm_elem **els,
			 size_t max)
{
	struct etm_e1 *e = d->raw->e1;
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

static int e1_next(struct etm_decoder *d, struct etm_item *it)
{
	const struct etm_elem *el;
	int n = e1_next_elems(d, &el, 1);

	if (n < 0)
		return n;
	it->elem = *el;
	it->is_elem = 1;
	it->proto = etm_proto_etmv1;
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
		return e1_add_source(d, s, img);
	if (cfg->protocol == etm_proto_ptm)
		s->ptm = etm_ptm_alloc(&s->cfg);
	else
		s->etm3 = etm_etm3_alloc(&s->cfg);
	if (!s->ptm && !s->etm3)
		goto fail;
	s->core = s->etm3 ? etm_etm3_core(s->etm3) : etm_ptm_core(s->ptm);
	if (d->mode == etm_dec_elements) {
		s->flow = etm_flow_alloc(&s->cfg, img);
		if (!s->flow)
			goto fail;
	}
	d->src[id] = s;
	d->sel[id] = 1;
	d->img[id] = img;
	if (d->fr)
		d->fr->known[id] = 1;
	if (d->fmt == etm_fmt_raw)
		d->raw = s;
	return 0;
fail:
	src_free(s);
	return -etme_nomem;
}

int etm_decoder_note_id(struct etm_decoder *d, unsigned id)
{
	unsigned i;

	if (!d || !id || id >= 0x70)
		return -etme_invalid;
	if (d->fr && !d->noted_any)
		for (i = 1; i < 0x70; i++) /* the IDs are known now */
			d->fr->known[i] = d->sel[i];
	d->noted_any = 1;
	d->noted[id] = 1;
	if (d->fr)
		d->fr->known[id] = 1;
	return 0;
}

void etm_decoder_set_realign(struct etm_decoder *d, int on)
{
	if (d)
		d->no_realign = !on;
}

int etm_decoder_push(struct etm_decoder *d, const uint8_t *buf, size_t n)
{
	int err;

	if (!d || (!buf && n))
		return -etme_invalid;
	if (d->finishing)
		return -etme_invalid;
	if (d->fr && !d->dfmt) {
		if (d->fr->pos < d->fr->n)
			return -etme_busy;
		etm_frames_input(d->fr, buf, n, d->offset);
		d->offset += n;
		return 0;
	}
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
	if (!d->finishing && d->dfmt && (!d->fr || d->fr->pos >= d->fr->n))
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
	d->cache_off = !on;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		if (d->src[i] && d->src[i]->flow)
			etm_flow_set_cache(d->src[i]->flow, on);
		if (d->src[i] && d->src[i]->e1)
			etm_e1_set_cache(d->src[i]->e1, on);
	}
}

static void item_proto(struct etm_item *it, const struct dec_source *s)
{
	it->proto = s->cfg.protocol;
}

/* The fast path across the packet and flow layers (used when packets are
 * not delivered as items): runs of one-byte atom packets and whole branch
 * address packets go from the parser's buffer straight to the flow decoder
 * in compact form (no struct etm_packet is built), until the flow decoder
 * has elements to deliver or the next packet needs the general path. The
 * packet layer still does all the parsing, the flow layer all the rest. */

/* Whether the fast path may put another packet (see flow_int.h). */
static inline int q_open(const struct etm_flow *f)
{
	return etm_flow_qopen(f);
}

/* PTM: atom packets of any size and branch address packets. */
static int drain_fast_patoms(struct dec_source *s, uint64_t *np)
{
	struct etm_flow *f = s->flow;
	struct etm_pktp *core = s->core;
	struct etm_patom pa;
	struct etm_brc br;
	int isa;

	do {
		switch (etm_pktp_fast_hdr(core)) {
		case etmh_atom:
			if (!etm_pktp_fast_patom(core, &pa))
				return 0;
			isa = etm_flow_put_patom(f, &pa);
			break;
		case etmh_branch:
			if (!f->put_branch || !etm_pktp_fast_branch(core, &br))
				return 0;
			isa = etm_flow_put_branch(f, &br);
			break;
		default:
			return 0;
		}
		(*np)++;
		if (isa < 0)
			return isa;
	} while (q_open(f));
	return 0;
}

/* Flow decoders without compact atom forms: one-byte atom packets from
 * the parser's table. */
static int drain_fast_atoms(struct dec_source *s, uint64_t *np)
{
	const struct etm_packet *t;
	uint64_t off;
	int err;

	while (q_open(s->flow) && (t = etm_pktp_fast_atom(s->core, &off))) {
		err = etm_flow_put_atom(s->flow, t, off);
		if (err < 0)
			return err;
		(*np)++;
	}
	return 0;
}

static int drain_fast(struct dec_source *s, uint64_t *np)
{
	/* ETMv3 has its whole fast path in the flow decoder (drain_fast) */
	if (s->flow->drain_fast)
		return s->flow->drain_fast(s->flow, s->core, np);
	if (s->flow->put_patom)
		return drain_fast_patoms(s, np);
	return drain_fast_atoms(s, np);
}

/* A source's packet did not parse in CoreSight frames: the alignment may
 * be lost. The deformatter checks it at its next frame boundary; the
 * frames fast path stops draining and hands the input from the frame of
 * the bad packet on to a deformatter that checks it (frames_rewind()). */
static void suspect_frames(struct etm_decoder *d, const struct etm_packet *pkt)
{
	if (d->no_realign)
		return;
	if (d->dfmt) {
		etm_dfmt_suspect(d->dfmt);
	} else if (d->fr && !d->finishing && !d->re_at) {
		d->re_at = pkt->offset + (pkt->size ? pkt->size : 1);
		d->re_id = pkt->id;
	}
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
			it->elem = *el;
			it->is_elem = 1;
			item_proto(it, s);
			return 0;
		}
		if (d->re_at)
			return -etme_again; /* realign first (frames) */
		if (s->flow && !d->want_packets) {
			err = drain_fast(s, &d->npackets);
			if (err < 0)
				return err;
			if (s->flow->qlen)
				continue;
		}
		err = src_next(s, &it->pkt);
		if (err < 0)
			return err;
		d->npackets++;
		if (it->pkt.type == etmp_error && d->fmt == etm_fmt_coresight)
			suspect_frames(d, &it->pkt);
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
	etm_zero(&it->elem, sizeof(it->elem));
	it->is_elem = 1;
	it->proto = etm_proto_unknown;
	it->elem.kind = etmk_error;
	it->elem.offset = x->offset;
	it->elem.err = x->err;
}

/* Realignment judge (etm_dfmt_set_judge()): a trial parse of the bytes
 * through the packet reader of the source of @id. */
static int dec_judge(void *ctx, uint8_t id, const uint8_t *b, size_t n,
		     size_t *good)
{
	const struct etm_decoder *d = ctx;
	const struct dec_source *s = id < ETM_DEC_MAX_SOURCES ? d->src[id] : NULL;

	*good = 0;
	return s && s->core ? etm_pktp_trial(s->core, b, n, good) : 0;
}

/* Hand input to a deformatter with current ID @id (a made-up frame
 * announcing it comes first, its output dropped): @npre bytes @pre at
 * offset @pre_off, then the @n bytes @rest at @off. */
static int dfmt_start(struct etm_decoder *d, int id, const uint8_t *pre,
		      size_t npre, uint64_t pre_off, const uint8_t *rest,
		      size_t n, uint64_t off)
{
	uint8_t fake[16] = { 0 };
	struct etm_dfmt_item x;
	uint64_t start = npre ? pre_off : off;
	int err;

	d->dfmt = etm_dfmt_alloc(etm_fmt_coresight, id < 0 ? start :
							     start - sizeof(fake));
	if (!d->dfmt)
		return -etme_nomem;
	d->dfmt_from = start;
	etm_dfmt_seen_ids(d->dfmt, d->sel);
	if (d->noted_any && !d->no_realign)
		etm_dfmt_known_ids(d->dfmt, d->noted);
	if (!d->no_realign)
		etm_dfmt_set_judge(d->dfmt, dec_judge, d);
	if (id >= 0) {
		fake[0] = (uint8_t)(id << 1 | 1);
		err = etm_dfmt_push(d->dfmt, fake, sizeof(fake));
		while (!err)
			err = etm_dfmt_next(d->dfmt, &x, sizeof(x));
	}
	if (npre) {
		err = etm_dfmt_hold_bytes(d->dfmt, pre, npre, pre_off);
		if (err < 0)
			return err;
	}
	err = etm_dfmt_push(d->dfmt, rest, n);
	if (!err && d->finishing)
		err = etm_dfmt_finish(d->dfmt);
	return err;
}

/* Hand the rest of the input to a deformatter in the fast path's state (a
 * frame cut by the end of the last input first). */
static int frames_to_dfmt(struct etm_decoder *d, const uint8_t *rest,
			  size_t n, uint64_t off)
{
	struct etm_frames *fr = d->fr;
	size_t npre = fr->npart && rest != fr->part ? fr->npart : 0;

	fr->npart = 0;
	return dfmt_start(d, fr->cur_id, fr->part, npre, fr->part_off, rest,
			  n, off);
}

/* After a bad packet in the frames fast path (suspect_frames()): the
 * source's parser forgets its unparsed bytes and a deformatter takes the
 * input from the frame of the bad packet on (not before the frame end of
 * the last data of another ID, which is delivered), checking the
 * alignment there first. Bytes of the last input are kept in tail[]. */
static int frames_rewind(struct etm_decoder *d)
{
	struct etm_frames *fr = d->fr;
	struct dec_source *s = d->src[d->re_id & 0x7f];
	uint64_t b = d->re_at - ((d->re_at - fr->off - fr->pos + fr->npart) &
				 15);
	size_t k = 0;
	int err;

	d->re_at = 0;
	if (b < d->re_lo)
		b = d->re_lo;
	if (s && s->etm3)
		etm_etm3_reset(s->etm3);
	else if (s && s->ptm)
		etm_ptm_reset(s->ptm);
	fr->nops = fr->opi = 0;
	fr->npart = 0;
	if (b < fr->off && d->ntail && b >= d->tail_off &&
	    d->tail_off + d->ntail == fr->off)
		k = (size_t)(b - d->tail_off);
	else if (b < fr->off)
		b = fr->off + ((b - fr->off) & 15); /* not kept: later */
	if (b > fr->off + fr->n)
		b = fr->off + fr->n;
	err = b < fr->off ?
		      dfmt_start(d, d->re_id, d->tail + k, d->ntail - k, b, fr->buf,
				 fr->n, fr->off) :
		      dfmt_start(d, d->re_id, NULL, 0, 0, fr->buf + (b - fr->off),
				 fr->n - (size_t)(b - fr->off), b);
	fr->pos = fr->n;
	etm_dfmt_suspect(d->dfmt);
	return err;
}

/* The last bytes of the consumed input (however it was cut into pushes),
 * for frames_rewind(). */
static void keep_tail(struct etm_decoder *d)
{
	struct etm_frames *fr = d->fr;
	size_t k = fr->n < sizeof(d->tail) ? fr->n : sizeof(d->tail), old;

	if (d->ntail && d->tail_off + d->ntail == fr->off + fr->n)
		return; /* kept already */
	if (d->tail_off + d->ntail != fr->off)
		d->ntail = 0;
	old = d->ntail + k > sizeof(d->tail) ? sizeof(d->tail) - k : d->ntail;
	memmove(d->tail, d->tail + d->ntail - old, old);
	if (k)
		memcpy(d->tail + old, fr->buf + fr->n - k, k);
	d->ntail = old + k;
	d->tail_off = fr->off + fr->n - d->ntail;
}

/* Data of ID @id ending at offset @end goes to its source: where a rewind
 * may go back to (frames_rewind()). */
static void note_push(struct etm_decoder *d, int id, uint64_t end)
{
	if (id != d->push_id)
		d->re_lo = d->push_end;
	d->push_id = id;
	d->push_end = end;
}

/* The deformatter (after an FSYNC, a suspect frame or a bad packet) is
 * between frames with nothing held: the frames fast path takes the rest of
 * the input again. Returns 1 if it did. */
static int dfmt_hand_back(struct etm_decoder *d)
{
	struct etm_frames *fr = d->fr;
	const uint8_t *rest;
	size_t n;
	uint64_t off;
	int id;

	/* not before the frame that made the hand-over is decoded */
	if (!etm_dfmt_idle(d->dfmt, &rest, &n, &off, &id) || !rest ||
	    off < d->dfmt_from + 16)
		return 0;
	etm_dfmt_free(d->dfmt);
	d->dfmt = NULL;
	fr->cur_id = id;
	fr->nops = fr->opi = 0;
	fr->npart = 0;
	etm_frames_input(fr, rest, n, off);
	return 1;
}

/* After a realignment: every source's parser searches for a sync again
 * and its flow decoder loses sync there (never decode across the lost
 * bytes); their elements are drained next (next_slow()). */
static void lose_all(struct etm_decoder *d, uint64_t off)
{
	struct etm_packet pkt;
	unsigned i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		struct dec_source *s = d->src[i];

		if (!s || !s->core)
			continue;
		if (s->etm3)
			etm_etm3_reset(s->etm3);
		else
			etm_ptm_reset(s->ptm);
		if (!s->flow)
			continue;
		etm_zero(&pkt, sizeof(pkt));
		pkt.type = etmp_error;
		pkt.err = etme_frame_align;
		pkt.offset = off;
		pkt.id = (uint8_t)i;
		etm_flow_put(s->flow, &pkt);
	}
	d->lose_id = 0;
}

/* One step of the frames fast path. Returns 0 with an item in @it, 1 to
 * go on (a source to drain, or the deformatter took over), -etme_again,
 * or the end of decode from drain_finish(). */
static int frames_next(struct etm_decoder *d, struct etm_item *it)
{
	struct etm_frames *fr = d->fr;
	struct etm_dfmt_item x;
	struct dec_source *s;
	int err;

	switch (etm_frames_step(fr, d->sel)) {
	case etm_fr_push:
		s = d->src[fr->stg_id];
		note_push(d, fr->stg_id, ((fr->seg[fr->nseg - 1].off + (fr->stg_n - fr->seg[fr->nseg - 1].pos) + 15) & ~(uint64_t)15));
		/* per-byte offsets for the packet records; the flow fast
		 * path walks the segments with its own cursor */
		err = etm_pktp_push_rel(s->core, fr->stg, fr->stg_n, fr->seg,
					fr->nseg, s->flow ? NULL : fr->rel,
					fr->rel_base);
		if (err < 0)
			return err;
		/* the bytes stay in place until the source is drained */
		etm_frames_pushed(fr);
		d->cur = s;
		return 1;
	case etm_fr_error:
		memset(&x, 0, sizeof(x));
		x.err = fr->err;
		x.offset = fr->err_off;
		dfmt_error_item(it, &x);
		return 0;
	case etm_fr_dfmt:
		err = frames_to_dfmt(d, fr->buf + fr->pos, fr->n - fr->pos,
				     fr->off + fr->pos);
		fr->pos = fr->n;
		return err < 0 ? err : 1;
	case etm_fr_again:
		break;
	}
	if (!d->finishing) {
		keep_tail(d);
		return -etme_again;
	}
	if (fr->npart) {
		/* a cut frame at the end: the deformatter reports it */
		err = frames_to_dfmt(d, fr->part, fr->npart, fr->part_off);
		fr->npart = 0;
		return err < 0 ? err : 1;
	}
	return drain_finish(d, it);
}

/* etm_decoder_next() but for an element already queued (kept out of line:
 * the common case needs no stack frame). */
static __attribute__((noinline)) int next_slow(struct etm_decoder *d, struct etm_item *it)
{
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
			struct dec_source *s = d->src[d->lose_id++];

			if (s && s->flow && s->flow->qlen)
				d->cur = s;
			continue;
		}
		if (d->re_at) {
			err = frames_rewind(d);
			if (err < 0)
				return err;
			continue;
		}
		if (d->fr && !d->dfmt) {
			err = frames_next(d, it);
			if (err == 1)
				continue;
			return err;
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
		if (d->fr && !d->finishing && dfmt_hand_back(d))
			continue;
		err = etm_dfmt_next(d->dfmt, &x, sizeof(x));
		if (err == -etme_eos)
			return drain_finish(d, it);
		if (err < 0)
			return err;
		if (x.kind == etm_dfmt_error) {
			if (x.err == etme_frame_align)
				lose_all(d, x.offset);
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

/* The record of an item of etm_decoder_next() in packet mode: a packet,
 * or an error element of the deformatter. */
static void rec_from_item(struct etm_pkt_rec *r, const struct etm_item *it)
{
	if (!it->is_elem) {
		etm_pkt_rec_from(r, &it->pkt);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->offset = it->elem.offset;
	r->type = etmp_error;
	r->value = (uint32_t)it->elem.err;
}

int etm_decoder_next_packets(struct etm_decoder *d, struct etm_pkt_rec *recs,
			     size_t max)
{
	struct etm_item it;
	size_t n = 0;
	int err;

	if (!d || !recs || !max || d->mode != etm_dec_packets)
		return -etme_invalid;
	if (max > INT_MAX)
		max = INT_MAX;
	while (n < max) {
		if (d->cur) {
			/* a batch from the source being drained */
			err = etm_pktp_next_recs(d->cur->core, recs + n,
						 max - n);
			if (err > 0) {
				n += (size_t)err;
				d->npackets += (uint64_t)err;
				continue;
			}
			if (err != -etme_again && err != -etme_eos)
				return n ? (int)n : err;
			if (n)
				break;
		}
		/* everything else (input, deformatter, end of input) as
		 * etm_decoder_next() does it */
		err = etm_decoder_next(d, &it, sizeof(it));
		if (err < 0)
			return n ? (int)n : err;
		rec_from_item(&recs[n++], &it);
	}
	return (int)n;
}

int etm_decoder_next(struct etm_decoder *d, struct etm_item *it, size_t size)
{
	if (!d || !it || size < sizeof(*it))
		return -etme_invalid;
	if (d->raw && d->raw->e1)
		return e1_next(d, it);
	if (d->cur && d->cur->flow) {
		/* the common case: an element already queued */
		const struct etm_elem *el = etm_flow_pop(d->cur->flow);

		if (el) {
			it->elem = *el;
			it->is_elem = 1;
			item_proto(it, d->cur);
			return 0;
		}
	}
	return next_slow(d, it);
}

int etm_decoder_serial(const struct etm_decoder *d)
{
	return d->raw && d->raw->e1;
}

int etm_decoder_elems_ok(const struct etm_decoder *d)
{
	return d->mode == etm_dec_elements && !d->want_packets;
}

int etm_decoder_next_elems(struct etm_decoder *d,
			   const struct etm_elem **els, size_t max)
{
	struct dec_source *s;
	struct etm_flow *f;
	size_t n;
	int err;

	if (!d || !els || !max || d->mode != etm_dec_elements ||
	    d->want_packets)
		return -etme_invalid;
	if (max > INT_MAX)
		max = INT_MAX;
	if (d->raw && d->raw->e1)
		return e1_next_elems(d, els, max);
	s = d->cur;
	if (s && s->flow && !d->re_at) {
		f = s->flow;
		if (!f->qlen) {
			/* fill the queue from the source being drained */
			err = drain_fast(s, &d->npackets);
			if (err < 0)
				return err;
		}
		if (f->qlen) {
			/* the queued elements, in place */
			n = f->qlen < max ? f->qlen : max;
			*els = &f->q[f->qhead];
			f->qhead += (unsigned)n;
			f->qlen -= (unsigned)n;
			return (int)n;
		}
	}
	/* everything else (general packets, input, deformatter, end of
	 * input) as etm_decoder_next() does it: one element, the rest of
	 * what it queued comes with the next call */
	err = next_slow(d, &d->xit);
	if (err < 0)
		return err;
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
		c->dfmt = etm_dfmt_alloc(d->fmt, base);
		if (!c->dfmt)
			goto fail;
	}
	c->offset = base;
	c->want_packets = d->want_packets;
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++)
		if (d->src[i] &&
		    etm_decoder_add_source(c, &d->src[i]->cfg, d->img[i]) < 0)
			goto fail;
	for (i = 1; i < 0x70; i++)
		if (d->noted[i])
			etm_decoder_note_id(c, i);
	c->no_realign = d->no_realign;
	if (d->cache_off)
		etm_decoder_set_cache(c, 0);
	return c;
fail:
	etm_decoder_free(c);
	return NULL;
}

void etm_decoder_save(const struct etm_decoder *d, struct etm_sbuf *s)
{
	unsigned i;

	etm_sbuf_u8(s, (unsigned)d->finishing);
	etm_sbuf_u8(s, d->cur != NULL);
	etm_sbuf_u64(s, d->raw_len);
	if (d->dfmt && d->fmt == etm_fmt_coresight)
		s->over = 1; /* the deformatter's state is not visible */
	if (d->fr && !d->dfmt) {
		etm_sbuf_u32(s, (uint32_t)d->fr->cur_id);
		etm_sbuf_u64(s, d->fr->npart);
		etm_sbuf_put(s, d->fr->part, d->fr->npart);
		etm_sbuf_u64(s, d->fr->n - d->fr->pos);
		etm_sbuf_u64(s, d->fr->nops - d->fr->opi);
		/* what a rewind after a bad packet may go back to */
		etm_sbuf_u64(s, d->re_lo);
		etm_sbuf_u32(s, (uint32_t)d->push_id);
		etm_sbuf_u64(s, d->push_end);
		etm_sbuf_u64(s, d->ntail);
	}
	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		const struct dec_source *src = d->src[i];

		if (!src)
			continue;
		etm_sbuf_u8(s, i);
		etm_sbuf_u8(s, (unsigned)src->finished);
		if (src->etm3)
			etm_etm3_save(src->etm3, s);
		else
			etm_ptm_save(src->ptm, s);
		if (src->flow)
			etm_flow_save(src->flow, s);
	}
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

void etm_decoder_restart(struct etm_decoder *d, uint64_t base)
{
	unsigned i;

	for (i = 0; i < ETM_DEC_MAX_SOURCES; i++) {
		struct dec_source *s = d->src[i];

		if (!s)
			continue;
		if (s->etm3)
			etm_etm3_reset(s->etm3);
		else
			etm_ptm_reset(s->ptm);
		etm_flow_reset(s->flow);
		s->finished = 0;
	}
	if (d->fr) {
		etm_dfmt_free(d->dfmt);
		d->dfmt = NULL;
		etm_frames_init(d->fr);
	}
	d->cur = NULL;
	d->raw_buf = NULL;
	d->raw_len = 0;
	d->re_at = d->re_lo = d->push_end = 0;
	d->push_id = -1;
	d->ntail = 0;
	d->lose_id = ETM_DEC_MAX_SOURCES;
	d->offset = base;
	d->finishing = 0;
	d->fin_id = 0;
	d->npackets = 0;
}
