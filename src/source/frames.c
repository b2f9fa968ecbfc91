/* source/frames.c - the deformatter's fast path for memory-aligned CoreSight
 * frames (IHI 0029 formatter protocol, ../shared/docs/coresight-formatter.md):
 * whole frames are split by trace ID straight into a staging buffer with an
 * offset map (segments); with a single selected ID, many frames
 * in one loop without per-byte branches. Frames that may hold an FSYNC
 * (first byte 0xFF) or name a reserved ID are left to the deformatter's
 * byte path (dfmt.c), which takes over in this state. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <etmtrace/error.h>

#include "source/frames.h"
#include "source/frames_known.h"

/* the arrays etm_frames_alloc() leaves unset lie together */
_Static_assert(offsetof(struct etm_frames, seg) ==
		       offsetof(struct etm_frames, stg) + ETM_FR_STAGE + 16,
	       "stg, seg in a row");

struct etm_frames *etm_frames_alloc(void)
{
	struct etm_frames *x = malloc(sizeof(*x));
	size_t a = offsetof(struct etm_frames, stg),
	       b = offsetof(struct etm_frames, seg) + sizeof(x->seg);

	if (x) {
		memset(x, 0, a);
		memset((char *)x + b, 0, sizeof(*x) - b);
	}
	return x;
}

void etm_frames_init(struct etm_frames *x)
{
	memset(x->sel, 0, sizeof(x->sel));
	x->known[0] = x->known[0x7b] = x->known[0x7d] = 1;
	etm_frames_known_changed(x);
	x->single = ETM_FR_ID_UNKNOWN;
	x->cur_id = ETM_FR_ID_UNKNOWN;
	x->buf = NULL;
	x->n = x->pos = 0;
	x->npart = 0;
	x->nops = x->opi = 0;
	x->stg_n = x->nseg = 0;
	x->stg_id = 0;
	x->suspect = 0;
	x->pushed_end = 0;
	x->last_off = UINT64_MAX;
	x->held_n = 0;
	x->final = 0;
}

void etm_frames_drop(struct etm_frames *x)
{
	x->stg_n = x->nseg = x->held_n = 0;
	x->nops = x->opi = 0;
	x->npart = 0;
	x->suspect = 0;
}

void etm_frames_input(struct etm_frames *x, const uint8_t *buf, size_t n,
		      uint64_t off)
{
	x->buf = buf;
	x->n = n;
	x->pos = 0;
	x->off = off;
}

/* Stage byte @b at input offset @o for the current ID. Returns 1 when the
 * staging buffer must be pushed first. */
static int stage(struct etm_frames *x, const uint8_t *sel, uint8_t b,
		 uint64_t o)
{
	int id = x->cur_id;
	int newseg;

	if (!etm_frame_id_is_data(id) || !sel[id])
		return 0;
	newseg = !x->nseg || x->seg[x->nseg - 1].off +
					     (x->stg_n - x->seg[x->nseg - 1].pos) !=
				     o;
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

/* Decode frame @f into operations (source/frame_rules.h). */
static void decode_ops(struct etm_frames *x, const uint8_t *f, uint64_t off)
{
	x->opi = 0;
	x->nops = etm_frame_ops(f, x->cur_id, x->ops);
	x->ops_off = off;
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
			x->opi++; /* periodic re-announcement */
			continue;
		}
		if (etm_frame_id_is_reserved(o->b) && x->stg_n)
			return etm_fr_push; /* the error comes after */
		x->opi++;
		x->cur_id = o->b;
		if (etm_frame_id_is_reserved(o->b)) {
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
	size_t n, ns;  /* bytes, segments */
	int sid;       /* ID of the staged bytes */
	int want;      /* the current ID has a source */
	uint64_t next; /* offset that continues the last segment */
};

static int want_id(const uint8_t *sel, int id)
{
	return etm_frame_id_is_data(id) && sel[id];
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
		int nid = m >> 1;

		if (!etm_frame_is_id(m)) {
			if (dput(&d, id, etm_frame_mixed_data(f, k),
				 off + 2 * k) ||
			    (k < 7 && dput(&d, id, f[2 * k + 1],
					   off + 2 * k + 1)))
				return 0;
			continue;
		}
		if (nid != id && etm_frame_id_is_reserved(nid))
			return 0;
		if (k == 7) {
			id = nid; /* applies from the next frame */
			continue;
		}
		if (etm_frame_next_is_old(f, k, nid, id)) {
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

	if (etm_frame_id_is_data(id) && sel[id])
		return 0;
	for (k = 0; k < 8; k++) {
		int nid = f[2 * k] >> 1;

		if (!(f[2 * k] & 1))
			continue;
		if ((etm_frame_id_is_data(nid) && sel[nid]) || etm_frame_id_is_reserved(nid))
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
	if (!etm_frame_id_is_data(x->cur_id) || !sel[x->cur_id])
		return 1; /* nobody wants these bytes */
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

/* Frames for a single selected ID, many at once, without a branch on the
 * frame's contents (little-endian hosts). The ID-change bytes (even bytes
 * with bit 0 set), those announcing the selected ID, and the auxiliary
 * bits give, through fill[], which bytes of the frame belong to the
 * selected ID (the rules of decode_ops()); each run of them (one, or two
 * when the ID changes away and back) is stored as one 16-byte copy from
 * the frame with its auxiliary bits put back. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FR_BULK 1

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Bit 2k of *@idm: byte 2k of frame @f is an ID change; of *@vm: to ID
 * @t; of *@rm: to an ID of 0x70 or above. */
static inline void fr_masks(const uint8_t *f, unsigned *idm, unsigned *vm,
			    unsigned *rm, int t)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
	__m128i hi = _mm_cmpgt_epi8(_mm_xor_si128(v, _mm_set1_epi8(-128)),
				    _mm_set1_epi8(0xdf ^ 0x80));

	*idm = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) & 0x5555;
	*vm = (unsigned)_mm_movemask_epi8(
		      _mm_cmpeq_epi8(v, _mm_set1_epi8((char)(2 * t + 1)))) &
	      0x5555;
	*rm = (unsigned)_mm_movemask_epi8(hi) & *idm;
#else
	unsigned k;

	*idm = *vm = *rm = 0;
	for (k = 0; k < 16; k += 2) {
		*idm |= (unsigned)(f[k] & 1) << k;
		*vm |= (unsigned)(f[k] == 2 * t + 1) << k;
		*rm |= (unsigned)((f[k] & 0xe1) == 0xe1) << k;
	}
#endif
}

/* Stage the bytes of the single ID from frame @f, which has ID changes
 * (@key: bit 2k byte 2k is one, bit 2k + 1 it is to the single ID; @s0:
 * the single ID is current before the frame), at input offset @off: one
 * 16-byte copy per run of kept bytes, through @fx (32 bytes, the upper 16
 * zero). */
static inline __attribute__((always_inline)) void bulk_mixed(struct etm_frames *x, const uint8_t *f, uint8_t *fx,
							     unsigned key, unsigned s0, uint64_t off, size_t *pn, size_t *pns)
{
	uint64_t lo = ld64(f), hi = ld64(f + 8);
	unsigned idm = key & 0x5555, vm = key >> 1 & 0x5555, a = f[15];
	unsigned q, p, ke, ko, ea, keep, at, run, len;
	size_t n = *pn, ns = *pns;

	/* p bit 2k: the single ID is current before pair k */
	q = etm_fr_fill[(key & 0xff) | s0 << 8];
	p = (q & 0xff) | (etm_fr_fill[key >> 8 | (q & 0x100)] & 0xff) << 8;
	ke = ~idm & p & 0x5555;                 /* even bytes: data */
	ea = idm & ~(unsigned)etm_fr_spread[a]; /* odd: the new ID's */
	ko = ((ea & vm) | (~ea & p)) & 0x5555;
	keep = (ke | ko << 1) & 0x7fff;
	/* the fixed frame: bit 0 of even bytes from the aux byte */
	lo |= etm_fr_aux[a][0];
	hi |= etm_fr_aux[a][1];
	memcpy(fx, &lo, 8);
	memcpy(fx + 8, &hi, 8);
	/* runs of kept bytes: one 16-byte copy each */
	do {
		at = (unsigned)__builtin_ctz(keep | 0x8000);
		run = keep >> at;
		len = (unsigned)__builtin_ctz(run + 1);
		memcpy(x->stg + n, fx + at, 16);
		x->seg[ns].pos = n;
		x->seg[ns].off = off + at;
		ns += len != 0;
		n += len;
		keep &= keep + (keep & -keep); /* the run off */
	} while (keep);
	*pn = n;
	*pns = ns;
}

/* The bulk loop; @runs (a constant: compiled once each way): the known
 * IDs are runs (x->nkrun), tested with the compare that finds the ID
 * changes to the single ID (runs_bad()). */
static inline __attribute__((always_inline)) void bulk_loop(struct etm_frames *x,
							    int runs)
{
	const uint8_t *buf = x->buf, *f, *flast;
	size_t n = x->stg_n, ns = x->nseg;
	int id = x->cur_id, t = x->single;
	const unsigned nkvec = x->nkvec;
	uint64_t off;           /* input offset of frame f */
	uint8_t fx[32] = { 0 }; /* the fixed frame, room to copy from 14 */
	BULK_KRUNS(x, kr);

	/* no whole frame (and no pointer arithmetic on a NULL buffer) */
	if (x->n - x->pos < 16 || (n && x->stg_id != t))
		return;
	f = buf + x->pos;
	flast = buf + x->n - 16; /* the last frame that fits */
	off = x->off + x->pos;
	for (; f <= flast; f += 16, off += 16) {
		uint64_t lo = ld64(f), hi = ld64(f + 8);
		unsigned idm, vm, rm, a = f[15], s0;

#ifdef __SSE2__
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);

		idm = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) & 0x5555;
#else
		fr_masks(f, &idm, &vm, &rm, t);
#endif
		if (!idm) {
			/* data only: all or nothing */
			if (id != t)
				continue;
			if (n + 15 > ETM_FR_STAGE || ns == ETM_FR_SEGS)
				break;
			lo |= etm_fr_aux[a][0];
			hi |= etm_fr_aux[a][1];
			memcpy(x->stg + n, &lo, 8);
			memcpy(x->stg + n + 8, &hi, 8);
			x->seg[ns].pos = n;
			x->seg[ns].off = off;
			ns++;
			n += 15;
			continue;
		}
		/* an FSYNC, an ID of 0x70 or above (reserved, or 0x7b /
		 * 0x7d), or one not known (the selected ID is): the general
		 * path */
#ifdef __SSE2__
		if (runs) {
			if (runs_bad(&kr, v, f, idm, &vm, t))
				break;
		} else {
			fr_masks(f, &idm, &vm, &rm, t);
			if (rm || (nkvec && !ids_known(x, f, (idm & ~vm) | (idm & 0x4000))))
				break;
		}
#else
		if (rm || (nkvec && !ids_known(x, f, (idm & ~vm) | (idm & 0x4000))))
			break;
#endif
		s0 = id == t;
		if (!(vm | s0)) {
			/* nothing for the selected ID: the last ID change
			 * gives the current ID */
			id = f[31 - __builtin_clz(idm)] >> 1;
			continue;
		}
		if (n + 15 > ETM_FR_STAGE || ns + 8 > ETM_FR_SEGS)
			break;
		id = f[31 - __builtin_clz(idm)] >> 1;
		bulk_mixed(x, f, fx, idm | vm << 1, s0, off, &n, &ns);
	}
	x->pos = (size_t)(f - buf);
	x->cur_id = id;
	x->stg_n = n;
	x->nseg = ns;
	if (n)
		x->stg_id = t;
}

static __attribute__((noinline)) void bulk_frames(struct etm_frames *x)
{
#ifdef __SSE2__
	if (x->nkrun && x->nkvec) {
		bulk_loop(x, 1);
		return;
	}
#endif
	bulk_loop(x, 0);
}
#endif

/* Whether frame @f has an ID in byte 14 and auxiliary bit 7 set, a bit
 * that is reserved there (IHI 0029 D4, ../shared/docs/coresight-formatter.md
 * section 3; never set in the captures): a lost alignment, where the IDs of
 * the input are known (as for an ID not known). */
static inline int aux_reserved(const struct etm_frames *x, const uint8_t *f)
{
	return x->nkvec && (f[14] & 1) && (f[15] & 0x80);
}

/* Whether frame @f names a reserved ID or one not known (a lost alignment
 * names random IDs), or has a reserved auxiliary bit. */
static int names_suspect(const struct etm_frames *x, const uint8_t *f)
{
#ifdef __SSE2__
	/* the ID bytes alone (the frame path's test of every frame with
	 * several IDs selected: half of TC2's frames name none, most others one or two) */
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
	unsigned idm = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) & 0x5555;
#else
	unsigned idm = 0, k;

	for (k = 0; k < 16; k += 2)
		idm |= (unsigned)(f[k] & 1) << k;
#endif
	if (aux_reserved(x, f))
		return 1;
	for (; idm; idm &= idm - 1)
		if (!x->known[f[__builtin_ctz(idm)] >> 1])
			return 1;
	return 0;
}

/* Whether frame @f names a data ID not known. */
static int names_unknown(const struct etm_frames *x, const uint8_t *f)
{
	unsigned k;

	if (aux_reserved(x, f))
		return 1;
	for (k = 0; k < 16; k += 2)
		if ((f[k] & 1) && f[k] >> 1 < 0x70 && !x->known[f[k] >> 1])
			return 1;
	return 0;
}

/* The frame at @s is suspect: the lost alignment may have begun in the
 * frame before it (a damaged frame often names no suspect ID itself: its
 * first bytes are in place). Where that frame holds no ID change (the
 * current ID before it is the current one) and none of its data went out
 * (the data of the last frame of an input is held back for this,
 * input_end()), its staged bytes are dropped and the realignment starts
 * at it: from the input, or from last[] (and part[]) where it lay in the
 * last input, so that where the input was cut does not matter. */
static void back_up(struct etm_frames *x, uint64_t s)
{
	const uint8_t *p;
	uint64_t w = s - 16;
	size_t i, pre;
	unsigned k;

	if (s < 16 || x->pushed_end > w)
		return;
	if (w >= x->off)
		p = x->buf + (w - x->off);
	else if (x->last_off == w)
		p = x->last;
	else
		return;
	for (k = 0; k < 16; k += 2)
		if (p[k] & 1)
			return;
	for (i = x->nseg; i > 0 && x->seg[i - 1].off >= w; i--)
		;
	if (i < x->nseg) {
		x->stg_n = x->seg[i].pos;
		x->nseg = i;
	}
	if (w >= x->off) {
		x->pos = (size_t)(w - x->off);
		return;
	}
	/* the bytes before the input: last[], then part[] if s is a frame
	 * cut by the end of the last input */
	pre = (size_t)(x->off - w);
	if (pre > 16)
		memmove(x->part + 16, x->part, pre - 16);
	memcpy(x->part, x->last, pre < 16 ? pre : 16);
	x->npart = pre;
	x->part_off = w;
	x->pos = 0;
}

/* Whether frame @f at @s is left to the deformatter's byte path: maybe an
 * FSYNC (byte 0 0xFF), or naming a reserved ID or one not known (lost
 * alignment? the byte path realigns, from before the frame if it names
 * an ID not known; a reserved one is judged after its frame: valid
 * frames may name one). */
static int to_dfmt(struct etm_frames *x, const uint8_t *f, uint64_t s)
{
	if (f[0] == 0xff)
		return 1;
	if (!names_suspect(x, f))
		return 0;
	if (names_unknown(x, f)) {
		x->suspect = 1;
		back_up(x, s);
	}
	return 1;
}

/* Take over the caller's table of selected IDs. */
static void set_sel(struct etm_frames *x, const uint8_t *sel)
{
	int id, nsel = 0;

	memcpy(x->sel, sel, sizeof(x->sel));
	x->single = ETM_FR_ID_UNKNOWN;
	for (id = 0; id < 128; id++)
		if (want_id(sel, id)) {
			x->single = id;
			nsel++;
		}
	if (nsel != 1)
		x->single = ETM_FR_ID_UNKNOWN;
}

/* End of the borrowed input, whose last whole frame ends at @e: push
 * what is staged first, but for the data of that frame (until the next
 * frame is judged, back_up(); all of it once the input is final); keep
 * the frame for back_up(). */
static enum etm_fr_res input_end(struct etm_frames *x, uint64_t e)
{
	size_t i;

	if (e >= x->off + 16) {
		memcpy(x->last, x->buf + (e - 16 - x->off), 16);
		x->last_off = e - 16;
	} else if (x->last_off != e - 16) {
		x->last_off = UINT64_MAX;
	}
	if (!x->stg_n)
		return etm_fr_again;
	if (x->final)
		return etm_fr_push;
	for (i = x->nseg; i > 0 && x->seg[i - 1].off >= e - 16; i--)
		;
	if (i == 0)
		return etm_fr_again; /* the frame's data only: kept */
	if (i < x->nseg) {
		x->held_pos = x->seg[i].pos;
		x->held_seg = i;
		x->held_nseg = x->nseg - i;
		x->held_n = x->stg_n - x->held_pos;
		x->stg_n = x->held_pos;
		x->nseg = i;
	}
	return etm_fr_push;
}

/* The held data of the last frame (input_end()) is staged again. */
static void unhold(struct etm_frames *x)
{
	size_t i;

	memmove(x->stg, x->stg + x->held_pos, x->held_n);
	for (i = 0; i < x->held_nseg; i++) {
		x->seg[i] = x->seg[x->held_seg + i];
		x->seg[i].pos -= x->held_pos;
	}
	x->stg_n = x->held_n;
	x->nseg = x->held_nseg;
	x->held_n = 0;
}

enum etm_fr_res etm_frames_step(struct etm_frames *x, const uint8_t *sel)
{
	const uint8_t *f;
	enum etm_fr_res r;
	uint64_t off;

	if (memcmp(x->sel, sel, sizeof(x->sel)))
		set_sel(x, sel);
	if (x->held_n)
		unhold(x);
	for (;;) {
		r = apply_ops(x, sel);
		if (r != etm_fr_again)
			return r;
		if (x->suspect)
			return x->stg_n ? etm_fr_push : etm_fr_dfmt;
#ifdef FR_BULK
		if (x->single != ETM_FR_ID_UNKNOWN && !x->npart)
			bulk_frames(x);
#endif
		if (x->npart) {
			size_t k = 16 - x->npart;

			if (k > x->n - x->pos)
				k = x->n - x->pos;
			if (x->npart + k == 16) {
				uint8_t whole[16];

				memcpy(whole, x->part, x->npart);
				memcpy(whole + x->npart, x->buf + x->pos, k);
				if (to_dfmt(x, whole, x->part_off))
					/* the deformatter takes part[] (after
					 * back_up(), more) and the rest */
					return x->stg_n ? etm_fr_push :
							  etm_fr_dfmt;
			}
			memcpy(x->part + x->npart, x->buf + x->pos, k);
			x->pos += k;
			x->npart += k;
			if (x->npart < 16)
				return input_end(x, x->part_off);
			memcpy(x->last, x->part, 16);
			x->last_off = x->part_off;
			f = x->part;
			off = x->part_off;
			x->npart = 0;
		} else if (x->pos < x->n && x->buf[x->pos] == 0xff) {
			/* maybe an FSYNC: the deformatter takes over */
			return x->stg_n ? etm_fr_push : etm_fr_dfmt;
		} else if (x->n - x->pos >= 16) {
			f = x->buf + x->pos;
			off = x->off + x->pos;
			if (names_suspect(x, f) && to_dfmt(x, f, off))
				return x->stg_n ? etm_fr_push : etm_fr_dfmt;
			x->pos += 16;
		} else if (x->pos < x->n) {
			x->npart = x->n - x->pos;
			memcpy(x->part, x->buf + x->pos, x->npart);
			x->part_off = x->off + x->pos;
			x->pos = x->n;
			return input_end(x, x->part_off);
		} else {
			return input_end(x, x->off + x->pos);
		}
		if (!skip_frame(x, sel, f) && !fast_frame(x, sel, f, off) &&
		    !direct_frame(x, sel, f, off)) {
			decode_ops(x, f, off);
			/* staging full: pushed before the frame (whose data
			 * then stays staged until the next one is judged) */
			if (x->stg_n && (x->stg_n + 15 > ETM_FR_STAGE ||
					 x->nseg + 8 > ETM_FR_SEGS))
				return etm_fr_push;
		}
	}
}
