/* tests/unit/test-image.c - program image (overlap, spaces, callback, peek,
 * files) and the range walker. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>

#include "etest.h"
#include "image/image_int.h"

static int add_fill(struct etm_image *img, enum etm_space sp, uint64_t addr,
		    uint8_t v, size_t n)
{
	uint8_t buf[256];

	memset(buf, v, sizeof(buf));
	return etm_image_add_buffer(img, sp, addr, buf, n);
}

/* Later regions win: A [0x1000,0x1010)=AA, B [0x1008,0x1018)=BB, then
 * C [0x1004,0x1006)=CC splits A. Expected bytes 0x1000..0x1017:
 * AA AA AA AA CC CC AA AA BB x16. */
static void overlap(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t got[24], want[24];
	const uint8_t *p;

	ET_CHECK(img);
	ET_EQ(add_fill(img, etm_space_any, 0x1000, 0xAA, 16), 0);
	ET_EQ(add_fill(img, etm_space_any, 0x1008, 0xBB, 16), 0);
	ET_EQ(add_fill(img, etm_space_any, 0x1004, 0xCC, 2), 0);
	memset(want, 0xAA, 8);
	want[4] = want[5] = 0xCC;
	memset(want + 8, 0xBB, 16);
	ET_EQ(etm_image_read(img, etm_space_any, 0x1000, got, 24), 24);
	ET_CHECK(!memcmp(got, want, 24));
	/* peek: piece boundaries 0x1004, 0x1006, 0x1008, 0x1018 */
	ET_EQ(etm_image_peek(img, etm_space_any, 0x1000, &p), 4);
	ET_EQ(p[0], 0xAA);
	ET_EQ(etm_image_peek(img, etm_space_any, 0x1005, &p), 1);
	ET_EQ(p[0], 0xCC);
	ET_EQ(etm_image_peek(img, etm_space_any, 0x1006, &p), 2);
	ET_EQ(etm_image_peek(img, etm_space_any, 0x1010, &p), 8);
	ET_EQ(p[7], 0xBB);
	/* beyond the end / before the start: unmapped */
	ET_EQ(etm_image_read(img, etm_space_any, 0x1018, got, 4), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x0FFF, got, 4), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x1016, got, 8), 2);
	/* D covers everything: all DD */
	ET_EQ(add_fill(img, etm_space_any, 0x0FF0, 0xDD, 0x40), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x0FF0, got, 24), 24);
	ET_EQ(got[0], 0xDD);
	ET_EQ(got[23], 0xDD);
	ET_EQ(etm_image_peek(img, etm_space_any, 0x1000, &p), 0x30);
	/* listing keeps the regions as added */
	ET_EQ(etm_image_count(img), 4);
	{
		enum etm_space sp;
		uint64_t a, sz;
		const char *name;

		ET_EQ(etm_image_region(img, 1, &sp, &a, &sz, &name), 0);
		ET_EQ(a, 0x1008);
		ET_EQ(sz, 16);
		ET_EQ(sp, etm_space_any);
		ET_EQ(etm_image_name_last(img, "dump"), 0);
		ET_EQ(etm_image_region(img, 3, NULL, NULL, NULL, &name), 0);
		ET_CHECK(!strcmp(name, "dump"));
		ET_EQ(etm_image_region(img, 4, &sp, &a, &sz, &name),
		      -etme_invalid);
	}
	etm_image_free(img);
}

/* Many small overlapping regions against a flat reference model. */
static void overlap_model(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t model[512], have[512], got[512];
	uint32_t seed = 12345;
	int k;

	ET_CHECK(img);
	memset(have, 0, sizeof(have));
	for (k = 0; k < 300; k++) {
		size_t off, len;
		uint8_t v = (uint8_t)(k + 1);

		seed = seed * 1103515245 + 12345;
		off = (seed >> 8) % 500;
		len = 1 + (seed >> 20) % 40;
		if (off + len > 512)
			len = 512 - off;
		ET_EQ(add_fill(img, etm_space_any, 0x8000 + off, v, len), 0);
		memset(model + off, v, len);
		memset(have + off, 1, len);
	}
	for (k = 0; k < 512; k++) {
		size_t n = etm_image_read(img, etm_space_any, 0x8000 + k,
					  got, 1);

		ET_EQ(n, have[k]);
		if (n)
			ET_EQ(got[0], model[k]);
	}
	etm_image_free(img);
}

/* Regions added in batches (etm_image_add_buffers, the ELF loader's path)
 * and one by one, in random order and overlapping, against a byte model:
 * the latest region wins at every byte. */
static void batch_model(void)
{
	struct etm_image *img = etm_image_alloc();
	static uint8_t fill[4096];
	uint8_t model[2048], have[2048], got[1];
	struct etm_piece pc[64];
	uint32_t seed = 777;
	int k, j, n, v = 0;

	ET_CHECK(img);
	memset(have, 0, sizeof(have));
	for (k = 0; k < 4096; k++)
		fill[k] = (uint8_t)(k * 7 + k / 256);
	for (k = 0; k < 200; k++) {
		seed = seed * 1103515245 + 12345;
		n = 1 + (int)((seed >> 16) % 64);
		for (j = 0; j < n; j++) {
			size_t off, len;

			seed = seed * 1103515245 + 12345;
			off = (seed >> 8) % 2000;
			len = 1 + (seed >> 20) % (j & 1 ? 48 : 4);
			if (off + len > 2048)
				len = 2048 - off;
			pc[j].addr = 0x10000 + off;
			pc[j].n = len;
			pc[j].p = fill + (v++ % 2048);
			memcpy(model + off, pc[j].p, len);
			memset(have + off, 1, len);
		}
		if (k % 3 == 2) {
			for (j = 0; j < n; j++)
				ET_EQ(etm_image_add_buffer(img, etm_space_any,
							   pc[j].addr, pc[j].p,
							   pc[j].n),
				      0);
		} else {
			ET_EQ(etm_image_add_buffers(img, etm_space_any, pc,
						    (size_t)n, "b"),
			      0);
		}
	}
	for (k = 0; k < 2048; k++) {
		size_t m = etm_image_read(img, etm_space_any, 0x10000 + k, got, 1);

		ET_EQ(m, have[k]);
		if (m)
			ET_EQ(got[0], model[k]);
	}
	/* a piece past the 32-bit space: nothing is added */
	pc[0] = (struct etm_piece){ 0x100, 4, fill };
	pc[1] = (struct etm_piece){ 0xFFFFFFFEu, 4, fill };
	n = (int)etm_image_count(img);
	ET_EQ(etm_image_add_buffers(img, etm_space_any, pc, 2, NULL),
	      -etme_invalid);
	ET_EQ(etm_image_count(img), (size_t)n);
	ET_EQ(etm_image_read(img, etm_space_any, 0x100, got, 1), 0);
	etm_image_free(img);
}

/* Space-specific regions are preferred over "any" regardless of order. */
static void spaces(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b = 0;

	ET_CHECK(img);
	ET_EQ(add_fill(img, etm_space_secure, 0x2000, 0x11, 4), 0);
	ET_EQ(add_fill(img, etm_space_any, 0x2000, 0x22, 4), 0);
	ET_EQ(add_fill(img, etm_space_nonsecure, 0x3000, 0x33, 4), 0);
	ET_EQ(etm_image_read(img, etm_space_secure, 0x2000, &b, 1), 1);
	ET_EQ(b, 0x11);
	ET_EQ(etm_image_read(img, etm_space_nonsecure, 0x2000, &b, 1), 1);
	ET_EQ(b, 0x22);
	ET_EQ(etm_image_read(img, etm_space_any, 0x2000, &b, 1), 1);
	ET_EQ(b, 0x22);
	/* non-secure only: a secure query misses, an "any" query finds it */
	ET_EQ(etm_image_read(img, etm_space_secure, 0x3000, &b, 1), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x3000, &b, 1), 1);
	ET_EQ(b, 0x33);
	ET_EQ(etm_image_read(img, (enum etm_space)7, 0x2000, &b, 1), 0);
	etm_image_free(img);
}

/* A preferred list's region inside a fallback one: non-secure
 * [0x1000,0x1010)=55 with "any" [0x1004,0x1008)=66. An "any" query reads
 * 55 x4, 66 x4, 55 x8; a secure query sees only the "any" bytes. */
static void spaces_nested(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t got[16], want[16];
	const uint8_t *p;

	ET_CHECK(img);
	ET_EQ(add_fill(img, etm_space_nonsecure, 0x1000, 0x55, 16), 0);
	ET_EQ(add_fill(img, etm_space_any, 0x1004, 0x66, 4), 0);
	memset(want, 0x55, 16);
	memset(want + 4, 0x66, 4);
	ET_EQ(etm_image_peek(img, etm_space_any, 0x1000, &p), 4);
	ET_EQ(etm_image_read(img, etm_space_any, 0x1000, got, 16), 16);
	ET_CHECK(!memcmp(got, want, 16));
	/* a non-secure query prefers its own region throughout */
	ET_EQ(etm_image_peek(img, etm_space_nonsecure, 0x1000, &p), 16);
	ET_EQ(etm_image_read(img, etm_space_secure, 0x1000, got, 16), 0);
	ET_EQ(etm_image_read(img, etm_space_secure, 0x1004, got, 16), 4);
	ET_EQ(got[0], 0x66);
	etm_image_free(img);
}

struct cbctx {
	size_t calls, max_n;
};

/* Serves 0x5000..0x5FFF with the low address byte. */
static size_t reader(void *ctx, enum etm_space sp, uint64_t addr,
		     uint8_t *buf, size_t n)
{
	struct cbctx *c = ctx;
	size_t i;

	(void)sp;
	c->calls++;
	if (n > c->max_n)
		c->max_n = n;
	for (i = 0; i < n && addr + i < 0x6000; i++) {
		if (addr + i < 0x5000)
			break;
		buf[i] = (uint8_t)(addr + i);
	}
	return i;
}

/* Read 0x500C..0x5017 with a region [0x5010,0x5014)=EE: callback bytes
 * 0C 0D 0E 0F, region EE x4, callback 14 15 16 17. */
static void callback(void)
{
	static const uint8_t want[12] = { 0x0C, 0x0D, 0x0E, 0x0F, 0xEE, 0xEE,
					  0xEE, 0xEE, 0x14, 0x15, 0x16, 0x17 };
	struct etm_image *img = etm_image_alloc();
	struct cbctx c = { 0, 0 };
	uint8_t got[16];
	const uint8_t *p;

	ET_CHECK(img);
	ET_EQ(add_fill(img, etm_space_any, 0x5010, 0xEE, 4), 0);
	ET_EQ(etm_image_set_reader(img, reader, &c), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x500C, got, 12), 12);
	ET_CHECK(!memcmp(got, want, 12));
	/* the callback is never asked for bytes a region covers */
	ET_EQ(c.max_n, 4);
	/* peek does not serve callback memory */
	ET_EQ(etm_image_peek(img, etm_space_any, 0x500C, &p), 0);
	/* callback runs out at 0x6000 */
	ET_EQ(etm_image_read(img, etm_space_any, 0x5FFE, got, 8), 2);
	ET_EQ(etm_image_read(img, etm_space_any, 0x7000, got, 8), 0);
	etm_image_free(img);
}

static void files(void)
{
	char path[] = "/tmp/etm-test-imageXXXXXX";
	struct etm_image *img = etm_image_alloc();
	uint8_t data[16], got[16];
	const char *name;
	int fd, i;

	ET_CHECK(img);
	for (i = 0; i < 16; i++)
		data[i] = (uint8_t)(0x40 + i);
	fd = mkstemp(path);
	ET_CHECK(fd >= 0);
	ET_EQ(write(fd, data, 16), 16);
	close(fd);
	/* bytes 4..11 of the file at 0x100 */
	ET_EQ(etm_image_add_file(img, etm_space_any, 0x100, path, 4, 8), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x100, got, 16), 8);
	ET_CHECK(!memcmp(got, data + 4, 8));
	ET_EQ(etm_image_region(img, 0, NULL, NULL, NULL, &name), 0);
	ET_CHECK(!strcmp(name, path));
	/* length 0: to the end of the file (bytes 10..15 at 0x200) */
	ET_EQ(etm_image_add_file(img, etm_space_any, 0x200, path, 10, 0), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x200, got, 16), 6);
	ET_EQ(got[5], 0x4F);
	/* short file, offset past the end, missing file */
	ET_EQ(etm_image_add_file(img, etm_space_any, 0, path, 10, 10),
	      -etme_io);
	ET_EQ(etm_image_add_file(img, etm_space_any, 0, path, 16, 0),
	      -etme_io);
	unlink(path);
	ET_EQ(etm_image_add_file(img, etm_space_any, 0, path, 0, 0),
	      -etme_io);
	ET_EQ(etm_image_add_file(img, etm_space_any, 0, "/nonexistent/x",
				 0, 0),
	      -etme_io);
	ET_EQ(etm_image_count(img), 2);
	etm_image_free(img);
}

static void bad_args(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[4] = { 0 };
	const uint8_t *p;

	ET_CHECK(img);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0, b, 0),
	      -etme_invalid);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0, NULL, 4),
	      -etme_invalid);
	ET_EQ(etm_image_add_buffer(NULL, etm_space_any, 0, b, 4),
	      -etme_invalid);
	ET_EQ(etm_image_add_buffer(img, (enum etm_space)3, 0, b, 4),
	      -etme_invalid);
	/* would wrap past 2^64, or leave the 32-bit address space */
	ET_EQ(etm_image_add_buffer(img, etm_space_any, ~0ull - 1, b, 4),
	      -etme_invalid);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0xFFFFFFF8u, b, 4), 0);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0xFFFFFFFDu, b, 4),
	      -etme_invalid);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 1ull << 32, b, 1),
	      -etme_invalid);
	etm_image_free(img);
	img = etm_image_alloc();
	ET_CHECK(img);
	ET_EQ(etm_image_name_last(img, "x"), -etme_invalid);
	/* [2^32-16, 2^32-12) is fine; a read from 2^32-14 gets 2 bytes */
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0xFFFFFFF0u, b, 4), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0xFFFFFFF2u, b, 4), 2);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0xFFFFFFFCu, b, 4), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0xFFFFFFFEu, b, 4), 2);
	ET_EQ(etm_image_read(NULL, etm_space_any, 0, b, 4), 0);
	ET_EQ(etm_image_peek(NULL, etm_space_any, 0, &p), 0);
	ET_EQ(etm_image_count(NULL), 0);
	ET_EQ(etm_image_set_reader(NULL, NULL, NULL), -etme_invalid);
	etm_image_free(img);
	etm_image_free(NULL);
}

/* T32 code at 0x1000: MOVS r0,#1 (2001); LDR.W r0,[r1] (F8D1 0000);
 * NOP (BF00); BX lr (4770). */
static const uint8_t t32_code[] = {
	0x01, 0x20, 0xD1, 0xF8, 0x00, 0x00, 0x00, 0xBF, 0x70, 0x47
};

static void walk(void)
{
	static const uint64_t addrs[] = { 0x1000, 0x1002, 0x1006, 0x1008 };
	static const uint8_t sizes[] = { 2, 4, 2, 2 };
	struct etm_image *img = etm_image_alloc();
	struct etm_elem el;
	struct etm_walk w;
	struct etm_insn in;
	int i;

	ET_CHECK(img);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x1000, t32_code,
				   sizeof(t32_code)),
	      0);
	memset(&el, 0, sizeof(el));
	el.kind = etmk_range;
	el.start = 0x1000;
	el.end = 0x100A;
	el.isa = etmi_t32;
	el.ninsn = 4;
	ET_EQ(etm_walk_init(&w, img, &el), 0);
	for (i = 0; i < 4; i++) {
		ET_EQ(etm_walk_next(&w, &in), 0);
		ET_EQ(in.addr, addrs[i]);
		ET_EQ(in.size, sizes[i]);
	}
	ET_EQ(in.cls, etmc_br_indirect);
	ET_EQ(in.is_return, 1);
	ET_EQ(etm_walk_next(&w, &in), -etme_eos);
	/* a range running past the image: 4 instructions, then nomap */
	el.end = 0x1010;
	el.ninsn = 6;
	ET_EQ(etm_walk_init(&w, img, &el), 0);
	for (i = 0; i < 4; i++)
		ET_EQ(etm_walk_next(&w, &in), 0);
	ET_EQ(etm_walk_next(&w, &in), -etme_nomap);
	/* not a range */
	el.kind = etmk_exception;
	ET_EQ(etm_walk_init(&w, img, &el), -etme_invalid);
	etm_image_free(img);
}

/* With space-specific regions the walker follows the range's ns bit:
 * secure 0x4000 = BX lr (4770), non-secure 0x4000 = NOP (BF00). */
static void walk_space(void)
{
	static const uint8_t bx[2] = { 0x70, 0x47 }, nop[2] = { 0x00, 0xBF };
	struct etm_image *img = etm_image_alloc();
	struct etm_elem el;
	struct etm_walk w;
	struct etm_insn in;

	ET_CHECK(img);
	ET_EQ(etm_image_add_buffer(img, etm_space_secure, 0x4000, bx, 2), 0);
	ET_EQ(etm_image_add_buffer(img, etm_space_nonsecure, 0x4000, nop, 2),
	      0);
	memset(&el, 0, sizeof(el));
	el.kind = etmk_range;
	el.start = 0x4000;
	el.end = 0x4002;
	el.isa = etmi_t32;
	el.ninsn = 1;
	el.ns = 1;
	ET_EQ(etm_walk_init(&w, img, &el), 0);
	ET_EQ(etm_walk_next(&w, &in), 0);
	ET_EQ(in.cls, etmc_other);
	el.ns = 0;
	ET_EQ(etm_walk_init(&w, img, &el), 0);
	ET_EQ(etm_walk_next(&w, &in), 0);
	ET_EQ(in.cls, etmc_br_indirect);
	etm_image_free(img);
}

int main(void)
{
	ETEST(overlap);
	ETEST(overlap_model);
	ETEST(batch_model);
	ETEST(spaces);
	ETEST(spaces_nested);
	ETEST(callback);
	ETEST(files);
	ETEST(bad_args);
	ETEST(walk);
	ETEST(walk_space);
	return etest_end();
}
