/* source/dfmt_retro.c - where a late frame realignment's damage began,
 * when the input holds sources the decoder does not decode (a selection,
 * `--id`): their data is not parsed on the way (the single-ID fast path
 * skips it), so damage among it shows only when a decoded source's data
 * comes, up to hundreds of frames on. Only once a realignment is decided
 * and its cut found no evidence before the judged window, the input
 * before it (a kept history of the consumed input, DFMT_RETRO_HIST bytes)
 * is read at the old alignment and the left-out sources' packets parsed
 * there (etm_dfmt_set_scan()): the first malformed one after that
 * source's A-sync is where the error goes, if no data of a decoded source
 * lies between it and the window (its elements may be out: offsets would
 * go backwards). Undamaged input pays one copy of each input's last bytes
 * (doc/robustness.md, "Frame realignment", "`--id`: where the damage
 * began"). */
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

struct dfmt_retro {
	etm_dfmt_scan_fn scan;
	etm_dfmt_out_fn out;
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
		       etm_dfmt_out_fn out, const uint8_t *ids)
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
	}
	d->rt->scan = fn;
	d->rt->out = out;
	memcpy(d->rt->ids, ids, sizeof(d->rt->ids));
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

/* The data bytes of trace ID @want in the @nf frames at @h, read as the
 * formatter rules give them from an unknown current ID, into @out with
 * their index in @h in @pos; how many. In *@live, one past the last of
 * the first @lim frames holding data of a decoded source (@seen) or of an
 * unknown ID: what was made from it may be out. */
static size_t retro_stream(const uint8_t *h, size_t nf, int want,
			   const uint8_t *seen, size_t lim, uint8_t *out,
			   uint16_t *pos, size_t *live)
{
	size_t f, n = 0;
	unsigned k;
	int id = DFMT_ID_UNKNOWN, nid, late;

	for (f = 0; f < nf; f++, h += DFMT_FRAME) {
		for (k = 0; k < 8; k++) {
			uint8_t m = h[2 * k], b[2];
			unsigned a = (h[15] >> k) & 1, nb = 0, j;
			int bid[2];

			if (!(m & 1)) {
				bid[nb] = id;
				b[nb++] = (uint8_t)((m & 0xfe) | a);
				if (k < 7) {
					bid[nb] = id;
					b[nb++] = h[2 * k + 1];
				}
			} else {
				nid = m >> 1;
				late = k < 7 && !(a && nid != id);
				if (k < 7 && !late) {
					bid[nb] = id;
					b[nb++] = h[2 * k + 1];
				}
				id = nid;
				if (late) {
					bid[nb] = id;
					b[nb++] = h[2 * k + 1];
				}
			}
			for (j = 0; j < nb; j++) {
				if (f < lim && (bid[j] < 0 ||
						(bid[j] < 0x70 && seen[bid[j]])))
					*live = f + 1;
				if (bid[j] != want)
					continue;
				out[n] = b[j];
				pos[n++] = (uint16_t)(f * DFMT_FRAME +
						      (j ? 2 * k + 1 :
						       (m & 1) ? 2 * k + 1 : 2 * k));
			}
		}
	}
	return n;
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

/* Frames before the cut, at most. */
#define DFMT_RETRO_MAX (DFMT_RETRO_REACH + DFMT_PRE + DFMT_WIN * DFMT_FRAME)

uint64_t etm_dfmt_retro_at(const struct etm_dfmt *d, uint64_t w,
			   uint64_t at)
{
	const struct dfmt_retro *rt = d->rt;
	uint8_t h[DFMT_RETRO_MAX], s[DFMT_RETRO_MAX];
	uint16_t pos[DFMT_RETRO_MAX];
	uint64_t lo = w > DFMT_RETRO_REACH ? w - DFMT_RETRO_REACH : 0;
	uint64_t best = at, out, b;
	size_t nf, m, i, live = 0, f0, bad, lim;

	if (lo < d->pre_lo)
		lo = d->pre_lo;
	nf = (size_t)((at - lo) / DFMT_FRAME);
	lo = at - nf * DFMT_FRAME;
	if (!nf || at - lo > DFMT_RETRO_MAX || !retro_bytes(rt, lo, at, h))
		return at;
	f0 = retro_fsync_end(h, nf);
	lo += f0 * DFMT_FRAME;
	nf -= f0;
	/* the frames whose decoded data may be out already */
	out = rt->out(d->judge_ctx);
	lim = out <= lo ? 0 : (size_t)((out - lo + DFMT_FRAME - 1) / DFMT_FRAME);
	for (i = 1; i < 0x70; i++) {
		if (!rt->ids[i] || d->seen[i])
			continue;
		m = retro_stream(h + f0 * DFMT_FRAME, nf, (int)i, d->seen, lim,
				 s, pos, &live);
		bad = m ? rt->scan(d->judge_ctx, (uint8_t)i, s, m) : SIZE_MAX;
		b = bad < m ? lo + pos[bad] : UINT64_MAX;
		best = b < best ? b : best;
	}
	best -= (best - lo) % DFMT_FRAME;
	/* no data of a decoded source from its frame on */
	if (best >= at || best < lo + live * DFMT_FRAME)
		return at;
	return best;
}
