/* packet/field.h - payload fields and packets encoded alike by both
 * protocols: timestamps (48/64-bit, binary or Gray), little-endian values,
 * the I-sync information byte, Context ID and VMID (inline: the readers
 * of both protocols use them on every such packet). */
#ifndef ETM_PACKET_FIELD_H
#define ETM_PACKET_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

/* Read a timestamp value field (IHI 0014Q §7.7.4, IHI 0035B §4.5.9): 7 bits
 * per byte with a continuation bit; the 7th byte of a 48-bit field carries 6
 * bits, the 9th byte of a 64-bit field 8 bits. The value replaces the low
 * bits of *@raw (the previous value as transmitted); *@bits = bits carried.
 * Returns the bytes read or -etme_again. */
int etm_field_ts(const uint8_t *b, size_t n, int ts64, uint64_t *raw,
		 uint8_t *bits);

/* Gray code to natural binary: binary[i] = XOR of gray[63:i]. */
uint64_t etm_field_gray2bin(uint64_t g);

/* Little-endian value of @n (0-4) bytes. */
uint32_t etm_field_le(const uint8_t *b, unsigned n);

/* The header and value field of a timestamp packet at @b into @pkt (type,
 * R bit, value bits and the value, binary or Gray-decoded with @binary),
 * merged into *@raw as etm_field_ts() does. Returns the bytes read or
 * -etme_again. */
static inline int etm_field_ts_pkt(const uint8_t *b, size_t n, int ts64,
				   int binary, uint64_t *raw,
				   struct etm_packet *pkt)
{
	int r;

	pkt->type = etmp_timestamp;
	pkt->ts_freq_change = (b[0] >> 2) & 1;
	r = etm_field_ts(b + 1, n - 1, ts64, raw, &pkt->ts_bits);
	if (r < 0)
		return r;
	pkt->timestamp = binary ? *raw : etm_field_gray2bin(*raw);
	return r + 1;
}

/* The fields of an I-sync information byte both protocols share: reason
 * [6:5], NS [3], Hyp [1] (IHI 0014Q §7.4.1, IHI 0035B §4.5.2). */
static inline void etm_field_isync_info(uint8_t info, struct etm_packet *pkt)
{
	pkt->type = etmp_isync;
	pkt->reason = (info >> 5) & 3;
	pkt->has_state = 1;
	pkt->ns = (info >> 3) & 1;
	pkt->hyp = (info >> 1) & 1;
}

/* A Context ID field of @cid (0-4) bytes at @b into @pkt. Returns 0 or
 * -etme_again. */
static inline int etm_field_ctxid(const uint8_t *b, size_t n, size_t cid,
				  struct etm_packet *pkt)
{
	if (n < cid)
		return -etme_again;
	pkt->has_ctxid = cid != 0;
	pkt->ctxid = etm_field_le(b, (unsigned)cid);
	return 0;
}

/* The packets both protocols encode alike (IHI 0014Q §7.3, IHI 0035B
 * §4.5): Context ID (0x6E + @cid bytes) and VMID (0x3C + 1 byte) at @b.
 * Return the size or -etme_again. */
static inline int etm_field_ctxid_pkt(const uint8_t *b, size_t n, size_t cid,
				      struct etm_packet *pkt)
{
	if (etm_field_ctxid(b + 1, n - 1, cid, pkt) < 0)
		return -etme_again;
	pkt->type = etmp_ctxid;
	return (int)(1 + cid);
}
static inline int etm_field_vmid_pkt(const uint8_t *b, size_t n,
				     struct etm_packet *pkt)
{
	if (n < 2)
		return -etme_again;
	pkt->type = etmp_vmid;
	pkt->vmid = b[1];
	return 2;
}

#endif
