/* tests/unit/test-itm_packets.c - the ITM/DWT packet decoder on
 * hand-derived vectors: every packet type and payload size of the ARMv7-M
 * Architecture Reference Manual (DDI 0403E) appendix D4, "Debug ITM and
 * DWT Packet Protocol" (section or table cited per vector), malformed
 * headers and payloads, every truncation of every vector, chunking, and
 * the elements the pipeline makes of them. */
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

/* One vector: its bytes, and the first packet they decode to. */
struct vec {
	const char *cite;
	uint8_t b[12];
	unsigned n;
	enum etm_pkt_type type;
	uint64_t v;    /* port/exc: see check_pkt() */
	uint64_t w;    /* value / address / timestamp */
	unsigned size; /* payload size, tc, fn */
	unsigned x;    /* itm_flags / itm_fn / itm_cmp, by type */
};

#define T(...)              \
	{                   \
		__VA_ARGS__ \
	}

static const struct vec vecs[] = {
	/* D4.2.1 synchronization: at least 47 zeros and a one */
	{ "D4.2.1 sync", T(0, 0, 0, 0, 0, 0x80), 6, etmp_async, 0, 0, 0, 0 },
	{ "D4.2.1 sync, longer", T(0, 0, 0, 0, 0, 0, 0, 0x80), 8, etmp_async,
	  0, 0, 0, 0 },
	/* D4.2.3 overflow: 0b01110000 */
	{ "D4.2.3 overflow", T(0x70), 1, etmp_itm_overflow, 0, 0, 0, 0 },
	/* D4.2.4 local timestamp format 2: 0b0TTT0000, TS = TTT (1-6) */
	{ "D4.2.4 LTS format 2 TS=1", T(0x10), 1, etmp_itm_lts, 0, 1, 0, 0 },
	{ "D4.2.4 LTS format 2 TS=6", T(0x60), 1, etmp_itm_lts, 0, 6, 0, 0 },
	/* D4.2.4 local timestamp format 1: 0b11TC0000, payload bytes
	 * C|TS[6:0], C|TS[13:7], C|TS[20:14], 0|TS[27:21] */
	{ "D4.2.4 LTS format 1, TC=0, 1 byte", T(0xc0, 0x05), 2,
	  etmp_itm_lts, 0, 5, 0, 0 },
	{ "D4.2.4 LTS format 1, TC=1, 2 bytes: 5 + 3*128", T(0xd0, 0x85, 0x03),
	  3, etmp_itm_lts, 0, 389, 1, 0 },
	{ "D4.2.4 LTS format 1, TC=2, 3 bytes: 0x7f + 0x7f<<7 + 1<<14",
	  T(0xe0, 0xff, 0xff, 0x01), 4, etmp_itm_lts, 0, 32767, 2, 0 },
	{ "D4.2.4 LTS format 1, TC=3, 4 bytes: 1 + 1<<21",
	  T(0xf0, 0x81, 0x80, 0x80, 0x01), 5, etmp_itm_lts, 0, 2097153, 3, 0 },
	/* D4.2.5 GTS1 0x94: TS[6:0], TS[13:7], TS[20:14], then byte 4:
	 * Wrap (6), ClkCh (5), TS[25:21] */
	{ "D4.2.5 GTS1, 1 byte", T(0x94, 0x05), 2, etmp_itm_gts1, 0, 5, 7, 0 },
	{ "D4.2.5 GTS1, 2 bytes: 1 + 2<<7", T(0x94, 0x81, 0x02), 3,
	  etmp_itm_gts1, 0, 257, 14, 0 },
	{ "D4.2.5 GTS1, 4 bytes: TS[25:0] all ones",
	  T(0x94, 0xff, 0xff, 0xff, 0x1f), 5, etmp_itm_gts1, 0, 0x3ffffff, 26,
	  0 },
	{ "D4.2.5 GTS1, 4 bytes, Wrap and ClkCh",
	  T(0x94, 0x80, 0x80, 0x80, 0x60), 5, etmp_itm_gts1, 0, 0, 26,
	  ETM_ITM_WRAP | ETM_ITM_CLKCH },
	/* D4.2.5 GTS2 0xB4: TS[47:26] in 4 bytes (or TS[63:26] in 6) */
	{ "D4.2.5 GTS2, 4 bytes: TS[26] set", T(0xb4, 0x81, 0x80, 0x80, 0x00),
	  5, etmp_itm_gts2, 0, (uint64_t)1 << 26, 54, 0 },
	{ "D4.2.5 GTS2, 6 bytes (64-bit): TS[61] set",
	  T(0xb4, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), 7, etmp_itm_gts2, 0,
	  (uint64_t)1 << 61, 64, 0 },
	/* D4.2.6 extension 0bCEEE1S00: EX[2:0], SH; C: more EX bits */
	{ "D4.2.6 extension, page 0", T(0x08), 1, etmp_itm_ext, 0, 0, 0, 0 },
	{ "D4.2.6 extension, page 1", T(0x18), 1, etmp_itm_ext, 0, 1, 0, 0 },
	{ "D4.2.6 extension, SH=1", T(0x0c), 1, etmp_itm_ext, 0, 0, 0,
	  ETM_ITM_SH },
	{ "D4.2.6 extension, EX = 0 | 1<<3", T(0x88, 0x01), 2, etmp_itm_ext,
	  0, 8, 0, 0 },
	/* D4.2.7 instrumentation 0bAAAAA0SS: port A, SS 01/10/11 = 1/2/4 */
	{ "D4.2.7 instrumentation, port 0, 1 byte", T(0x01, 0x41), 2,
	  etmp_itm_sw, 0, 0x41, 1, 0 },
	{ "D4.2.7 instrumentation, port 1, 2 bytes", T(0x0a, 0x34, 0x12), 3,
	  etmp_itm_sw, 1, 0x1234, 2, 0 },
	{ "D4.2.7 instrumentation, port 31, 4 bytes",
	  T(0xfb, 0x78, 0x56, 0x34, 0x12), 5, etmp_itm_sw, 31, 0x12345678, 4,
	  0 },
	/* D4.3.1 event counter: discriminator 0, 1 byte, bits CPI 0 .. Cyc 5 */
	{ "D4.3.1 event counter: CPI and Cyc", T(0x05, 0x21), 2,
	  etmp_itm_evcnt, 0, 0x21, 0, 0 },
	/* D4.3.2 exception trace: discriminator 1, 2 bytes; number 8:0, FN
	 * in byte 2 bits 5:4 (Table D4-6: 1 entered, 2 exited, 3 returned) */
	{ "D4.3.2 exception 15 entered", T(0x0e, 0x0f, 0x10), 3,
	  etmp_itm_exc, 15, 0, 0, 1 },
	{ "D4.3.2 exception 44 (IRQ 28) exited", T(0x0e, 0x2c, 0x20), 3,
	  etmp_itm_exc, 44, 0, 0, 2 },
	{ "D4.3.2 exception 272 (bit 8) returned to", T(0x0e, 0x10, 0x31), 3,
	  etmp_itm_exc, 272, 0, 0, 3 },
	/* D4.3.3 periodic PC sample: discriminator 2, 4 bytes PC or 1 byte
	 * 0 (sleeping) */
	{ "D4.3.3 PC sample 0x08000218", T(0x17, 0x18, 0x02, 0x00, 0x08), 5,
	  etmp_itm_pc, 0, 0x08000218, 0, 0 },
	{ "D4.3.3 PC sample, sleeping", T(0x15, 0x00), 2, etmp_itm_pc, 0, 0,
	  0, ETM_ITM_SLEEP },
	/* D4.3.4 data trace: discriminator 0b01CC0 PC value (4 bytes), 0b01CC1
	 * address bits 15:0 (2 bytes), 0b1CCW value (1/2/4 bytes, W write) */
	{ "D4.3.4 data trace PC value, comparator 0 (disc 8)",
	  T(0x47, 0x00, 0x10, 0x00, 0x08), 5, etmp_itm_dpc, 0, 0x08001000, 0,
	  0 },
	{ "D4.3.4 data trace PC value, comparator 1 (disc 10)",
	  T(0x57, 0x04, 0x00, 0x00, 0x20), 5, etmp_itm_dpc, 0, 0x20000004, 0,
	  1 },
	{ "D4.3.4 data trace address, comparator 0 (disc 9)",
	  T(0x4e, 0x34, 0x12), 3, etmp_itm_daddr, 0, 0x1234, 2, 0 },
	{ "D4.3.4 data trace address, comparator 3 (disc 15)",
	  T(0x7e, 0x78, 0x56), 3, etmp_itm_daddr, 0, 0x5678, 2, 3 },
	{ "D4.3.4 data value read, comparator 0, 1 byte (disc 16)",
	  T(0x85, 0x2a), 2, etmp_itm_dval, 0, 0x2a, 1, 0 },
	{ "D4.3.4 data value write, comparator 0, 4 bytes (disc 17)",
	  T(0x8f, 0x78, 0x56, 0x34, 0x12), 5, etmp_itm_dval, 1, 0x12345678, 4,
	  0 },
	{ "D4.3.4 data value write, comparator 3, 2 bytes (disc 23)",
	  T(0xbe, 0x34, 0x12), 3, etmp_itm_dval, 1, 0x1234, 2, 3 },
	{ "ARMv8-M data trace match, comparator 0 (disc 8, 1 byte)",
	  T(0x45, 0x01), 2, etmp_itm_dmatch, 0, 1, 0, 0 },
};

/* Malformed: the first packet is an error with @err. */
static const struct vec bad[] = {
	{ "0b10xx0000: reserved (C set, not a timestamp)", T(0x80), 1,
	  etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "0x90 reserved", T(0x90), 1, etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "0xA0 reserved", T(0xa0), 1, etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "0xB0 reserved", T(0xb0), 1, etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "0bxxxx0100 other than 0x94/0xB4", T(0x04), 1, etmp_error,
	  etme_bad_opc, 0, 0, 0 },
	{ "0x14 reserved", T(0x14), 1, etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "discriminator 3: reserved", T(0x1d, 0x00), 2, etmp_error,
	  etme_bad_opc, 0, 0, 0 },
	{ "discriminator 24: reserved", T(0xc5, 0x00), 2, etmp_error,
	  etme_bad_opc, 0, 0, 0 },
	{ "event counter of 2 bytes", T(0x06, 0, 0), 3, etmp_error,
	  etme_bad_opc, 0, 0, 0 },
	{ "event counter, reserved bit 6", T(0x05, 0x40), 2, etmp_error,
	  etme_bad_packet, 0, 0, 0 },
	{ "exception trace of 1 byte", T(0x0d, 0x0f), 2, etmp_error,
	  etme_bad_opc, 0, 0, 0 },
	{ "exception trace, FN 00", T(0x0e, 0x0f, 0x00), 3, etmp_error,
	  etme_bad_packet, 0, 0, 0 },
	{ "PC sample of 2 bytes", T(0x16, 0, 0), 3, etmp_error, etme_bad_opc,
	  0, 0, 0 },
	{ "PC sample of 1 byte, not 0", T(0x15, 0x01), 2, etmp_error,
	  etme_bad_packet, 0, 0, 0 },
	{ "data trace address of 1 byte (disc 9)", T(0x4d, 0x00), 2,
	  etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "data trace PC value of 2 bytes (disc 8)", T(0x46, 0, 0), 3,
	  etmp_error, etme_bad_opc, 0, 0, 0 },
	{ "LTS format 1 with a 5th payload byte", T(0xc0, 0x80, 0x80, 0x80, 0x80, 0x01),
	  6, etmp_error, etme_bad_packet, 0, 0, 0 },
	{ "GTS1 with a 5th payload byte", T(0x94, 0x80, 0x80, 0x80, 0x80, 0x01),
	  6, etmp_error, etme_bad_packet, 0, 0, 0 },
	{ "GTS2 with a 7th payload byte", T(0xb4, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01),
	  8, etmp_error, etme_bad_packet, 0, 0, 0 },
	{ "extension with a 5th payload byte", T(0x88, 0x80, 0x80, 0x80, 0x80, 0x01),
	  6, etmp_error, etme_bad_packet, 0, 0, 0 },
	{ "zeros not ending in a sync", T(0, 0, 0x01, 0x41), 4, etmp_error,
	  etme_bad_packet, 0, 0, 0 },
	{ "four zeros and 0x80: too short for a sync", T(0, 0, 0, 0, 0x80), 5,
	  etmp_error, etme_bad_packet, 0, 0, 0 },
};

static struct etm_pkt_decoder *itm_dec(void)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = etm_proto_itm;
	c.traceid = 1;
	return etm_pkt_alloc(&c);
}

/* Decode @n bytes pushed @chunk at a time into @out (at most @max). */
static size_t decode(const uint8_t *b, size_t n, size_t chunk,
		     struct etm_packet *out, size_t max)
{
	struct etm_pkt_decoder *pd = itm_dec();
	size_t i = 0, k = 0;
	int r;

	if (!pd)
		return 0;
	do {
		size_t m = n - i < chunk ? n - i : chunk;

		if (i < n)
			etm_pkt_push(pd, b + i, m, i);
		i += m;
		if (i >= n)
			etm_pkt_finish(pd);
		while (k < max && (r = etm_pkt_next(pd, &out[k], sizeof(out[k]))) == 0)
			k++;
	} while (i < n);
	while (k < max && etm_pkt_next(pd, &out[k], sizeof(out[k])) == 0)
		k++;
	etm_pkt_free(pd);
	return k;
}

/* The fields vector @t names of packet @p (see struct vec). */
static int check_pkt(const struct vec *t, const struct etm_packet *p)
{
	if (p->type != t->type || p->offset != 0)
		return 0;
	switch (t->type) {
	case etmp_itm_lts:
		return p->timestamp == t->w && p->reason == t->size;
	case etmp_itm_gts1:
	case etmp_itm_gts2:
		return p->timestamp == t->w && p->ts_bits == t->size &&
		       p->itm_flags == t->x;
	case etmp_itm_ext:
		return p->dvalue == t->w && p->itm_flags == t->x;
	case etmp_itm_sw:
		return p->itm_port == t->v && p->dvalue == t->w &&
		       p->dvalue_size == t->size;
	case etmp_itm_evcnt:
		return p->dvalue == t->w;
	case etmp_itm_exc:
		return p->exc_num == t->v && p->itm_fn == t->x;
	case etmp_itm_pc:
		return p->addr == t->w && p->itm_flags == t->x;
	case etmp_itm_dpc:
		return p->addr == t->w && p->itm_cmp == t->x;
	case etmp_itm_daddr:
		return p->daddr == t->w && p->itm_cmp == t->x &&
		       p->dvalue_size == t->size;
	case etmp_itm_dval:
		return p->dvalue == t->w && p->itm_fn == t->v &&
		       p->dvalue_size == t->size && p->itm_cmp == t->x;
	case etmp_itm_dmatch:
		return p->dvalue == t->w && p->itm_cmp == t->x;
	case etmp_error:
		return p->err == (int)t->v;
	default:
		return 1;
	}
}

static void test_vectors(void)
{
	struct etm_packet p[8];
	size_t i;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		size_t k = decode(vecs[i].b, vecs[i].n, 64, p, 8);

		if (k != 1 || !check_pkt(&vecs[i], &p[0]) ||
		    p[0].size != vecs[i].n)
			printf("vector: %s\n", vecs[i].cite);
		ET_EQ(k, 1);
		ET_EQ(p[0].size, vecs[i].n);
		ET_CHECK(check_pkt(&vecs[i], &p[0]));
	}
}

static void test_malformed(void)
{
	struct etm_packet p[8];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t k = decode(bad[i].b, bad[i].n, 64, p, 8);

		if (!k || !check_pkt(&bad[i], &p[0]))
			printf("malformed: %s: type %u err %d\n", bad[i].cite,
			       k ? p[0].type : 0, k ? p[0].err : 0);
		ET_CHECK(k >= 1);
		ET_CHECK(check_pkt(&bad[i], &p[0]));
	}
}

/* Every vector cut short: one error, etme_truncated, at offset 0. */
static void test_truncated(void)
{
	struct etm_packet p[8];
	size_t i, n;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++)
		for (n = 1; n < vecs[i].n; n++) {
			size_t k = decode(vecs[i].b, n, 64, p, 8);

			if (k != 1 || p[0].type != etmp_error ||
			    p[0].err != etme_truncated)
				printf("truncated: %s at %zu\n", vecs[i].cite,
				       n);
			ET_EQ(k, 1);
			ET_EQ(p[0].type, etmp_error);
			ET_EQ(p[0].err, etme_truncated);
			ET_EQ(p[0].offset, 0);
		}
}

/* All the vectors in one stream (the GTS merge and the page carry over),
 * pushed whole and a byte at a time: the same packets, at the right
 * offsets. */
static void test_stream_chunks(void)
{
	static uint8_t buf[512];
	static struct etm_packet a[64], b[64];
	size_t i, n = 0, ka, kb, off[64];

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		off[i] = n;
		memcpy(buf + n, vecs[i].b, vecs[i].n);
		n += vecs[i].n;
	}
	ka = decode(buf, n, n, a, 64);
	kb = decode(buf, n, 1, b, 64);
	ET_EQ(ka, sizeof(vecs) / sizeof(vecs[0]));
	ET_EQ(kb, ka);
	for (i = 0; i < ka; i++) {
		ET_EQ(a[i].type, vecs[i].type);
		ET_EQ(a[i].offset, off[i]);
		ET_EQ(b[i].offset, a[i].offset);
		ET_EQ(memcmp(&a[i], &b[i], sizeof(a[i])), 0);
	}
}

/* The page of an extension packet (D4.2.6) sets the instrumentation
 * port: page 1, A = 2 is port 34; the GTS2 keeps GTS1's low bits
 * (D4.2.5): 5 | 1 << 26; a shorter GTS1 keeps the high bits. */
static void test_state(void)
{
	static const uint8_t s[] = { 0x18, 0x11, 0x41, 0x08, 0x11, 0x42,
				     0x94, 0x05, 0xb4, 0x81, 0x80, 0x80, 0x00,
				     0x94, 0x07 };
	struct etm_packet p[8];
	size_t k = decode(s, sizeof(s), sizeof(s), p, 8);

	ET_EQ(k, 7);
	ET_EQ(p[1].itm_port, 34);
	ET_EQ(p[3].itm_port, 2);
	ET_EQ(p[4].timestamp, 5);
	ET_EQ(p[5].timestamp, 5 | (uint64_t)1 << 26);
	ET_EQ(p[6].timestamp, 7 | (uint64_t)1 << 26);
}

/* After a malformed packet, decoding resumes at the next sync: the bytes
 * between are not decoded as packets (one notsync run). */
static void test_resync(void)
{
	static const uint8_t s[] = { 0x80, 0x01, 0x41, 0x01, 0x42, 0, 0,
				     0, 0, 0, 0x80, 0x01, 0x43 };
	struct etm_packet p[8];
	size_t k = decode(s, sizeof(s), 3, p, 8);

	ET_EQ(k, 4);
	ET_EQ(p[0].type, etmp_error);
	ET_EQ(p[1].type, etmp_notsync);
	ET_EQ(p[1].offset, 1);
	ET_EQ(p[1].size, 4);
	ET_EQ(p[2].type, etmp_async);
	ET_EQ(p[3].type, etmp_itm_sw);
	ET_EQ(p[3].dvalue, 0x43);
	ET_EQ(p[3].offset, 11);
}

/* The pipeline: one raw ITM source, its elements in order with the
 * fields of etmtrace/flow.h. */
static void test_elements(void)
{
	static const uint8_t s[] = {
		0x03, 'k', ' ', '0', '\n',    /* port 0, 4 bytes */
		0x30,                         /* LTS format 2, 3 */
		0x17, 0x18, 0x02, 0x00, 0x08, /* PC sample */
		0x15, 0x00,                   /* sleeping */
		0x0e, 0x2c, 0x10,             /* exception 44 entered */
		0xbe, 0x34, 0x12,             /* cmp 3 write 0x1234 */
		0x4e, 0x34, 0x12,             /* cmp 0 address 0x1234 */
		0x47, 0x00, 0x10, 0x00, 0x08, /* cmp 0 PC 0x08001000 */
		0x05, 0x21,                   /* counters CPI, Cyc */
		0x70,                         /* overflow */
		0x94, 0x05,                   /* GTS1 5 */
		0xa0,                         /* malformed */
	};
	static const enum etm_elem_kind want[] = {
		etmk_itm_sw,
		etmk_itm_ts,
		etmk_dwt_pc,
		etmk_dwt_pc,
		etmk_dwt_exc,
		etmk_dwt_cmp,
		etmk_dwt_cmp,
		etmk_dwt_cmp,
		etmk_dwt_counter,
		etmk_itm_overflow,
		etmk_itm_ts,
		etmk_error,
	};
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	struct etm_elem e[16];
	struct etm_item it;
	struct etm_config c;
	size_t k = 0;

	ET_CHECK(d);
	etm_config_init(&c);
	c.protocol = etm_proto_itm;
	c.traceid = 1;
	ET_EQ(etm_decoder_add_source(d, &c, NULL), 0);
	ET_EQ(etm_decoder_push(d, s, sizeof(s)), 0);
	etm_decoder_finish(d);
	while (k < 16 && etm_decoder_next(d, &it, sizeof(it)) == 0)
		if (it.kind == etm_item_elem)
			e[k++] = it.elem;
	etm_decoder_free(d);
	ET_EQ(k, sizeof(want) / sizeof(want[0]));
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		ET_EQ(e[k].kind, want[k]);
	ET_EQ(e[0].itm_chan, 0);
	ET_EQ(e[0].itm_value, 0x0a30206b);
	ET_EQ(e[0].itm_size, 4);
	ET_EQ(e[1].timestamp, 3);
	ET_EQ(e[1].itm_flags & ETM_ITM_GLOBAL, 0);
	ET_EQ(e[2].addr, 0x08000218);
	ET_EQ(e[3].itm_flags, ETM_ITM_SLEEPING);
	ET_EQ(e[4].exc_num, 44);
	ET_EQ(e[4].itm_fn, 1);
	ET_EQ(e[5].itm_chan, 3);
	ET_EQ(e[5].itm_flags, ETM_ITM_CMP_VALUE);
	ET_EQ(e[5].itm_value, 0x1234);
	ET_EQ(e[5].itm_fn, 1);
	ET_EQ(e[6].itm_flags, ETM_ITM_CMP_ADDR);
	ET_EQ(e[6].addr, 0x1234);
	ET_EQ(e[7].itm_flags, ETM_ITM_CMP_PC);
	ET_EQ(e[7].addr, 0x08001000);
	ET_EQ(e[8].itm_value, 0x21);
	ET_EQ(e[10].timestamp, 5);
	ET_EQ(e[10].itm_flags, ETM_ITM_GLOBAL);
	ET_EQ(e[11].offset, sizeof(s) - 1);
	ET_EQ(e[11].id, 1);
}

static void test_exc_names(void)
{
	char b[32];

	etm_itm_exc_name(15, b, sizeof(b));
	ET_EQ(strcmp(b, "SysTick"), 0);
	etm_itm_exc_name(44, b, sizeof(b));
	ET_EQ(strcmp(b, "IRQ 28"), 0);
	etm_itm_exc_name(3, b, sizeof(b));
	ET_EQ(strcmp(b, "HardFault"), 0);
	etm_itm_exc_name(11, b, sizeof(b));
	ET_EQ(strcmp(b, "SVCall"), 0);
}

int main(void)
{
	etest_run("every packet type and size (ARMv7-M ARM D4)", test_vectors);
	etest_run("malformed headers and payloads", test_malformed);
	etest_run("every truncation", test_truncated);
	etest_run("one stream, whole and byte by byte", test_stream_chunks);
	etest_run("stimulus page and global timestamp merge", test_state);
	etest_run("resume at the next sync", test_resync);
	etest_run("elements through the pipeline", test_elements);
	etest_run("ARMv7-M exception names", test_exc_names);
	return etest_end();
}
