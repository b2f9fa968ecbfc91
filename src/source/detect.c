/* source/detect.c - input format from the bytes: CoreSight 16-byte frames
 * (frame-aligned ETB/ETF/ETR memory), TPIU port captures (FSYNC between
 * frames, or HSYNC only), or raw single-source trace (IHI 0029 D4). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/open.h>

#define DET_FRAMES 4096

static const uint8_t det_fsync[4] = { 0xff, 0xff, 0xff, 0x7f };

/* Look at the frames of @buf from @pos (TPIU: HSYNC halfwords dropped):
 * *@bad frames name a reserved ID, @seen the IDs used. Returns frames. */
static size_t det_frames(const uint8_t *buf, size_t n, size_t pos, int hsync,
			 size_t *bad, size_t *idbytes, uint8_t seen[128])
{
	uint8_t f[16];
	size_t frames = 0, k = 0;

	*bad = *idbytes = 0;
	memset(seen, 0, 128);
	while (pos < n && frames < DET_FRAMES) {
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
		frames++;
		for (int i = 0, b = 0; i < 15; i += 2, b = 0) {
			unsigned id = f[i] >> 1;

			if (!(f[i] & 1))
				continue;
			++*idbytes;
			b = id >= 0x70 && id != 0x7d;
			*bad += (size_t)b;
			if (!b)
				seen[id] = 1;
		}
	}
	return frames;
}

/* Frames at @pos look like CoreSight frames: at least four, hardly any
 * reserved ID, few distinct IDs, and few ID bytes (a source usually fills
 * whole frames; in unframed trace half the even bytes have bit 0 set,
 * about four per frame, naming random IDs). Real captures: TC2 ETB 0.72
 * ID bytes a frame, 4 IDs; am243x 0.13, 1 ID; raw ETMv3/PTM 1.45-2.12. */
static int det_framed(const uint8_t *buf, size_t n, size_t pos, int hsync,
		      unsigned *nids)
{
	uint8_t seen[128];
	size_t bad, idb, frames = det_frames(buf, n, pos, hsync, &bad, &idb, seen);
	unsigned i;

	*nids = 0;
	for (i = 1; i < 0x70; i++)
		*nids += seen[i];
	return frames >= 4 && *nids && *nids <= 8 && bad * 64 <= frames &&
	       idb * 4 <= frames * 5;
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

enum etm_input_format etm_detect_format(const uint8_t *buf, size_t n,
					char *why, size_t whylen)
{
	unsigned nids;
	int off_grid;
	size_t fs;

	if (why && whylen)
		why[0] = 0;
	if (!buf || !n)
		return etm_fmt_unknown;
	fs = det_fsync_at(buf, n, &off_grid);
	if (fs < n && off_grid && det_framed(buf, n, fs, 1, &nids)) {
		if (why)
			snprintf(why, whylen, "TPIU frames: FSYNC at offset %zu, "
					      "%u trace IDs",
				 fs, nids);
		return etm_fmt_tpiu;
	}
	if (det_framed(buf, n, 0, 0, &nids)) {
		if (why)
			snprintf(why, whylen, "CoreSight 16-byte frames, %u "
					      "trace IDs",
				 nids);
		return etm_fmt_coresight;
	}
	if (det_framed(buf, n, 0, 1, &nids)) {
		if (why)
			snprintf(why, whylen, "TPIU frames without FSYNC "
					      "(HSYNC only), %u trace IDs",
				 nids);
		return etm_fmt_tpiu_nofsync;
	}
	if (why)
		snprintf(why, whylen, "no frame structure: raw single-source "
				      "trace");
	return etm_fmt_raw;
}
