/* source/dfmt.c - CoreSight frame deformatter (IHI 0029 formatter protocol):
 * 16-byte frames, aux byte, trace-ID changes, FSYNC/HSYNC, byte offsets. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#define DFMT_FRAME 16
#define DFMT_NDATA 15
#define DFMT_NEV 4
#define DFMT_ID_UNKNOWN -1
/* Realignment (CoreSight frames): bytes looked at after a frame naming a
 * reserved ID, or when the packets of the frames did not parse - every
 * shift of up to 15 bytes, DFMT_WIN frames each. */
#define DFMT_SHIFTS 16
#define DFMT_WIN 32
#define DFMT_HOLD (DFMT_SHIFTS + DFMT_WIN * DFMT_FRAME)
#define DFMT_PLAIN_HOLD (DFMT_SHIFTS + 8 * DFMT_FRAME)
#define DFMT_UNFIT (-1000000)
/* Live IDs judged per shift, most. */
#define DFMT_JUDGE_IDS 8

/* One decoded data byte of the current frame; id < 0 means "discard". */
struct dfmt_out {
	int id;
	uint8_t b;
	uint64_t off;
};

/* An event (error or sync) waiting for delivery. In a decoded frame, pos is
 * the index of the first data byte that follows it. */
struct dfmt_ev {
	enum etm_dfmt_kind kind;
	int err;
	uint64_t off;
	size_t pos;
};

struct etm_dfmt {
	enum etm_input_format fmt;
	int finished;
	int eos_done;
	int aligned;        /* frame boundary known */
	int cur_id;         /* DFMT_ID_UNKNOWN before the first ID byte */
	unsigned fsyncs;    /* FSYNCs in the current run at a boundary */
	uint64_t fsync_off; /* offset of the first FSYNC of that run */

	/* Borrowed input. */
	const uint8_t *buf;
	size_t n, pos;
	uint64_t in_off; /* input offset of buf[pos] */

	/* Bytes held back while deciding whether they start a sync pattern,
	 * or (realign) where the frames start again. */
	uint8_t hold[DFMT_HOLD];
	uint64_t hold_off[DFMT_HOLD];
	size_t nhold;
	int realign;             /* a frame named a reserved ID: check alignment */
	uint8_t seen[128];       /* live trace IDs (etm_dfmt_seen_ids()) */
	uint8_t other[128];      /* IDs present, not decoded (known_ids()) */
	int ids_all;             /* seen and other are all the IDs */
	int last_id;             /* the last live ID made current */
	etm_dfmt_judge_fn judge; /* packet-level plausibility (optional) */
	void *judge_ctx;

	/* Frame being assembled. */
	uint8_t frame[DFMT_FRAME];
	uint64_t frame_off[DFMT_FRAME];
	size_t flen;

	/* Events before the next frame's data. */
	struct dfmt_ev ev[DFMT_NEV];
	size_t nev, evpos;

	/* Output of the last decoded frame, with its own events. */
	struct dfmt_out out[DFMT_NDATA];
	size_t nout, outpos;
	struct dfmt_ev fev[DFMT_NDATA];
	size_t nfev, fevpos;
	uint8_t run[DFMT_NDATA];
};

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
	d->cur_id = DFMT_ID_UNKNOWN;
	d->last_id = DFMT_ID_UNKNOWN;
	d->in_off = base_offset;
	return d;
}

void etm_dfmt_free(struct etm_dfmt *d)
{
	free(d);
}

int etm_dfmt_push(struct etm_dfmt *d, const uint8_t *buf, size_t n)
{
	if (!d || (!buf && n) || d->finished)
		return -etme_invalid;
	if (d->pos < d->n)
		return -etme_busy;
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
	return 0;
}

static void dfmt_event(struct etm_dfmt *d, enum etm_dfmt_kind kind, int err,
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

/* Trace IDs whose data is not trace: 0x00 (NULL padding), 0x7B (flush
 * response), 0x7D (trigger); 0x70-0x7A, 0x7C, 0x7E, 0x7F are reserved. */
static int dfmt_id_is_data(int id)
{
	return id > 0 && id < 0x70;
}

static int dfmt_id_is_reserved(int id)
{
	return id >= 0x70 && id != 0x7b && id != 0x7d;
}

static void dfmt_emit(struct etm_dfmt *d, uint8_t b, uint64_t off)
{
	struct dfmt_out *o = &d->out[d->nout++];

	o->id = dfmt_id_is_data(d->cur_id) ? d->cur_id : DFMT_ID_UNKNOWN;
	o->b = b;
	o->off = off;
}

static void dfmt_set_id(struct etm_dfmt *d, int id, uint64_t off)
{
	struct dfmt_ev *e;

	if (id == d->cur_id)
		return; /* periodic re-announcement */
	d->cur_id = id;
	if (id < 0x70 && d->seen[id])
		d->last_id = id;
	if (dfmt_id_is_data(id) && !d->seen[id] && !d->other[id] &&
	    d->ids_all && d->fmt == etm_fmt_coresight && d->judge)
		d->realign = 1; /* an ID nobody announced: lost alignment? */
	if (!dfmt_id_is_reserved(id))
		return;
	if (d->fmt == etm_fmt_coresight)
		d->realign = 1; /* lost alignment? (dfmt_realign()) */
	e = &d->fev[d->nfev++];
	e->kind = etm_dfmt_error;
	e->err = etme_bad_id;
	e->off = off;
	e->pos = d->nout;
}

/* Decode the assembled frame into d->out (CoreSight formatter rules:
 * mixed bytes 0,2..14, data bytes 1,3..13, auxiliary byte 15). */
static void dfmt_decode_frame(struct etm_dfmt *d)
{
	const uint8_t *f = d->frame;
	const uint64_t *o = d->frame_off;
	uint8_t aux = f[15];
	unsigned k;

	d->nout = d->outpos = 0;
	d->nfev = d->fevpos = 0;
	for (k = 0; k < 8; k++) {
		uint8_t m = f[2 * k];
		unsigned a = (aux >> k) & 1;

		if (!(m & 1)) {
			dfmt_emit(d, (uint8_t)((m & 0xfe) | a), o[2 * k]);
			if (k < 7)
				dfmt_emit(d, f[2 * k + 1], o[2 * k + 1]);
			continue;
		}
		if (k == 7) {
			/* ID in byte 14: applies from the next frame. */
			dfmt_set_id(d, m >> 1, o[14]);
			continue;
		}
		if (a && (m >> 1) != d->cur_id) {
			/* The following byte still belongs to the old ID. */
			dfmt_emit(d, f[2 * k + 1], o[2 * k + 1]);
			dfmt_set_id(d, m >> 1, o[2 * k]);
		} else {
			dfmt_set_id(d, m >> 1, o[2 * k]);
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
		d->cur_id = DFMT_ID_UNKNOWN;
		dfmt_event(d, etm_dfmt_sync, 0, d->fsync_off);
	}
	d->fsyncs = 0;
}

static void dfmt_drop_hold(struct etm_dfmt *d, size_t k)
{
	memmove(d->hold, d->hold + k, d->nhold - k);
	memmove(d->hold_off, d->hold_off + k,
		(d->nhold - k) * sizeof(d->hold_off[0]));
	d->nhold -= k;
}

static void dfmt_on_fsync(struct etm_dfmt *d)
{
	uint64_t off = d->hold_off[0];

	dfmt_drop_hold(d, 4);
	if (d->flen) {
		/* Sync inside a frame: the partial frame is lost. */
		dfmt_event(d, etm_dfmt_error, etme_bad_frame, d->frame_off[0]);
		d->flen = 0;
		d->cur_id = DFMT_ID_UNKNOWN;
		dfmt_event(d, etm_dfmt_sync, 0, off);
	} else if (!d->aligned) {
		dfmt_event(d, etm_dfmt_sync, 0, off);
	}
	d->aligned = 1;
	if (!d->fsyncs++)
		d->fsync_off = off;
}

/* Without a judge (etm_dfmt_set_judge()): the frame structure only, over
 * the first DFMT_PLAIN_HOLD bytes. Frames at hold[k...]: DFMT_UNFIT if one
 * names a reserved ID, else how
 * well they fit: each ID byte naming a live ID (a source of the decoder)
 * counts 1. Misaligned bytes name random IDs, one in eight reserved, so a
 * wrong shift rarely passes eight frames (and an ID of a source the
 * decoder does not have, e.g. with --id, is no evidence against). */
static int dfmt_fit_plain(const struct etm_dfmt *d, size_t k)
{
	size_t f, j;
	int score = 0, tie = 0;
	size_t nh = d->nhold < DFMT_PLAIN_HOLD ? d->nhold : DFMT_PLAIN_HOLD;

	for (f = k; f + DFMT_FRAME <= nh; f += DFMT_FRAME) {
		unsigned aux = d->hold[f + DFMT_FRAME - 1];

		/* Shifts of the same parity as the right one name the same
		 * IDs (a plain data byte and the aux byte trade places). A
		 * weak tie-break, empirical only: aux bytes with bit 0 set
		 * that name no live ID. Recovery stays rare (measured in
		 * tests/cli/test-i13-17-frame_realign.sh): telling these
		 * shifts apart needs the packet layer. */
		tie += (aux & 1) && !d->seen[aux >> 1];
		for (j = 0; j < DFMT_FRAME; j += 2) {
			unsigned b = d->hold[f + j], id = b >> 1;

			if (!(b & 1))
				continue; /* data */
			if (dfmt_id_is_reserved((int)id))
				return DFMT_UNFIT;
			if (id && id != 0x7b && id != 0x7d)
				score += d->seen[id];
		}
	}
	return tie * 64 + score;
}

/* After a frame naming a reserved ID: where do the frames start? The
 * shift (0-15 bytes dropped) whose next eight frames fit best (the
 * smallest of equals, so 0 unless another fits better). A shift other
 * than 0 is a lost alignment (IHI 0029 D4: frames are 16-byte aligned in
 * the buffer; bytes were lost or inserted): an error at the first dropped
 * byte, a sync at the new frame start, and the current ID is unknown until
 * the next ID byte. */
static void dfmt_realign_plain(struct etm_dfmt *d)
{
	size_t k, best = 0;
	int s, bs = dfmt_fit_plain(d, 0);

	for (k = 1; k < DFMT_SHIFTS && k + DFMT_FRAME <= d->nhold &&
		    k + DFMT_FRAME <= DFMT_PLAIN_HOLD;
	     k++) {
		s = dfmt_fit_plain(d, k);
		if (s > bs) {
			bs = s;
			best = k;
		}
	}
	if (!best)
		return;
	dfmt_event(d, etm_dfmt_error, etme_bad_frame, d->hold_off[0]);
	dfmt_event(d, etm_dfmt_sync, 0, d->hold_off[best]);
	dfmt_drop_hold(d, best);
	d->cur_id = DFMT_ID_UNKNOWN;
}

/* The data bytes of @nf frames at @f as the formatter rules give them (as
 * dfmt_decode_frame()), each with its trace ID (0xFF: unknown), from the
 * current ID @id. Returns how many, or -1 if a frame names a reserved ID. */
static int dfmt_split(const uint8_t *f, size_t nf, int id, uint8_t *ids,
		      uint8_t *bytes)
{
	size_t i;
	unsigned k;
	int n = 0, nid, late;

	for (i = 0; i < nf; i++, f += DFMT_FRAME) {
		for (k = 0; k < 8; k++) {
			uint8_t m = f[2 * k];
			unsigned a = (f[15] >> k) & 1;

			if (!(m & 1)) {
				ids[n] = (uint8_t)id;
				bytes[n++] = (uint8_t)((m & 0xfe) | a);
				if (k == 7)
					continue;
				ids[n] = (uint8_t)id;
				bytes[n++] = f[2 * k + 1];
				continue;
			}
			nid = m >> 1;
			if (dfmt_id_is_reserved(nid))
				return -1;
			late = k < 7 && !(a && nid != id);
			if (k < 7 && !late) {
				ids[n] = (uint8_t)id; /* still the old ID's */
				bytes[n++] = f[2 * k + 1];
			}
			id = nid;
			if (late) {
				ids[n] = (uint8_t)id;
				bytes[n++] = f[2 * k + 1];
			}
		}
	}
	return n;
}

/* How well @nf frames at hold[k...] fit, from current ID @id0: DFMT_UNFIT
 * if one names a reserved ID; else each ID byte naming a live ID (a source
 * of the decoder) counts for, one naming another trace ID against, and
 * each live ID's bytes are judged as its packet stream (the judge's score,
 * etm_dfmt_set_judge()). Misaligned bytes name random IDs, one in eight
 * reserved; shifts of the same parity as the right one name the same IDs
 * (a data byte and the aux byte trade places), and only the packets tell
 * them apart: one data byte per frame is lost, another is the aux byte. */
#define DFMT_BAD_PKT 24
#define DFMT_MARGIN (2 * DFMT_BAD_PKT)
static int dfmt_fit(const struct etm_dfmt *d, size_t k, size_t nf, int id0,
		    int *bad)
{
	uint8_t ids[DFMT_WIN * DFMT_NDATA], b[DFMT_WIN * DFMT_NDATA];
	uint8_t s[DFMT_WIN * DFMT_NDATA], done[128] = { 0 };
	int n = dfmt_split(d->hold + k, nf, id0, ids, b), score = 0, i, j, m;
	unsigned judged = 0, id;
	size_t f, good;

	/* starting from an ID nobody announced */
	*bad = d->ids_all && dfmt_id_is_data(id0) && !d->seen[id0] &&
	       !d->other[id0];
	if (n < 0)
		return DFMT_UNFIT;
	for (f = k; f < k + nf * DFMT_FRAME; f += 2) {
		id = d->hold[f] >> 1;
		if (!(d->hold[f] & 1) || !id || id == 0x7b || id == 0x7d)
			continue;
		if (d->seen[id])
			score += 4;
		else if (d->ids_all && !d->other[id])
			(*bad)++; /* an ID nobody announced */
	}
	for (i = 0; d->judge && i < n && judged < DFMT_JUDGE_IDS; i++) {
		id = ids[i];
		if (id >= 0x70 || !d->seen[id] || done[id])
			continue;
		done[id] = 1;
		judged++;
		for (j = i, m = 0; j < n; j++)
			if (ids[j] == id)
				s[m++] = b[j];
		*bad += d->judge(d->judge_ctx, (uint8_t)id, s, (size_t)m,
				 &good);
		score += (int)good;
	}
	return score - DFMT_BAD_PKT * *bad;
}

/* After a frame naming a reserved ID, or when a source's packets did not
 * parse (etm_dfmt_suspect()): where do the frames start? The shift (0-15
 * bytes dropped) whose next frames fit best (the smallest of equals, so 0
 * unless another fits better). A shift other than 0 is a lost alignment
 * (IHI 0029 D4: frames are 16-byte aligned in the buffer; bytes were lost
 * or inserted): an error at the first dropped byte, a sync at the new
 * frame start; the current ID is the last live one. */
static void dfmt_realign(struct etm_dfmt *d)
{
	size_t k, best = 0, nf;
	int live = d->cur_id >= 0 && d->cur_id < 0x70 && d->seen[d->cur_id];
	int id0 = live ? d->cur_id : d->last_id;
	int s, bs, keep, bad, bad0, search;

	d->realign = 0;
	if (!d->judge) {
		dfmt_realign_plain(d);
		return;
	}
	if (d->nhold < DFMT_FRAME)
		return;
	nf = d->nhold >= DFMT_FRAME + DFMT_SHIFTS - 1 ?
		     (d->nhold - DFMT_SHIFTS + 1) / DFMT_FRAME :
		     1;
	if (nf > DFMT_WIN)
		nf = DFMT_WIN;
	/* in place, the current ID may be right, or may have come from the
	 * damage (then the last live one is) */
	bs = dfmt_fit(d, 0, nf, id0, &bad0);
	keep = !live && (s = dfmt_fit(d, 0, nf, d->cur_id, &bad)) >= bs;
	if (keep) {
		bs = s;
		bad0 = bad;
	}
	/* frames that fit in place whose packets parse: no lost alignment;
	 * else another shift must fit clearly better */
	search = bad0 || bs == DFMT_UNFIT || !d->judge;
	if (bs != DFMT_UNFIT && d->judge)
		bs += DFMT_MARGIN;
	for (k = 1; search && k < DFMT_SHIFTS &&
		    k + nf * DFMT_FRAME <= d->nhold;
	     k++) {
		s = dfmt_fit(d, k, nf, id0, &bad);
		if (s > bs) {
			bs = s;
			best = k;
		}
	}
	if (!best) {
		/* an ID nobody announced: named by the damage, or a source
		 * after all */
		if (dfmt_id_is_data(d->cur_id) && !live && !d->other[d->cur_id]) {
			if (keep)
				d->other[d->cur_id] = 1;
			else
				d->cur_id = id0;
		}
		return;
	}
	dfmt_event(d, etm_dfmt_error, etme_frame_align, d->hold_off[0]);
	dfmt_event(d, etm_dfmt_sync, 0, d->hold_off[best]);
	dfmt_drop_hold(d, best);
	d->cur_id = id0;
}

int etm_dfmt_idle(const struct etm_dfmt *d, const uint8_t **rest, size_t *n,
		  uint64_t *off, int *cur_id)
{
	if (!d || d->fmt != etm_fmt_coresight || d->finished || !d->aligned ||
	    d->realign || d->nhold || d->flen || d->fsyncs || dfmt_pending(d) ||
	    d->fevpos < d->nfev)
		return 0;
	*rest = d->buf ? d->buf + d->pos : NULL;
	*n = d->n - d->pos;
	*off = d->in_off;
	*cur_id = d->cur_id;
	return 1;
}

void etm_dfmt_set_judge(struct etm_dfmt *d, etm_dfmt_judge_fn fn, void *ctx)
{
	if (!d)
		return;
	d->judge = fn;
	d->judge_ctx = ctx;
}

void etm_dfmt_suspect(struct etm_dfmt *d)
{
	if (d && d->fmt == etm_fmt_coresight)
		d->realign = 1;
}

int etm_dfmt_hold_bytes(struct etm_dfmt *d, const uint8_t *b, size_t n,
			uint64_t off)
{
	size_t i;

	if (!d || d->nhold + n > DFMT_HOLD)
		return -etme_invalid;
	for (i = 0; i < n; i++) {
		d->hold[d->nhold] = b[i];
		d->hold_off[d->nhold++] = off + i;
	}
	d->in_off = off + n;
	return 0;
}

void etm_dfmt_seen_ids(struct etm_dfmt *d, const uint8_t *ids)
{
	int i;

	for (i = 1; d && ids && i < 0x70; i++)
		d->seen[i] |= ids[i] != 0;
}

void etm_dfmt_known_ids(struct etm_dfmt *d, const uint8_t *ids)
{
	int i;

	if (d && ids)
		d->ids_all = 1;
	for (i = 1; d && ids && i < 0x70; i++)
		d->other[i] |= ids[i] != 0;
}

/* Is hold[] a proper prefix of an FSYNC that may still complete? */
static int dfmt_hold_is_prefix(const struct etm_dfmt *d)
{
	return d->nhold < 4 && !memcmp(d->hold, fsync_pat, d->nhold);
}

/* Process held bytes. Returns 1 when progress needs more input. */
static int dfmt_step_hold(struct etm_dfmt *d)
{
	int tpiu = d->fmt == etm_fmt_tpiu;
	int sync_here = tpiu || d->flen == 0;

	if (sync_here && d->nhold >= 4 && !memcmp(d->hold, fsync_pat, 4)) {
		dfmt_on_fsync(d);
		return 0;
	}
	if (d->realign && d->flen == 0) {
		if (d->nhold < (d->judge ? DFMT_HOLD : DFMT_PLAIN_HOLD) &&
		    !d->finished)
			return 1;
		dfmt_realign(d);
		return 0;
	}
	if (!d->aligned) {
		if (d->nhold < 4)
			return 1;
		dfmt_drop_hold(d, 1);
		return 0;
	}
	if (sync_here && d->nhold && dfmt_hold_is_prefix(d) && !d->finished)
		return 1;
	if (tpiu && d->flen % 2 == 0 && d->nhold >= 2 && d->hold[0] == 0xff &&
	    d->hold[1] == 0x7f) {
		dfmt_drop_hold(d, 2); /* HSYNC */
		return 0;
	}
	if (!d->nhold)
		return 1;
	if (d->flen == 0)
		dfmt_end_fsyncs(d);
	d->frame[d->flen] = d->hold[0];
	d->frame_off[d->flen++] = d->hold_off[0];
	dfmt_drop_hold(d, 1);
	if (d->flen == DFMT_FRAME)
		dfmt_decode_frame(d);
	return 0;
}

/* Fast path: a whole frame straight from the input buffer. */
static int dfmt_fast_frame(struct etm_dfmt *d)
{
	const uint8_t *p;
	unsigned i;

	if (d->fmt != etm_fmt_coresight || d->nhold || d->flen || d->realign ||
	    d->n - d->pos < DFMT_FRAME)
		return 0;
	p = d->buf + d->pos;
	if (p[0] == 0xff)
		return 0;
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

/* Consume input until something is ready or input runs out. */
static void dfmt_fill(struct etm_dfmt *d)
{
	while (!dfmt_pending(d)) {
		if (dfmt_fast_frame(d))
			continue;
		if (!dfmt_step_hold(d))
			continue;
		if (d->pos == d->n)
			return;
		d->hold[d->nhold] = d->buf[d->pos++];
		d->hold_off[d->nhold++] = d->in_off++;
	}
}

/* After finish(): flush held bytes, then report a partial frame. */
static void dfmt_drain(struct etm_dfmt *d)
{
	while (!dfmt_pending(d) && d->nhold) {
		if (dfmt_step_hold(d) && d->nhold && !d->aligned)
			d->nhold = 0; /* unaligned leftovers: nothing to say */
	}
	if (dfmt_pending(d) || d->eos_done)
		return;
	d->eos_done = 1;
	if (d->flen) {
		dfmt_event(d, etm_dfmt_error, etme_truncated, d->frame_off[0]);
		d->flen = 0;
	} else if (!d->aligned) {
		dfmt_event(d, etm_dfmt_error, etme_nosync, d->in_off);
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
		if (!d->finished) {
			d->buf = NULL;
			d->n = d->pos = 0;
			return -etme_again;
		}
		dfmt_drain(d);
		if (!dfmt_pending(d))
			return -etme_eos;
	}
}
