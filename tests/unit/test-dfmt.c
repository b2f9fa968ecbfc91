/* tests/unit/test-dfmt.c - CoreSight frame deformatter: hand-built frames,
 * TPIU syncs, chunking invariance, hostile input, the TC2 ETB capture. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/source.h>

#include "etest.h"

#define MAXEV 512

/* Flattened result: one entry per data byte or event. */
struct ev {
	int kind;
	int id; /* data: trace ID; error: error code */
	uint8_t b;
	uint64_t off;
};

struct res {
	struct ev ev[MAXEV];
	size_t n;
	size_t runs;
	int rc; /* last return of next() */
};

static void add(struct res *r, int kind, int id, uint8_t b, uint64_t off)
{
	if (r->n < MAXEV)
		r->ev[r->n++] = (struct ev){ kind, id, b, off };
}

static void drain(struct etm_dfmt *d, struct res *r)
{
	struct etm_dfmt_item it;
	size_t i;

	while ((r->rc = etm_dfmt_next(d, &it, sizeof(it))) == 0) {
		if (it.kind == etm_dfmt_data) {
			r->runs++;
			for (i = 0; i < it.run.size; i++)
				add(r, it.kind, it.run.id, it.run.data[i],
				    it.run.offset + i);
		} else {
			add(r, it.kind, it.err, 0, it.offset);
		}
	}
}

/* Run the deformatter over @buf fed in @chunk-byte pieces. */
static int run(enum etm_input_format fmt, const uint8_t *buf, size_t n,
	       size_t chunk, struct res *r)
{
	struct etm_dfmt *d = etm_dfmt_alloc(fmt, 0);
	size_t pos = 0;

	memset(r, 0, sizeof(*r));
	if (!d)
		return -1;
	while (pos < n) {
		size_t k = n - pos < chunk ? n - pos : chunk;

		if (etm_dfmt_push(d, buf + pos, k))
			break;
		pos += k;
		drain(d, r);
		if (r->rc != -etme_again)
			break;
	}
	etm_dfmt_finish(d);
	drain(d, r);
	etm_dfmt_free(d);
	return r->rc == -etme_eos ? 0 : -1;
}

/* Find the i-th data event of @id. */
static const struct ev *nth(const struct res *r, int id, size_t i)
{
	size_t k;

	for (k = 0; k < r->n; k++)
		if (r->ev[k].kind == etm_dfmt_data && r->ev[k].id == id &&
		    i-- == 0)
			return &r->ev[k];
	return NULL;
}

static size_t count_id(const struct res *r, int id)
{
	size_t k, c = 0;

	for (k = 0; k < r->n; k++)
		c += r->ev[k].kind == etm_dfmt_data && r->ev[k].id == id;
	return c;
}

/*
 * Frame A (cur ID unknown at start). aux = 0xC6 = bits 1, 2, 6, 7.
 *  0: 0x21 ID 0x10, aux0=0 -> byte 1 (0x11) is for the new ID 0x10
 *  2: 0x22 data, aux1=1 -> 0x23; byte 3 = 0x33         -> 0x10
 *  4: 0x25 ID 0x12, aux2=1 -> byte 5 (0x55) is for the OLD ID 0x10
 *  6: 0x44 data, aux3=0 -> 0x44; byte 7 = 0x77          -> 0x12
 *  8: 0x27 ID 0x13, aux4=0 -> byte 9 (0x99)             -> 0x13
 * 10: 0x01 ID 0x00 (NULL), aux5=0 -> byte 11 (0xBB) discarded
 * 12: 0x21 ID 0x10, aux6=1 -> byte 13 (0xDD) for old ID 0x00: discarded
 * 14: 0x66 data, aux7=1 -> 0x67                         -> 0x10
 * Frame B (ID 0x10 current). aux = 0x81 = bits 0, 7.
 *  0: 0x80 data, aux0=1 -> 0x81; byte 1 = 0x82; bytes 2..13 = 0x10..0x1B
 *  (even ones have bit 0 clear and aux bits 1..6 clear) -> all 0x10;
 *  14: 0x29 ID 0x14 (no data; applies from the next frame; aux7 ignored)
 * Frame C: 15 data bytes 0x40, aux 0 -> ID 0x14.
 * Frame D: 0: 0xE1 = ID 0x70 (reserved) -> error bad_id, byte 1 dropped;
 *  2: 0x29 ID 0x14, aux1=0 -> byte 3 (0xBB) -> 0x14; bytes 4..14 =
 *  0x02..0x0C data (even bytes bit 0 clear, aux 0) -> 0x14.
 */
static const uint8_t frame_a[16] = { 0x21, 0x11, 0x22, 0x33, 0x25, 0x55,
				     0x44, 0x77, 0x27, 0x99, 0x01, 0xbb,
				     0x21, 0xdd, 0x66, 0xc6 };
static const uint8_t frame_b[16] = { 0x80, 0x82, 0x10, 0x11, 0x12, 0x13,
				     0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
				     0x1a, 0x1b, 0x29, 0x81 };
static const uint8_t frame_d[16] = { 0xe1, 0xaa, 0x29, 0xbb, 0x02, 0x03,
				     0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
				     0x0a, 0x0b, 0x0c, 0x00 };

static size_t build_abcd(uint8_t *buf)
{
	memcpy(buf, frame_a, 16);
	memcpy(buf + 16, frame_b, 16);
	memset(buf + 32, 0x40, 15);
	buf[47] = 0;
	memcpy(buf + 48, frame_d, 16);
	return 64;
}

/* Expected (id or error, byte, offset) for frames A-D at offset 0. */
static const struct ev expect_abcd[] = {
	{ etm_dfmt_data, 0x10, 0x11, 1 },
	{ etm_dfmt_data, 0x10, 0x23, 2 },
	{ etm_dfmt_data, 0x10, 0x33, 3 },
	{ etm_dfmt_data, 0x10, 0x55, 5 },
	{ etm_dfmt_data, 0x12, 0x44, 6 },
	{ etm_dfmt_data, 0x12, 0x77, 7 },
	{ etm_dfmt_data, 0x13, 0x99, 9 },
	{ etm_dfmt_data, 0x10, 0x67, 14 },
	{ etm_dfmt_data, 0x10, 0x81, 16 },
	{ etm_dfmt_data, 0x10, 0x82, 17 },
	{ etm_dfmt_data, 0x10, 0x10, 18 },
	{ etm_dfmt_data, 0x10, 0x11, 19 },
	{ etm_dfmt_data, 0x10, 0x12, 20 },
	{ etm_dfmt_data, 0x10, 0x13, 21 },
	{ etm_dfmt_data, 0x10, 0x14, 22 },
	{ etm_dfmt_data, 0x10, 0x15, 23 },
	{ etm_dfmt_data, 0x10, 0x16, 24 },
	{ etm_dfmt_data, 0x10, 0x17, 25 },
	{ etm_dfmt_data, 0x10, 0x18, 26 },
	{ etm_dfmt_data, 0x10, 0x19, 27 },
	{ etm_dfmt_data, 0x10, 0x1a, 28 },
	{ etm_dfmt_data, 0x10, 0x1b, 29 },
};

static void check_abcd(const struct res *r, uint64_t base)
{
	size_t i, ne = sizeof(expect_abcd) / sizeof(expect_abcd[0]);

	ET_EQ(r->n, ne + 15 + 1 + 12);
	for (i = 0; i < ne; i++) {
		ET_EQ(r->ev[i].kind, etm_dfmt_data);
		ET_EQ(r->ev[i].id, expect_abcd[i].id);
		ET_EQ(r->ev[i].b, expect_abcd[i].b);
		ET_EQ(r->ev[i].off, expect_abcd[i].off + base);
	}
	for (i = 0; i < 15; i++) {
		ET_EQ(r->ev[ne + i].id, 0x14);
		ET_EQ(r->ev[ne + i].b, 0x40);
		ET_EQ(r->ev[ne + i].off, base + 32 + i);
	}
	ET_EQ(r->ev[ne + 15].kind, etm_dfmt_error);
	ET_EQ(r->ev[ne + 15].id, etme_bad_id);
	ET_EQ(r->ev[ne + 15].off, base + 48);
	for (i = 0; i < 12; i++) {
		const struct ev *e = &r->ev[ne + 16 + i];

		ET_EQ(e->id, 0x14);
		ET_EQ(e->b, i == 0 ? 0xbb : 0x02 + i - 1);
		ET_EQ(e->off, base + 51 + i);
	}
}

static void frames_hand_built(void)
{
	uint8_t buf[64];
	struct res r;
	size_t n = build_abcd(buf);

	ET_EQ(run(etm_fmt_coresight, buf, n, 4096, &r), 0);
	check_abcd(&r, 0);
	/* Runs: [11 23 33] [55] [44 77] [99] [67] | [81..1B] | [40 x15] |
	 * error | [BB..0C]: 8 data runs (offset jumps split runs). */
	ET_EQ(r.runs, 8);
	ET_EQ(count_id(&r, 0x10), 5 + 14);
	ET_EQ(count_id(&r, 0x12), 2);
	ET_EQ(count_id(&r, 0x13), 1);
	ET_EQ(count_id(&r, 0x14), 15 + 12);
}

static void frames_chunking(void)
{
	static const size_t chunks[] = { 1, 7, 4096, 3, 16, 17 };
	uint8_t buf[64];
	struct res *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t n = build_abcd(buf), i, k;

	ET_CHECK(a && b);
	ET_EQ(run(etm_fmt_coresight, buf, n, 4096, a), 0);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		ET_EQ(run(etm_fmt_coresight, buf, n, chunks[i], b), 0);
		ET_EQ(b->n, a->n);
		for (k = 0; k < a->n; k++) {
			ET_EQ(b->ev[k].kind, a->ev[k].kind);
			ET_EQ(b->ev[k].id, a->ev[k].id);
			ET_EQ(b->ev[k].b, a->ev[k].b);
			ET_EQ(b->ev[k].off, a->ev[k].off);
		}
	}
	free(a);
	free(b);
}

/* Doc §8: TC2 frames 0 and 1. Frame 0 has no ID byte -> discarded; frame 1
 * byte 6 = 0x21 (ID 0x10) with aux bit 3 set, so byte 7 goes to the old
 * (unknown) ID; bytes 8..14 -> 82 a4 84 a4 84 bc b0 at offsets 0x18..0x1E. */
static void frames_doc_example(void)
{
	static const uint8_t buf[32] = {
		0x84, 0xa8, 0x84, 0xbc, 0xb4, 0x88, 0x82, 0x84,
		0xa4, 0x84, 0xa4, 0x84, 0xa0, 0x82, 0x70, 0x00,
		0x28, 0x21, 0x7e, 0x8b, 0x02, 0xc0, 0x21, 0x84,
		0x82, 0xa4, 0x84, 0xa4, 0x84, 0xbc, 0xb0, 0x0b
	};
	static const uint8_t want[7] = { 0x82, 0xa4, 0x84, 0xa4,
					 0x84, 0xbc, 0xb0 };
	struct res r;
	size_t i;

	ET_EQ(run(etm_fmt_coresight, buf, sizeof(buf), 4096, &r), 0);
	ET_EQ(r.n, 7);
	ET_EQ(r.runs, 1);
	for (i = 0; i < 7; i++) {
		ET_EQ(r.ev[i].id, 0x10);
		ET_EQ(r.ev[i].b, want[i]);
		ET_EQ(r.ev[i].off, 0x18 + i);
	}
}

/* A trailing partial frame is reported once as etme_truncated at its first
 * byte's offset, after the data of the complete frames. */
static void frames_truncated(void)
{
	uint8_t buf[64 + 5];
	struct res r;
	size_t n = build_abcd(buf);

	memset(buf + n, 0x22, 5);
	ET_EQ(run(etm_fmt_coresight, buf, n + 5, 7, &r), 0);
	ET_EQ(r.n, 22 + 15 + 1 + 12 + 1);
	ET_EQ(r.ev[r.n - 1].kind, etm_dfmt_error);
	ET_EQ(r.ev[r.n - 1].id, etme_truncated);
	ET_EQ(r.ev[r.n - 1].off, 64);
}

/* Linux barrier: four FSYNCs at a frame boundary in memory data are
 * stripped, give a sync item and forget the current ID, so a following
 * all-data frame (no ID byte) is discarded. */
static void frames_barrier(void)
{
	uint8_t buf[16 + 16 + 16];
	struct res r;
	size_t i;

	memcpy(buf, frame_a, 16);
	for (i = 0; i < 4; i++)
		memcpy(buf + 16 + 4 * i, "\xff\xff\xff\x7f", 4);
	memset(buf + 32, 0x40, 15);
	buf[47] = 0;
	ET_EQ(run(etm_fmt_coresight, buf, sizeof(buf), 1, &r), 0);
	ET_EQ(r.n, 8 + 1);
	ET_EQ(r.ev[8].kind, etm_dfmt_sync);
	ET_EQ(r.ev[8].off, 16);
}

/*
 * TPIU capture: 3 junk bytes, FSYNC at 3..6, frame A at 7..22, frame B
 * bytes 0-5 at 23..28, HSYNC at 29..30 (frame byte 6 = even), frame B bytes
 * 6-15 at 31..40, FSYNC 41..44, frame C 45..60, FSYNC 61..64, frame D 65..80.
 */
static void tpiu_syncs(void)
{
	uint8_t buf[96];
	uint8_t frames[64];
	struct res r;
	size_t n = 0, i;

	build_abcd(frames);
	memcpy(buf, "\x12\x34\x56\xff\xff\xff\x7f", 7);
	n = 7;
	memcpy(buf + n, frames, 16), n += 16;
	memcpy(buf + n, frames + 16, 6), n += 6;
	memcpy(buf + n, "\xff\x7f", 2), n += 2;
	memcpy(buf + n, frames + 22, 10), n += 10;
	memcpy(buf + n, "\xff\xff\xff\x7f", 4), n += 4;
	memcpy(buf + n, frames + 32, 16), n += 16;
	memcpy(buf + n, "\xff\xff\xff\x7f", 4), n += 4;
	memcpy(buf + n, frames + 48, 16), n += 16;
	ET_EQ(n, 81);
	for (i = 0; i < 3; i++) {
		static const size_t ch[] = { 1, 7, 4096 };

		ET_EQ(run(etm_fmt_tpiu, buf, n, ch[i], &r), 0);
		ET_EQ(r.n, 1 + 22 + 15 + 1 + 12);
		ET_EQ(r.ev[0].kind, etm_dfmt_sync);
		ET_EQ(r.ev[0].off, 3);
		/* frame A data: 0x11 at 7+1, 0x67 at 7+14 */
		ET_EQ(r.ev[1].b, 0x11);
		ET_EQ(r.ev[1].off, 8);
		ET_EQ(r.ev[8].b, 0x67);
		ET_EQ(r.ev[8].off, 21);
		/* frame B: 0x13 (byte 5) at 28, 0x14 (byte 6) at 31 */
		/* ID 0x10 bytes: A gives 5 (#0-4), B bytes 0..13 are #5-18 */
		ET_EQ(nth(&r, 0x10, 10)->b, 0x13);
		ET_EQ(nth(&r, 0x10, 10)->off, 28);
		ET_EQ(nth(&r, 0x10, 11)->b, 0x14);
		ET_EQ(nth(&r, 0x10, 11)->off, 31);
		ET_EQ(nth(&r, 0x10, 18)->b, 0x1b);
		ET_EQ(nth(&r, 0x10, 18)->off, 38);
		ET_EQ(nth(&r, 0x14, 0)->off, 45);
		ET_EQ(nth(&r, 0x14, 14)->off, 59);
		ET_EQ(r.ev[38].kind, etm_dfmt_error);
		ET_EQ(r.ev[38].id, etme_bad_id);
		ET_EQ(r.ev[38].off, 65);
		ET_EQ(nth(&r, 0x14, 15)->b, 0xbb);
		ET_EQ(nth(&r, 0x14, 15)->off, 68);
	}
}

/* TPIU data that never contains an FSYNC: nothing is delivered but a
 * nosync error at the end. */
static void tpiu_no_sync(void)
{
	uint8_t buf[64];
	struct res r;

	build_abcd(buf);
	ET_EQ(run(etm_fmt_tpiu, buf, sizeof(buf), 5, &r), 0);
	ET_EQ(r.n, 1);
	ET_EQ(r.ev[0].kind, etm_dfmt_error);
	ET_EQ(r.ev[0].id, etme_nosync);
}

static void api_misuse(void)
{
	struct etm_dfmt *d;
	struct etm_dfmt_item it;
	uint8_t buf[32] = { 0 };

	ET_CHECK(etm_dfmt_alloc(etm_fmt_raw, 0) == NULL);
	ET_CHECK(etm_dfmt_alloc(etm_fmt_unknown, 0) == NULL);
	etm_dfmt_free(NULL);
	d = etm_dfmt_alloc(etm_fmt_coresight, 100);
	ET_CHECK(d);
	ET_EQ(etm_dfmt_push(d, buf, sizeof(buf)), 0);
	ET_EQ(etm_dfmt_push(d, buf, sizeof(buf)), -etme_busy);
	ET_EQ(etm_dfmt_next(d, &it, sizeof(it) - 1), -etme_invalid);
	ET_EQ(etm_dfmt_next(d, &it, sizeof(it)), -etme_again);
	ET_EQ(etm_dfmt_push(d, NULL, 4), -etme_invalid);
	ET_EQ(etm_dfmt_finish(d), 0);
	ET_EQ(etm_dfmt_next(d, &it, sizeof(it)), -etme_eos);
	ET_EQ(etm_dfmt_next(d, &it, sizeof(it)), -etme_eos);
	ET_EQ(etm_dfmt_push(d, buf, 1), -etme_invalid);
	etm_dfmt_free(d);
}

static void random_no_crash(void)
{
	static uint8_t buf[1 << 16];
	struct etm_dfmt *d;
	struct etm_dfmt_item it;
	uint32_t x = 12345;
	size_t i, pos, total;
	int f, rc;

	for (f = 0; f < 2; f++) {
		for (i = 0; i < sizeof(buf); i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = (uint8_t)(x >> 16);
			/* sprinkle sync patterns */
			if ((x >> 8) % 61 == 0 && i + 4 <= sizeof(buf)) {
				memcpy(buf + i, "\xff\xff\xff\x7f", 4);
				i += 3;
			}
		}
		d = etm_dfmt_alloc(f ? etm_fmt_tpiu : etm_fmt_coresight, 0);
		ET_CHECK(d);
		pos = total = 0;
		while (pos < sizeof(buf)) {
			size_t k = 1 + (pos * 7) % 300;

			if (k > sizeof(buf) - pos)
				k = sizeof(buf) - pos;
			ET_EQ(etm_dfmt_push(d, buf + pos, k), 0);
			pos += k;
			while ((rc = etm_dfmt_next(d, &it, sizeof(it))) == 0) {
				if (it.kind == etm_dfmt_data) {
					ET_CHECK(it.run.id > 0 &&
						 it.run.id < 0x70);
					ET_CHECK(it.run.size <= 15);
					total += it.run.size;
				}
			}
			ET_EQ(rc, -etme_again);
		}
		etm_dfmt_finish(d);
		while ((rc = etm_dfmt_next(d, &it, sizeof(it))) == 0)
			;
		ET_EQ(rc, -etme_eos);
		ET_CHECK(total <= sizeof(buf));
		etm_dfmt_free(d);
	}
}

static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long sz;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(sz > 0 ? (size_t)sz : 1);
	if (p && fread(p, 1, (size_t)sz, f) != (size_t)sz) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*n = (size_t)sz;
	return p;
}

/* Concatenate the raw packet bytes "[0x.. 0x.. ]" of the OpenCSD listing
 * lines "Idx:..; ID:..; [...]" (first @max bytes). */
static size_t listing_bytes(const char *path, uint8_t *out, size_t max)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "; [0x"), *e;

		if (strncmp(line, "Idx:", 4) || !p)
			continue;
		p += 3;
		while (n < max && p[0] == '0' && p[1] == 'x') {
			out[n++] = (uint8_t)strtoul(p, &e, 16);
			p = e;
			while (*p == ' ')
				p++;
		}
	}
	fclose(f);
	return n;
}

struct tc2_streams {
	uint8_t *s[0x80];
	size_t n[0x80];
	size_t errors;
};

static int tc2_deformat(const uint8_t *buf, size_t n, struct tc2_streams *t)
{
	struct etm_dfmt *d = etm_dfmt_alloc(etm_fmt_coresight, 0);
	struct etm_dfmt_item it;
	int rc;

	if (!d)
		return -1;
	etm_dfmt_push(d, buf, n);
	etm_dfmt_finish(d);
	while ((rc = etm_dfmt_next(d, &it, sizeof(it))) == 0) {
		if (it.kind != etm_dfmt_data) {
			t->errors++;
			continue;
		}
		if (!t->s[it.run.id])
			t->s[it.run.id] = malloc(n);
		memcpy(t->s[it.run.id] + t->n[it.run.id], it.run.data,
		       it.run.size);
		t->n[it.run.id] += it.run.size;
	}
	etm_dfmt_free(d);
	return rc == -etme_eos ? 0 : -1;
}

static void tc2_streams(void)
{
	static const size_t want[5] = { 10873, 10619, 3153, 4533, 0 };
	static const uint8_t head13[] = { 0x42, 0xa4, 0x59, 0x00, 0x81, 0x80,
					  0x80, 0x80, 0x48, 0x10, 0x40, 0xa1 };
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	static struct tc2_streams t;
	static uint8_t ref[16384];
	char path[512], lpath[512], rel[64];
	uint8_t *buf;
	size_t n, i, k, m;

	if (!etest_shared("snapshots/TC2/cstrace.bin", path, sizeof(path))) {
		etest_skip("TC2 not found");
		return;
	}
	buf = read_all(path, &n);
	ET_CHECK(buf);
	ET_EQ(n, 32768);
	memset(&t, 0, sizeof(t));
	ET_EQ(tc2_deformat(buf, n, &t), 0);
	free(buf);
	ET_EQ(t.errors, 0);
	/* doc §10 byte counts; PTM_1 (0x14) has no data in this capture */
	for (i = 0; i < 5; i++)
		ET_EQ(t.n[0x10 + i], want[i]);
	for (i = 0; i < 0x80; i++)
		if (i < 0x10 || i > 0x14)
			ET_EQ(t.n[i], 0);
	ET_CHECK(!memcmp(t.s[0x13], head13, sizeof(head13)));
	ET_CHECK(!memcmp(t.s[0x13] + 121, async, 6));
	ET_CHECK(!memcmp(t.s[0x10] + 776, async, 6));
	/* OpenCSD listings hold the de-formatted bytes of each ID in order:
	 * the whole stream must match, byte for byte. */
	for (i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "reference/TC2/0x1%zu.decode.txt",
			 i);
		if (!etest_shared(rel, lpath, sizeof(lpath))) {
			etest_skip(rel);
			continue;
		}
		m = listing_bytes(lpath, ref, sizeof(ref));
		ET_EQ(m, t.n[0x10 + i]);
		for (k = 0; k < m; k++)
			ET_EQ(t.s[0x10 + i][k], ref[k]);
	}
	for (i = 0; i < 0x80; i++)
		free(t.s[i]);
}

/* Frame realignment by the frame structure alone (no judge: the byte path
 * of etm_dfmt_alloc(); source/dfmt_realign.c, dfmt_fit_plain()), derived by
 * hand. Sixteen frames F = { 0x21 (ID 0x10), 0x02 x 14, aux 0xF1 }, bytes
 * 69-71 lost (in frame 4). Undamaged, aux 0xF1 makes the data bytes 8, 10,
 * 12, 14 of each frame 0x03 and names no ID (byte 14 is data).
 * Damaged, frame 4 read at the old alignment (64-79) holds original bytes
 * 64-68 and 72-82: original byte 79 (aux 0xF1) is at 76, an even byte with
 * bit 0 set: ID 0x78, reserved -> etme_bad_id at 76, and the realignment
 * looks at the frames from 80 on. A shift k (bytes dropped from 80):
 * original frame starts (0x21) are at 77 + 16j, so at frame byte
 * (13 - k) mod 16; the aux bytes 0xF1 at (12 - k) mod 16.
 * - k even: 0xF1 at an even byte, ID 0x78 reserved: unfit;
 * - k odd, not 13: 0x21 at an odd byte (data), the aux byte of each frame
 *   is 0x02 (bit 0 clear): 0 (no live ID is known, none counts);
 * - k = 13: every frame starts with 0x21, every aux is 0xF1 with bit 0 set
 *   and ID 0x78 not live: the tie-break counts 64 per frame, the best.
 * So (dfmt_realign_plain()): etme_bad_frame at 80 (the first byte
 * dropped; the judged realignment says etme_frame_align), a sync at 93, and
 * from there the frames are the original frames 6-15 shifted by -3. At 93
 * the current ID is unknown (a realignment forgets it) and aux bit 0 is
 * set with a new ID: byte 94 still belongs to the old (unknown) ID and is
 * dropped; the other 139 data bytes of frames 6-15 come out as ID 0x10,
 * each the original byte 3 further on. */
static void realign_plain_lost_bytes(void)
{
	uint8_t orig[256], dmg[253];
	struct res r;
	size_t i, after = 0, nbad = 0, nfa = 0, nsync = 0;
	int ok = 1;

	for (i = 0; i < sizeof(orig); i++)
		orig[i] = i % 16 == 0 ? 0x21 : i % 16 == 15 ? 0xf1 :
							      0x02;
	memcpy(dmg, orig, 69);
	memcpy(dmg + 69, orig + 72, sizeof(orig) - 72);
	ET_EQ(run(etm_fmt_coresight, dmg, sizeof(dmg), sizeof(dmg), &r), 0);
	for (i = 0; i < r.n; i++) {
		const struct ev *e = &r.ev[i];

		if (e->kind == etm_dfmt_error && e->id == etme_bad_id) {
			nbad++;
			ET_EQ(e->off, 76);
		} else if (e->kind == etm_dfmt_error) {
			nfa++;
			ET_EQ(e->id, etme_bad_frame);
			ET_EQ(e->off, 80);
		} else if (e->kind == etm_dfmt_sync) {
			nsync++;
			ET_EQ(e->off, 93);
		} else if (e->off >= 93) {
			after++;
			/* original byte p = off + 3 of its frame: 0x03 at
			 * the even bytes 8-14 (aux bits 4-7), else 0x02 */
			size_t p = (e->off + 3) % 16;

			ok &= e->id == 0x10 && e->off != 94 &&
			      e->b == (p >= 8 && p % 2 == 0 ? 0x03 : 0x02);
		}
	}
	ET_EQ(nbad, 1);
	ET_EQ(nfa, 1);
	ET_EQ(nsync, 1);
	ET_EQ(after, 139);
	ET_CHECK(ok);
}

int main(void)
{
	ETEST(frames_hand_built);
	ETEST(frames_chunking);
	ETEST(frames_doc_example);
	ETEST(frames_truncated);
	ETEST(frames_barrier);
	ETEST(realign_plain_lost_bytes);
	ETEST(tpiu_syncs);
	ETEST(tpiu_no_sync);
	ETEST(api_misuse);
	ETEST(random_no_crash);
	ETEST(tc2_streams);
	return etest_end();
}
