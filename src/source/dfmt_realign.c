/* source/dfmt_realign.c - the deformatter's frame realignment (CoreSight
 * frames): after a frame naming a reserved ID or an ID nobody announced,
 * or when a source's packets did not parse (etm_dfmt_suspect()), every
 * shift of up to 15 bytes is scored by the frame structure and, with a
 * judge (etm_dfmt_set_judge()), a trial parse of each live source's bytes. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "source/dfmt_bulk.h"
#include "source/dfmt_int.h"
#include "source/frames.h"

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
		 * tests/cli/test-frame_realign.sh): telling these
		 * shifts apart needs the packet layer. */
		tie += (aux & 1) && !d->seen[aux >> 1];
		for (j = 0; j < DFMT_FRAME; j += 2) {
			unsigned b = d->hold[f + j], id = b >> 1;

			if (!(b & 1))
				continue; /* data */
			if (etm_frame_id_is_reserved((int)id))
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
	etm_dfmt_event(d, etm_dfmt_error, etme_bad_frame, d->hold_off[0]);
	etm_dfmt_event(d, etm_dfmt_sync, 0, d->hold_off[best]);
	etm_dfmt_drop_hold(d, best);
	d->cur_id = DFMT_ID_UNKNOWN;
}

/* Frames of a judged window that may name a reserved ID (the damage may
 * lie in them: etm_dfmt_split()). */
#define DFMT_TOLERANT 2
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
#define DFMT_FIT_MAX ((DFMT_WIN + DFMT_PRE / DFMT_FRAME) * DFMT_NDATA)
static int dfmt_fit(const struct etm_dfmt *d, const uint8_t *h, size_t k,
		    size_t nf, int id0, int *bad)
{
	uint8_t ids[DFMT_FIT_MAX], b[DFMT_FIT_MAX], s[DFMT_FIT_MAX];
	uint8_t done[128] = { 0 };
	int nres = 0, score = 0, i, j, m;
	int n = etm_dfmt_split(h + k, nf, id0, DFMT_TOLERANT, ids, b, NULL,
			       &nres);
	unsigned judged = 0, id;
	size_t f, good;

	/* starting from an ID nobody announced */
	*bad = d->ids_all && etm_frame_id_is_data(id0) && !d->seen[id0] &&
	       !d->other[id0];
	if (n < 0)
		return DFMT_UNFIT;
	/* a reserved ID in the first frames: they may hold the damage (the
	 * frames of every shift there straddle it), so it is no proof */
	*bad += nres;
	for (f = k; f < k + nf * DFMT_FRAME; f += 2) {
		if (f % DFMT_FRAME == k % DFMT_FRAME && d->ids_all &&
		    etm_frame_aux_reserved(h + f))
			(*bad)++;
		id = h[f] >> 1;
		if (!(h[f] & 1) || !id || id == 0x7b || id == 0x7d)
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

/* Shift @k (0 < k < 16) fits the @nf frames held better than shift 0:
 * where did the alignment change? The first frame c (in frames from the
 * first held byte) such that shift 0 over frames 0..c-1 (their fit
 * @head[c], from dfmt_cut_joint()) and shift @k from frame c on fit best
 * together (the first of equals: 0 unless frames in place before the
 * damage make a later cut fit better), its fit in *@fit. A window that
 * starts well before the damage (a rewind to the last push of another
 * ID's data) thus reports it at the damage, not at the window start. */
static size_t dfmt_cut(const struct etm_dfmt *d, size_t k, size_t nf, int id0,
		       const int *head, int *fit)
{
	size_t j, c = 0;
	int s, bad;

	*fit = dfmt_fit(d, d->hold, k, nf, id0, &bad);
	for (j = 1; j + 1 < nf; j++) {
		s = dfmt_fit(d, d->hold, k + j * DFMT_FRAME, nf - j, id0, &bad) +
		    head[j];
		if (s > *fit) {
			*fit = s;
			c = j;
		}
	}
	return c;
}

/* The shift and the cut together (dfmt_cut() for every shift): the
 * whole-window fit that chose shift *@k reads the frames before the
 * damage at the wrong alignment too, so where the damage lies deep in the
 * window a wrong shift of the same parity may fit best there (am243x
 * @9000, 4 bytes lost, the damage in the window's 16th frame: the window
 * chose shift 10, whose best cut, at F+4, scores 260; the right shift
 * 12's, at F-1, 432). The shift whose best cut fits best (*@k of equals,
 * then the smallest), and that cut; *@k set to it. The frames before a
 * cut fit alike for every shift: scored once. Where the window's own
 * shift cuts at its start, the window chose it from frames all after the
 * damage: no other is tried. */
static size_t dfmt_cut_joint(const struct etm_dfmt *d, size_t *k, size_t nf,
			     int id0)
{
	size_t kk, c, bc, bk = *k, j;
	int s, bs, bad, head[DFMT_WIN];

	for (j = 1; j + 1 < nf && j < DFMT_WIN; j++)
		head[j] = dfmt_fit(d, d->hold, 0, j, id0, &bad);
	/* the damage at the window start: the window's frames all read at
	 * the new alignment, and its fit chose the shift */
	bc = dfmt_cut(d, bk, nf, id0, head, &bs);
	if (!bc)
		return 0;
	for (kk = 1; kk < DFMT_SHIFTS && kk + nf * DFMT_FRAME <= d->nhold;
	     kk++) {
		if (kk == *k)
			continue; /* scored above; it wins equals */
		c = dfmt_cut(d, kk, nf, id0, head, &s);
		if (s > bs) {
			bs = s;
			bk = kk;
			bc = c;
		}
	}
	*k = bk;
	return bc;
}

/* ID bytes naming an ID of the input (a source's or another known one)
 * in @nf frames at @h + @k. */
static int dfmt_known(const struct etm_dfmt *d, const uint8_t *h, size_t k,
		      size_t nf)
{
	size_t j;
	int n = 0;

	for (j = k; j < k + nf * DFMT_FRAME; j += 2)
		n += (h[j] & 1) && (d->seen[h[j] >> 1] || d->other[h[j] >> 1]);
	return n;
}

/* No clear evidence in the scores @sc of the cuts before the window
 * (dfmt_cut_pre(); @np frames): at an even shift the frames read alike
 * at both alignments, and the judgement may come frames after the damage
 * (TC2 @12003, 4 bytes lost: at the A-sync the damage cut off). The
 * decoder's first sign of trouble at or after the first of these frames
 * (a malformed packet, a contradiction, a loss of the trace, an address
 * with no image; still retractable, etm_dfmt_set_sign()) says where it
 * began: the best cut from its frame on (the first of equals) if it fits
 * at least as well as the window start. */
static size_t dfmt_cut_sign(const struct etm_dfmt *d, const int *sc,
			    size_t np)
{
	uint64_t sg = d->sign ? d->sign(d->judge_ctx, d->pre_off) : UINT64_MAX;
	size_t j, c = np;

	if (sg == UINT64_MAX || sg < d->pre_off)
		return np;
	for (j = (size_t)((sg - d->pre_off) / DFMT_FRAME); j < np; j++)
		if (sc[j] > sc[c] || (c == np && sc[j] >= sc[np]))
			c = j;
	return c;
}

/* How well the cut at frame @j of the @np frames at @h (the frames kept
 * before the window, then the held ones; @nf of those judged) fits: the
 * old alignment before it, from the ID current at the first, shift @k
 * from it, from the ID the frames before it name (@id0 if none is
 * live). */
static int dfmt_pre_score(const struct etm_dfmt *d, const uint8_t *h,
			  size_t k, size_t j, size_t np, size_t nf, int id0)
{
	int id = dfmt_id_after(h, j, d->pre_id), bad, s;

	if (id < 0 || id >= 0x70 || !d->seen[id])
		id = id0;
	s = dfmt_fit(d, h, k + j * DFMT_FRAME, nf + np - j, id, &bad);
	if (j)
		s += dfmt_fit(d, h, 0, j, d->pre_id, &bad);
	return s;
}

/* dfmt_cut() put the cut at the window's first frame: the judgement may
 * have come late (a shift that keeps the frames plausible, its packets
 * parsing, until a later frame names an ID nobody announced), and the
 * lost alignment begun in the frames before the window, that went out at
 * the old one. The cut c (frames from the first of them, d->pre) with
 * the old alignment before it and shift @k from it that fit best, the
 * latest of equals. Returns how many of those frames stay out (up to
 * d->npre / DFMT_FRAME: the window's start). */
#define DFMT_PRE_MARGIN (DFMT_BAD_PKT / 2)
static size_t dfmt_cut_pre(const struct etm_dfmt *d, size_t k, size_t nf,
			   int id0)
{
	uint8_t h[DFMT_PRE + DFMT_HOLD];
	size_t np = d->npre / DFMT_FRAME, j, c = np;
	int s, bs = 0, t, bt = 0, s0 = 0, t0 = 0;
	int sc[DFMT_PRE / DFMT_FRAME + 1];

	memcpy(h, d->pre, d->npre);
	memcpy(h + d->npre, d->hold, d->nhold);
	for (j = np + 1; j-- > 0;) {
		s = dfmt_pre_score(d, h, k, j, np, nf, id0);
		sc[j] = s;
		/* equal (no live ID's data there): the one whose frames
		 * name more IDs of the input - at an odd shift only (an even
		 * one reads the ID bytes of the other as ID bytes too) */
		t = k % 2 ? dfmt_known(d, h, 0, j) +
				    dfmt_known(d, h, k + j * DFMT_FRAME,
					       np + 1 - j) :
			    0;
		if (j == np) {
			s0 = s;
			t0 = t;
		}
		if (j == np || s > bs || (s == bs && t > bt)) {
			bs = s;
			bt = t;
			c = j;
		}
	}
	/* only on clear evidence: at an even shift the scores of nearby
	 * cuts differ by a few bytes parsed at random */
	if (bs >= s0 + DFMT_PRE_MARGIN || (bs >= s0 && bt >= t0 + 2))
		return c;
	return dfmt_cut_sign(d, sc, np);
}

/* The cut before the window in the frames kept before the last
 * DFMT_PRE_NEAR bytes of them (a judgement up to 24 frames late: TC2
 * @8003, 10 bytes lost, an even shift whose frames and packets read
 * plausibly at the old alignment until frame F+17), only where it fits
 * clearly better: two bad packets' worth above the window start and half
 * of one above every nearer cut (the window start's frames are noise of
 * +-12 at an even shift over 24 frames: TC2 --id 0x11 @12003, 6 bytes
 * lost, judged at F itself, a cut at F-11 scored +12). The frame of it
 * (the latest of equals), or d->npre / DFMT_FRAME if none. */
static size_t dfmt_cut_far(const struct etm_dfmt *d, size_t k, size_t nf,
			   int id0)
{
	uint8_t h[DFMT_PRE + DFMT_HOLD];
	size_t np = d->npre / DFMT_FRAME, near = DFMT_PRE_NEAR / DFMT_FRAME;
	size_t j, c = np;
	int s, s0, bn = DFMT_UNFIT, bf = DFMT_UNFIT;

	if (np <= near)
		return np;
	memcpy(h, d->pre, d->npre);
	memcpy(h + d->npre, d->hold, d->nhold);
	s0 = dfmt_pre_score(d, h, k, np, np, nf, id0);
	for (j = np; j-- > 0;) {
		s = dfmt_pre_score(d, h, k, j, np, nf, id0);
		if (j >= np - near && s > bn)
			bn = s;
		if (j < np - near && s > bf) {
			bf = s;
			c = j;
		}
	}
	bn = bn > s0 ? bn : s0;
	if (bf >= s0 + DFMT_MARGIN && bf >= bn + DFMT_PRE_MARGIN)
		return c;
	return np;
}

/* dfmt_cut() put the cut at the window's first frame: a cut far before
 * it on clear evidence (dfmt_cut_far()), else in the last DFMT_PRE_NEAR
 * bytes of the frames kept before it (dfmt_cut_pre(); the others are
 * dropped). How many of those frames stay out. */
static size_t dfmt_cut_before(struct etm_dfmt *d, size_t k, size_t nf,
			      int id0)
{
	size_t c = dfmt_cut_far(d, k, nf, id0);

	if (c < d->npre / DFMT_FRAME)
		return c;
	etm_dfmt_trim_pre(d);
	return dfmt_cut_pre(d, k, nf, id0);
}

/* The frames from pre frame @c (dfmt_cut_pre()) are read again: they go
 * before the held bytes. */
static void dfmt_replay_pre(struct etm_dfmt *d, size_t c)
{
	size_t n = d->npre - c * DFMT_FRAME, i;

	memmove(d->hold + n, d->hold, d->nhold);
	memmove(d->hold_off + n, d->hold_off,
		d->nhold * sizeof(d->hold_off[0]));
	memcpy(d->hold, d->pre + c * DFMT_FRAME, n);
	for (i = 0; i < n; i++)
		d->hold_off[i] = d->pre_off + c * DFMT_FRAME + i;
	d->nhold += n;
	d->npre = 0;
}

/* Whether @id is an ID of the input (a source's or another known one). */
static int dfmt_input_id(const struct etm_dfmt *d, int id)
{
	return etm_frame_id_is_data(id) && (d->seen[id] || d->other[id]);
}

/* The last ID of the input that the @nf frames at @h name at the old
 * alignment, from @id before them (others: named by the damage). */
static int dfmt_last_input_id(const struct etm_dfmt *d, const uint8_t *h,
			      size_t nf, int id)
{
	size_t j;

	for (j = 0; j < nf * DFMT_FRAME; j += 2)
		if ((h[j] & 1) && dfmt_input_id(d, h[j] >> 1))
			id = h[j] >> 1;
	return id;
}

/* The ID current at the cut, after the @nf frames at @h before it (read
 * at the old alignment, from @id): the last ID of the input they name
 * (others come from the damage); unknown (its data goes to no source)
 * where the frame just before the cut, which may hold the damage, names
 * another; @id0, the live ID judged from, where none names one. */
static int dfmt_cut_id(const struct etm_dfmt *d, const uint8_t *h, size_t nf,
		       int id, int id0)
{
	int before;

	if (!dfmt_input_id(d, id))
		id = DFMT_ID_UNKNOWN;
	if (!nf)
		return id < 0 ? id0 : id;
	before = dfmt_last_input_id(d, h, nf - 1, id);
	id = dfmt_last_input_id(d, h + (nf - 1) * DFMT_FRAME, 1, before);
	if (id != before)
		return DFMT_ID_UNKNOWN;
	return id < 0 ? id0 : id;
}

/* The judged frames before the cut at held byte @best (the bytes
 * before it in frames: dfmt_cut_joint()) are in place and did not go out
 * (judged from a suspect frame, not a rewind): they go out at the old
 * alignment rather than being dropped (am243x @9000, 4 bytes lost: the
 * 14 frames from the suspect frame at 8752 to the cut; the hold retracts
 * what the two frames before the cut gave), and the cut is done at their
 * end (etm_dfmt_cut_due()) with the ID @id. */
static void dfmt_cut_later(struct etm_dfmt *d, size_t best, int id)
{
	d->cut_on = 1;
	d->cut_at = d->hold_off[best & ~(size_t)(DFMT_FRAME - 1)];
	d->cut_err = d->cut_at;
	d->cut_retro = UINT64_MAX;
	d->cut_k = best % DFMT_FRAME;
	d->cut_id = id;
	d->npre = 0;
}

/* The fit of the cut at frame @j of the @nf frames held, shift @k from
 * it (as dfmt_cut()). */
static int dfmt_cut_fit(const struct etm_dfmt *d, size_t k, size_t j,
			size_t nf, int id0)
{
	int bad, s = dfmt_fit(d, d->hold, k + j * DFMT_FRAME, nf - j, id0, &bad);

	return j ? s + dfmt_fit(d, d->hold, 0, j, id0, &bad) : s;
}

/* The best cut at frame @c of the @nf frames held (shift @k) goes out in
 * place (dfmt_cut_later()), but later cuts may fit near as well: at an
 * even shift the frames read alike at both alignments (am243x @9000, 6
 * bytes lost: one loop traced over and over, every cut from F-7 to F
 * within 3 of the best, F-5's). Then the frames go out at the old
 * alignment up to the latest of them, the flows being the trial: the
 * old alignment is right up to the damage, and where it is wrong the
 * flows soon say so (a malformed packet, a contradiction, a loss of the
 * trace, an address with no image: dfmt_cut_tried()); the hold retracts
 * what the frames read so gave from two frames before the first sign.
 * @h, the @n frames before the cut (read from ID @id), for the ID at
 * each later cut. Only where the sign sees the flows' elements
 * (etm_dfmt_set_flow_trial()). */
#define DFMT_NEAR 3
static void dfmt_cut_try(struct etm_dfmt *d, size_t k, size_t nf, int id0,
			 size_t c, const uint8_t *h, size_t n, int id)
{
	uint8_t g[DFMT_PRE + DFMT_HOLD];
	size_t j, l = c;
	int s0 = dfmt_cut_fit(d, k, c, nf, id0);

	d->try_on = 0;
	if (!d->flow_trial || !d->sign)
		return;
	for (j = c + 1; j + 1 < nf; j++)
		if (dfmt_cut_fit(d, k, j, nf, id0) >= s0 - DFMT_NEAR)
			l = j;
	if (l == c)
		return;
	memcpy(g, h, n * DFMT_FRAME);
	memcpy(g + n * DFMT_FRAME, d->hold + c * DFMT_FRAME,
	       (l - c) * DFMT_FRAME);
	for (j = c; j <= l; j++) {
		d->try_at[j - c] = d->hold_off[j * DFMT_FRAME];
		d->try_id[j - c] = dfmt_cut_id(d, g, n + j - c, id, id0);
	}
	d->try_n = l - c + 1;
	d->try_on = 1;
	d->cut_at = d->try_at[l - c];
	d->cut_err = d->cut_at;
	d->cut_id = d->try_id[l - c];
}

/* A frame of the cut tried at the old alignment (dfmt_cut_try()) is
 * next: after a sign of trouble from the frame before the best cut on
 * (a packet begun there may take bytes of the damaged frame), the cut is
 * due here, its error at the sign's frame (not before the best cut). */
static void dfmt_cut_tried(struct etm_dfmt *d)
{
	uint64_t o = d->hold_off[0], lo = d->try_at[0], t;
	size_t i;

	for (i = 1; i < d->try_n && d->try_at[i] != o; i++)
		;
	if (i >= d->try_n)
		return;
	t = d->sign(d->judge_ctx, lo > DFMT_FRAME ? lo - DFMT_FRAME : 0);
	if (t == UINT64_MAX || t >= o)
		return;
	t &= ~(uint64_t)(DFMT_FRAME - 1);
	d->cut_at = o;
	d->cut_id = d->try_id[i];
	d->cut_err = t > lo ? t : lo;
	d->try_on = 0;
}

int etm_dfmt_cut_due(struct etm_dfmt *d)
{
	size_t k = 0;

	if (d->try_on && d->nhold)
		dfmt_cut_tried(d);
	if (!d->nhold || d->hold_off[0] < d->cut_at)
		return 0;
	while (k < d->nhold && d->hold_off[k] < d->cut_at + d->cut_k)
		k++;
	d->try_on = 0;
	etm_dfmt_event(d, etm_dfmt_error, etme_frame_align,
		       d->cut_retro < d->cut_err ? d->cut_retro : d->cut_err);
	if (k < d->nhold)
		etm_dfmt_event(d, etm_dfmt_sync, 0, d->hold_off[k]);
	etm_dfmt_drop_hold(d, k);
	d->cur_id = d->cut_id;
	d->pre_lo = d->nhold ? d->hold_off[0] : d->cut_at + d->cut_k;
	d->cut_on = 0;
	/* what the frames before it said (an ID nobody announced, a bad
	 * packet) is judged by the cut */
	d->realign = 0;
	return 1;
}

/* Shift @best fits the @nf frames held better than shift 0: an error
 * at the frame of the cut (dfmt_cut(), or before the window:
 * dfmt_cut_pre()), a sync at the new frame start, the bytes before it
 * dropped (already out, or the damaged frame); @id0, the live ID the
 * frames were judged from. */
static void dfmt_shift(struct etm_dfmt *d, size_t best, size_t nf, int id0)
{
	size_t c = dfmt_cut_joint(d, &best, nf, id0), np = d->npre / DFMT_FRAME;
	int pre = d->npre && d->pre_off + d->npre == d->hold_off[0];
	uint8_t h[DFMT_PRE + DFMT_HOLD];
	size_t n = 0;
	int id;
	uint64_t w = pre ? d->pre_off : d->hold_off[0], at;

	if (pre && !c)
		np = dfmt_cut_before(d, best, nf, id0);
	if (np < d->npre / DFMT_FRAME) {
		memcpy(h, d->pre, np * DFMT_FRAME);
		n = np;
		dfmt_replay_pre(d, np);
	} else if (pre) {
		memcpy(h, d->pre, d->npre);
		memcpy(h + d->npre, d->hold, c * DFMT_FRAME);
		n = np + c;
	} else {
		memcpy(h, d->hold, c * DFMT_FRAME);
		n = c;
	}
	id = dfmt_cut_id(d, h, n, pre ? d->pre_id : d->cur_id, id0);
	best += c * DFMT_FRAME;
	if (c && !d->rewound) {
		dfmt_cut_later(d, best, id);
		dfmt_cut_try(d, best % DFMT_FRAME, nf, id0, c, h, n,
			     pre ? d->pre_id : d->cur_id);
		/* before it, among the data of sources not decoded: what
		 * the frames before the cut give of the decoded ones still
		 * waits, and goes with the error (decoder/elem_hold.c) */
		if (d->rt)
			d->cut_retro = etm_dfmt_retro_at(d, w, d->cut_k,
							 d->cut_at);
		return;
	}
	at = d->hold_off[best & ~(size_t)(DFMT_FRAME - 1)];
	/* before it, among the data of sources not decoded (dfmt_damage_start.c) */
	if (d->rt)
		at = etm_dfmt_retro_at(d, w, best % DFMT_FRAME, at);
	etm_dfmt_event(d, etm_dfmt_error, etme_frame_align, at);
	etm_dfmt_event(d, etm_dfmt_sync, 0, d->hold_off[best]);
	etm_dfmt_drop_hold(d, best);
	d->cur_id = id;
	d->pre_lo = d->hold_off[0];
	d->npre = 0;
}

/* After a frame naming a reserved ID, or when a source's packets did not
 * parse (etm_dfmt_suspect()): where do the frames start? The shift (0-15
 * bytes dropped) whose next frames fit best (the smallest of equals, so 0
 * unless another fits better). A shift other than 0 is a lost alignment
 * (IHI 0029 D4: frames are 16-byte aligned in the buffer; bytes were lost
 * or inserted): an error at the first dropped byte, a sync at the new
 * frame start; the current ID is the last live one. */
void etm_dfmt_realign(struct etm_dfmt *d)
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
	bs = dfmt_fit(d, d->hold, 0, nf, id0, &bad0);
	keep = !live && (s = dfmt_fit(d, d->hold, 0, nf, d->cur_id, &bad)) >= bs;
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
		s = dfmt_fit(d, d->hold, k, nf, id0, &bad);
		if (s > bs) {
			bs = s;
			best = k;
		}
	}
	if (!best) {
		/* an ID nobody announced: named by the damage, or a source
		 * after all */
		if (etm_frame_id_is_data(d->cur_id) && !live && !d->other[d->cur_id]) {
			if (keep)
				etm_dfmt_other_id(d, d->cur_id);
			else
				d->cur_id = id0;
		}
		d->judged_at = d->hold_off[0] + 1;
		d->rewound = 0;
		return;
	}
	dfmt_shift(d, best, nf, id0);
	d->rewound = 0;
}

int etm_dfmt_frame_suspect(const struct etm_dfmt *d, const uint8_t *f,
			   uint64_t off)
{
	unsigned k;
	int id;

	if (d->fmt != etm_fmt_coresight || !d->judge || d->realign ||
	    d->judged_at == off + 1)
		return 0;
	if (d->ids_all && etm_frame_aux_reserved(f))
		return 1;
	for (k = 0; k < DFMT_FRAME; k += 2) {
		id = f[k] >> 1;
		if (!(f[k] & 1) || id == d->cur_id)
			continue;
		if (etm_frame_id_is_data(id) && d->ids_all && !d->seen[id] &&
		    !d->other[id])
			return 1;
	}
	return 0;
}

void etm_dfmt_set_judge(struct etm_dfmt *d, etm_dfmt_judge_fn fn, void *ctx)
{
	if (!d)
		return;
	d->judge = fn;
	d->judge_ctx = ctx;
}

void etm_dfmt_set_sign(struct etm_dfmt *d, etm_dfmt_sign_fn fn)
{
	if (d)
		d->sign = fn;
}

void etm_dfmt_set_flow_trial(struct etm_dfmt *d, int on)
{
	if (d)
		d->flow_trial = on;
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
		d->ids_all = 1;
	for (i = 1; d && ids && i < 0x70; i++)
		d->other[i] |= ids[i] != 0;
}
