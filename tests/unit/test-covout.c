/* tests/unit/test-covout.c - the coverage reports write through the
 * caller's callback (src/covout/covout.h): a line longer than the
 * formatter's line buffer (a long region name) arrives whole, and a
 * writer's error stops the report and is its result. Program: three A32
 * instructions executed once at 0x1000 in a 28-byte region, so the
 * region's line is "region 00001000-0000101c 12/28 3 NAME" (12 of 28
 * bytes, three instructions: counted by hand). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>
#include <etmtrace/etmtrace.h>

#include "covout/covout.h"
#include "etest.h"

/* cmp r0, #0 / moveq r0, #1 / bne 0x1000 / bl 0x1018 / b 0x1000 / nop /
 * bx lr */
static const uint32_t prog[] = { 0xe3500000, 0x03a00001, 0x1afffffc,
				 0xeb000001, 0xeafffffa, 0xe320f000, 0xe12fff1e };

static struct etm_cov *one_range(const struct etm_image *img)
{
	struct etm_cov *c = etm_cov_alloc();
	const struct etm_elem e = { .kind = etmk_range,
				    .id = 0x10,
				    .isa = etmi_a32,
				    .start = 0x1000,
				    .end = 0x100c,
				    .ninsn = 3,
				    .last_addr = 0x1008,
				    .last_exec = 1,
				    .last_atom = 1 };

	if (c && (etm_cov_set_source(c, 0x10, etm_proto_etmv3, img) ||
		  etm_cov_add_elems(c, &e, 1) || etm_cov_end(c))) {
		etm_cov_free(c);
		return NULL;
	}
	return c;
}

static void t_long_line_and_error(void)
{
	struct etm_image *img = etm_image_alloc();
	static struct etest_sink k;
	struct covout o;
	struct etm_cov *cov;
	uint8_t b[sizeof(prog)];
	char name[701], line[800];
	size_t i;
	int calls;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(prog[i / 4] >> (8 * (i % 4)));
	memset(name, 'f', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	ET_CHECK(img);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b)), 0);
	ET_EQ(etm_image_name_last(img, name), 0);
	memset(&o, 0, sizeof(o));
	cov = one_range(img);
	ET_CHECK(cov);
	o.cov = cov;
	o.img = img;
	o.write = etest_sink_write;
	o.write_ctx = &k;
	ET_EQ(cov_write_ranges(&o), 0);
	snprintf(line, sizeof(line), "\nregion 00001000-0000101c 12/28 3 %s\n",
		 name);
	ET_CHECK(strstr(k.buf, line) != NULL);
	calls = k.calls;
	ET_CHECK(calls > 3);
	/* the same report with the second write failing */
	memset(&k, 0, sizeof(k));
	k.fail_at = 2;
	memset(&o.err, 0, sizeof(o.err));
	ET_EQ(cov_write_ranges(&o), -etme_io);
	ET_EQ(k.calls, 2); /* nothing after the failed write */
	etm_cov_free(cov);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t_long_line_and_error);
	return etest_end();
}
