/* packet/addr.h - branch address bytes (ETMv3 original/alternative encoding,
 * PTM) and their merge against the compression base; shared by both parsers. */
#ifndef ETM_PACKET_ADDR_H
#define ETM_PACKET_ADDR_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>

/* etm_addr_read() flags */
#define ETM_ADDR_ALT 0x1u        /* alternative encoding (ETMv3.4+ / PTM) */
#define ETM_ADDR_DEPRECATED 0x2u /* ETMv3: accept the b1CEEEaaa 5th byte */

/* Result of reading the address bytes of a branch-style address field. */
struct etm_addr_res {
	uint32_t addr;      /* merged address */
	uint8_t len;        /* address bytes read (also on error: bytes to drop) */
	uint8_t nbits;      /* low address bits replaced (32 = full address) */
	enum etm_isa isa;   /* ISA stated by a 5-byte field */
	uint8_t isa_set;    /* 1 if the field was 5 bytes long */
	uint8_t exc;        /* E flag: exception information bytes follow */
	uint8_t dep;        /* ETMv3 deprecated inline exception form */
	uint8_t dep_cancel; /* ... its C bit */
	uint8_t dep_code;   /* ... its EEE code */
};

/* Alignment shift of the ISA: A32 2, T32/ThumbEE 1, Jazelle 0 (unknown is
 * treated as A32). */
unsigned etm_addr_shift(enum etm_isa isa);

/* Read 1-5 address bytes at @b (IHI 0014Q §7.3.5, IHI 0035B §4.5.4) and merge
 * them into @base using the alignment of @cur (1-4 bytes) or the ISA the 5th
 * byte states. Returns the number of address bytes, -etme_again if @n is too
 * short, -etme_bad_packet for a reserved 5th byte (r->len = 5). */
int etm_addr_read(const uint8_t *b, size_t n, unsigned flags, uint32_t base,
		  enum etm_isa cur, struct etm_addr_res *r);

#endif
