/* source/dfmt_bulk.c - the deformatter's bulk interface (dfmt_bulk.h):
 * memory-aligned CoreSight frames through the fast path of frames.c, the
 * byte path (dfmt.c) from a frame it leaves to it, back to the fast path
 * when the byte path is idle between frames; a rewind to the frame of a
 * bad packet for the realignment; state save and restart. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "common/sbuf.h"
#include "source/dfmt_bulk.h"
#include "source/dfmt_int.h"
#include "source/frames.h"

/* The byte path goes on with current ID @id (a live one is the last live
 * one too, as if a frame had named it). */
static void dfmt_take_id(struct etm_dfmt *d, int id)
{
	d->w.cur_id = id;
	if (id >= 0 && id < 0x70 && d->w.seen[id])
		d->w.last_id = id;
}

/* The last bytes of the consumed input (however it was cut into pushes),
 * for etm_dfmt_rewind(). */
static void dfmt_keep_tail(struct etm_dfmt *d)
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

/* Data of ID @id ending at offset @end is staged: where a rewind may go
 * back to (etm_dfmt_rewind()). */
static void dfmt_note_push(struct etm_dfmt *d, int id, uint64_t end)
{
	if (id != d->push_id)
		d->re_lo = d->push_end;
	d->push_id = id;
	d->push_end = end;
}

/* The @len bytes of the input at offset @o if they are still at hand in
 * one piece (the fast path's input, or the kept tail of the inputs before
 * it, which ends where that input begins), or NULL. */
static const uint8_t *dfmt_at(const struct etm_dfmt *d, uint64_t o,
			      size_t len)
{
	const struct etm_frames *fr = d->fr;

	if (fr->buf && o >= fr->off && o - fr->off + len <= fr->n)
		return fr->buf + (o - fr->off);
	if (d->ntail && d->tail_off + d->ntail == fr->off &&
	    o >= d->tail_off && o + len <= fr->off)
		return d->tail + (o - d->tail_off);
	return NULL;
}

/* The 16 bytes @f of the frame at input offset @o: 1 if they are at hand
 * (in one piece, or across the tail and the input) and do not start with
 * an FSYNC, else 0. */
static int dfmt_frame_at(const struct etm_dfmt *d, uint64_t o, uint8_t *f)
{
	const uint8_t *p = dfmt_at(d, o, DFMT_FRAME);
	size_t j;

	if (p)
		memcpy(f, p, DFMT_FRAME);
	for (j = 0; !p && j < DFMT_FRAME; j++) {
		const uint8_t *b = dfmt_at(d, o + j, 1);

		if (!b)
			return 0;
		f[j] = *b;
	}
	return !(f[0] == 0xff && f[1] == 0xff && f[2] == 0xff && f[3] == 0x7f);
}

void etm_dfmt_keep_pre(struct etm_dfmt *d, uint64_t from)
{
	uint64_t lo = from > DFMT_PRE_SCAN ? from - DFMT_PRE_SCAN : from % 16;
	uint64_t o;
	uint8_t f[DFMT_FRAME];
	int id = DFMT_ID_UNKNOWN;

	d->w.npre = 0;
	if (!d->decide || !d->fr || d->w.pre_lo > from)
		return;
	if (lo < d->w.pre_lo)
		lo = from - ((from - d->w.pre_lo) & ~(uint64_t)15);
	if (lo < d->pre_floor && d->pre_floor <= from)
		lo = from - ((from - d->pre_floor) & ~(uint64_t)15);
	for (o = lo; o + DFMT_FRAME <= from; o += DFMT_FRAME) {
		if (!dfmt_frame_at(d, o, f)) {
			id = DFMT_ID_UNKNOWN; /* from after it only */
			d->w.npre = 0;
			continue;
		}
		if (o + DFMT_PRE >= from) {
			if (!d->w.npre) {
				d->w.pre_off = o;
				d->w.pre_id = id;
			}
			memcpy(d->w.pre + d->w.npre, f, DFMT_FRAME);
			d->w.npre += DFMT_FRAME;
		}
		id = dfmt_id_after(f, 1, id);
	}
}

/* The ID current at their start: from the ID scan before them, and the
 * frames dropped. */
void etm_dfmt_trim_pre(struct etm_dfmt *d)
{
	size_t k;

	if (d->w.npre <= DFMT_PRE_NEAR)
		return;
	k = d->w.npre - DFMT_PRE_NEAR;
	d->w.pre_id = dfmt_id_after(d->w.pre, k / DFMT_FRAME, d->w.pre_id);
	memmove(d->w.pre, d->w.pre + k, DFMT_PRE_NEAR);
	d->w.pre_off += k;
	d->w.npre = DFMT_PRE_NEAR;
}

int etm_dfmt_fast(const struct etm_dfmt *d)
{
	return d && d->fast;
}

int etm_dfmt_stayed_fast(const struct etm_dfmt *d)
{
	return d && d->fast && !d->left_fast;
}

/* The start of the frame of the grid the fast path reads holding input
 * offset @o. */
static uint64_t dfmt_frame_of(const struct etm_frames *fr, uint64_t o)
{
	return o - ((o - fr->off - fr->pos + fr->npart) & 15);
}

int etm_dfmt_rewind(struct etm_dfmt *d, const uint8_t *sel, uint64_t at,
		    uint64_t end, int id)
{
	struct etm_frames *fr = d->fr;
	uint64_t b = dfmt_frame_of(fr, at), lo;
	uint64_t floor = dfmt_frame_of(fr, end - 1);
	size_t k = 0;
	int err = 0;

	if (!d->fast)
		return -etme_invalid;
	if (b < d->re_lo)
		b = d->re_lo;
	/* not further back than the kept tail reaches from where the parser
	 * decided, wherever the input was cut (one input would still hold
	 * more) */
	floor = floor > ETM_DFMT_REWIND ? floor - ETM_DFMT_REWIND : 0;
	if (b < floor)
		b = floor;
	/* a suspect frame the fast path met reading ahead is read again by
	 * the byte path: kept, it would realign where the fast path next
	 * takes over, a place that depends on where the input was cut; so is
	 * what is staged or held */
	etm_frames_drop(fr);
	/* not kept: from the first frame that is (the tail's, if it ends
	 * where the input begins, as one input holding both would) */
	lo = d->ntail && d->tail_off + d->ntail == fr->off ? d->tail_off :
							     fr->off;
	if (b < lo)
		b = lo + ((b - lo) & 15);
	if (b < fr->off)
		k = (size_t)(b - d->tail_off);
	if (b > fr->off + fr->n)
		b = fr->off + fr->n;
	/* the data pushed after b is read again: a back_up() may reach it */
	if (fr->pushed_end > b)
		fr->pushed_end = b;
	d->fast = 0;
	d->left_fast = 1;
	etm_dfmt_seen_ids(d, sel);
	dfmt_take_id(d, id);
	d->from = b;
	d->pre_floor = floor;
	etm_dfmt_keep_pre(d, b);
	d->pre_floor = 0;
	if (b < fr->off) {
		err = etm_dfmt_hold_bytes(d, d->tail + k, d->ntail - k, b);
		b = fr->off;
	}
	d->buf = fr->buf ? fr->buf + (b - fr->off) : NULL;
	d->n = fr->n - (size_t)(b - fr->off);
	d->pos = 0;
	d->in_off = b;
	fr->pos = fr->n;
	d->realign = 1;
	d->w.rewound = 1;
	return err;
}

/* The byte path (after an FSYNC, a suspect frame or a bad packet) is
 * between frames with nothing held, past the frame that made it take
 * over: the frames fast path takes the rest of the input again. Returns 1
 * if it did. */
static int dfmt_hand_back(struct etm_dfmt *d)
{
	struct etm_frames *fr = d->fr;
	const uint8_t *rest;
	size_t n;
	uint64_t off;
	int id;

	if (!fr || !etm_dfmt_idle(d, &rest, &n, &off, &id) || !rest ||
	    off < d->from + 16)
		return 0;
	d->fast = 1;
	/* the byte path delivered everything before off */
	fr->pushed_end = off;
	fr->last_off = UINT64_MAX;
	fr->cur_id = id < 0 ? ETM_FR_ID_UNKNOWN : id;
	fr->nops = fr->opi = 0;
	fr->npart = 0;
	etm_frames_input(fr, rest, n, off);
	d->buf = NULL;
	d->n = d->pos = 0;
	d->in_off = off + n;
	return 1;
}

/* The fast path met a frame it leaves to the byte path: the byte path
 * goes on in its state (the current ID, a frame cut by the end of the last
 * input, the rest of the input). */
static void dfmt_leave_fast(struct etm_dfmt *d, const uint8_t *sel)
{
	struct etm_frames *fr = d->fr;
	size_t i;

	d->fast = 0;
	d->left_fast = 1;
	etm_dfmt_seen_ids(d, sel);
	if (fr->cur_id != ETM_FR_ID_UNKNOWN)
		dfmt_take_id(d, fr->cur_id);
	/* a suspect frame: the realignment judges from where it began */
	d->realign |= fr->suspect;
	fr->suspect = 0;
	d->from = fr->npart ? fr->part_off : fr->off + fr->pos;
	etm_dfmt_keep_pre(d, d->from);
	for (i = 0; i < fr->npart; i++) {
		d->w.hold[d->w.nhold] = fr->part[i];
		d->w.hold_off[d->w.nhold++] = fr->part_off + i;
	}
	fr->npart = 0;
	d->buf = fr->buf ? fr->buf + fr->pos : NULL;
	d->n = fr->n - fr->pos;
	d->pos = 0;
	d->in_off = fr->off + fr->pos;
	fr->pos = fr->n;
}

/* One step of the fast path: 1 staged data, 0 an item, -etme_again,
 * -etme_eos, or 2 when the byte path took over. */
static int dfmt_fast_step(struct etm_dfmt *d, const uint8_t *sel,
			  struct etm_dfmt_item *it, struct etm_dfmt_stage *st)
{
	struct etm_frames *fr = d->fr;

	switch (etm_frames_step(fr, sel)) {
	case etm_fr_push:
		st->id = (unsigned)fr->stg_id;
		st->data = fr->stg;
		st->n = fr->stg_n;
		st->seg = fr->seg;
		st->nseg = fr->nseg;
		dfmt_note_push(d, fr->stg_id,
			       (fr->seg[fr->nseg - 1].off +
				(fr->stg_n - fr->seg[fr->nseg - 1].pos) + 15) &
				       ~(uint64_t)15);
		/* the bytes stay in place until the next step */
		etm_frames_pushed(fr);
		return 1;
	case etm_fr_error:
		memset(it, 0, sizeof(*it));
		it->kind = etm_dfmt_error;
		it->err = fr->err;
		it->offset = fr->err_off;
		return 0;
	case etm_fr_dfmt:
		dfmt_leave_fast(d, sel);
		return 2;
	case etm_fr_again:
		break;
	}
	if (!d->finished) {
		dfmt_keep_tail(d);
		return -etme_again;
	}
	if (fr->npart) {
		/* a cut frame at the end: the byte path reports it */
		dfmt_leave_fast(d, sel);
		return 2;
	}
	return -etme_eos;
}

int etm_dfmt_next_bulk(struct etm_dfmt *d, const uint8_t *sel,
		       struct etm_dfmt_item *it, struct etm_dfmt_stage *st)
{
	int r;

	if (!d->fast && !d->finished)
		dfmt_hand_back(d);
	for (;;) {
		if (d->fast) {
			r = dfmt_fast_step(d, sel, it, st);
			if (r != 2)
				break;
		}
		r = etm_dfmt_next(d, it, sizeof(*it));
		/* the byte path stopped at the first frame it can hand back */
		if (r != -etme_busy || !dfmt_hand_back(d))
			break;
	}
	/* the input is consumed: what a late realignment may look at */
	if (r == -etme_again && d->rt)
		etm_dfmt_retro_keep(d);
	return r;
}

/* The fast path's state for back_up() (source/frames.c): the data held
 * back at the end of the input and the frame it came from, whether data
 * after that frame's start went out. */
static void dfmt_save_held(const struct etm_frames *fr, struct etm_sbuf *s)
{
	uint64_t e = fr->npart ? fr->part_off : fr->off + fr->pos;
	size_t i, b = fr->held_n ? fr->held_pos : 0;
	size_t n = fr->held_n ? fr->held_n : fr->stg_n;
	size_t g = fr->held_n ? fr->held_seg : 0;
	size_t ns = fr->held_n ? fr->held_nseg : fr->nseg;

	etm_sbuf_u64(s, n);
	etm_sbuf_put(s, fr->stg + b, n);
	for (i = 0; i < ns; i++) {
		etm_sbuf_u64(s, fr->seg[g + i].pos - b);
		etm_sbuf_u64(s, fr->seg[g + i].off);
	}
	etm_sbuf_u32(s, fr->last_off == e - 16);
	if (fr->last_off == e - 16)
		etm_sbuf_put(s, fr->last, 16);
	etm_sbuf_u32(s, fr->pushed_end > e - 16);
}

void etm_dfmt_save(const struct etm_dfmt *d, struct etm_sbuf *s)
{
	const struct etm_frames *fr = d->fr;

	if (!d->fast) {
		if (d->fmt == etm_fmt_coresight)
			s->over = 1; /* the byte path's state is not visible */
		return;
	}
	etm_sbuf_u32(s, (uint32_t)fr->cur_id);
	etm_sbuf_u64(s, fr->npart);
	etm_sbuf_put(s, fr->part, fr->npart);
	etm_sbuf_u64(s, fr->n - fr->pos);
	etm_sbuf_u64(s, fr->nops - fr->opi);
	etm_sbuf_u32(s, (uint32_t)fr->suspect);
	dfmt_save_held(fr, s);
	/* IDs a realignment found in the input after all (etm_dfmt_other_id())
	 * are no longer suspect */
	etm_sbuf_put(s, d->w.other, sizeof(d->w.other));
	/* what a rewind after a bad packet may go back to */
	etm_sbuf_u64(s, d->re_lo);
	etm_sbuf_u32(s, (uint32_t)d->push_id);
	etm_sbuf_u64(s, d->push_end);
	etm_sbuf_u64(s, d->ntail);
	etm_dfmt_retro_save(d, s);
}

void etm_dfmt_restart(struct etm_dfmt *d, uint64_t base)
{
	struct etm_frames *fr = d->fr;
	int decide = d->decide;
	struct dfmt_retro *rt = d->rt;
	int ids_all = d->w.ids_all;
	uint8_t other[128];

	if (!fr)
		return;
	memcpy(other, d->w.other, sizeof(other));
	memset(d, 0, sizeof(*d));
	d->fmt = etm_fmt_coresight;
	d->aligned = 1;
	d->w.cur_id = DFMT_ID_UNKNOWN;
	d->w.last_id = DFMT_ID_UNKNOWN;
	d->in_off = base;
	d->fr = fr;
	d->fast = 1;
	d->push_id = -1;
	/* the IDs of the input and who decides stay (fr->known too) */
	d->decide = decide;
	d->w.ids_all = ids_all;
	memcpy(d->w.other, other, sizeof(other));
	etm_dfmt_retro_restart(d, rt);
	etm_frames_init(fr);
}

void etm_dfmt_other_id(struct etm_dfmt *d, int id)
{
	d->w.other[id] = 1;
	if (d->fr) {
		d->fr->known[id] = 1;
		etm_frames_known_changed(d->fr);
	}
}

void etm_dfmt_note_ids(struct etm_dfmt *d, const uint8_t *sel,
		       const uint8_t *noted)
{
	unsigned i;

	if (!d)
		return;
	for (i = 1; d->fr && i < 0x70; i++)
		d->fr->known[i] = !noted || sel[i] || noted[i];
	if (d->fr)
		etm_frames_known_changed(d->fr);
	if (noted)
		etm_dfmt_known_ids(d, noted);
}
