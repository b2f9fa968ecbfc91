/* source/dfmt_realign.c - the deformatter's side of the frame realignment
 * (CoreSight frames): when a frame is suspect (a reserved ID, an ID nobody
 * announced) or a source's packets did not parse (etm_dfmt_suspect()),
 * either it realigns by the frame structure alone, or, where the decision
 * is made above (etm_dfmt_set_decide(): src/realign/), it stops and asks
 * and then acts on the decision written to its window (a cut waiting at a
 * later frame: etm_dfmt_cut_due()). */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "source/dfmt_bulk.h"
#include "source/dfmt_int.h"
#include "source/frames.h"

/* Decided here (no etm_dfmt_set_decide()): the frame structure only, over
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
	size_t nh = d->w.nhold < DFMT_PLAIN_HOLD ? d->w.nhold : DFMT_PLAIN_HOLD;

	for (f = k; f + DFMT_FRAME <= nh; f += DFMT_FRAME) {
		unsigned aux = d->w.hold[f + DFMT_FRAME - 1];

		/* Shifts of the same parity as the right one name the same
		 * IDs (a plain data byte and the aux byte trade places). A
		 * weak tie-break, empirical only: aux bytes with bit 0 set
		 * that name no live ID. Recovery stays rare (measured in
		 * tests/cli/test-frame_realign.sh): telling these
		 * shifts apart needs the packet layer. */
		tie += (aux & 1) && !d->w.seen[aux >> 1];
		for (j = 0; j < DFMT_FRAME; j += 2) {
			unsigned b = d->w.hold[f + j], id = b >> 1;

			if (!(b & 1))
				continue; /* data */
			if (etm_frame_id_is_reserved((int)id))
				return DFMT_UNFIT;
			if (id && id != 0x7b && id != 0x7d)
				score += d->w.seen[id];
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
void etm_dfmt_realign_plain(struct etm_dfmt *d)
{
	size_t k, best = 0;
	int s, bs = dfmt_fit_plain(d, 0);

	for (k = 1; k < DFMT_SHIFTS && k + DFMT_FRAME <= d->w.nhold &&
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
	etm_dfmt_event(d, etm_dfmt_error, etme_bad_frame, d->w.hold_off[0]);
	etm_dfmt_event(d, etm_dfmt_sync, 0, d->w.hold_off[best]);
	etm_dfmt_drop_hold(d, best);
	d->w.cur_id = DFMT_ID_UNKNOWN;
}

int etm_dfmt_split(const uint8_t *f, size_t nf, int id, size_t tolerant,
		   uint8_t *ids, uint8_t *bytes, uint16_t *pos, int *nres)
{
	size_t i;
	unsigned k;
	int n = 0, nid, late;

	for (i = 0; i < nf; i++, f += DFMT_FRAME) {
		for (k = 0; k < 8; k++) {
			uint8_t m = f[2 * k];
			uint16_t at = (uint16_t)(i * DFMT_FRAME + 2 * k);

			if (!etm_frame_is_id(m)) {
				if (pos)
					pos[n] = at;
				ids[n] = (uint8_t)id;
				bytes[n++] = etm_frame_mixed_data(f, k);
				if (k == 7)
					continue;
				if (pos)
					pos[n] = at + 1;
				ids[n] = (uint8_t)id;
				bytes[n++] = f[2 * k + 1];
				continue;
			}
			nid = m >> 1;
			if (etm_frame_id_is_reserved(nid) && i >= tolerant)
				return -1;
			*nres += etm_frame_id_is_reserved(nid);
			/* the byte after it: still the old ID's, or the new */
			late = k < 7 && !etm_frame_next_is_old(f, k, nid, id);
			if (k < 7) {
				if (pos)
					pos[n] = at + 1;
				ids[n] = (uint8_t)(late ? nid : id);
				bytes[n++] = f[2 * k + 1];
			}
			id = nid;
		}
	}
	return n;
}

/* A frame of the cut tried at the old alignment (realign/, cut_try()) is
 * next and the realignment has not seen it: it asks there (the first sign
 * of trouble from the frame before the best cut on decides whether the
 * cut is due here: rl_tried()). */
static int dfmt_try_asks(struct etm_dfmt *d)
{
	uint64_t o = d->w.hold_off[0];
	size_t i;

	if (d->w.try_asked == o + 1)
		return 0;
	for (i = 1; i < d->w.try_n && d->w.try_at[i] != o; i++)
		;
	if (i >= d->w.try_n)
		return 0;
	d->w.try_asked = o + 1;
	d->w.try_i = i;
	d->w.try_ask = 1;
	return 1;
}

int etm_dfmt_cut_due(struct etm_dfmt *d)
{
	size_t k = 0;

	if (d->w.try_on && d->w.nhold && dfmt_try_asks(d))
		return -1;
	if (!d->w.nhold || d->w.hold_off[0] < d->w.cut_at)
		return 0;
	while (k < d->w.nhold && d->w.hold_off[k] < d->w.cut_at + d->w.cut_k)
		k++;
	d->w.try_on = 0;
	etm_dfmt_event(d, etm_dfmt_error, etme_frame_align,
		       d->w.cut_retro < d->w.cut_err ? d->w.cut_retro : d->w.cut_err);
	if (k < d->w.nhold)
		etm_dfmt_event(d, etm_dfmt_sync, 0, d->w.hold_off[k]);
	etm_dfmt_drop_hold(d, k);
	d->w.cur_id = d->w.cut_id;
	d->w.pre_lo = d->w.nhold ? d->w.hold_off[0] : d->w.cut_at + d->w.cut_k;
	d->w.cut_on = 0;
	/* what the frames before it said (an ID nobody announced, a bad
	 * packet) is judged by the cut */
	d->realign = 0;
	return 1;
}

int etm_dfmt_frame_suspect(const struct etm_dfmt *d, const uint8_t *f,
			   uint64_t off)
{
	unsigned k;
	int id;

	if (d->fmt != etm_fmt_coresight || !d->decide || d->realign ||
	    d->w.judged_at == off + 1)
		return 0;
	if (d->w.ids_all && etm_frame_aux_reserved(f))
		return 1;
	for (k = 0; k < DFMT_FRAME; k += 2) {
		id = f[k] >> 1;
		if (!(f[k] & 1) || id == d->w.cur_id)
			continue;
		if (etm_frame_id_is_data(id) && d->w.ids_all && !d->w.seen[id] &&
		    !d->w.other[id])
			return 1;
	}
	return 0;
}

void etm_dfmt_set_decide(struct etm_dfmt *d, int on)
{
	if (d)
		d->decide = on;
}

struct etm_dfmt_window *etm_dfmt_window(struct etm_dfmt *d)
{
	return &d->w;
}

int etm_dfmt_keeps_history(const struct etm_dfmt *d)
{
	return d->rt != NULL;
}

void etm_dfmt_set_flow_trial(struct etm_dfmt *d, int on)
{
	if (d)
		d->w.flow_trial = on;
}

void etm_dfmt_suspect(struct etm_dfmt *d)
{
	if (d && d->fmt == etm_fmt_coresight)
		d->realign = 1;
}

void etm_dfmt_known_ids(struct etm_dfmt *d, const uint8_t *ids)
{
	int i;

	if (d && ids)
		d->w.ids_all = 1;
	for (i = 1; d && ids && i < 0x70; i++)
		d->w.other[i] |= ids[i] != 0;
}
