/* tests/unit/test-branch_address.c - the plain loops' branch address readers
 * (packet/inline_fields.h: etm_br_std() for ETMv3, etm_br_alt() for the
 * alternative encoding of PTM; the common forms inline, the others out of
 * line) on the worked examples of shared/docs/etmv3.md section 6.7 and
 * ptm.md section 6.4 (TC2, checked against DS-5) and hand-derived ones
 * from the byte tables (etmv3.md 6.2, ptm.md 6.1), then against the
 * general reader etm_br_short() on random packets rich in continuation
 * bits, for every available length, both encodings and every ISA it
 * serves; the ETMv3 inline part (etm_br_std5(), etm_br_word()) against a
 * byte-at-a-time reader written here from the byte table of etmv3.md
 * section 6.2, and the packed out-of-line part (etm_brp_other()) against
 * the general reader. */
#include <stdlib.h>
#include <string.h>

#include "etest.h"
#include "packet/inline_fields.h"

struct br_case {
	uint8_t b[8];
	size_t n;
	uint32_t base;
	enum etm_isa isa;
	int size; /* expected return */
	uint32_t addr;
	enum etm_isa nisa;
};

static void check_case(const struct br_case *c)
{
	uint32_t addr = 0;
	enum etm_isa nisa = etmi_unknown;
	int r = etm_br_std(c->base, c->isa, c->b, c->n, 1, 0, &addr, &nisa);

	ET_EQ(r, c->size);
	if (r && r == c->size) {
		ET_EQ(addr, c->addr);
		ET_EQ(nisa, c->nisa);
	}
}

/* Section 6.7 examples 1-3 (with 8 bytes at hand, as in the plain loop's
 * buffer: the bytes after the packet are the next packets') and section
 * 6.2 read by hand: byte 0 bits[6:1] = A[7:2] (A32) / A[6:1] (T32). */
static void t_examples(void)
{
	static const struct br_case ex[] = {
		/* 1: 4 bytes, Thumb, base 0xC002115C -> 0xC035BEB6 */
		{ { 0xb7, 0xfd, 0xd6, 0x01, 0x00, 0x00, 0x00, 0x00 },
		  8,
		  0xC002115Cu,
		  etmi_t32,
		  4,
		  0xC035BEB6u,
		  etmi_t32 },
		/* 2: 5 bytes, 5th 0x0D: ARM, 0xB6C33AAC */
		{ { 0xd7, 0xba, 0x86, 0xdb, 0x0d, 0x00, 0x00, 0x00 },
		  8,
		  0xC002115Cu,
		  etmi_t32,
		  5,
		  0xB6C33AACu,
		  etmi_a32 },
		/* 3: 5 bytes, 5th 0x1B: Thumb, 0xB69A4FF6 */
		{ { 0xf7, 0x9f, 0xe9, 0xb4, 0x1b, 0x00, 0x00, 0x00 },
		  8,
		  0x80000000u,
		  etmi_a32,
		  5,
		  0xB69A4FF6u,
		  etmi_t32 },
		/* one byte 0x03: field 1 = A[7:2] (A32): base's 7:0 -> 0x04 */
		{ { 0x03, 0x00, 0x00, 0x00, 0x00 },
		  5,
		  0x80001000u,
		  etmi_a32,
		  1,
		  0x80001004u,
		  etmi_a32 },
		/* the same byte in T32: A[6:1] = 1 -> 0x02 */
		{ { 0x03, 0x00, 0x00, 0x00, 0x00 },
		  5,
		  0x80001000u,
		  etmi_t32,
		  1,
		  0x80001002u,
		  etmi_t32 },
		/* two bytes 0x81 0x01: A[7:2] = 0, A[14:8] = 1 (A32); A[31:15]
		 * from the base: 0x8000FFFC & ~0x7FFF = 0x80008000 */
		{ { 0x81, 0x01, 0x00, 0x00, 0x00 },
		  5,
		  0x8000FFFCu,
		  etmi_a32,
		  2,
		  0x80008100u,
		  etmi_a32 },
		/* 5th byte b00001aaa, aaa = 001: A[31:29] = 1, the rest 0 */
		{ { 0x81, 0x80, 0x80, 0x80, 0x09 },
		  5,
		  0x12345678u,
		  etmi_t32,
		  5,
		  0x20000000u,
		  etmi_a32 },
		/* 5th byte b0001aaaa, aaaa = 0001: A[31:28] = 1 */
		{ { 0x81, 0x80, 0x80, 0x80, 0x11 },
		  5,
		  0x12345678u,
		  etmi_a32,
		  5,
		  0x10000000u,
		  etmi_t32 },
	};
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++)
		check_case(&ex[i]);
}

/* ptm.md section 6.4's examples (the bytes after the packet are its cycle
 * count, then filler: 5 bytes at hand, the inline path) and hand-derived
 * ones from the byte table of section 6.1. */
static void t_alt_examples(void)
{
	static const struct br_case ex[] = {
		/* a3 0b: T32, A[6:1] = 0x11, A[12:7] = 0x0b (E = 0): low
		 * 13 bits 0x5a2 */
		{ { 0xa3, 0x0b, 0x68, 0x17, 0x00 }, 5, 0xc0018dae, etmi_t32, 2, 0xc00185a2, etmi_t32 },
		/* bb b6 bd 01: T32, low 27 bits 0x2f5b3a */
		{ { 0xbb, 0xb6, 0xbd, 0x01, 0x04 }, 5, 0xc0018dae, etmi_t32, 4, 0xc02f5b3a, etmi_t32 },
		/* 2f: A32, A[7:2] = 0x17 */
		{ { 0x2f, 0x00, 0x00, 0x00, 0x00 }, 5, 0x80000504, etmi_a32, 1, 0x8000055c, etmi_a32 },
		/* 81 80 80 80 48: E = 1 in the 5th byte: not a short form */
		{ { 0x81, 0x80, 0x80, 0x80, 0x48, 0x02 }, 6, 0, etmi_a32, 0, 0, etmi_a32 },
		/* a3 4b: E = 1 in the last of two bytes: not a short form */
		{ { 0xa3, 0x4b, 0x00, 0x00, 0x00 }, 5, 0xc0018dae, etmi_t32, 0, 0, etmi_t32 },
		/* ff ff ff ff 1f: T32 from A32, A[31:1] all ones */
		{ { 0xff, 0xff, 0xff, 0xff, 0x1f }, 5, 0, etmi_a32, 5, 0xfffffffe, etmi_t32 },
		/* 85 81 81 41 ..: A32, 4 bytes, last 0x41 has E = 1 */
		{ { 0x85, 0x81, 0x81, 0x41, 0x00 }, 5, 0, etmi_a32, 0, 0, etmi_a32 },
		/* 85 81 81 01: A32, A[7:2] = 2, A[14:8] = 1, A[21:15] = 1,
		 * A[27:22] = 1 */
		{ { 0x85, 0x81, 0x81, 0x01, 0x00 }, 5, 0xf0000000, etmi_a32, 4, 0xf0408108, etmi_a32 },
	};
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		const struct br_case *c = &ex[i];
		uint32_t addr = 0;
		enum etm_isa nisa = etmi_unknown;
		int r = etm_br_alt(c->base, c->isa, c->b, c->n, &addr, &nisa);

		ET_EQ(r, c->size);
		if (r && r == c->size) {
			ET_EQ(addr, c->addr);
			ET_EQ(nisa, c->nisa);
		}
	}
}

/* A byte with the continuation bit set most of the time, so that every
 * packet length comes up. */
static uint8_t rnd_byte(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	uint8_t b = (uint8_t)(*seed >> 16);

	return (*seed >> 28) < 11 ? (uint8_t)(b | 0x80) : b;
}

/* etm_br_std() and etm_br_alt() give what etm_br_short() gives (size, address, ISA), its
 * definition, for every encoding, ISA and available length. */
static void t_against_general(void)
{
	static const enum etm_isa isas[] = { etmi_a32, etmi_t32, etmi_tee };
	unsigned seed = 1, k, mism = 0, n5 = 0, nshort = 0;

	for (k = 0; k < 200000; k++) {
		uint8_t b[8];
		size_t n = 1 + k % 8, j;
		enum etm_isa isa = isas[k % 3], nisa = etmi_unknown;
		int alt = (k / 3) % 2, std = !alt, r, r2;
		uint32_t base = (uint32_t)rnd_byte(&seed) << 24 |
				(uint32_t)rnd_byte(&seed) << 8,
			 addr = 0;
		struct etm_br_short bs = { 0 };

		for (j = 0; j < sizeof(b); j++)
			b[j] = rnd_byte(&seed);
		b[0] |= 1;      /* a branch header */
		if (k % 5 == 0) /* a 5th byte of the A32 or T32 form */
			b[4] = (uint8_t)(k % 2 ? 0x08 | (b[4] & 7) :
						 0x10 | (b[4] & 15));
		r = etm_br_std(base, isa, b, n, std, alt, &addr, &nisa);
		r2 = etm_br_short(base, isa, b, n, alt, &bs);
		if (r != r2 || (r && (addr != bs.addr || nisa != bs.isa)))
			mism++;
		if (alt) {
			r = etm_br_alt(base, isa, b, n, &addr, &nisa);
			if (r != r2 ||
			    (r && (addr != bs.addr || nisa != bs.isa)))
				mism++;
		}
		n5 += r == 5;
		nshort += r > 0 && r < 5;
	}
	ET_EQ(mism, 0);
	/* both kinds of packet came up */
	ET_CHECK(n5 > 1000);
	ET_CHECK(nshort > 1000);
}

/* The standard encoding read one byte at a time from the byte table of
 * shared/docs/etmv3.md 6.2, written here: byte 0 bits[6:1] and bytes 1-3
 * bits[6:0] are address bits while bit 7 (continuation) is set; after four
 * bytes with it set, byte 4 is b0001aaaa (T32, 4 more bits) or b00001aaa
 * (A32, 3 more bits). Packet bits are A[n:1] (T32/ThumbEE) or A[n:2] (A32);
 * the address bits the packet does not carry come from @base. Returns the
 * size, 0 for another 5th byte. */
static int ref_std(uint32_t base, enum etm_isa isa, const uint8_t *b,
		   uint32_t *addr, enum etm_isa *nisa)
{
	uint64_t v = (b[0] >> 1) & 0x3f;
	unsigned bits = 6, i, shift;

	for (i = 1; i < 5 && (b[i - 1] & 0x80); i++) {
		if (i == 4) {
			if ((b[4] & 0xf0) == 0x10) {
				*nisa = etmi_t32;
				*addr = (uint32_t)((v | (uint64_t)(b[4] & 15)
								<< bits)
						   << 1);
			} else if ((b[4] & 0xf8) == 0x08) {
				*nisa = etmi_a32;
				*addr = (uint32_t)((v | (uint64_t)(b[4] & 7)
								<< bits)
						   << 2);
			} else {
				return 0;
			}
			return 5;
		}
		v |= (uint64_t)(b[i] & 0x7f) << bits;
		bits += 7;
	}
	shift = isa == etmi_a32 ? 2 : 1;
	*nisa = isa;
	*addr = (uint32_t)((base & ~((1ull << (bits + shift)) - 1)) |
			   (v << shift));
	return (int)i;
}

/* etm_br_std5() (5 bytes at hand, standard encoding) gives what the
 * byte-at-a-time reader gives; etm_br_word()'s stop bits are the bytes
 * without a continuation bit. */
static void t_std5_against_bytes(void)
{
	static const enum etm_isa isas[] = { etmi_a32, etmi_t32, etmi_tee };
	unsigned seed = 7, k, mism = 0, stops = 0, n5 = 0, nother = 0;

	for (k = 0; k < 200000; k++) {
		uint8_t b[8];
		size_t j;
		enum etm_isa isa = isas[k % 3], nisa = etmi_unknown,
			     risa = etmi_unknown;
		uint32_t base = (uint32_t)rnd_byte(&seed) << 24 |
				(uint32_t)rnd_byte(&seed) << 12 | 0x5a5,
			 addr = 0, raddr = 0, stop;
		unsigned r;
		int rr;

		for (j = 0; j < sizeof(b); j++)
			b[j] = rnd_byte(&seed);
		b[0] |= 1;
		if (k % 4 == 0)
			b[4] = (uint8_t)(k % 8 ? 0x08 | (b[4] & 7) :
						 0x10 | (b[4] & 15));
		r = etm_br_std5(base, isa, b, &addr, &nisa);
		rr = ref_std(base, isa, b, &raddr, &risa);
		if ((int)r != rr || (r && (addr != raddr || nisa != risa)))
			mism++;
		(void)etm_br_word(b, &stop);
		for (j = 0; j < 4; j++)
			if (!!(stop & 0x80u << (8 * j)) != !(b[j] & 0x80))
				stops++;
		n5 += r == 5;
		nother += r == 0;
	}
	ET_EQ(mism, 0);
	ET_EQ(stops, 0);
	ET_CHECK(n5 > 1000);
	ET_CHECK(nother > 1000);
}

/* etm_brp_other() packs what etm_br_short() gives (or 0 when it gives
 * nothing), for the forms the inline part leaves to it: the alternative
 * encoding, fewer than 5 bytes at hand, other 5th bytes. */
static void t_packed_other(void)
{
	static const enum etm_isa isas[] = { etmi_a32, etmi_t32, etmi_tee };
	unsigned seed = 11, k, mism = 0, some = 0;

	for (k = 0; k < 100000; k++) {
		uint8_t b[8];
		size_t n = 1 + k % 8, j;
		enum etm_isa isa = isas[k % 3];
		int alt = (k / 3) % 2, r;
		uint32_t base = (uint32_t)rnd_byte(&seed) << 24 |
				(uint32_t)rnd_byte(&seed) << 8;
		struct etm_br_short bs;
		uint64_t p;

		for (j = 0; j < sizeof(b); j++)
			b[j] = rnd_byte(&seed);
		b[0] |= 1;
		p = etm_brp_other(base, isa, b, n, alt);
		r = etm_br_short(base, isa, b, n, alt, &bs);
		if ((int)ETM_BRP_SIZE(p) != r ||
		    (r && (ETM_BRP_ADDR(p) != bs.addr ||
			   ETM_BRP_ISA(p) != bs.isa)))
			mism++;
		some += r > 0;
	}
	ET_EQ(mism, 0);
	ET_CHECK(some > 1000);
}

int main(void)
{
	etest_run("examples", t_examples);
	etest_run("alt_examples", t_alt_examples);
	etest_run("against_general", t_against_general);
	etest_run("std5_against_bytes", t_std5_against_bytes);
	etest_run("packed_other", t_packed_other);
	return etest_end();
}
