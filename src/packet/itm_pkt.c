/* packet/itm_pkt.c - the ITM/DWT packet readers (ARMv7-M Architecture
 * Reference Manual, DDI 0403E, appendix D4 "Debug ITM and DWT Packet
 * Protocol"; the ARMv8-M additions noted where they apply). The byte core
 * (pktbuf.c) gives the sync (at least 47 zero bits and a one: five 0x00
 * and 0x80, the A-sync of ETMv3/PTM) and the search after an error; these
 * readers decode every other header:
 *
 *   0b01110000           overflow (D4.2.3)
 *   0bCDDD0000, C=1      local timestamp format 1, TC = DD (D4.2.4)
 *   0b0TTT0000, TTT 1-6  local timestamp format 2 (D4.2.4)
 *   0x94 / 0xB4          global timestamp GTS1 / GTS2 (D4.2.5)
 *   0bCEEE1S00           extension, S = SH, EEE = EX[2:0] (D4.2.6)
 *   0bAAAAA0SS, SS != 0  instrumentation packet, port A (D4.2.7)
 *   0bDDDDD1SS, SS != 0  hardware source packet, discriminator D (D4.2.8),
 *                        the DWT packets of D4.3
 *
 * SS = 01, 10, 11: 1, 2, 4 payload bytes, little-endian. Everything else
 * (0b10xx0000, 0bxxxx0100 other than 0x94/0xB4, discriminators 3-7 and
 * 24-31, a discriminator with a size it does not have) is a bad header;
 * a continued payload longer than its packet allows is a bad packet. */
#include <string.h>

#include "packet/pktbuf.h"

#include <etmtrace/error.h>

static void itm_hdr_table(const struct etm_config *cfg, uint8_t hdr[256])
{
	(void)cfg;
	/* no header of ITM is one of the fast paths' classes */
	memset(hdr, etmh_reserved, 256);
	hdr[0] = etmh_async;
}

/* Little-endian payload of @size bytes at @b. */
static uint32_t itm_le(const uint8_t *b, unsigned size)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < size; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}

/* A payload continued by bit 7 after the header at @b[0]: at most @max
 * bytes. Sets *@k to the payload bytes; returns 0, -etme_again (cut), or
 * -etme_bad_packet (runs longer: pkt->size = the bytes looked at). */
static int itm_cont(const uint8_t *b, size_t n, unsigned max, unsigned *k,
		    struct etm_packet *pkt)
{
	unsigned i;

	for (i = 1; i <= max; i++) {
		if (i >= n)
			return -etme_again;
		if (!(b[i] & 0x80)) {
			*k = i;
			return 0;
		}
	}
	pkt->size = max + 1;
	return -etme_bad_packet;
}

/* Bits 6:0 of each of @k payload bytes after @b[0], 7 bits apart. */
static uint64_t itm_bits7(const uint8_t *b, unsigned k)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < k; i++)
		v |= (uint64_t)(b[1 + i] & 0x7f) << (7 * i);
	return v;
}

/* Local timestamp format 1 (0b11TC0000, 1-4 payload bytes TS[6:0],
 * TS[13:7], TS[20:14], TS[27:21]) and format 2 (0b0TTT0000: TS = TTT),
 * D4.2.4. */
static int itm_lts(const uint8_t *b, size_t n, struct etm_packet *pkt)
{
	unsigned k;
	int r;

	pkt->type = etmp_itm_lts;
	if (!(b[0] & 0x80)) {
		pkt->timestamp = (b[0] >> 4) & 7;
		return 1;
	}
	r = itm_cont(b, n, 4, &k, pkt);
	if (r < 0)
		return r;
	pkt->reason = (b[0] >> 4) & 3;
	pkt->timestamp = itm_bits7(b, k);
	pkt->ts_bits = (uint8_t)(7 * k);
	return (int)k + 1;
}

/* Global timestamps (D4.2.5). GTS1 (0x94): TS[6:0], TS[13:7], TS[20:14],
 * then TS[25:21] with ClkCh (bit 5) and Wrap (bit 6); a shorter packet
 * leaves the bits above unchanged. GTS2 (0xB4): TS[47:26] in 4 bytes, or
 * TS[63:26] in 6 (a 64-bit timestamp). The merged value is kept in
 * st->ts. */
static int itm_gts(const uint8_t *b, size_t n, struct etm_packet *pkt,
		   struct etm_pkt_state *st)
{
	int two = b[0] == 0xb4;
	uint64_t v, mask;
	unsigned k, bits;
	int r;

	r = itm_cont(b, n, two ? 6 : 4, &k, pkt);
	if (r < 0)
		return r;
	v = itm_bits7(b, k);
	bits = 7 * k;
	if (!two && k == 4) {
		v &= (1u << 26) - 1; /* byte 4 bits 6:5 are flags */
		bits = 26;
		pkt->itm_flags = (uint8_t)(((b[4] >> 6) & 1 ? ETM_ITM_WRAP : 0) |
					   ((b[4] >> 5) & 1 ? ETM_ITM_CLKCH : 0));
	}
	if (two) {
		mask = bits >= 38 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
		st->ts = (st->ts & ((1u << 26) - 1)) | ((v & mask) << 26);
		pkt->type = etmp_itm_gts2;
		pkt->ts_bits = (uint8_t)(bits + 26 > 64 ? 64 : bits + 26);
	} else {
		mask = ((uint64_t)1 << bits) - 1;
		st->ts = (st->ts & ~mask) | v;
		pkt->type = etmp_itm_gts1;
		pkt->ts_bits = (uint8_t)bits;
	}
	pkt->timestamp = st->ts;
	return (int)k + 1;
}

/* Extension (D4.2.6): EX[2:0] in the header, 7 more bits per payload byte
 * (at most 4); SH = 0 with EX the stimulus port page of the instrumentation
 * packets that follow. */
static int itm_ext(const uint8_t *b, size_t n, struct etm_packet *pkt,
		   struct etm_pkt_state *st)
{
	unsigned k = 0;
	int r;

	if (b[0] & 0x80) {
		r = itm_cont(b, n, 4, &k, pkt);
		if (r < 0)
			return r;
	}
	pkt->type = etmp_itm_ext;
	pkt->dvalue = (uint32_t)((b[0] >> 4) & 7) |
		      (uint32_t)(itm_bits7(b, k) << 3);
	pkt->itm_flags = (b[0] >> 2) & 1 ? ETM_ITM_SH : 0;
	if (!(b[0] & 4))
		st->daddr = pkt->dvalue & 7; /* the page: ports page*32 + A */
	return (int)k + 1;
}

/* Data trace packets, discriminators 8-23 (D4.3.4): 0b01CCx PC value (4
 * bytes; ARMv8-M: 1 byte, a match) or address (x = 1: 2 bytes, bits 15:0;
 * ARMv8-M: 4 bytes), 0b1CCW data value (1, 2, 4 bytes; W = write). */
static int itm_data(unsigned disc, unsigned size, uint32_t v,
		    struct etm_packet *pkt)
{
	pkt->itm_cmp = (uint8_t)((disc >> 1) & 3);
	if (disc >= 16) {
		pkt->type = etmp_itm_dval;
		pkt->itm_fn = disc & 1;
		pkt->dvalue = v;
		pkt->dvalue_size = (uint8_t)size;
		pkt->has_dvalue = 1;
		return 0;
	}
	if (!(disc & 1) && size == 4) {
		pkt->type = etmp_itm_dpc;
		pkt->addr = v;
	} else if (!(disc & 1) && size == 1) {
		pkt->type = etmp_itm_dmatch;
		pkt->dvalue = v;
	} else if ((disc & 1) && size >= 2) {
		pkt->type = etmp_itm_daddr;
		pkt->daddr = v;
		pkt->has_daddr = 1;
		pkt->dvalue_size = (uint8_t)size;
	} else {
		return -etme_bad_opc;
	}
	return 0;
}

/* Hardware source packet of discriminator @disc (D4.2.8, D4.3): the
 * payload @v of @size bytes into @pkt; 0 or -etme_bad_opc (reserved
 * discriminator, or a size the packet does not have) / -etme_bad_packet
 * (reserved payload). */
static int itm_hw(unsigned disc, unsigned size, uint32_t v,
		  struct etm_packet *pkt)
{
	switch (disc) {
	case 0: /* event counter (D4.3.1): 1 byte, bits 5:0 wrapped */
		if (size != 1)
			return -etme_bad_opc;
		pkt->type = etmp_itm_evcnt;
		pkt->dvalue = v;
		return v & 0xc0 ? -etme_bad_packet : 0;
	case 1: /* exception trace (D4.3.2): 2 bytes, number 8:0, FN 5:4 */
		if (size != 2)
			return -etme_bad_opc;
		pkt->type = etmp_itm_exc;
		pkt->exc_num = (uint16_t)(v & 0x1ff);
		pkt->itm_fn = (uint8_t)((v >> 12) & 3);
		return pkt->itm_fn ? 0 : -etme_bad_packet;
	case 2: /* periodic PC sample (D4.3.3): 4 bytes PC, 1 byte 0 sleep */
		pkt->type = etmp_itm_pc;
		if (size == 4) {
			pkt->addr = v;
			return 0;
		}
		if (size != 1)
			return -etme_bad_opc;
		pkt->itm_flags = ETM_ITM_SLEEP;
		return v ? -etme_bad_packet : 0;
	default:
		if (disc < 8 || disc > 23)
			return -etme_bad_opc;
		return itm_data(disc, size, v, pkt);
	}
}

/* Whether hardware source packets of discriminator @disc have @size
 * payload bytes (D4.3): event counter 1, exception trace 2, PC sample 1
 * or 4, data trace PC value 4 (ARMv8-M: 1, a match), address 2 (ARMv8-M:
 * 4), value 1, 2 or 4. Decided by the header alone. */
static int itm_hw_size_ok(unsigned disc, unsigned size)
{
	switch (disc) {
	case 0: return size == 1;
	case 1: return size == 2;
	case 2: return size == 1 || size == 4;
	default:
		if (disc < 8 || disc > 23)
			return 0;
		if (disc >= 16)
			return 1;
		return disc & 1 ? size != 1 : size != 2;
	}
}

/* A source packet (header 0bxxxxxTSS, SS != 0): instrumentation (T = 0)
 * or hardware (T = 1). */
static int itm_source(const uint8_t *b, size_t n, struct etm_packet *pkt,
		      const struct etm_pkt_state *st)
{
	unsigned size = (b[0] & 3) == 3 ? 4 : b[0] & 3;
	uint32_t v;
	int r;

	if ((b[0] & 4) && !itm_hw_size_ok(b[0] >> 3, size))
		return -etme_bad_opc; /* reserved: known from the header */
	if (n < size + 1)
		return -etme_again;
	v = itm_le(b + 1, size);
	if (b[0] & 4) {
		r = itm_hw(b[0] >> 3, size, v, pkt);
		if (r == -etme_bad_packet)
			pkt->size = size + 1;
		return r < 0 ? r : (int)size + 1;
	}
	pkt->type = etmp_itm_sw;
	pkt->itm_port = (uint16_t)(st->daddr * 32 + (b[0] >> 3));
	pkt->dvalue = v;
	pkt->dvalue_size = (uint8_t)size;
	pkt->has_dvalue = 1;
	return (int)size + 1;
}

static int itm_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		    struct etm_packet *pkt, struct etm_pkt_state *st)
{
	uint8_t h = b[0];

	(void)p;
	if (h & 3)
		return itm_source(b, n, pkt, st);
	if (h == 0x70) {
		pkt->type = etmp_itm_overflow;
		return 1;
	}
	if ((h & 0x0f) == 0 && ((h & 0xc0) == 0xc0 || !(h & 0x80)))
		return itm_lts(b, n, pkt); /* 0b11TC0000, 0b0TTT0000 */
	if (h == 0x94 || h == 0xb4)
		return itm_gts(b, n, pkt, st);
	if ((h & 0x0b) == 0x08)
		return itm_ext(b, n, pkt, st);
	return -etme_bad_opc;
}

/* ITM has no branch address packets: never called (no header is of that
 * class). */
static int itm_read_branch(const struct etm_pktp *p, const uint8_t *b,
			   size_t n, struct etm_brc *br,
			   struct etm_pkt_state *st, uint32_t *drop)
{
	(void)p;
	(void)b;
	(void)n;
	(void)br;
	(void)st;
	*drop = 1;
	return -etme_bad_opc;
}

const struct etm_pkt_proto etm_itm_proto = {
	.proto = etm_proto_itm,
	.hdr_table = itm_hdr_table,
	.read = itm_read,
	.read_branch = itm_read_branch,
	.read_atom = NULL,
	.br_cc = 0,
	.starts_synced = 1,
};
