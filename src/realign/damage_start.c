/* realign/damage_start.c - where a late realignment's damage began, when
 * the input holds sources the decoder does not decode (a selection,
 * `--id`): their data is not parsed on the way (the single-ID fast path
 * skips it), so damage among it shows only when a decoded source's data
 * comes, up to hundreds of frames on. Only once a realignment is decided,
 * the input before its cut (DFMT_RETRO_REACH bytes before the frames it
 * judged, from the history the deformatter keeps, etm_dfmt_history()) is
 * read at the old alignment and each left-out source's packets parsed
 * from its first A-sync there, through its packet decoder and, with its
 * image, a trial flow: the first malformed packet (or contradiction with
 * the image) whose data from there on makes no more malformed packets at
 * some shift than unshifted (a lost alignment, not damaged data) is where
 * the error goes - if no data of a decoded source whose elements may be
 * out lies from its frame on (offsets would go backwards in the listing;
 * those still waiting are withdrawn from there, decoder/elem_hold.c). */
#include <stdint.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "packet/pktdec.h"
#include "realign/realign.h"
#include "realign/realign_int.h"
#include "source/dfmt_window.h"

int etm_realign_elem_sign(const struct etm_elem *e)
{
	return e->kind == etmk_nosync ||
	       (e->kind == etmk_error &&
		(e->err == etme_bad_opc || e->err == etme_bad_packet ||
		 e->err == etme_bad_timestamp || e->err == etme_mismatch));
}

int etm_realign_elem_trouble(const struct etm_elem *e)
{
	return etm_realign_elem_sign(e) || e->kind == etmk_nomem;
}

/* Whether packet @p says the stream is malformed there. */
static int left_bad(const struct etm_packet *p)
{
	return p->type == etmp_error &&
	       (p->err == etme_bad_opc || p->err == etme_bad_packet);
}

/* Packet @p into the trial flow @fl (NULL: none); the offset of the first
 * sign among its elements once the flow is on (*@on: a trace_on seen),
 * else SIZE_MAX. */
static size_t left_flow(struct etm_flow *fl, const struct etm_packet *p,
			int *on)
{
	struct etm_elem e;
	size_t at = SIZE_MAX;

	if (!fl || etm_flow_put(fl, p) < 0)
		return SIZE_MAX;
	while (etm_flow_next(fl, &e, sizeof(e)) == 0) {
		if (*on && at == SIZE_MAX && etm_realign_elem_trouble(&e))
			at = (size_t)e.offset;
		*on |= e.kind == etmk_trace_on;
	}
	return at;
}

/* The trial flow of left-out source @id, made at its first use; reset. */
static struct etm_flow *left_fl(struct etm_realign_left *l, unsigned id)
{
	if (!l->img[id])
		return NULL;
	if (!l->fl[id])
		l->fl[id] = etm_flow_alloc(&l->cfg[id], l->img[id]);
	if (l->fl[id])
		etm_flow_reset(l->fl[id]);
	return l->fl[id];
}

/* The first malformed packet of ID @id's bytes @b after
 * their first A-sync, through its packet decoder from a reset, or the
 * packet of the first contradiction of its trial flow over the image if
 * earlier (after the flow's first trace_on). */
static size_t rl_scan(struct etm_realign_left *l, unsigned id,
		      const uint8_t *b, size_t n, int *bad)
{
	struct etm_pkt_decoder *pd = id < 128 ? l->pd[id] : NULL;
	struct etm_flow *fl;
	struct etm_packet pkt;
	size_t at = SIZE_MAX, good;
	int synced = 0, on = 0;

	*bad = 0;
	if (!pd)
		return SIZE_MAX;
	etm_pkt_reset(pd);
	*bad = etm_pkt_trial(pd, b, n, &good);
	if (etm_pkt_push(pd, b, n, 0) < 0)
		return SIZE_MAX;
	fl = left_fl(l, id);
	while (at == SIZE_MAX && etm_pkt_next(pd, &pkt, sizeof(pkt)) == 0) {
		synced |= pkt.type == etmp_async;
		if (synced && left_bad(&pkt))
			at = (size_t)pkt.offset;
		else if (synced)
			at = left_flow(fl, &pkt, &on);
	}
	etm_pkt_reset(pd);
	return at;
}

/* What a stream of one ID is read from: the frames, the ID current
 * before them, and where data of a decoded source blocks the report
 * (@seen, or an unknown ID, in the first @lim frames: what was made from
 * it may be out; @live NULL: not looked at). */
struct retro_rd {
	const uint8_t *h;
	size_t nf;
	int id;
	const uint8_t *seen;
	size_t lim, *live;
};

/* The data bytes of trace ID @want in the frames of @r, as the formatter
 * rules give them (etm_dfmt_split(), no frame refused), into @out with
 * their index in the frames in @pos (room for every data byte of the
 * frames); how many. */
static size_t retro_stream(const struct retro_rd *r, int want, uint8_t *out,
			   uint16_t *pos)
{
	uint8_t ids[DFMT_RETRO_MAX];
	int nres = 0, n = etm_dfmt_split(r->h, r->nf, r->id, r->nf, ids, out,
					 pos, &nres);
	size_t i, m = 0, f;

	for (i = 0; i < (size_t)n; i++) {
		f = pos[i] / DFMT_FRAME;
		if (r->live && f < r->lim &&
		    (ids[i] == 0xff || (ids[i] < 0x70 && r->seen[ids[i]])))
			*r->live = f + 1;
		if (ids[i] != want)
			continue;
		out[m] = out[i];
		pos[m++] = pos[i];
	}
	return m;
}

/* The first frame (from @h) of a frame naming FSYNC's first bytes, or a
 * frame at @nf: the grid may change there. */
static size_t retro_fsync_end(const uint8_t *h, size_t nf)
{
	size_t f, e = 0;

	for (f = 0; f < nf; f++, h += DFMT_FRAME)
		if (h[0] == 0xff && h[1] == 0xff && h[2] == 0xff && h[3] == 0x7f)
			e = f + 1;
	return e;
}

/* Malformed packets of ID @want in the frames of @r (etm_pkt_trial()). */
static int retro_bad(struct etm_realign_left *l, const struct retro_rd *r,
		     int want)
{
	uint8_t s[DFMT_RETRO_MAX];
	uint16_t pos[DFMT_RETRO_MAX];
	size_t m = retro_stream(r, want, s, pos);
	int bad = 0;

	if (m)
		rl_scan(l, (unsigned)want, s, m, &bad);
	return bad;
}

/* A malformed packet of ID @want in frame @fb of the @nf frames at @h:
 * whether the data of @want from that frame on makes no more malformed
 * packets at some shift (the realignment's, @k, first) than unshifted -
 * where the data was damaged and the alignment not lost (a bit flip),
 * every shift makes more. Any shift, since the realignment may have
 * taken a wrong one of the same parity (a later one corrects it). */
static int retro_shifted(struct etm_realign_left *l, const uint8_t *h,
			 size_t nf, size_t fb, size_t k, int want)
{
	struct retro_rd r = { 0 };
	size_t j, sh;
	int old;

	r.h = h + fb * DFMT_FRAME;
	r.nf = nf - fb;
	r.id = dfmt_id_after(h, fb, DFMT_ID_UNKNOWN);
	if (r.id < 0)
		r.id = want;
	old = retro_bad(l, &r, want);
	for (j = 0; j + 1 < DFMT_SHIFTS; j++) {
		sh = (k + j - 1) % (DFMT_SHIFTS - 1) + 1;
		r.h = h + fb * DFMT_FRAME + sh;
		r.nf = ((nf - fb) * DFMT_FRAME - sh) / DFMT_FRAME;
		if (retro_bad(l, &r, want) <= old)
			return 1;
	}
	return 0;
}

uint64_t etm_realign_damage_start(struct etm_dfmt *df,
				  const struct etm_realign_in *in, uint64_t w,
				  size_t k, uint64_t at)
{
	const struct etm_dfmt_window *wd = etm_dfmt_window(df);
	struct etm_realign_left *l = in->left;
	uint8_t h[DFMT_RETRO_MAX], s[DFMT_RETRO_MAX];
	uint16_t pos[DFMT_RETRO_MAX];
	uint64_t lo = w > DFMT_RETRO_REACH ? w - DFMT_RETRO_REACH : 0;
	uint64_t best = at, out, b;
	size_t nf, m, i, live = 0, f0, first;
	struct retro_rd r = { 0 };
	int bad;

	if (!l)
		return at;
	if (lo < wd->pre_lo)
		lo = wd->pre_lo;
	nf = (size_t)((at - lo) / DFMT_FRAME);
	lo = at - nf * DFMT_FRAME;
	if (!nf || at - lo > DFMT_RETRO_MAX || !etm_dfmt_history(df, lo, at, h))
		return at;
	f0 = retro_fsync_end(h, nf);
	lo += f0 * DFMT_FRAME;
	r.h = h + f0 * DFMT_FRAME;
	r.nf = nf - f0;
	r.id = DFMT_ID_UNKNOWN;
	r.seen = wd->seen;
	/* the frames whose decoded data may be out already */
	out = in->out;
	r.lim = out <= lo ? 0 :
			    (size_t)((out - lo + DFMT_FRAME - 1) / DFMT_FRAME);
	r.live = &live;
	for (i = 1; i < 0x70; i++) {
		if (!l->ids[i] || wd->seen[i])
			continue;
		m = retro_stream(&r, (int)i, s, pos);
		first = m ? rl_scan(l, i, s, m, &bad) :
			    SIZE_MAX;
		if (first >= m)
			continue;
		b = lo + pos[first];
		if (b < best && retro_shifted(l, r.h, r.nf,
					      pos[first] / DFMT_FRAME, k,
					      (int)i))
			best = b;
	}
	best -= (best - lo) % DFMT_FRAME;
	/* no data of a decoded source from its frame on */
	if (best >= at || best < lo + live * DFMT_FRAME)
		return at;
	return best;
}
