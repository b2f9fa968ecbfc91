/* image/image_int.h - library-internal image queries and the per-ISA
 * classifier entry points shared by insn.c, isa_a32.c and isa_t32.c. */
#ifndef ETM_IMAGE_IMAGE_INT_H
#define ETM_IMAGE_IMAGE_INT_H

#include <stdint.h>

#include <etmtrace/image.h>
#include <etmtrace/insn.h>

/* 1 if any region was added in a specific (secure / non-secure) space. */
int etm_image_has_spaces(const struct etm_image *img);

/* T32 size from the first halfword: 4 if hw1[15:11] is 11101, 11110 or
 * 11111, else 2. */
static inline unsigned etm_t32_size(uint32_t hw1)
{
	return (hw1 & 0xF800) >= 0xE800 ? 4 : 2;
}

/* Classify an A32 word / a T32 (or ThumbEE) instruction. @insn has addr,
 * isa, opcode and size set and every other field zeroed; these fill cls,
 * link, cond, exc_return, is_return, it, target, target_isa. */
void etm_a32_classify(struct etm_insn *insn);
void etm_t32_classify(struct etm_insn *insn);

#endif
