/* source/dfmt.c - CoreSight frame deformatter (IHI 0029 formatter protocol):
 * 16-byte frames, aux byte, trace-ID changes, FSYNC/HSYNC, byte offsets;
 * byte by byte here, whole aligned frames in frames.c (the bulk interface,
 * source/dfmt_bulk.h). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "common/sbuf.h"
#include "source/dfmt_bulk.h"
#include "source/dfmt_int.h"
#include "source/frames.h"

static const uint8_t fsync_pat[4] = { 0xff, 0xff, 0xff, 0x7f };

static int dfmt_pending(const struct etm_dfmt *d);

struct etm_dfmt *etm_dfmt_alloc(enum etm_input_format fmt, uint64_t base_offset)
{
	struct etm_dfmt *d;

	if (fmt != etm_fmt_coresight && fmt != etm_fmt_tpiu &&
	    fmt != etm_fmt_tpiu_nofsync)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->fmt = fmt == etm_fmt_tpiu_nofsync ? etm_fmt_tpiu : fmt;
	d->aligned = fmt != etm_fmt_tpiu;
	d->w.cur_id = DFMT_ID_UNKNOWN;
	d->w.last_id = DFMT_ID_UNKNOWN;
	d->in_off = base_offset;
	return d;
}

struct etm_dfmt *etm_dfmt_alloc_bulk(enum etm_input_format fmt,
				     uint64_t base_offset)
{
	struct etm_dfmt *d = etm_dfmt_alloc(fmt, base_offset);

	if (!d || fmt != etm_fmt_coresight)
		return d;
	d->fr = etm_frames_alloc();
	if (!d->fr) {
		free(d);
		return NULL;
	}
	/* every ID may be in the input until told otherwise */
	memset(d->fr->known, 1, 0x70);
	d->push_id = -1;
	etm_frames_init(d->fr);
	d->fast = 1;
	return d;
}

void etm_dfmt_free(struct etm_dfmt *d)
{
	if (d) {
		free(d->fr);
		etm_dfmt_retro_free(d);
	}
	free(d);
}

int etm_dfmt_push(struct etm_dfmt *d, const uint8_t *buf, size_t n)
{
	if (!d || (!buf && n) || d->finished)
		return -etme_invalid;
	if (d->fast) {
		if (d->fr->pos < d->fr->n)
			return -etme_busy;
		if (d->rt)
			etm_dfmt_retro_input(d, buf, n, d->in_off);
		etm_frames_input(d->fr, buf, n, d->in_off);
		d->in_off += n;
		return 0;
	}
	if (d->pos < d->n)
		return -etme_busy;
	if (d->rt)
		etm_dfmt_retro_input(d, buf, n, d->in_off);
	d->buf = buf;
	d->n = n;
	d->pos = 0;
	return 0;
}

int etm_dfmt_finish(struct etm_dfmt *d)
{
	if (!d)
		return -etme_invalid;
	d->finished = 1;
	if (d->fr)
		d->fr->final = 1; /* nothing held back */
	return 0;
}

void etm_dfmt_event(struct etm_dfmt *d, enum etm_dfmt_kind kind, int err,
		    uint64_t off)
{
	struct dfmt_ev *e;

	if (d->evpos == d->nev)
		d->evpos = d->nev = 0;
	if (d->nev == DFMT_NEV)
		return; /* cannot happen: input stops while events wait */
	e = &d->ev[d->nev++];
	e->kind = kind;
	e->err = err;
	e->off = off;
	e->pos = 0;
}

static void dfmt_emit(struct etm_dfmt *d, uint8_t b, uint64_t off)
{
	struct dfmt_out *o = &d->out[d->nout++];

	o->id = etm_frame_id_is_data(d->w.cur_id) ? d->w.cur_id : DFMT_ID_UNKNOWN;
	o->b = b;
	o->off = off;
}

static void dfmt_set_id(struct etm_dfmt *d, int id, uint64_t off)
{
	struct dfmt_ev *e;

	if (id == d->w.cur_id)
		return; /* periodic re-announcement */
	d->w.cur_id = id;
	if (id < 0x70 && d->w.seen[id])
		d->w.last_id = id;
	if (etm_frame_id_is_data(id) && !d->w.seen[id] && !d->w.other[id] &&
	    d->w.ids_all && d->fmt == etm_fmt_coresight && d->decide)
		d->realign = 1; /* an ID nobody announced: lost alignment? */
	if (!etm_frame_id_is_reserved(id))
		return;
	if (d->fmt == etm_fmt_coresight)
		d->realign = 1; /* lost alignment? (etm_dfmt_realign()) */
	e = &d->fev[d->nfev++];
	e->kind = etm_dfmt_error;
	e->err = etme_bad_id;
	e->off = off;
	e->pos = d->nout;
}

/* Decode the assembled frame into d->out (the formatter's rules:
 * source/frame_rules.h; applied in place, as etm_frame_ops() lists them:
 * an array of operations costs the byte path a quarter more). */
static void dfmt_decode_frame(struct etm_dfmt *d)
{
	const uint8_t *f = d->frame;
	const uint64_t *o = d->frame_off;
	unsigned k;

	d->nout = d->outpos = 0;
	d->nfev = d->fevpos = 0;
	for (k = 0; k < 8; k++) {
		uint8_t m = f[2 * k];
		int nid = m >> 1;

		if (!etm_frame_is_id(m)) {
			dfmt_emit(d, etm_frame_mixed_data(f, k), o[2 * k]);
			if (k < 7)
				dfmt_emit(d, f[2 * k + 1], o[2 * k + 1]);
			continue;
		}
		if (k == 7) {
			dfmt_set_id(d, nid, o[14]); /* from the next frame */
		} else if (etm_frame_next_is_old(f, k, nid, d->w.cur_id)) {
			dfmt_emit(d, f[2 * k + 1], o[2 * k + 1]);
			dfmt_set_id(d, nid, o[2 * k]);
		} else {
			dfmt_set_id(d, nid, o[2 * k]);
			dfmt_emit(d, f[2 * k + 1], o[2 * k + 1]);
		}
	}
	d->flen = 0;
}

/* A run of FSYNCs at a frame boundary ended. Four (or a multiple of four)
 * in memory-aligned data is the Linux CoreSight "barrier": the streams are
 * discontinuous, so forget the current ID and report a sync item. */
static void dfmt_end_fsyncs(struct etm_dfmt *d)
{
	if (!d->fsyncs)
		return;
	if (d->fmt == etm_fmt_coresight && d->fsyncs % 4 == 0) {
		d->w.cur_id = DFMT_ID_UNKNOWN;
		etm_dfmt_event(d, etm_dfmt_sync, 0, d->fsync_off);
	}
	d->fsyncs = 0;
}

void etm_dfmt_drop_hold(struct etm_dfmt *d, size_t k)
{
	memmove(d->w.hold, d->w.hold + k, d->w.nhold - k);
	memmove(d->w.hold_off, d->w.hold_off + k,
		(d->w.nhold - k) * sizeof(d->w.hold_off[0]));
	d->w.nhold -= k;
}

static void dfmt_on_fsync(struct etm_dfmt *d)
{
	uint64_t off = d->w.hold_off[0];

	etm_dfmt_drop_hold(d, 4);
	if (d->flen) {
		/* Sync inside a frame: the partial frame is lost. */
		etm_dfmt_event(d, etm_dfmt_error, etme_bad_frame, d->frame_off[0]);
		d->flen = 0;
		d->w.cur_id = DFMT_ID_UNKNOWN;
		etm_dfmt_event(d, etm_dfmt_sync, 0, off);
	} else if (!d->aligned) {
		etm_dfmt_event(d, etm_dfmt_sync, 0, off);
	}
	d->aligned = 1;
	if (!d->fsyncs++)
		d->fsync_off = off;
}

int etm_dfmt_idle(const struct etm_dfmt *d, const uint8_t **rest, size_t *n,
		  uint64_t *off, int *cur_id)
{
	if (!d || d->fmt != etm_fmt_coresight || d->finished || !d->aligned ||
	    d->realign || d->w.nhold || d->flen || d->fsyncs || dfmt_pending(d) ||
	    d->fevpos < d->nfev)
		return 0;
	*rest = d->buf ? d->buf + d->pos : NULL;
	*n = d->n - d->pos;
	*off = d->in_off;
	*cur_id = d->w.cur_id;
	return 1;
}

int etm_dfmt_hold_bytes(struct etm_dfmt *d, const uint8_t *b, size_t n,
			uint64_t off)
{
	size_t i;

	if (!d || d->w.nhold + n > DFMT_HOLD)
		return -etme_invalid;
	for (i = 0; i < n; i++) {
		d->w.hold[d->w.nhold] = b[i];
		d->w.hold_off[d->w.nhold++] = off + i;
	}
	d->in_off = off + n;
	return 0;
}

int etm_dfmt_set_start(struct etm_dfmt *d, uint64_t off)
{
	if (!d || d->fmt != etm_fmt_tpiu || d->aligned || d->w.nhold || d->buf ||
	    off < d->in_off || off - d->in_off >= DFMT_FRAME)
		return -etme_invalid;
	if (off == d->in_off)
		d->aligned = 1;
	d->lead = !d->aligned;
	d->lead_end = off;
	return 0;
}

void etm_dfmt_seen_ids(struct etm_dfmt *d, const uint8_t *ids)
{
	int i;

	for (i = 1; d && ids && i < 0x70; i++)
		d->w.seen[i] |= ids[i] != 0;
}

/* Is hold[] a proper prefix of an FSYNC that may still complete? */
static int dfmt_hold_is_prefix(const struct etm_dfmt *d)
{
	return d->w.nhold < 4 && !memcmp(d->w.hold, fsync_pat, d->w.nhold);
}

/* Process held bytes. Returns 1 when progress needs more input. */
static int dfmt_step_hold(struct etm_dfmt *d)
{
	int tpiu = d->fmt == etm_fmt_tpiu;
	int sync_here = tpiu || d->flen == 0;

	if (d->w.cut_on && d->flen == 0) {
		int r = etm_dfmt_cut_due(d);

		if (r > 0)
			return 0;
		if (r < 0) {
			d->ask = 1; /* at a frame of the cut tried */
			return 1;
		}
		d->realign = 0; /* judged already: the cut waits */
	}
	if (sync_here && d->w.nhold >= 4 && !memcmp(d->w.hold, fsync_pat, 4)) {
		dfmt_on_fsync(d);
		return 0;
	}
	if (d->realign && d->flen == 0) {
		/* judged on a full hold, or on what is left at the end (input
		 * pushed before finish() but not yet read in: read it first) */
		if (d->w.nhold < (d->decide ? DFMT_HOLD : DFMT_PLAIN_HOLD) &&
		    (!d->finished || d->pos < d->n))
			return 1;
		d->realign = 0;
		if (!d->decide) {
			etm_dfmt_realign_plain(d);
			return 0;
		}
		d->ask = 1; /* decided above (src/realign/): stop and ask */
		return 1;
	}
	if (!d->aligned) {
		if (d->lead && d->w.nhold && d->w.hold_off[0] >= d->lead_end) {
			d->aligned = 1; /* the frames start here */
			d->lead = 0;
			etm_dfmt_event(d, etm_dfmt_sync, 0, d->w.hold_off[0]);
			return 0;
		}
		if (d->w.nhold < 4)
			return 1;
		etm_dfmt_drop_hold(d, 1);
		return 0;
	}
	if (sync_here && d->w.nhold && dfmt_hold_is_prefix(d) && !d->finished)
		return 1;
	if (tpiu && d->flen % 2 == 0 && d->w.nhold >= 2 && d->w.hold[0] == 0xff &&
	    d->w.hold[1] == 0x7f) {
		etm_dfmt_drop_hold(d, 2); /* HSYNC */
		return 0;
	}
	if (!d->w.nhold)
		return 1;
	if (d->flen == 0)
		dfmt_end_fsyncs(d);
	d->frame[d->flen] = d->w.hold[0];
	d->frame_off[d->flen++] = d->w.hold_off[0];
	etm_dfmt_drop_hold(d, 1);
	if (d->flen == DFMT_FRAME && d->w.nhold + DFMT_FRAME <= DFMT_HOLD &&
	    !d->w.cut_on &&
	    etm_dfmt_frame_suspect(d, d->frame, d->frame_off[0])) {
		/* judged from this frame on, before its data goes out */
		memmove(d->w.hold + DFMT_FRAME, d->w.hold, d->w.nhold);
		memmove(d->w.hold_off + DFMT_FRAME, d->w.hold_off,
			d->w.nhold * sizeof(d->w.hold_off[0]));
		memcpy(d->w.hold, d->frame, DFMT_FRAME);
		memcpy(d->w.hold_off, d->frame_off, sizeof(d->frame_off));
		d->w.nhold += DFMT_FRAME;
		d->flen = 0;
		d->realign = 1;
		return 0;
	}
	if (d->flen == DFMT_FRAME)
		dfmt_decode_frame(d);
	return 0;
}

/* Fast path: a whole frame straight from the input buffer. */
static int dfmt_fast_frame(struct etm_dfmt *d)
{
	const uint8_t *p;
	unsigned i;

	if (d->fmt != etm_fmt_coresight || d->w.nhold || d->flen || d->realign ||
	    d->n - d->pos < DFMT_FRAME)
		return 0;
	p = d->buf + d->pos;
	if (p[0] == 0xff)
		return 0;
	if (etm_dfmt_frame_suspect(d, p, d->in_off)) {
		d->realign = 1; /* judged from here (byte by byte) */
		return 0;
	}
	dfmt_end_fsyncs(d);
	memcpy(d->frame, p, DFMT_FRAME);
	for (i = 0; i < DFMT_FRAME; i++)
		d->frame_off[i] = d->in_off + i;
	d->pos += DFMT_FRAME;
	d->in_off += DFMT_FRAME;
	dfmt_decode_frame(d);
	return 1;
}

static int dfmt_pending(const struct etm_dfmt *d)
{
	return d->evpos < d->nev || d->outpos < d->nout;
}

/* The byte path of a bulk deformatter is between frames with nothing
 * held, past the frame that made it take over: the fast path takes the
 * input from here (dfmt_bulk.c), at the first such frame whatever output
 * the frames before it gave and wherever the input was cut. */
static int dfmt_give_back(const struct etm_dfmt *d)
{
	const uint8_t *rest;
	size_t n;
	uint64_t off;
	int id;

	if (!d->fr || d->w.nhold || d->flen || d->realign || !d->buf)
		return 0; /* the common case on the byte path, cheaply */
	return etm_dfmt_idle(d, &rest, &n, &off, &id) && off >= d->from + 16;
}

/* Consume input until something is ready or input runs out. */
static void dfmt_fill(struct etm_dfmt *d)
{
	while (!dfmt_pending(d)) {
		if (dfmt_give_back(d)) {
			d->give_back = 1;
			return;
		}
		if (dfmt_fast_frame(d))
			continue;
		if (!dfmt_step_hold(d))
			continue;
		if (d->pos == d->n || d->ask)
			return;
		d->w.hold[d->w.nhold] = d->buf[d->pos++];
		d->w.hold_off[d->w.nhold++] = d->in_off++;
	}
}

/* After finish(): flush held bytes, then report a partial frame. */
static void dfmt_drain(struct etm_dfmt *d)
{
	while (!dfmt_pending(d) && d->w.nhold) {
		if (!dfmt_step_hold(d))
			continue;
		if (d->ask)
			return;
		if (d->w.nhold && !d->aligned)
			d->w.nhold = 0; /* unaligned leftovers: nothing to say */
	}
	if (dfmt_pending(d) || d->eos_done)
		return;
	d->eos_done = 1;
	if (d->flen) {
		etm_dfmt_event(d, etm_dfmt_error, etme_truncated, d->frame_off[0]);
		d->flen = 0;
	} else if (!d->aligned) {
		etm_dfmt_event(d, etm_dfmt_error, etme_nosync, d->in_off);
	}
}

/* Deliver the next data run or frame event from the decoded frame. */
static int dfmt_take_frame(struct etm_dfmt *d, struct etm_dfmt_item *it)
{
	size_t i, end;

	while (d->outpos < d->nout || d->fevpos < d->nfev) {
		if (d->fevpos < d->nfev && d->fev[d->fevpos].pos <= d->outpos) {
			const struct dfmt_ev *e = &d->fev[d->fevpos++];

			it->kind = e->kind;
			it->err = e->err;
			it->offset = e->off;
			return 1;
		}
		if (d->out[d->outpos].id < 0) {
			d->outpos++;
			continue;
		}
		end = d->outpos + 1;
		while (end < d->nout &&
		       d->out[end].id == d->out[d->outpos].id &&
		       d->out[end].off == d->out[end - 1].off + 1 &&
		       !(d->fevpos < d->nfev && d->fev[d->fevpos].pos <= end))
			end++;
		for (i = d->outpos; i < end; i++)
			d->run[i - d->outpos] = d->out[i].b;
		it->kind = etm_dfmt_data;
		it->run.id = (uint8_t)d->out[d->outpos].id;
		it->run.data = d->run;
		it->run.size = end - d->outpos;
		it->run.offset = d->out[d->outpos].off;
		it->offset = it->run.offset;
		d->outpos = end;
		return 1;
	}
	return 0;
}

static int dfmt_take(struct etm_dfmt *d, struct etm_dfmt_item *it)
{
	if (d->evpos < d->nev) {
		const struct dfmt_ev *e = &d->ev[d->evpos++];

		it->kind = e->kind;
		it->err = e->err;
		it->offset = e->off;
		return 1;
	}
	return dfmt_take_frame(d, it);
}

int etm_dfmt_next(struct etm_dfmt *d, struct etm_dfmt_item *item, size_t size)
{
	struct etm_dfmt_item it;

	if (!d || !item || size < sizeof(*item))
		return -etme_invalid;
	memset(&it, 0, sizeof(it));
	for (;;) {
		if (dfmt_take(d, &it)) {
			*item = it;
			return 0;
		}
		dfmt_fill(d);
		if (dfmt_pending(d))
			continue;
		if (d->ask) {
			d->ask = 0;
			return ETM_DFMT_ASK;
		}
		if (d->give_back) {
			d->give_back = 0;
			return -etme_busy;
		}
		if (!d->finished) {
			d->buf = NULL;
			d->n = d->pos = 0;
			/* the caller's state moves on: a frame of the cut tried
			 * is asked about again */
			d->w.try_asked = 0;
			return -etme_again;
		}
		dfmt_drain(d);
		if (d->ask) {
			d->ask = 0;
			return ETM_DFMT_ASK;
		}
		if (!dfmt_pending(d))
			return -etme_eos;
	}
}
