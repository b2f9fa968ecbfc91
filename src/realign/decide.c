/* realign/decide.c - the CoreSight frame realignment's decision
 * (doc/realign.md): where the deformatter asks (a frame naming a reserved
 * ID or an ID nobody announced, or a source's packets that did not parse:
 * etm_dfmt_suspect()), every shift of up to 15 bytes is scored by the
 * frame structure and a trial parse of each live source's bytes through
 * its packet decoder, the cut (where the alignment changed) is placed in
 * the window or in the frames kept before it, and the decision is written
 * back to the deformatter's window (source/dfmt_window.h). */
#include <stdint.h>
#include <string.h>

#include <etmtrace/error.h>

#include "packet/pktdec.h"
#include "realign/realign.h"
#include "realign/realign_int.h"
#include "source/dfmt_window.h"
#include "source/frame_rules.h"

/* One decision: the deformatter asking, its window, what the decoder
 * gave (etm_realign_decide()), and whether the deformatter keeps a
 * history of the sources not decoded (etm_realign_damage_start()). */
struct rl {
	struct etm_dfmt *df;
	struct etm_dfmt_window *w;
	const struct etm_realign_in *in;
	int retro;
};

/* How many malformed packets the @n bytes @b make as the packet stream of
 * trace ID @id, through its packet decoder (none: 0), and in *@good how
 * many of the bytes are in well-formed packets. */
static int rl_judge(const struct rl *d, unsigned id, const uint8_t *b,
		    size_t n, size_t *good)
{
	const struct etm_pkt_decoder *pd = id < 128 ? d->in->pd[id] : NULL;

	*good = 0;
	return pd ? etm_pkt_trial(pd, b, n, good) : 0;
}

/* How well @nf frames at hold[k...] fit, from current ID @id0: DFMT_UNFIT
 * if one names a reserved ID; else each ID byte naming a live ID (a source
 * of the decoder) counts for, one naming another trace ID against, and
 * each live ID's bytes are judged as its packet stream (rl_judge()). Misaligned bytes name random IDs, one in eight
 * reserved; shifts of the same parity as the right one name the same IDs
 * (a data byte and the aux byte trade places), and only the packets tell
 * them apart: one data byte per frame is lost, another is the aux byte. */
/* Frames of a judged window that may name a reserved ID (the damage may
 * lie in them: etm_dfmt_split()). */
#define DFMT_TOLERANT 2
#define DFMT_BAD_PKT 24
#define DFMT_MARGIN (2 * DFMT_BAD_PKT)
#define DFMT_FIT_MAX ((DFMT_WIN + DFMT_PRE / DFMT_FRAME) * DFMT_NDATA)
static int dfmt_fit(const struct rl *d, const uint8_t *h, size_t k,
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
	*bad = d->w->ids_all && etm_frame_id_is_data(id0) && !d->w->seen[id0] &&
	       !d->w->other[id0];
	if (n < 0)
		return DFMT_UNFIT;
	/* a reserved ID in the first frames: they may hold the damage (the
	 * frames of every shift there straddle it), so it is no proof */
	*bad += nres;
	for (f = k; f < k + nf * DFMT_FRAME; f += 2) {
		if (f % DFMT_FRAME == k % DFMT_FRAME && d->w->ids_all &&
		    etm_frame_aux_reserved(h + f))
			(*bad)++;
		id = h[f] >> 1;
		if (!(h[f] & 1) || !id || id == 0x7b || id == 0x7d)
			continue;
		if (d->w->seen[id])
			score += 4;
		else if (d->w->ids_all && !d->w->other[id])
			(*bad)++; /* an ID nobody announced */
	}
	for (i = 0; i < n && judged < DFMT_JUDGE_IDS; i++) {
		id = ids[i];
		if (id >= 0x70 || !d->w->seen[id] || done[id])
			continue;
		done[id] = 1;
		judged++;
		for (j = i, m = 0; j < n; j++)
			if (ids[j] == id)
				s[m++] = b[j];
		*bad += rl_judge(d, id, s, (size_t)m,
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
static size_t dfmt_cut(const struct rl *d, size_t k, size_t nf, int id0,
		       const int *head, int *fit)
{
	size_t j, c = 0;
	int s, bad;

	*fit = dfmt_fit(d, d->w->hold, k, nf, id0, &bad);
	for (j = 1; j + 1 < nf; j++) {
		s = dfmt_fit(d, d->w->hold, k + j * DFMT_FRAME, nf - j, id0, &bad) +
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
static size_t dfmt_cut_joint(const struct rl *d, size_t *k, size_t nf,
			     int id0)
{
	size_t kk, c, bc, bk = *k, j;
	int s, bs, bad, head[DFMT_WIN];

	for (j = 1; j + 1 < nf && j < DFMT_WIN; j++)
		head[j] = dfmt_fit(d, d->w->hold, 0, j, id0, &bad);
	/* the damage at the window start: the window's frames all read at
	 * the new alignment, and its fit chose the shift */
	bc = dfmt_cut(d, bk, nf, id0, head, &bs);
	if (!bc)
		return 0;
	for (kk = 1; kk < DFMT_SHIFTS && kk + nf * DFMT_FRAME <= d->w->nhold;
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
static int dfmt_known(const struct rl *d, const uint8_t *h, size_t k,
		      size_t nf)
{
	size_t j;
	int n = 0;

	for (j = k; j < k + nf * DFMT_FRAME; j += 2)
		n += (h[j] & 1) && (d->w->seen[h[j] >> 1] || d->w->other[h[j] >> 1]);
	return n;
}

/* No clear evidence in the scores @sc of the cuts before the window
 * (dfmt_cut_pre(); @np frames): at an even shift the frames read alike
 * at both alignments, and the judgement may come frames after the damage
 * (TC2 @12003, 4 bytes lost: at the A-sync the damage cut off). The
 * decoder's first sign of trouble at or after the first of these frames
 * (a malformed packet, a contradiction, a loss of the trace, an address
 * with no image; still retractable: the decoder's, etm_realign_in) says where it
 * began: the best cut from its frame on (the first of equals) if it fits
 * at least as well as the window start. */
static size_t dfmt_cut_sign(const struct rl *d, const int *sc,
			    size_t np)
{
	uint64_t sg = d->in->sign;
	size_t j, c = np;

	if (sg == UINT64_MAX || sg < d->w->pre_off)
		return np;
	for (j = (size_t)((sg - d->w->pre_off) / DFMT_FRAME); j < np; j++)
		if (sc[j] > sc[c] || (c == np && sc[j] >= sc[np]))
			c = j;
	return c;
}

/* How well the cut at frame @j of the @np frames at @h (the frames kept
 * before the window, then the held ones; @nf of those judged) fits: the
 * old alignment before it, from the ID current at the first, shift @k
 * from it, from the ID the frames before it name (@id0 if none is
 * live). */
static int dfmt_pre_score(const struct rl *d, const uint8_t *h,
			  size_t k, size_t j, size_t np, size_t nf, int id0)
{
	int id = dfmt_id_after(h, j, d->w->pre_id), bad, s;

	if (id < 0 || id >= 0x70 || !d->w->seen[id])
		id = id0;
	s = dfmt_fit(d, h, k + j * DFMT_FRAME, nf + np - j, id, &bad);
	if (j)
		s += dfmt_fit(d, h, 0, j, d->w->pre_id, &bad);
	return s;
}

/* dfmt_cut() put the cut at the window's first frame: the judgement may
 * have come late (a shift that keeps the frames plausible, its packets
 * parsing, until a later frame names an ID nobody announced), and the
 * lost alignment begun in the frames before the window, that went out at
 * the old one. The cut c (frames from the first of them, d->w->pre) with
 * the old alignment before it and shift @k from it that fit best, the
 * latest of equals. Returns how many of those frames stay out (up to
 * d->w->npre / DFMT_FRAME: the window's start). */
#define DFMT_PRE_MARGIN (DFMT_BAD_PKT / 2)
static size_t dfmt_cut_pre(const struct rl *d, size_t k, size_t nf,
			   int id0)
{
	uint8_t h[DFMT_PRE + DFMT_HOLD];
	size_t np = d->w->npre / DFMT_FRAME, j, c = np;
	int s, bs = 0, t, bt = 0, s0 = 0, t0 = 0;
	int sc[DFMT_PRE / DFMT_FRAME + 1];

	memcpy(h, d->w->pre, d->w->npre);
	memcpy(h + d->w->npre, d->w->hold, d->w->nhold);
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
 * (the latest of equals), or d->w->npre / DFMT_FRAME if none. */
static size_t dfmt_cut_far(const struct rl *d, size_t k, size_t nf,
			   int id0)
{
	uint8_t h[DFMT_PRE + DFMT_HOLD];
	size_t np = d->w->npre / DFMT_FRAME, near = DFMT_PRE_NEAR / DFMT_FRAME;
	size_t j, c = np;
	int s, s0, bn = DFMT_UNFIT, bf = DFMT_UNFIT;

	if (np <= near)
		return np;
	memcpy(h, d->w->pre, d->w->npre);
	memcpy(h + d->w->npre, d->w->hold, d->w->nhold);
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
static size_t dfmt_cut_before(const struct rl *d, size_t k, size_t nf,
			      int id0)
{
	size_t c = dfmt_cut_far(d, k, nf, id0);

	if (c < d->w->npre / DFMT_FRAME)
		return c;
	etm_dfmt_trim_pre(d->df);
	return dfmt_cut_pre(d, k, nf, id0);
}

/* The frames from pre frame @c (dfmt_cut_pre()) are read again: they go
 * before the held bytes. */
static void dfmt_replay_pre(const struct rl *d, size_t c)
{
	size_t n = d->w->npre - c * DFMT_FRAME, i;

	memmove(d->w->hold + n, d->w->hold, d->w->nhold);
	memmove(d->w->hold_off + n, d->w->hold_off,
		d->w->nhold * sizeof(d->w->hold_off[0]));
	memcpy(d->w->hold, d->w->pre + c * DFMT_FRAME, n);
	for (i = 0; i < n; i++)
		d->w->hold_off[i] = d->w->pre_off + c * DFMT_FRAME + i;
	d->w->nhold += n;
	d->w->npre = 0;
}

/* Whether @id is an ID of the input (a source's or another known one). */
static int dfmt_input_id(const struct rl *d, int id)
{
	return etm_frame_id_is_data(id) && (d->w->seen[id] || d->w->other[id]);
}

/* The last ID of the input that the @nf frames at @h name at the old
 * alignment, from @id before them (others: named by the damage). */
static int dfmt_last_input_id(const struct rl *d, const uint8_t *h,
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
static int dfmt_cut_id(const struct rl *d, const uint8_t *h, size_t nf,
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
static void dfmt_cut_later(const struct rl *d, size_t best, int id)
{
	d->w->cut_on = 1;
	d->w->cut_at = d->w->hold_off[best & ~(size_t)(DFMT_FRAME - 1)];
	d->w->cut_err = d->w->cut_at;
	d->w->cut_retro = UINT64_MAX;
	d->w->cut_k = best % DFMT_FRAME;
	d->w->cut_id = id;
	d->w->npre = 0;
}

/* The fit of the cut at frame @j of the @nf frames held, shift @k from
 * it (as dfmt_cut()). */
static int dfmt_cut_fit(const struct rl *d, size_t k, size_t j,
			size_t nf, int id0)
{
	int bad, s = dfmt_fit(d, d->w->hold, k + j * DFMT_FRAME, nf - j, id0, &bad);

	return j ? s + dfmt_fit(d, d->w->hold, 0, j, id0, &bad) : s;
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
static void dfmt_cut_try(const struct rl *d, size_t k, size_t nf, int id0,
			 size_t c, const uint8_t *h, size_t n, int id)
{
	uint8_t g[DFMT_PRE + DFMT_HOLD];
	size_t j, l = c;
	int s0 = dfmt_cut_fit(d, k, c, nf, id0);

	d->w->try_on = 0;
	if (!d->w->flow_trial)
		return;
	for (j = c + 1; j + 1 < nf; j++)
		if (dfmt_cut_fit(d, k, j, nf, id0) >= s0 - DFMT_NEAR)
			l = j;
	if (l == c)
		return;
	memcpy(g, h, n * DFMT_FRAME);
	memcpy(g + n * DFMT_FRAME, d->w->hold + c * DFMT_FRAME,
	       (l - c) * DFMT_FRAME);
	for (j = c; j <= l; j++) {
		d->w->try_at[j - c] = d->w->hold_off[j * DFMT_FRAME];
		d->w->try_id[j - c] = dfmt_cut_id(d, g, n + j - c, id, id0);
	}
	d->w->try_n = l - c + 1;
	d->w->try_on = 1;
	d->w->try_asked = 0;
	d->w->cut_at = d->w->try_at[l - c];
	d->w->cut_err = d->w->cut_at;
	d->w->cut_id = d->w->try_id[l - c];
}

/* Shift @best fits the @nf frames held better than shift 0: an error
 * at the frame of the cut (dfmt_cut(), or before the window:
 * dfmt_cut_pre()), a sync at the new frame start, the bytes before it
 * dropped (already out, or the damaged frame); @id0, the live ID the
 * frames were judged from. */
static void dfmt_shift(const struct rl *d, size_t best, size_t nf, int id0)
{
	size_t c = dfmt_cut_joint(d, &best, nf, id0), np = d->w->npre / DFMT_FRAME;
	int pre = d->w->npre && d->w->pre_off + d->w->npre == d->w->hold_off[0];
	uint8_t h[DFMT_PRE + DFMT_HOLD];
	size_t n = 0;
	int id;
	uint64_t w = pre ? d->w->pre_off : d->w->hold_off[0], at;

	if (pre && !c)
		np = dfmt_cut_before(d, best, nf, id0);
	if (np < d->w->npre / DFMT_FRAME) {
		memcpy(h, d->w->pre, np * DFMT_FRAME);
		n = np;
		dfmt_replay_pre(d, np);
	} else if (pre) {
		memcpy(h, d->w->pre, d->w->npre);
		memcpy(h + d->w->npre, d->w->hold, c * DFMT_FRAME);
		n = np + c;
	} else {
		memcpy(h, d->w->hold, c * DFMT_FRAME);
		n = c;
	}
	id = dfmt_cut_id(d, h, n, pre ? d->w->pre_id : d->w->cur_id, id0);
	best += c * DFMT_FRAME;
	if (c && !d->w->rewound) {
		dfmt_cut_later(d, best, id);
		dfmt_cut_try(d, best % DFMT_FRAME, nf, id0, c, h, n,
			     pre ? d->w->pre_id : d->w->cur_id);
		/* before it, among the data of sources not decoded: what
		 * the frames before the cut give of the decoded ones still
		 * waits, and goes with the error (decoder/elem_hold.c) */
		if (d->retro)
			d->w->cut_retro = etm_realign_damage_start(d->df, d->in, w, d->w->cut_k,
								   d->w->cut_at);
		return;
	}
	at = d->w->hold_off[best & ~(size_t)(DFMT_FRAME - 1)];
	/* before it, among the data of sources not decoded (dfmt_damage_start.c) */
	if (d->retro)
		at = etm_realign_damage_start(d->df, d->in, w, best % DFMT_FRAME, at);
	etm_dfmt_event(d->df, etm_dfmt_error, etme_frame_align, at);
	etm_dfmt_event(d->df, etm_dfmt_sync, 0, d->w->hold_off[best]);
	etm_dfmt_drop_hold(d->df, best);
	d->w->cur_id = id;
	d->w->pre_lo = d->w->hold_off[0];
	d->w->npre = 0;
}

/* Where do the frames start? The shift (0-15 bytes dropped) whose next
 * frames fit best (the smallest of equals, so 0 unless another fits
 * better). A shift other than 0 is a lost alignment (IHI 0029 D4: frames
 * are 16-byte aligned in the buffer; bytes were lost or inserted): an
 * error at the first dropped byte, a sync at the new frame start; the
 * current ID is the last live one. */
static void rl_decide(const struct rl *d)
{
	size_t k, best = 0, nf;
	int live = d->w->cur_id >= 0 && d->w->cur_id < 0x70 && d->w->seen[d->w->cur_id];
	int id0 = live ? d->w->cur_id : d->w->last_id;
	int s, bs, keep, bad, bad0, search;

	if (d->w->nhold < DFMT_FRAME)
		return;
	nf = d->w->nhold >= DFMT_FRAME + DFMT_SHIFTS - 1 ?
		     (d->w->nhold - DFMT_SHIFTS + 1) / DFMT_FRAME :
		     1;
	if (nf > DFMT_WIN)
		nf = DFMT_WIN;
	/* in place, the current ID may be right, or may have come from the
	 * damage (then the last live one is) */
	bs = dfmt_fit(d, d->w->hold, 0, nf, id0, &bad0);
	keep = !live && (s = dfmt_fit(d, d->w->hold, 0, nf, d->w->cur_id, &bad)) >= bs;
	if (keep) {
		bs = s;
		bad0 = bad;
	}
	/* frames that fit in place whose packets parse: no lost alignment;
	 * else another shift must fit clearly better */
	search = bad0 || bs == DFMT_UNFIT;
	if (bs != DFMT_UNFIT)
		bs += DFMT_MARGIN;
	for (k = 1; search && k < DFMT_SHIFTS &&
		    k + nf * DFMT_FRAME <= d->w->nhold;
	     k++) {
		s = dfmt_fit(d, d->w->hold, k, nf, id0, &bad);
		if (s > bs) {
			bs = s;
			best = k;
		}
	}
	if (!best) {
		/* an ID nobody announced: named by the damage, or a source
		 * after all */
		if (etm_frame_id_is_data(d->w->cur_id) && !live && !d->w->other[d->w->cur_id]) {
			if (keep)
				etm_dfmt_other_id(d->df, d->w->cur_id);
			else
				d->w->cur_id = id0;
		}
		d->w->judged_at = d->w->hold_off[0] + 1;
		d->w->rewound = 0;
		return;
	}
	dfmt_shift(d, best, nf, id0);
	d->w->rewound = 0;
}

/* The deformatter asks at a frame of the cut tried at the old alignment
 * (cut_try(); it is next, at try_at[try_i]): after a sign of trouble from
 * the frame before the best cut on (a packet begun there may take bytes
 * of the damaged frame), the cut is due here, its error at the sign's
 * frame (not before the best cut). */
static void rl_tried(const struct rl *d)
{
	uint64_t o = d->w->hold_off[0], lo = d->w->try_at[0];
	uint64_t t = d->in->sign;

	if (t == UINT64_MAX || t >= o)
		return;
	t &= ~(uint64_t)(DFMT_FRAME - 1);
	d->w->cut_at = o;
	d->w->cut_id = d->w->try_id[d->w->try_i];
	d->w->cut_err = t > lo ? t : lo;
	d->w->try_on = 0;
}

uint64_t etm_realign_sign_from(struct etm_dfmt *df)
{
	const struct etm_dfmt_window *w = etm_dfmt_window(df);

	if (w->try_ask)
		return w->try_at[0] > DFMT_FRAME ? w->try_at[0] - DFMT_FRAME :
						   0;
	/* the frames kept before the window as the cut before it reads them
	 * (etm_dfmt_trim_pre(): the last DFMT_PRE_NEAR bytes) */
	return w->pre_off +
	       (w->npre > DFMT_PRE_NEAR ? w->npre - DFMT_PRE_NEAR : 0);
}

void etm_realign_decide(struct etm_dfmt *df, const struct etm_realign_in *in)
{
	struct rl r;

	r.df = df;
	r.w = etm_dfmt_window(df);
	r.in = in;
	r.retro = etm_dfmt_keeps_history(df);
	if (r.w->try_ask) {
		r.w->try_ask = 0;
		rl_tried(&r);
	} else {
		rl_decide(&r);
	}
}
