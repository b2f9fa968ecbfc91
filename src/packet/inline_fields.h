/* packet/inline_fields.h - the common branch address packet decoded inline: the
 * short form the parser's fast-path branch reader and the flow decoders'
 * plain loops take without the general reader; and the PTM cycle count
 * field (after a branch address, and the cycle-accurate atom packet). */
#ifndef ETM_PACKET_INLINE_FIELDS_H
#define ETM_PACKET_INLINE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/insn.h>

/* A short branch address packet, decoded. */
struct etm_br_short {
	uint32_t addr;
	enum etm_isa isa;
	uint8_t addr_bits;   /* address bits the packet carried */
	uint8_t isa_changed; /* the 5-byte form with an ISA byte */
};

/* The address of @bits packet bits @v (ISA unchanged) against @base. */
static inline void etm_br_short_set(uint32_t base, enum etm_isa isa,
				    uint32_t v, unsigned bits,
				    struct etm_br_short *o)
{
	unsigned shift = isa == etmi_a32 ? 2 : 1;
	uint32_t mask = (1u << (bits + shift)) - 1;

	o->addr = (base & ~mask) | ((v << shift) & mask);
	o->addr_bits = (uint8_t)(bits + shift);
	o->isa = isa;
	o->isa_changed = 0;
}

/* etm_br_short() one byte at a time: for packets that may be cut. */
static inline int etm_br_short_cut(uint32_t base, enum etm_isa isa,
				   const uint8_t *b, size_t n, int alt,
				   struct etm_br_short *o)
{
	uint32_t v;
	unsigned bits = 6, i;
	uint8_t c = b[0];

	v = (c >> 1) & 0x3f;
	for (i = 1; (c & 0x80) && i < 4; i++) {
		if (i >= n)
			return 0;
		c = b[i];
		if ((c & 0x80) || !alt) {
			v |= (uint32_t)(c & 0x7f) << bits;
			bits += 7;
		} else {
			if (c & 0x40)
				return 0; /* exception information */
			v |= (uint32_t)(c & 0x3f) << bits;
			bits += 6;
		}
	}
	if (c & 0x80)
		return 0; /* the 5-byte form, cut */
	etm_br_short_set(base, isa, v, bits, o);
	return (int)i;
}

/* The first four bytes of a branch address packet at @b taken as one
 * word: their address bits (7, 7, 7, 7 from bit 1 of the first byte; the
 * size decides how many count) shifted left by one, bit 0 clear - a T32
 * address's bits as they stand, half an A32 address's - and in @stop the
 * bytes without a continuation bit (the first one ends the address). */
static inline __attribute__((always_inline)) uint32_t
etm_br_word_x2(const uint8_t *b, uint32_t *stop)
{
	uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
		     (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;

	uint32_t v;

	*stop = ~w & 0x80808080u;
	/* the 7-bit groups closed up in two steps (pairs of bytes, then
	 * pairs of pairs: 11 instructions against 14 shifting each byte),
	 * the header's bit 0 cleared */
	v = (w & 0x007f007eu) | ((w >> 1) & 0x3f803f80u);
	return (v & 0x3fffu) | ((v >> 2) & 0x0fffc000u);
}

/* etm_br_word_x2() shifted right by one: the address bits from bit 0 */
static inline __attribute__((always_inline)) uint32_t
etm_br_word(const uint8_t *b, uint32_t *stop)
{
	return etm_br_word_x2(b, stop) >> 1;
}

/* The common branch address packet at @b[0..n) (b[0] a branch header):
 * 1-4 address bytes and the ISA unchanged (A32, T32 or ThumbEE), or 5
 * bytes with an A32 or T32 ISA byte, without exception information;
 * decompressed against @base and the current @isa. @alt: the alternative
 * encoding (PTM, ETMv3 with ETMCR[29]), where the last of 2-4 bytes has 6
 * address bits and the exception flag. Returns the size, or 0 when the
 * packet is not of this form or is cut (the general reader handles it:
 * the ETMv3 and PTM branch readers give the same address).
 * With 5 bytes at hand, the first four are taken as one word: the size
 * from the first byte without a continuation bit, the address bits with
 * shifts and masks. */
static inline __attribute__((always_inline)) int etm_br_short(uint32_t base, enum etm_isa isa, const uint8_t *b, size_t n,
							      int alt, struct etm_br_short *o)
{
	uint32_t v, stop;
	unsigned len, bits;
	uint8_t c;

	if (isa != etmi_a32 && isa != etmi_t32 && isa != etmi_tee)
		return 0;
	if (n < 5)
		return etm_br_short_cut(base, isa, b, n, alt, o);
	v = etm_br_word(b, &stop);
	if (stop) {
		len = ((unsigned)__builtin_ctz(stop) >> 3) + 1;
		bits = 7 * len - 1;
		if (alt && len > 1) {
			if (b[len - 1] & 0x40)
				return 0; /* exception information */
			bits--;           /* 6 bits in the last byte */
		}
		etm_br_short_set(base, isa, v, bits, o);
		return (int)len;
	}
	/* the 5th byte: b0E01aaaa T32, b0E001aaa A32 (with E = 0) */
	c = b[4];
	if (c & 0xe0)
		return 0; /* exception, Jazelle, deprecated */
	if (c & 0x10) {
		o->isa = etmi_t32;
		o->addr = (v | (uint32_t)(c & 0x0f) << 27) << 1;
	} else if (c & 0x08) {
		o->isa = etmi_a32;
		o->addr = (v | (uint32_t)(c & 0x07) << 27) << 2;
	} else {
		return 0;
	}
	o->addr_bits = 32;
	o->isa_changed = 1;
	return 5;
}

/* etm_br_std()'s other forms (alternative encoding, an ISA byte other
 * than A32/T32, exception information, or fewer than 5 bytes at hand):
 * out of line, so that the common forms stay small where they are
 * inlined. */
static __attribute__((noinline, unused)) int
etm_br_std_other(uint32_t base, enum etm_isa isa, const uint8_t *b, size_t n,
		 int alt, uint32_t *addr, enum etm_isa *nisa)
{
	struct etm_br_short bs;
	int r = etm_br_short(base, isa, b, n, alt, &bs);

	if (r) {
		*addr = bs.addr;
		*nisa = bs.isa;
	}
	return r;
}

/* A branch address packet's size, address and ISA in one word (no
 * pointer outputs: the plain loop keeps them in registers): the address in
 * bits 0-31, the ISA in 32-39, the size in 40-47; 0 for no packet. */
#define ETM_BRP_ADDR(p) ((uint32_t)(p))
#define ETM_BRP_ISA(p) ((enum etm_isa)((p) >> 32 & 0xff))
#define ETM_BRP_SIZE(p) ((size_t)((p) >> 40))

static inline uint64_t etm_brp(uint32_t addr, enum etm_isa isa, unsigned size)
{
	return (uint64_t)size << 40 | (uint64_t)(isa & 0xff) << 32 | addr;
}

/* etm_br_std_other() packed (etm_brp()). */
static __attribute__((noinline, unused)) uint64_t
etm_brp_other(uint32_t base, enum etm_isa isa, const uint8_t *b, size_t n,
	      int alt)
{
	uint32_t addr = 0;
	enum etm_isa nisa = etmi_unknown;
	int r = etm_br_std_other(base, isa, b, n, alt, &addr, &nisa);

	return r ? etm_brp(addr, nisa, (unsigned)r) : 0;
}

/* The standard encoding's common forms of the branch address packet at @b,
 * with at least 5 bytes at hand, against the address @base and ISA @isa
 * (A32, T32 or ThumbEE): 1-4 address bytes through a mask table, or 5 with
 * an A32/T32 ISA byte. Returns the size and sets @addr and @nisa, and adds
 * the packet's bytes past its first to *@ext (the ETMv3 plain loop's
 * packet count: an add per form, where the size is a constant or at hand),
 * or returns 0 for the other forms (etm_brp_other()), *@ext untouched. */
static inline __attribute__((always_inline)) unsigned
etm_br_std5x(uint32_t base, enum etm_isa isa, const uint8_t *b,
	     uint32_t *addr, enum etm_isa *nisa, size_t *ext)
{
	/* address bits a packet of 1-4 bytes replaces in the standard
	 * encoding (6, 13, 20 or 27 packet bits) and the multiplier that
	 * shifts etm_br_word_x2()'s bits into place, per ISA (indexed by
	 * it, no test of it: T32/ThumbEE by 1, A32 by 2; the rows of the
	 * others are never read); a multiply by a table entry, not a load
	 * of a count and a shift by it, and both tables at one base */
	static const struct {
		uint32_t mask[etmi_jazelle + 1][4];
		uint32_t mul[etmi_jazelle + 1];
	} tab = {
		.mask = {
			[etmi_a32] = { 0xffu, 0x7fffu, 0x3fffffu, 0x1fffffffu },
			[etmi_t32] = { 0x7fu, 0x3fffu, 0x1fffffu, 0xfffffffu },
			[etmi_tee] = { 0x7fu, 0x3fffu, 0x1fffffu, 0xfffffffu },
		},
		.mul = { [etmi_a32] = 2, [etmi_t32] = 1, [etmi_tee] = 1 },
	};
	uint32_t v, stop, m;
	unsigned i;
	uint8_t c;

	v = etm_br_word_x2(b, &stop);
	if (stop) {
		i = (unsigned)__builtin_ctz(stop) >> 3;
		m = tab.mask[isa][i];
		*addr = (base & ~m) | ((v * tab.mul[isa]) & m);
		*nisa = isa;
		*ext += i;
		return i + 1;
	}
	/* the 5th byte: b0001aaaa T32, b00001aaa A32 */
	c = b[4];
	if ((c & 0xf0) == 0x10) {
		*addr = v | (uint32_t)(c & 0x0f) << 28;
		*nisa = etmi_t32;
		*ext += 4;
		return 5;
	}
	if ((c & 0xf8) == 0x08) {
		*addr = (v | (uint32_t)(c & 0x07) << 28) << 1;
		*nisa = etmi_a32;
		*ext += 4;
		return 5;
	}
	return 0;
}

/* etm_br_std5x() without the count of extra bytes. */
static inline __attribute__((always_inline)) unsigned
etm_br_std5(uint32_t base, enum etm_isa isa, const uint8_t *b, uint32_t *addr,
	    enum etm_isa *nisa)
{
	size_t ext = 0;

	return etm_br_std5x(base, isa, b, addr, nisa, &ext);
}

/* The ETMv3 plain loop's branch address packet at @b[0..n) against the address
 * @base and ISA @isa: etm_br_short() (same result), with the standard
 * encoding (@std: not the alternative one, and @isa A32, T32 or ThumbEE)
 * read inline from one word (etm_br_std5()). Returns the size and sets
 * @addr and @nisa, or 0 (not of the short form, or cut). */
static inline __attribute__((always_inline)) int
etm_br_std(uint32_t base, enum etm_isa isa, const uint8_t *b, size_t n,
	   int std, int alt, uint32_t *addr, enum etm_isa *nisa)
{
	unsigned r = std && n >= 5 ? etm_br_std5(base, isa, b, addr, nisa) : 0;

	if (!r)
		return etm_br_std_other(base, isa, b, n, alt, addr, nisa);
	return (int)r;
}

/* etm_br_std() for the alternative encoding (PTM, and ETMv3 with
 * ETMCR[29]): the last of 2-4 address bytes has 6 address bits and, in bit
 * 6, the exception flag, so a packet of 1-4 bytes replaces 6, 12, 19 or
 * 26 packet bits. With 5 bytes at hand and @isa A32, T32 or ThumbEE the
 * 1-4 byte forms without exception information are read inline from one
 * word (the exception bit of the last byte is 0 there, so the word's
 * address bits past the packet's are masked off with the bytes after it)
 * and the 5-byte form with an A32 or T32 ISA byte; anything else goes to
 * etm_br_std_other(). Same result as etm_br_short() with @alt set. */
static inline __attribute__((always_inline)) int
etm_br_alt(uint32_t base, enum etm_isa isa, const uint8_t *b, size_t n,
	   uint32_t *addr, enum etm_isa *nisa)
{
	/* 6, 12, 19, 26 packet bits, shifted by 1 (T32, ThumbEE) and 2
	 * (A32) */
	static const uint32_t mask[2][4] = {
		{ 0x7fu, 0x1fffu, 0xfffffu, 0x7ffffffu },
		{ 0xffu, 0x3fffu, 0x1fffffu, 0xfffffffu },
	};
	uint32_t v, stop, m;
	unsigned i, a32;

	if (n >= 5 && (isa == etmi_a32 || isa == etmi_t32 || isa == etmi_tee)) {
		v = etm_br_word(b, &stop);
		if (stop) {
			i = (unsigned)__builtin_ctz(stop) >> 3;
			if (i && (b[i] & 0x40))
				return 0; /* exception information */
			a32 = isa == etmi_a32;
			m = mask[a32][i];
			*addr = (base & ~m) | ((v << (1 + a32)) & m);
			*nisa = isa;
			return (int)i + 1;
		}
		/* the 5th byte: b0001aaaa T32, b00001aaa A32 (E = 0) */
		if ((b[4] & 0xf0) == 0x10) {
			*addr = (v | (uint32_t)(b[4] & 0x0f) << 27) << 1;
			*nisa = etmi_t32;
			return 5;
		}
		if ((b[4] & 0xf8) == 0x08) {
			*addr = (v | (uint32_t)(b[4] & 0x07) << 27) << 2;
			*nisa = etmi_a32;
			return 5;
		}
	}
	return etm_br_std_other(base, isa, b, n, 1, addr, nisa);
}

/* The PTM cycle count field (IHI 0035B 4.7, ../shared/docs/ptm.md 7), as
 * ptm_pkt.c reads it: after a branch address in cycle-accurate trace, and
 * from the header of a cycle-accurate atom packet on: bits [5:2] of the
 * first byte, bit 6 to go on, then 7 bits a byte while bit 7 is set, at
 * most 5 bytes. Returns the size, or 0 when cut. One or two bytes (the
 * usual sizes, in no predictable order) without a branch on which. */
static inline int etm_ptm_cc_short(const uint8_t *b, size_t n, uint32_t *v)
{
	uint32_t x;
	unsigned i;

	if (n >= 2 && !(b[1] & (uint8_t)(b[0] << 1) & 0x80)) {
		/* one or two bytes (the first with or without bit 6) */
		uint32_t more = (b[0] >> 6) & 1;

		*v = ((b[0] >> 2) & 0x0fu) |
		     (((uint32_t)b[1] & 0x7fu) << 4 & (0u - more));
		return (int)more + 1;
	}
	if (n < 1)
		return 0;
	x = (b[0] >> 2) & 0x0f;
	if (!(b[0] & 0x40)) {
		*v = x;
		return 1;
	}
	for (i = 1; i < 5; i++) {
		if (i >= n)
			return 0;
		x |= (uint32_t)(b[i] & 0x7f) << (4 + 7 * (i - 1));
		if (!(b[i] & 0x80))
			break;
	}
	*v = x;
	return i < 5 ? (int)i + 1 : 5;
}

#endif
