/* packet/addr.c - branch address decompression: concatenate the address
 * fields, shift by the instruction alignment, replace the low base bits. */
#include <string.h>

#include "packet/addr.h"

#include <etmtrace/error.h>

unsigned etm_addr_shift(enum etm_isa isa)
{
	switch (isa) {
	case etmi_t32:
	case etmi_tee:
		return 1;
	case etmi_jazelle:
		return 0;
	case etmi_a32:
	case etmi_unknown:
		break;
	}
	return 2;
}

/* The 5th address byte: b0E1aaaaa Jazelle, b0E01aaaa Thumb, b0E001aaa ARM;
 * ETMv3 also has the deprecated ARM form b1CEEEaaa. @v holds 27 bits. */
static int addr_byte5(uint8_t c, unsigned flags, uint32_t v,
		      struct etm_addr_res *r)
{
	r->len = 5;
	r->isa_set = 1;
	r->nbits = 32;
	if (c & 0x80) {
		if (!(flags & ETM_ADDR_DEPRECATED))
			return -etme_bad_packet;
		r->isa = etmi_a32;
		r->dep = 1;
		r->dep_cancel = (c >> 6) & 1;
		r->dep_code = (c >> 3) & 7;
		v |= (uint32_t)(c & 0x07) << 27;
	} else if (c & 0x20) {
		r->isa = etmi_jazelle;
		v |= (uint32_t)(c & 0x1f) << 27;
	} else if (c & 0x10) {
		r->isa = etmi_t32;
		v |= (uint32_t)(c & 0x0f) << 27;
	} else if (c & 0x08) {
		r->isa = etmi_a32;
		v |= (uint32_t)(c & 0x07) << 27;
	} else {
		return -etme_bad_packet;
	}
	if (!r->dep)
		r->exc = (c >> 6) & 1;
	r->addr = v << etm_addr_shift(r->isa);
	return 5;
}

int etm_addr_read(const uint8_t *b, size_t n, unsigned flags, uint32_t base,
		  enum etm_isa cur, struct etm_addr_res *r)
{
	uint32_t v, mask;
	unsigned bits = 6, i, shift;
	uint8_t c;

	memset(r, 0, sizeof(*r));
	if (n < 1)
		return -etme_again;
	c = b[0];
	v = (c >> 1) & 0x3f;
	for (i = 1; (c & 0x80) && i < 4; i++) {
		if (i >= n)
			return -etme_again;
		c = b[i];
		if ((c & 0x80) || !(flags & ETM_ADDR_ALT)) {
			v |= (uint32_t)(c & 0x7f) << bits;
			bits += 7;
		} else {
			/* alternative encoding: last byte b0Eaaaaaa */
			v |= (uint32_t)(c & 0x3f) << bits;
			bits += 6;
			r->exc = (c >> 6) & 1;
		}
	}
	if (c & 0x80) {
		if (n < 5)
			return -etme_again;
		return addr_byte5(b[4], flags, v, r);
	}
	r->len = (uint8_t)i;
	/* etm_addr_shift(), inline: T32/ThumbEE 1, Jazelle 0, else 2 */
	shift = cur == etmi_t32 || cur == etmi_tee ? 1 :
		cur == etmi_jazelle                ? 0 :
						     2;
	r->nbits = (uint8_t)(bits + shift);
	/* at most 6 + 3 x 7 + 2 = 29 bits: the mask never covers all 32 */
	mask = (1u << r->nbits) - 1;
	r->addr = (base & ~mask) | ((v << shift) & mask);
	r->isa = cur;
	return (int)i;
}
