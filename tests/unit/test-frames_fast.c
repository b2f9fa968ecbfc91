/* tests/unit/test-frames_fast.c - the deformatter tells whether its fast
 * path read all the frames since the start (etm_dfmt_stayed_fast()): the
 * parallel runner compares decoder states only then (a frame beginning
 * with 0xFF may be an FSYNC, whose state is not saved), instead of
 * scanning the input for such frames. Hand-built frames
 * (coresight-formatter.md): a frame beginning with 0xFF is left to the
 * byte path, a plain one is not. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "etest.h"
#include "source/dfmt_bulk.h"

/* ID change to 0x10 (0x21), then data and ID changes to 0x12 / 0x13
 * (the frame A of test-dfmt.c: no byte 0 of 0xFF). */
static const uint8_t frame_a[16] = { 0x21, 0x11, 0x22, 0x33, 0x25, 0x55,
				     0x44, 0x77, 0x27, 0x99, 0x01, 0xbb,
				     0x21, 0xdd, 0x66, 0xc6 };

/* A data-only frame: 15 bytes 0x40 (even bytes' bit 0 clear), aux 0. */
static void data_frame(uint8_t *f)
{
	memset(f, 0x40, 15);
	f[15] = 0;
}

/* Four FSYNCs (0xFFFFFF7F) filling a frame slot: the Linux barrier. */
static void fsync_frame(uint8_t *f)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		memcpy(f + 4 * i, "\xff\xff\xff\x7f", 4);
}

/* Push @n bytes in @piece-byte inputs, draining the fast path after each
 * (as the decoder does); returns the last return of next_bulk(). */
static int feed(struct etm_dfmt *d, const uint8_t *buf, size_t n, size_t piece)
{
	static uint8_t sel[128];
	struct etm_dfmt_item it;
	struct etm_dfmt_stage st;
	size_t pos = 0;
	int r = -etme_again;

	sel[0x10] = sel[0x12] = sel[0x13] = 1;
	while (pos < n) {
		size_t k = n - pos < piece ? n - pos : piece;

		if (etm_dfmt_push(d, buf + pos, k))
			return -1;
		pos += k;
		while ((r = etm_dfmt_next_bulk(d, sel, &it, &st)) >= 0)
			;
		if (r != -etme_again)
			return r;
	}
	return r;
}

/* Plain frames only: the fast path keeps the input, in any pieces. */
static void plain_frames_stay_fast(void)
{
	uint8_t buf[16 * 64];
	size_t i, pieces[] = { 16, 1, 7, 256, sizeof(buf) };

	for (i = 0; i < sizeof(buf) / 16; i++) {
		if (i % 2)
			data_frame(buf + 16 * i);
		else
			memcpy(buf + 16 * i, frame_a, 16);
	}
	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		struct etm_dfmt *d = etm_dfmt_alloc_bulk(etm_fmt_coresight, 0);

		ET_CHECK(d != NULL);
		ET_EQ(etm_dfmt_stayed_fast(d), 1);
		ET_EQ(feed(d, buf, sizeof(buf), pieces[i]), -etme_again);
		ET_EQ(etm_dfmt_stayed_fast(d), 1);
		etm_dfmt_free(d);
	}
}

/* A frame slot of FSYNCs (byte 0 0xFF) in the middle: not fast from there
 * on, though the fast path takes the plain frames after it again; a
 * restart forgets it. */
static void fsync_frame_seen_until_restart(void)
{
	uint8_t buf[16 * 8];
	size_t i;
	struct etm_dfmt *d = etm_dfmt_alloc_bulk(etm_fmt_coresight, 0);

	ET_CHECK(d != NULL);
	for (i = 0; i < 8; i++)
		data_frame(buf + 16 * i);
	memcpy(buf, frame_a, 16);
	fsync_frame(buf + 16 * 3);
	ET_EQ(feed(d, buf, 16 * 3, 16), -etme_again);
	ET_EQ(etm_dfmt_stayed_fast(d), 1);
	ET_EQ(feed(d, buf + 16 * 3, 16 * 5, 16), -etme_again);
	ET_EQ(etm_dfmt_stayed_fast(d), 0);
	ET_EQ(etm_dfmt_fast(d), 1); /* handed back after the FSYNCs */
	ET_EQ(feed(d, buf + 16 * 4, 16 * 4, 16), -etme_again);
	ET_EQ(etm_dfmt_stayed_fast(d), 0); /* until the start */
	etm_dfmt_restart(d, 16 * 12);
	ET_EQ(etm_dfmt_stayed_fast(d), 1);
	ET_EQ(feed(d, buf + 16 * 4, 16 * 4, 64), -etme_again);
	ET_EQ(etm_dfmt_stayed_fast(d), 1);
	etm_dfmt_free(d);
}

/* Byte 0 0xFF that is not an FSYNC (ID 0x7F change) counts too: the
 * runner cannot tell them apart without the byte path. */
static void ff_byte_not_fsync(void)
{
	uint8_t buf[16 * 4];
	struct etm_dfmt *d = etm_dfmt_alloc_bulk(etm_fmt_coresight, 0);

	ET_CHECK(d != NULL);
	memcpy(buf, frame_a, 16);
	data_frame(buf + 16);
	memcpy(buf + 32, frame_a, 16);
	buf[32] = 0xff;
	data_frame(buf + 48);
	feed(d, buf, sizeof(buf), sizeof(buf));
	ET_EQ(etm_dfmt_stayed_fast(d), 0);
	etm_dfmt_free(d);
}

/* Without a fast path (byte path only, or TPIU): never. */
static void no_fast_path(void)
{
	struct etm_dfmt *d = etm_dfmt_alloc(etm_fmt_coresight, 0);
	struct etm_dfmt *t = etm_dfmt_alloc_bulk(etm_fmt_tpiu, 0);

	ET_CHECK(d != NULL && t != NULL);
	ET_EQ(etm_dfmt_stayed_fast(d), 0);
	ET_EQ(etm_dfmt_stayed_fast(t), 0);
	ET_EQ(etm_dfmt_stayed_fast(NULL), 0);
	etm_dfmt_free(d);
	etm_dfmt_free(t);
}

int main(void)
{
	ETEST(plain_frames_stay_fast);
	ETEST(fsync_frame_seen_until_restart);
	ETEST(ff_byte_not_fsync);
	ETEST(no_fast_path);
	return etest_end();
}
