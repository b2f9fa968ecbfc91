/* decoder/frames.c - fast path for memory-aligned CoreSight frames (IHI 0029
 * formatter protocol, docs/coresight-formatter.md): whole frames are split
 * by trace ID straight into a staging buffer with an offset map. Frames that
 * may hold an FSYNC (first byte 0xFF) are left to the deformatter. */
#include <string.h>

#include <etmtrace/error.h>

#include "decoder/frames.h"

void etm_frames_init(struct etm_frames *x)
{
	x->cur_id = ETM_FR_ID_UNKNOWN;
	x->buf = NULL;
	x->n = x->pos = 0;
	x->npart = 0;
	x->nops = x->opi = 0;
	x->stg_n = x->nseg = 0;
	x->stg_id = 0;
}

void etm_frames_input(struct etm_frames *x, const uint8_t *buf, size_t n,
		      uint64_t off)
{
	x->buf = buf;
	x->n = n;
	x->pos = 0;
	x->off = off;
}

/* IDs 0x01-0x6F carry trace; 0x70-0x7A, 0x7C, 0x7E, 0x7F are reserved. */
static int id_is_data(int id)
{
	return id > 0 && id < 0x70;
}

static int id_is_reserved(int id)
{
	return id >= 0x70 && id != 0x7b && id != 0x7d;
}

/* Stage byte @b at input offset @o for the current ID. Returns 1 when the
 * staging buffer must be pushed first. */
static int stage(struct etm_frames *x, const uint8_t *sel, uint8_t b,
		 uint64_t o)
{
	int id = x->cur_id;
	int newseg;

	if (!id_is_data(id) || !sel[id])
		return 0;
	newseg = !x->nseg || x->seg[x->nseg - 1].off +
			     (x->stg_n - x->seg[x->nseg - 1].pos) != o;
	if (x->stg_n && (x->stg_id != id || x->stg_n == ETM_FR_STAGE ||
			 (newseg && x->nseg == ETM_FR_SEGS)))
		return 1;
	x->stg_id = id;
	if (newseg || !x->stg_n) {
		x->seg[x->nseg].pos = x->stg_n;
		x->seg[x->nseg].off = o;
		x->nseg++;
	}
	x->stg[x->stg_n++] = b;
	return 0;
}

static void op(struct etm_frames *x, int setid, uint8_t b, unsigned pos)
{
	struct etm_frop *o = &x->ops[x->nops++];

	o->setid = (uint8_t)setid;
	o->b = b;
	o->pos = (uint8_t)pos;
}

/* Decode frame @f into operations (mixed bytes 0, 2, ..., 14: an ID when
 * bit 0 is set, else data whose bit 0 is in the auxiliary byte 15; data
 * bytes 1, 3, ..., 13). The ID an operation list starts from is tracked to
 * apply the "following byte still belongs to the old ID" rule. */
static void decode_ops(struct etm_frames *x, const uint8_t *f, uint64_t off)
{
	int id = x->cur_id;
	unsigned k;

	x->nops = x->opi = 0;
	x->ops_off = off;
	for (k = 0; k < 8; k++) {
		uint8_t m = f[2 * k];
		unsigned a = (f[15] >> k) & 1;

		if (!(m & 1)) {
			op(x, 0, (uint8_t)((m & 0xfe) | a), 2 * k);
			if (k < 7)
				op(x, 0, f[2 * k + 1], 2 * k + 1);
		} else if (k == 7) {
			op(x, 1, m >> 1, 14);   /* applies from the next frame */
			id = m >> 1;
		} else if (a && (m >> 1) != id) {
			op(x, 0, f[2 * k + 1], 2 * k + 1);
			op(x, 1, m >> 1, 2 * k);
			id = m >> 1;
		} else {
			op(x, 1, m >> 1, 2 * k);
			op(x, 0, f[2 * k + 1], 2 * k + 1);
			id = m >> 1;
		}
	}
}

/* Apply pending operations. Returns etm_fr_again when all are applied. */
static enum etm_fr_res apply_ops(struct etm_frames *x, const uint8_t *sel)
{
	while (x->opi < x->nops) {
		const struct etm_frop *o = &x->ops[x->opi];
		uint64_t at = x->ops_off + o->pos;

		if (!o->setid) {
			if (stage(x, sel, o->b, at))
				return etm_fr_push;
			x->opi++;
			continue;
		}
		if (o->b == x->cur_id) {
			x->opi++;       /* periodic re-announcement */
			continue;
		}
		if (id_is_reserved(o->b) && x->stg_n)
			return etm_fr_push;     /* the error comes after */
		x->opi++;
		x->cur_id = o->b;
		if (id_is_reserved(o->b)) {
			x->err = etme_bad_id;
			x->err_off = at;
			return etm_fr_error;
		}
	}
	return etm_fr_again;
}

/* The staging state direct_frame() works on, committed only when the
 * whole frame went through. */
struct dstage {
	struct etm_frames *x;
	size_t n, ns;           /* bytes, segments */
	int sid;                /* ID of the staged bytes */
	int want;               /* the current ID has a source */
	uint64_t next;          /* offset that continues the last segment */
};

static int want_id(const uint8_t *sel, int id)
{
	return id_is_data(id) && sel[id];
}

/* One data byte of the current ID @id at offset @o: staged or dropped;
 * -1 when it needs the general path (another ID is staged). */
static inline int dput(struct dstage *d, int id, uint8_t b, uint64_t o)
{
	if (!d->want)
		return 0;
	if (d->n && d->sid != id)
		return -1;
	d->sid = id;
	if (o != d->next) {
		d->x->seg[d->ns].pos = d->n;
		d->x->seg[d->ns].off = o;
		d->ns++;
	}
	d->x->stg[d->n++] = b;
	d->next = o + 1;
	return 0;
}

/* A frame with ID changes, applied in one pass when it needs no push in the
 * middle and no error (same rules as decode_ops()). Returns 0 with nothing
 * changed if the general path must do it. */
static int direct_frame(struct etm_frames *x, const uint8_t *sel,
			const uint8_t *f, uint64_t off)
{
	struct dstage d = { x, x->stg_n, x->nseg, x->stg_id, 0, UINT64_MAX };
	int id = x->cur_id;
	unsigned k;

	if (d.n + 15 > ETM_FR_STAGE || d.ns + 8 > ETM_FR_SEGS)
		return 0;
	if (d.ns)
		d.next = x->seg[d.ns - 1].off + (d.n - x->seg[d.ns - 1].pos);
	d.want = want_id(sel, id);
	for (k = 0; k < 8; k++) {
		uint8_t m = f[2 * k];
		unsigned a = (f[15] >> k) & 1;
		int nid = m >> 1;

		if (!(m & 1)) {
			if (dput(&d, id, (uint8_t)((m & 0xfe) | a),
				 off + 2 * k) ||
			    (k < 7 && dput(&d, id, f[2 * k + 1],
					   off + 2 * k + 1)))
				return 0;
			continue;
		}
		if (nid != id && id_is_reserved(nid))
			return 0;
		if (k == 7) {
			id = nid;       /* applies from the next frame */
			continue;
		}
		if (a && nid != id) {
			/* the following byte still belongs to the old ID */
			if (dput(&d, id, f[2 * k + 1], off + 2 * k + 1))
				return 0;
			id = nid;
			d.want = want_id(sel, id);
		} else {
			id = nid;
			d.want = want_id(sel, id);
			if (dput(&d, id, f[2 * k + 1], off + 2 * k + 1))
				return 0;
		}
	}
	x->stg_n = d.n;
	x->nseg = d.ns;
	x->stg_id = d.sid;
	x->cur_id = id;
	return 1;
}

/* A frame none of whose bytes goes to a source (and no reserved ID): only
 * the current ID changes. Returns 0 if the frame needs another path. */
static int skip_frame(struct etm_frames *x, const uint8_t *sel,
		      const uint8_t *f)
{
	int id = x->cur_id;
	unsigned k;

	if (id_is_data(id) && sel[id])
		return 0;
	for (k = 0; k < 8; k++) {
		int nid = f[2 * k] >> 1;

		if (!(f[2 * k] & 1))
			continue;
		if ((id_is_data(nid) && sel[nid]) || id_is_reserved(nid))
			return 0;
		id = nid;
	}
	x->cur_id = id;
	return 1;
}

/* A frame of data bytes only, for a selected ID, with room: staged in bulk.
 * Returns 0 if the frame needs the general path. */
static int fast_frame(struct etm_frames *x, const uint8_t *sel,
		      const uint8_t *f, uint64_t off)
{
	uint8_t aux = f[15], *s;
	unsigned k;

	if ((f[0] | f[2] | f[4] | f[6] | f[8] | f[10] | f[12] | f[14]) & 1)
		return 0;
	if (!id_is_data(x->cur_id) || !sel[x->cur_id])
		return 1;               /* nobody wants these bytes */
	if (x->stg_n && (x->stg_id != x->cur_id ||
			 x->stg_n + 15 > ETM_FR_STAGE ||
			 x->nseg == ETM_FR_SEGS))
		return 0;
	x->stg_id = x->cur_id;
	x->seg[x->nseg].pos = x->stg_n;
	x->seg[x->nseg].off = off;
	x->nseg++;
	s = x->stg + x->stg_n;
	for (k = 0; k < 7; k++) {
		s[2 * k] = (uint8_t)(f[2 * k] | ((aux >> k) & 1));
		s[2 * k + 1] = f[2 * k + 1];
	}
	s[14] = (uint8_t)(f[14] | (aux >> 7));
	x->stg_n += 15;
	return 1;
}

/* End of the borrowed input: push what is staged first. */
static enum etm_fr_res input_end(struct etm_frames *x)
{
	return x->stg_n ? etm_fr_push : etm_fr_again;
}

enum etm_fr_res etm_frames_step(struct etm_frames *x, const uint8_t *sel)
{
	const uint8_t *f;
	enum etm_fr_res r;
	uint64_t off;

	for (;;) {
		r = apply_ops(x, sel);
		if (r != etm_fr_again)
			return r;
		if (x->npart) {
			size_t k = 16 - x->npart;

			if (k > x->n - x->pos)
				k = x->n - x->pos;
			memcpy(x->part + x->npart, x->buf + x->pos, k);
			x->pos += k;
			x->npart += k;
			if (x->npart < 16)
				return input_end(x);
			f = x->part;
			off = x->part_off;
			x->npart = 0;
		} else if (x->pos < x->n && x->buf[x->pos] == 0xff) {
			/* maybe an FSYNC: the deformatter takes over */
			return x->stg_n ? etm_fr_push : etm_fr_dfmt;
		} else if (x->n - x->pos >= 16) {
			f = x->buf + x->pos;
			off = x->off + x->pos;
			x->pos += 16;
		} else if (x->pos < x->n) {
			x->npart = x->n - x->pos;
			memcpy(x->part, x->buf + x->pos, x->npart);
			x->part_off = x->off + x->pos;
			x->pos = x->n;
			return input_end(x);
		} else {
			return input_end(x);
		}
		if (!skip_frame(x, sel, f) && !fast_frame(x, sel, f, off) &&
		    !direct_frame(x, sel, f, off))
			decode_ops(x, f, off);
	}
}
