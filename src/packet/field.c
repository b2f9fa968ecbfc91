/* packet/field.c - timestamp field reader with compressed merge, Gray
 * decoding and little-endian helper. */
#include "packet/field.h"

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "common/bits.h"

int etm_field_ts(const uint8_t *b, size_t n, int ts64, uint64_t *raw,
		 uint8_t *bits)
{
	unsigned max = ts64 ? 9 : 7, i, nb = 0;
	uint64_t v = 0, mask;

	for (i = 0; i < max; i++) {
		if (i >= n)
			return -etme_again;
		if (i == max - 1) {
			/* last possible byte: no continuation bit */
			uint64_t last = ts64 ? b[i] : (b[i] & 0x3fu);

			v |= last << (7 * i);
			nb = ts64 ? 64 : 48;
			break;
		}
		v |= (uint64_t)(b[i] & 0x7f) << (7 * i);
		nb += 7;
		if (!(b[i] & 0x80))
			break;
	}
	mask = etm_lowmask(nb);
	*raw = (*raw & ~mask) | (v & mask);
	*bits = (uint8_t)nb;
	return (int)i + 1;
}

uint64_t etm_field_gray2bin(uint64_t g)
{
	unsigned s;

	for (s = 1; s < 64; s <<= 1)
		g ^= g >> s;
	return g;
}

uint32_t etm_field_le(const uint8_t *b, unsigned n)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}

int etm_field_ts_pkt(const uint8_t *b, size_t n, int ts64, int binary,
		     uint64_t *raw, struct etm_packet *pkt)
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

void etm_field_isync_info(uint8_t info, struct etm_packet *pkt)
{
	pkt->type = etmp_isync;
	pkt->reason = (info >> 5) & 3;
	pkt->has_state = 1;
	pkt->ns = (info >> 3) & 1;
	pkt->hyp = (info >> 1) & 1;
}

int etm_field_ctxid(const uint8_t *b, size_t n, size_t cid,
		    struct etm_packet *pkt)
{
	if (n < cid)
		return -etme_again;
	pkt->has_ctxid = cid != 0;
	pkt->ctxid = etm_field_le(b, (unsigned)cid);
	return 0;
}

int etm_field_ctxid_pkt(const uint8_t *b, size_t n, size_t cid,
			struct etm_packet *pkt)
{
	if (etm_field_ctxid(b + 1, n - 1, cid, pkt) < 0)
		return -etme_again;
	pkt->type = etmp_ctxid;
	return (int)(1 + cid);
}

int etm_field_vmid_pkt(const uint8_t *b, size_t n, struct etm_packet *pkt)
{
	if (n < 2)
		return -etme_again;
	pkt->type = etmp_vmid;
	pkt->vmid = b[1];
	return 2;
}
