/* tests/unit/test-swo_detect.c - the two heuristics of an SWO capture,
 * on hand-derived bytes: where TPIU frames without FSYNC start
 * (etm_detect_frame_start(), etm_detect_format()), and whether a source's
 * bytes are ITM/DWT trace (etm_detect_itm(), ARMv7-M ARM appendix D4). */
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

#define NFR 64

/* NFR frames in a cycle of eight (shared/docs/coresight-formatter.md
 * section 3). Frame j of a cycle (j < 7) has an ID byte at byte 2j,
 * naming ID 1 or 2 in turn (aux bit j = 0: the next byte is the new
 * ID's), and that next byte has bit 7 set; the other even bytes are data
 * with bit 0 clear (its bit 0 goes to aux: 0 here), so the aux byte is
 * 0x00. Frame 7 of a cycle has the ID byte in byte 14 (aux bit 7 = 0, as
 * the protocol requires). Odd bytes are data: 0x81 + 2 * (their index in
 * the buffer) & 0x7f - bit 0 set, naming many IDs when misread as an ID
 * byte. So every alignment shifted by an odd number of bytes names more
 * than eight IDs (not frames); one shifted by an even number s reads the
 * ID byte of real byte s-2 as its byte 14 and the real byte s-1 (bit 7
 * set) as its aux byte: the reserved aux bit 7, once a cycle. */
static size_t mk_frames(uint8_t *b)
{
	size_t f, k, n = 0;

	for (f = 0; f < NFR; f++) {
		unsigned j = f % 8, id = 1 + f % 2;

		for (k = 0; k < 15; k++, n++) {
			if (k % 2)
				b[n] = (uint8_t)(0x81 + ((2 * n) & 0x7e));
			else
				b[n] = (uint8_t)(0x10 + 2 * k);
			if (k % 2 && k == 2 * j + 1)
				b[n] |= 0x80;
		}
		if (j < 7)
			b[f * 16 + 2 * j] = (uint8_t)(id << 1 | 1);
		else
			b[f * 16 + 14] = (uint8_t)(id << 1 | 1);
		b[n++] = 0x00; /* aux */
	}
	return n;
}

static void test_frame_start(void)
{
	uint8_t b[NFR * 16];
	size_t n = mk_frames(b), cut;
	char why[200];

	/* from byte 0: memory-aligned frames, as an ETB dump */
	ET_EQ(etm_detect_format(b, n, why, sizeof(why)), etm_fmt_coresight);
	ET_EQ(etm_detect_frame_start(b, n), 0);
	/* a capture begun mid-frame: the frames start 16 - cut bytes in */
	for (cut = 1; cut < 16; cut++) {
		ET_EQ(etm_detect_frame_start(b + cut, n - cut), 16 - cut);
		ET_EQ(etm_detect_format(b + cut, n - cut, why, sizeof(why)),
		      etm_fmt_tpiu);
		ET_CHECK(strstr(why, "TPIU frames without FSYNC"));
	}
	/* an FSYNC: the deformatter finds the frames by it */
	memcpy(b + 16, "\xff\xff\xff\x7f", 4);
	ET_EQ(etm_detect_frame_start(b, n), -1);
}

/* An ITM/DWT stream (header forms in the comments) */
static const uint8_t itm[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x80, /* sync: 47 zero bits, a one */
	0x01, 'H', 0x01, 'i',               /* stimulus port 0, 1 byte each */
	0x03, 't', 'i', 'c', 'k',           /* port 0, 4 bytes (SS = 11) */
	0x0a, '1', '\n',                    /* port 1 (0b00001_0_10), 2 bytes */
	0x30,                               /* local timestamp 2: TS = 3 */
	0x17, 0x04, 0x00, 0x01, 0x00,       /* PC sample (disc 2, 4 bytes) */
	0xc0, 0x85, 0x03,                   /* local timestamp 1, continued */
	0x0e, 0x0f, 0x10,                   /* exception 15 entered (disc 1) */
	0x05, 0x01,                         /* event counter (disc 0, 1 byte) */
	0x94, 0x81, 0x02,                   /* global timestamp 1 */
	0x70,                               /* overflow */
	0x01, '!',                          /* port 0 */
};

/* An ETMv3 stream: A-sync, I-sync (0x08, address 0x00010000, info 0x01;
 * as ITM: an extension packet, then source packets), P-headers 0x84
 * (format 1, one E atom) and 0x80 (an N atom), and a branch address packet
 * 0x23. Read as ITM, 0x84 (0bxxxx0100, not 0x94/0xB4) and 0x80
 * (0b10xx0000) are reserved headers. */
static const uint8_t etm3[] = {
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x80,
	0x08,
	0x00,
	0x00,
	0x01,
	0x00,
	0x01,
	0x84,
	0x84,
	0x80,
	0x23,
	0x84,
	0x80,
	0x84,
	0x84,
	0x23,
	0x84,
	0x80,
	0x84,
	0x23,
	0x84,
	0x84,
	0x80,
};

static void test_itm_grammar(void)
{
	uint8_t b[64];
	char why[200];

	ET_EQ(etm_detect_itm(itm, sizeof(itm), why, sizeof(why)), 1);
	/* 13 packets: 1 sync, 8 source (0x01 x3, 0x03, 0x0A, 0x17, 0x0E,
	 * 0x05), 3 timestamps (0x30, 0xC0, 0x94), the overflow */
	ET_CHECK(strstr(why, "13 packets by its grammar (8 source, 1 sync, "
			     "3 timestamp), 0 malformed"));
	ET_EQ(etm_detect_itm(etm3, sizeof(etm3), why, sizeof(why)), 0);
	/* too little to tell: fewer than eight packets */
	ET_EQ(etm_detect_itm(itm, 10, NULL, 0), 0);
	/* an exception packet of one byte (0x0D: disc 1, SS = 01) */
	memcpy(b, itm, sizeof(itm));
	b[sizeof(itm) - 2] = 0x0d;
	ET_EQ(etm_detect_itm(b, sizeof(itm), why, sizeof(why)), 0);
	/* a local timestamp (at 24) continued past four payload bytes */
	memcpy(b, itm, sizeof(itm));
	memcpy(b + 24, "\xc0\x85\x85\x85\x85\x85", 6);
	ET_EQ(etm_detect_itm(b, sizeof(itm), why, sizeof(why)), 0);
	ET_CHECK(!strstr(why, " 0 malformed"));
	/* three zeros and a one: not a sync */
	memcpy(b, itm, sizeof(itm));
	b[0] = b[1] = 0x01;
	ET_EQ(etm_detect_itm(b, sizeof(itm), why, sizeof(why)), 0);
	ET_CHECK(!strstr(why, " 0 malformed"));
}

int main(void)
{
	etest_run("frame start of TPIU frames without FSYNC", test_frame_start);
	etest_run("ITM/DWT packet grammar", test_itm_grammar);
	return etest_end();
}
