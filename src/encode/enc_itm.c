/* encode/enc_itm.c - the ITM/DWT encoder (etmtrace/encode.h): an ITM/DWT
 * element (etmtrace/flow.h) into the packet of ARMv7-M ARM appendix D4 a
 * decoder turns back into it; the stimulus port page (extension packet)
 * and the global timestamp's high bits (GTS2) are its state. Written from
 * the protocol, independently of the decoder (packet/itm_pkt.c). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/error.h>

struct etm_itm_enc {
	unsigned page; /* stimulus port page in force */
	uint64_t gts;  /* global timestamp the decoder holds (0 at first) */
};

struct etm_itm_enc *etm_itm_enc_alloc(void)
{
	return calloc(1, sizeof(struct etm_itm_enc));
}

void etm_itm_enc_free(struct etm_itm_enc *e)
{
	free(e);
}

int etm_itm_enc_sync(struct etm_itm_enc *e, uint8_t *out, size_t max)
{
	static const uint8_t sync[6] = { 0, 0, 0, 0, 0, 0x80 };

	if (!e || !out || max < sizeof(sync))
		return -etme_invalid;
	memcpy(out, sync, sizeof(sync));
	return (int)sizeof(sync);
}

/* Header @h and @size little-endian payload bytes of @v (size 1, 2, 4:
 * SS = 01, 10, 11). */
static int src_pkt(uint8_t *o, unsigned h, uint32_t v, unsigned size)
{
	unsigned i;

	o[0] = (uint8_t)(h | (size == 4 ? 3 : size));
	for (i = 0; i < size; i++)
		o[1 + i] = (uint8_t)(v >> (8 * i));
	return (int)size + 1;
}

/* Header @h and the @k 7-bit groups of @v, continued by bit 7. */
static int cont_pkt(uint8_t *o, unsigned h, uint64_t v, unsigned k)
{
	unsigned i;

	o[0] = (uint8_t)h;
	for (i = 0; i < k; i++)
		o[1 + i] = (uint8_t)(((v >> (7 * i)) & 0x7f) |
				     (i + 1 < k ? 0x80 : 0));
	return (int)k + 1;
}

/* 7-bit groups needed for @v (at least 1). */
static unsigned groups7(uint64_t v)
{
	unsigned k = 1;

	while (k < 10 && v >> (7 * k))
		k++;
	return k;
}

/* Local timestamp (D4.2.4): format 2 for 1-6 with TC 0, else format 1. */
static int enc_lts(uint8_t *o, const struct etm_elem *el)
{
	if (el->timestamp >> 28 || el->itm_tc > 3)
		return -etme_invalid;
	if (el->timestamp >= 1 && el->timestamp <= 6 && !el->itm_tc)
		return (o[0] = (uint8_t)(el->timestamp << 4)), 1;
	return cont_pkt(o, 0xc0 | (unsigned)el->itm_tc << 4, el->timestamp,
			groups7(el->timestamp));
}

/* Global timestamp (D4.2.5): a GTS1 with the low bits that changed (all
 * four bytes when flags are asked for), a GTS2 when the bits from 26 up
 * changed - both when both changed (two elements back). */
static int enc_gts(struct etm_itm_enc *e, uint8_t *o, const struct etm_elem *el)
{
	uint64_t v = el->timestamp, lo = v & 0x3ffffff, hi = v >> 26;
	uint64_t olo = e->gts & 0x3ffffff, ohi = e->gts >> 26;
	unsigned k;
	int n = 0;

	if (hi != ohi) {
		k = hi >> 22 ? 6 : 4; /* TS[47:26] or TS[63:26] */
		n = cont_pkt(o, 0xb4, hi, k);
		e->gts = (hi << 26) | olo;
		if (lo == olo && !el->itm_tc)
			return n;
	}
	k = groups7(lo ^ olo);
	if (el->itm_tc || k >= 4) {
		n += cont_pkt(o + n, 0x94, lo & 0x1fffff, 4);
		o[n - 1] = (uint8_t)((lo >> 21) | (el->itm_tc & 1 ? 0x40 : 0) |
				     (el->itm_tc & 2 ? 0x20 : 0));
	} else {
		n += cont_pkt(o + n, 0x94, lo, k);
	}
	e->gts = v;
	return n;
}

static int enc_sw(struct etm_itm_enc *e, uint8_t *o, const struct etm_elem *el)
{
	int n = 0;

	if (el->itm_chan > 255 ||
	    (el->itm_size != 1 && el->itm_size != 2 && el->itm_size != 4))
		return -etme_invalid;
	if (el->itm_chan / 32 != e->page) { /* extension: 0b0PPP1000 */
		e->page = el->itm_chan / 32;
		o[n++] = (uint8_t)(e->page << 4 | 0x08);
	}
	return n + src_pkt(o + n, (el->itm_chan % 32) << 3, el->itm_value,
			   el->itm_size);
}

/* Data trace (D4.3.4): discriminator 8 + 2c (PC, ARMv8-M match), 9 + 2c
 * (address), 16 + 2c + W (value). */
static int enc_cmp(uint8_t *o, const struct etm_elem *el)
{
	unsigned c = el->itm_chan, f = el->itm_flags;

	if (c > 3)
		return -etme_invalid;
	if (f & ETM_ITM_CMP_PC)
		return src_pkt(o, (8 + 2 * c) << 3 | 4, (uint32_t)el->addr, 4);
	if (f & ETM_ITM_CMP_ADDR)
		return el->itm_size != 2 && el->itm_size != 4 ?
			       -etme_invalid :
			       src_pkt(o, (9 + 2 * c) << 3 | 4,
				       (uint32_t)el->addr, el->itm_size);
	if (f & ETM_ITM_CMP_VALUE)
		return el->itm_size != 1 && el->itm_size != 2 &&
				       el->itm_size != 4 ?
			       -etme_invalid :
			       src_pkt(o, (16 + 2 * c + !!el->itm_fn) << 3 | 4,
				       el->itm_value, el->itm_size);
	if (f & ETM_ITM_CMP_MATCH)
		return src_pkt(o, (8 + 2 * c) << 3 | 4, el->itm_value & 0xff, 1);
	return -etme_invalid;
}

int etm_itm_enc_put(struct etm_itm_enc *e, const struct etm_elem *el,
		    uint8_t *out, size_t max)
{
	uint8_t o[ETM_ITM_ENC_MAX];
	int n;

	if (!e || !el || !out)
		return -etme_invalid;
	switch (el->kind) {
	case etmk_itm_sw: n = enc_sw(e, o, el); break;
	case etmk_itm_ts:
		n = el->itm_flags & ETM_ITM_GLOBAL ? enc_gts(e, o, el) :
						     enc_lts(o, el);
		break;
	case etmk_itm_overflow: o[0] = 0x70, n = 1; break;
	case etmk_dwt_pc:
		n = el->itm_flags & ETM_ITM_SLEEPING ?
			    src_pkt(o, 2 << 3 | 4, 0, 1) :
			    src_pkt(o, 2 << 3 | 4, (uint32_t)el->addr, 4);
		break;
	case etmk_dwt_exc:
		n = el->exc_num > 511 || !el->itm_fn || el->itm_fn > 3 ?
			    -etme_invalid :
			    src_pkt(o, 1 << 3 | 4,
				    (el->exc_num & 0x1ffu) |
					    (uint32_t)el->itm_fn << 12,
				    2);
		break;
	case etmk_dwt_cmp: n = enc_cmp(o, el); break;
	case etmk_dwt_counter:
		n = el->itm_value > 0x3f ? -etme_invalid :
					   src_pkt(o, 4, el->itm_value, 1);
		break;
	default: n = -etme_invalid; break;
	}
	if (n < 0)
		return n;
	if ((size_t)n > max)
		return -etme_overflow;
	memcpy(out, o, (size_t)n);
	return n;
}
