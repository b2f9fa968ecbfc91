/* tests/unit/test-disasm_it.c - the listing's T32 IT-block context comes
 * from the program image (src/disasm/disasm.c), not from the instructions printed
 * before. Expected text derived from the IT semantics (ARM ARM A7.7.38: an
 * IT covers up to 4 following instructions; T = firstcond, E = its
 * inverse), with bytes taken from the TC2 kernel dump. */
#include <string.h>

#include "etest.h"

#ifdef ETM_HAVE_CAPSTONE
#include "disasm/disasm.h"

/* At 0x1000: bf92 itee ls | 460c | 687d | eb05 0409; then 0x1010: 460c
 * outside any block (preceded by 4 x 0x2000 movs); at 0x1020: f3a4 bf3e
 * (a 32-bit instruction whose second halfword looks like "IT lo") then
 * e92d 43c8 push.w: not in a block. */
static const uint8_t prog[] = {
	0x92, 0xbf, 0x0c, 0x46, 0x7d, 0x68, 0x05, 0xeb, 0x09, 0x04, /* 1000 */
	0x00, 0x20, 0x00, 0x20, 0x00, 0x20,                         /* 100a */
	0x0c, 0x46,                                                 /* 1010 */
	0x00, 0x20, 0x00, 0x20, 0x00, 0x20, 0x00, 0x20, 0x00, 0x20,
	0x00, 0x20, 0x00, 0x20, /* 1012 */
	0xa4, 0xf3, 0x3e, 0xbf, /* 1020 */
	0x2d, 0xe9, 0xc8, 0x43, /* 1024 */
};

static void text(struct disasm *d, const struct etm_image *img, uint64_t a,
		 uint32_t op, unsigned size, char *buf)
{
	struct etm_insn in;

	memset(&in, 0, sizeof(in));
	in.addr = a;
	in.opcode = op;
	in.size = (uint8_t)size;
	in.isa = etmi_t32;
	disasm_insn(d, img, etm_space_any, &in, buf, 64);
}

static void it_from_image(void)
{
	struct etm_image *img = etm_image_alloc();
	struct disasm *d = disasm_open();
	char b[64];
	int pass;

	ET_CHECK(img && d);
	/* 16 bytes of 0x2000 before the program so the look-back reads */
	{
		static uint8_t buf[16 + sizeof(prog)];
		unsigned i;

		for (i = 0; i < 16; i += 2) {
			buf[i] = 0x00;
			buf[i + 1] = 0x20;
		}
		memcpy(buf + 16, prog, sizeof(prog));
		ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x0ff0, buf,
					   sizeof(buf)),
		      0);
	}
	/* twice, in different orders: the text does not depend on what was
	 * disassembled before */
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			text(d, img, 0x1000, 0xbf92, 2, b);
			ET_CHECK(strncmp(b, "itee ls", 7) == 0);
		}
		text(d, img, 0x1004, 0x687d, 2, b);
		ET_CHECK(strncmp(b, "ldrhi ", 6) == 0);
		text(d, img, 0x1002, 0x460c, 2, b);
		ET_CHECK(strncmp(b, "movls ", 6) == 0);
		text(d, img, 0x1006, 0xeb050409, 4, b);
		ET_CHECK(strncmp(b, "addhi.w ", 8) == 0);
		text(d, img, 0x1010, 0x460c, 2, b);
		ET_CHECK(strncmp(b, "mov ", 4) == 0);
		text(d, img, 0x1024, 0xe92d43c8, 4, b);
		ET_CHECK(strncmp(b, "push.w ", 7) == 0);
	}
	disasm_close(d);
	etm_image_free(img);
}
#else
static void it_from_image(void)
{
	/* capstone not available: the listing has no disassembly */
}
#endif

int main(void)
{
	ETEST(it_from_image);
	return etest_end();
}
