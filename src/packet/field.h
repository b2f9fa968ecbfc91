/* packet/field.h - multi-byte payload fields shared by both protocols:
 * timestamps (48/64-bit, binary or Gray) and little-endian values. */
#ifndef ETM_PACKET_FIELD_H
#define ETM_PACKET_FIELD_H

#include <stddef.h>
#include <stdint.h>

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

#endif
