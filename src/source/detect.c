/* source/detect.c - input format from the bytes: CoreSight 16-byte frames
 * (frame-aligned ETB/ETF/ETR memory), TPIU port captures (FSYNC between
 * frames, or none: an SWO capture, its frame alignment found from the
 * frame structure), or raw single-source trace (IHI 0029 D4). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/detect.h>

#define DET_FRAMES 4096

static const uint8_t det_fsync[4] = { 0xff, 0xff, 0xff, 0x7f };

/* What the frames at one alignment show. */
struct det_stat {
	size_t frames;
	size_t bad;    /* ID bytes naming a reserved ID */
	size_t idb;    /* ID bytes */
	size_t aux7;   /* frames with an ID in byte 14 and aux bit 7 set */
	unsigned nids; /* distinct data trace IDs named */
};

/* Look at the frames of @buf from @pos (TPIU: HSYNC halfwords dropped). */
static void det_frames(const uint8_t *buf, size_t n, size_t pos, int hsync,
		       struct det_stat *st)
{
	uint8_t f[16], seen[129];
	size_t k = 0;
	unsigned i, cur = 128; /* the ID of the data: none yet */

	memset(st, 0, sizeof(*st));
	memset(seen, 0, sizeof(seen));
	while (pos < n && st->frames < DET_FRAMES) {
		if (k % 2 == 0 && pos + 4 <= n && !memcmp(buf + pos, det_fsync, 4)) {
			pos += 4;
			continue;
		}
		if (hsync && k % 2 == 0 && pos + 2 <= n && buf[pos] == 0xff &&
		    buf[pos + 1] == 0x7f) {
			pos += 2;
			continue;
		}
		f[k++] = buf[pos++];
		if (k < 16)
			continue;
		k = 0;
		st->frames++;
		/* aux bit 7 of an ID in byte 14 is reserved (zero) */
		st->aux7 += (f[14] & 1) && (f[15] & 0x80);
		for (i = 0; i < 15; i += 2) {
			unsigned id = f[i] >> 1, b, later = f[15] >> (i / 2) & 1;

			if (!(f[i] & 1)) { /* data: bytes i and i + 1 */
				seen[cur] = 1;
				continue;
			}
			st->idb++;
			b = id >= 0x70 && id != 0x7d;
			st->bad += b;
			/* byte i + 1 is data of the old ID when aux says the
			 * new one starts after it, else of the new one */
			if (i < 14 && later)
				seen[cur] = 1;
			cur = b ? 128 : id;
			if (i < 14 && !later)
				seen[cur] = 1;
		}
	}
	/* the IDs that carry data: ID 0 (padding) and an ID named without
	 * a data byte after it are no trace sources */
	for (i = 1; i < 0x70; i++)
		st->nids += seen[i];
}

/* Frames look like CoreSight frames: at least four, hardly any reserved
 * ID, few distinct IDs, few ID bytes (a source usually fills whole
 * frames; in unframed trace half the even bytes have bit 0 set, about
 * four per frame, naming random IDs) and hardly any reserved aux bit.
 * Real captures: TC2 ETB 0.72 ID bytes a frame, 4 IDs; am243x 0.13, 1 ID;
 * raw ETMv3/PTM 1.45-2.12. A capture of two sources taking turns often
 * (an SWO capture of ETM and ITM) has more ID bytes, but only two IDs. */
static int det_fits(const struct det_stat *st)
{
	size_t idb_max = st->nids <= 2 && st->frames >= 16 ? st->frames * 2 :
							     st->frames * 5 / 4;

	return st->frames >= 4 && st->nids && st->nids <= 8 &&
	       st->bad * 64 <= st->frames && st->idb <= idb_max &&
	       st->aux7 * 64 <= st->frames;
}

/* Frames at alignment @p fit. Searching sixteen alignments, a short raw
 * stream may fit at one by chance (200 bytes of ETMv3: 11 frames naming
 * 6 IDs once each); frames not from byte 0 must name at most four IDs,
 * each twice on average, in eight frames or more. */
static int det_fits_at(const struct det_stat *st, size_t p)
{
	return det_fits(st) &&
	       (!p || (st->frames >= 8 && st->nids <= 4 &&
		       st->idb >= 2 * (size_t)st->nids));
}

/* Offset of the first FSYNC in @buf, and whether one is off the 16-byte
 * grid (TPIU inserts them between frames; an ETB pads with whole frames). */
static size_t det_fsync_at(const uint8_t *buf, size_t n, int *off_grid)
{
	size_t p, first = n;

	*off_grid = 0;
	for (p = 0; p + 4 <= n; p++) {
		if (memcmp(buf + p, det_fsync, 4))
			continue;
		if (first == n)
			first = p;
		if (p % 16)
			*off_grid = 1;
		p += 3;
	}
	return first;
}

/* Is alignment @a better than @b? Misaligned by an odd number of bytes,
 * frames name random IDs (reserved ones among them); misaligned by an even
 * number, they name the same IDs (a data byte and the aux byte trade
 * places), and only the aux byte tells: the real one never sets the
 * reserved bit 7 for an ID in byte 14, a data byte in its place does half
 * the time. Fewer such frames, then fewer reserved IDs, then fewer IDs. */
static int det_better(const struct det_stat *a, const struct det_stat *b)
{
	if (a->aux7 != b->aux7)
		return a->aux7 < b->aux7;
	if (a->bad != b->bad)
		return a->bad < b->bad;
	return a->nids < b->nids;
}

/* The alignment (0-15) whose frames fit best, HSYNC dropped; 16 if none
 * fits. *@st gets its statistics, *@clear whether it beats every other
 * alignment (not tied with one). */
static size_t det_phase(const uint8_t *buf, size_t n, struct det_stat *st,
			int *clear)
{
	struct det_stat s[16];
	size_t p, best = 16;

	*clear = 0;
	for (p = 0; p < 16 && p < n; p++) {
		det_frames(buf, n, p, 1, &s[p]);
		if (det_fits_at(&s[p], p) &&
		    (best == 16 || det_better(&s[p], &s[best])))
			best = p;
	}
	if (best == 16)
		return 16;
	*st = s[best];
	*clear = 1;
	for (p = 0; p < 16 && p < n; p++)
		if (p != best && det_fits_at(&s[p], p) &&
		    !det_better(&s[best], &s[p]))
			*clear = 0;
	return best;
}

int etm_detect_frame_start(const uint8_t *buf, size_t n)
{
	struct det_stat st;
	int off_grid, clear;
	size_t p;

	if (!buf || !n || det_fsync_at(buf, n, &off_grid) < n)
		return -1;
	p = det_phase(buf, n, &st, &clear);
	return p < 16 ? (int)p : -1;
}

/* No FSYNC (an SWO capture): the alignment from the frame structure. */
static enum etm_input_format det_nofsync(const uint8_t *buf, size_t n,
					 char *why, size_t whylen)
{
	struct det_stat st;
	int clear;
	size_t p = det_phase(buf, n, &st, &clear);

	if (p == 16)
		return etm_fmt_unknown;
	if (why)
		snprintf(why, whylen, "TPIU frames without FSYNC, frames from "
				      "offset %zu by their structure (%zu frames, "
				      "%zu ID bytes, %u trace ID%s%s)",
			 p, st.frames, st.idb, st.nids, st.nids == 1 ? "" : "s",
			 clear ? "" : "; alignment uncertain: another "
				      "fits as well");
	return p ? etm_fmt_tpiu : etm_fmt_tpiu_nofsync;
}

enum etm_input_format etm_detect_format(const uint8_t *buf, size_t n,
					char *why, size_t whylen)
{
	struct det_stat st, best;
	enum etm_input_format f;
	int off_grid, clear;
	size_t fs;

	if (why && whylen)
		why[0] = 0;
	if (!buf || !n)
		return etm_fmt_unknown;
	fs = det_fsync_at(buf, n, &off_grid);
	det_frames(buf, n, fs, 1, &st);
	if (fs < n && off_grid && det_fits(&st)) {
		if (why)
			snprintf(why, whylen, "TPIU frames: FSYNC at offset %zu, "
					      "%u trace ID%s",
				 fs, st.nids, st.nids == 1 ? "" : "s");
		return etm_fmt_tpiu;
	}
	/* memory-aligned frames: from byte 0, unless another alignment
	 * fits better (a TPIU capture cut mid-frame; none can when no aux
	 * byte at byte 0 sets the reserved bit: the other alignments are
	 * looked at only then) */
	det_frames(buf, n, 0, 0, &st);
	if (det_fits(&st) &&
	    (!st.aux7 || det_phase(buf, n, &best, &clear) == 0 ||
	     !det_better(&best, &st))) {
		if (why)
			snprintf(why, whylen, "CoreSight 16-byte frames, %u "
					      "trace ID%s, from byte 0 (trace "
					      "buffer memory, or a TPIU capture "
					      "without FSYNC)",
				 st.nids, st.nids == 1 ? "" : "s");
		return etm_fmt_coresight;
	}
	f = det_nofsync(buf, n, why, whylen);
	if (f != etm_fmt_unknown)
		return f;
	if (why)
		snprintf(why, whylen, "no frame structure: raw single-source "
				      "trace");
	return etm_fmt_raw;
}
