/* source/dfmt_damage_start.c - where a frame realignment's damage began, when
 * the input holds sources the decoder does not decode (a selection,
 * `--id`): their data is not parsed on the way (the single-ID fast path
 * skips it), so damage among it shows only when a decoded source's data
 * comes, up to hundreds of frames on. Only once a realignment is decided,
 * the input before its cut (DFMT_RETRO_REACH bytes before the frames it
 * judged, from a kept history of the consumed input) is read at the old
 * alignment and each left-out source's packets parsed from its first
 * A-sync there (etm_dfmt_set_scan()): the first malformed packet whose
 * data from there on makes no more malformed packets at some shift than
 * unshifted (a lost alignment, not damaged data) is where the error
 * goes - if no data of a decoded source whose elements may be out lies
 * from its frame on (offsets would go backwards in the listing; those
 * still waiting are withdrawn from there, decoder/elem_hold.c). Undamaged
 * input pays one copy of each input's last bytes (doc/robustness.md,
 * "Frame realignment"; measured in
 * doc/measurements/2026-11-26-damage-start-with-id.md). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/source.h>

#include "common/sbuf.h"
#include "source/dfmt_bulk.h"
#include "source/dfmt_int.h"

/* How far before the judged window (its kept frames included) the damage
 * is looked for, and the history kept: that, and how far the window may
 * begin before the current input (a rewind into the kept tail, the frames
 * kept before it, the byte path's held bytes), so the bytes looked at are
 * the same however the input was cut. */
#define DFMT_RETRO_REACH 4096
#define DFMT_RETRO_HIST (DFMT_RETRO_REACH + 1024)
/* Bytes of the frames before the cut, at most. */
#define DFMT_RETRO_MAX (DFMT_RETRO_REACH + DFMT_PRE + DFMT_WIN * DFMT_FRAME)

struct dfmt_retro {
	etm_dfmt_scan_fn scan;
	uint64_t out;     /* etm_dfmt_set_out() */
	uint8_t ids[128]; /* IDs the scan parses */
	/* the last bytes of the inputs before the current one, ending where
	 * it begins: hist[0..n) at input offset off */
	uint8_t hist[DFMT_RETRO_HIST];
	size_t n;
	uint64_t off;
	/* the current input (borrowed) */
	const uint8_t *in;
	size_t in_n;
	uint64_t in_off;
};

void etm_dfmt_set_scan(struct etm_dfmt *d, etm_dfmt_scan_fn fn,
		       const uint8_t *ids)
{
	if (!d || !d->fr)
		return;
	if (!fn) {
		free(d->rt);
		d->rt = NULL;
		return;
	}
	if (!d->rt) {
		d->rt = calloc(1, sizeof(*d->rt));
		if (!d->rt)
			return; /* no memory: the report stays where it was */
		d->rt->off = d->rt->in_off = d->in_off;
		d->rt->out = UINT64_MAX;
	}
	d->rt->scan = fn;
	memcpy(d->rt->ids, ids, sizeof(d->rt->ids));
}

void etm_dfmt_set_out(struct etm_dfmt *d, uint64_t out)
{
	if (d && d->rt)
		d->rt->out = out;
}

void etm_dfmt_retro_free(struct etm_dfmt *d)
{
	free(d->rt);
	d->rt = NULL;
}

void etm_dfmt_retro_restart(struct etm_dfmt *d, struct dfmt_retro *rt)
{
	d->rt = rt;
	if (rt) {
		rt->n = rt->in_n = 0;
		rt->in = NULL;
		rt->off = rt->in_off = d->in_off;
	}
}

void etm_dfmt_retro_input(struct etm_dfmt *d, const uint8_t *buf, size_t n,
			  uint64_t off)
{
	struct dfmt_retro *rt = d->rt;

	if (rt->off + rt->n != off) {
		rt->n = 0; /* not where the last one ended (a restart) */
		rt->off = off;
	}
	rt->in = buf;
	rt->in_n = n;
	rt->in_off = off;
}

void etm_dfmt_retro_keep(struct etm_dfmt *d)
{
	struct dfmt_retro *rt = d->rt;
	size_t k, old;

	if (!rt->in_n)
		return;
	k = rt->in_n < DFMT_RETRO_HIST ? rt->in_n : DFMT_RETRO_HIST;
	old = rt->n + k > DFMT_RETRO_HIST ? DFMT_RETRO_HIST - k : rt->n;
	memmove(rt->hist, rt->hist + rt->n - old, old);
	memcpy(rt->hist + old, rt->in + rt->in_n - k, k);
	rt->n = old + k;
	rt->off = rt->in_off + rt->in_n - rt->n;
	rt->in_off += rt->in_n;
	rt->in = NULL;
	rt->in_n = 0;
}

void etm_dfmt_retro_save(const struct etm_dfmt *d, struct etm_sbuf *s)
{
	if (d->rt)
		etm_sbuf_u64(s, d->rt->n);
}

/* The input at [@lo, @hi) into @b if at hand (the history and the current
 * input): 1, else 0. */
static int retro_bytes(const struct dfmt_retro *rt, uint64_t lo, uint64_t hi,
		       uint8_t *b)
{
	uint64_t o;

	if (lo < rt->off || hi > rt->in_off + rt->in_n)
		return 0;
	for (o = lo; o < hi && o < rt->in_off; o++)
		*b++ = rt->hist[o - rt->off];
	if (o < hi)
		memcpy(b, rt->in + (o - rt->in_off), (size_t)(hi - o));
	return 1;
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
static int retro_bad(const struct etm_dfmt *d, const struct retro_rd *r,
		     int want)
{
	uint8_t s[DFMT_RETRO_MAX];
	uint16_t pos[DFMT_RETRO_MAX];
	size_t m = retro_stream(r, want, s, pos);
	int bad = 0;

	if (m)
		d->rt->scan(d->sign_ctx, (uint8_t)want, s, m, &bad);
	return bad;
}

/* A malformed packet of ID @want in frame @fb of the @nf frames at @h:
 * whether the data of @want from that frame on makes no more malformed
 * packets at some shift (the realignment's, @k, first) than unshifted -
 * where the data was damaged and the alignment not lost (a bit flip),
 * every shift makes more. Any shift, since the realignment may have
 * taken a wrong one of the same parity (a later one corrects it). */
static int retro_shifted(const struct etm_dfmt *d, const uint8_t *h,
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
	old = retro_bad(d, &r, want);
	for (j = 0; j + 1 < DFMT_SHIFTS; j++) {
		sh = (k + j - 1) % (DFMT_SHIFTS - 1) + 1;
		r.h = h + fb * DFMT_FRAME + sh;
		r.nf = ((nf - fb) * DFMT_FRAME - sh) / DFMT_FRAME;
		if (retro_bad(d, &r, want) <= old)
			return 1;
	}
	return 0;
}

uint64_t etm_dfmt_retro_at(const struct etm_dfmt *d, uint64_t w, size_t k,
			   uint64_t at)
{
	const struct dfmt_retro *rt = d->rt;
	uint8_t h[DFMT_RETRO_MAX], s[DFMT_RETRO_MAX];
	uint16_t pos[DFMT_RETRO_MAX];
	uint64_t lo = w > DFMT_RETRO_REACH ? w - DFMT_RETRO_REACH : 0;
	uint64_t best = at, out, b;
	size_t nf, m, i, live = 0, f0, first;
	struct retro_rd r = { 0 };
	int bad;

	if (lo < d->w.pre_lo)
		lo = d->w.pre_lo;
	nf = (size_t)((at - lo) / DFMT_FRAME);
	lo = at - nf * DFMT_FRAME;
	if (!nf || at - lo > DFMT_RETRO_MAX || !retro_bytes(rt, lo, at, h))
		return at;
	f0 = retro_fsync_end(h, nf);
	lo += f0 * DFMT_FRAME;
	r.h = h + f0 * DFMT_FRAME;
	r.nf = nf - f0;
	r.id = DFMT_ID_UNKNOWN;
	r.seen = d->w.seen;
	/* the frames whose decoded data may be out already */
	out = rt->out;
	r.lim = out <= lo ? 0 :
			    (size_t)((out - lo + DFMT_FRAME - 1) / DFMT_FRAME);
	r.live = &live;
	for (i = 1; i < 0x70; i++) {
		if (!rt->ids[i] || d->w.seen[i])
			continue;
		m = retro_stream(&r, (int)i, s, pos);
		first = m ? rt->scan(d->sign_ctx, (uint8_t)i, s, m, &bad) :
			    SIZE_MAX;
		if (first >= m)
			continue;
		b = lo + pos[first];
		if (b < best && retro_shifted(d, r.h, r.nf,
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
