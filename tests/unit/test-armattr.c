/* tests/unit/test-armattr.c - ARM build attributes (.ARM.attributes) read
 * from byte blobs derived by hand from the ABI addenda (ARM IHI 0045,
 * "Build attributes": 'A', subsections of length + vendor, file-scope sets
 * of tag byte + size, ULEB128 tags and values, strings for tags 4, 5, 67
 * and odd tags above 32), the am243x ELF against what
 * `arm-none-eabi-readelf -A` prints for it, and the table test of the
 * trace each core can have: never PTM on an R- or M-profile core, never
 * ETMv1 on ARMv7, the ETM version the core's macrocell has. */
#include <stdio.h>
#include <string.h>

#include <etmtrace/config.h>
#include <etmtrace/core.h>
#include <etmtrace/error.h>

#include "etest.h"

/* GCC -mcpu=cortex-r5 style: one "aeabi" subsection, one file set.
 * attrs: 05 "cortex-r5\0" (11 bytes), 06 0a (v7), 07 52 ('R'), 08 01
 * (ARM ISA), 09 02 (Thumb-2), 20 01 "gnu\0" (Tag_compatibility, 6), 2c 02
 * (Tag_DIV_use, even tag >= 32: ULEB128), 43 "2.09\0" (Tag_conformance,
 * 6), 81 01 "x\0" (tag 129: odd above 32, a string, 4) = 37 bytes; file
 * set 5 + 37 = 42 (0x2a); subsection 4 + 6 + 42 = 52 (0x34). */
static const uint8_t blob_r5[] = {
	'A',
	0x34,
	0,
	0,
	0,
	'a',
	'e',
	'a',
	'b',
	'i',
	0,
	0x01,
	0x2a,
	0,
	0,
	0,
	0x05,
	'c',
	'o',
	'r',
	't',
	'e',
	'x',
	'-',
	'r',
	'5',
	0,
	0x06,
	0x0a,
	0x07,
	0x52,
	0x08,
	0x01,
	0x09,
	0x02,
	0x20,
	0x01,
	'g',
	'n',
	'u',
	0,
	0x2c,
	0x02,
	0x43,
	'2',
	'.',
	'0',
	'9',
	0,
	0x81,
	0x01,
	'x',
	0,
};

/* The same core, big-endian lengths, after a "TI" vendor subsection (as
 * in the am243x ELF: skipped) and with a section-scope set (tag 2: size,
 * a 0-terminated ULEB128 section list, attributes) saying v4 that must not
 * count. TI: 4 + 3 + 3 = 10; section set 5 + 2 (03 00) + 2 (06 01) = 9;
 * file set 5 + 2 (06 0a) + 2 (07 52) + 2 (09 02) = 11; aeabi 4 + 6 + 9 + 11
 * = 30 (0x1e). */
static const uint8_t blob_be[] = {
	'A',
	0,
	0,
	0,
	10,
	'T',
	'I',
	0,
	0x01,
	0x02,
	0x03,
	0,
	0,
	0,
	0x1e,
	'a',
	'e',
	'a',
	'b',
	'i',
	0,
	0x02,
	0,
	0,
	0,
	9,
	0x03,
	0x00,
	0x06,
	0x01,
	0x01,
	0,
	0,
	0,
	11,
	0x06,
	0x0a,
	0x07,
	0x52,
	0x09,
	0x02,
};

/* What arm-none-eabi-gcc 13 writes for -mcpu=cortex-r5 (`readelf -x
 * .ARM.attributes`), and what `readelf -A` says of it: Tag_CPU_name "7-R",
 * Tag_CPU_arch v7, Tag_CPU_arch_profile Realtime, Tag_ARM_ISA_use Yes,
 * Tag_THUMB_ISA_use Thumb-2, then eleven more ULEB128 attributes. */
static const uint8_t blob_gcc[] = {
	0x41,
	0x30,
	0x00,
	0x00,
	0x00,
	0x61,
	0x65,
	0x61,
	0x62,
	0x69,
	0x00,
	0x01,
	0x26,
	0x00,
	0x00,
	0x00,
	0x05,
	0x37,
	0x2d,
	0x52,
	0x00,
	0x06,
	0x0a,
	0x07,
	0x52,
	0x08,
	0x01,
	0x09,
	0x02,
	0x12,
	0x04,
	0x14,
	0x01,
	0x15,
	0x01,
	0x17,
	0x03,
	0x18,
	0x01,
	0x19,
	0x01,
	0x1a,
	0x01,
	0x1e,
	0x06,
	0x22,
	0x01,
	0x2c,
	0x02,
};

static void test_blob_gcc(void)
{
	struct etm_arm_attrs a;
	struct etm_core_trace t;

	ET_EQ(etm_arm_attrs_parse(blob_gcc, sizeof(blob_gcc), 0, &a), 0);
	ET_EQ(a.found, 1);
	ET_CHECK(!strcmp(a.cpu_name, "7-R"));
	ET_EQ(a.cpu_arch, 10);
	ET_EQ(a.profile, 'R');
	ET_EQ(a.arm_isa, 1);
	ET_EQ(a.thumb_isa, 2);
	/* not a core name: the ARMv7-R rule, ETMv3.3 and no PTM */
	ET_EQ(etm_core_trace_from_attrs(&a, &t), 0);
	ET_EQ(t.known, 0);
	ET_EQ(t.protocols, ETM_CORE_ETMV3);
	ET_EQ(t.etmidr, 0x4104F230u);
}

static void test_blob_r5(void)
{
	struct etm_arm_attrs a;

	ET_EQ(etm_arm_attrs_parse(blob_r5, sizeof(blob_r5), 0, &a), 0);
	ET_EQ(a.found, 1);
	ET_CHECK(!strcmp(a.cpu_name, "cortex-r5"));
	ET_EQ(a.cpu_arch, 10);
	ET_EQ(a.profile, 'R');
	ET_EQ(a.arm_isa, 1);
	ET_EQ(a.thumb_isa, 2);
}

static void test_blob_be(void)
{
	struct etm_arm_attrs a;

	ET_EQ(etm_arm_attrs_parse(blob_be, sizeof(blob_be), 1, &a), 0);
	ET_EQ(a.found, 1);
	ET_EQ(a.cpu_name[0], 0);
	ET_EQ(a.cpu_arch, 10); /* not the section set's 1 */
	ET_EQ(a.profile, 'R');
	ET_EQ(a.arm_isa, -1);
	ET_EQ(a.thumb_isa, 2);
	/* read little-endian, the TI length is 0x0a000000: past the end */
	ET_EQ(etm_arm_attrs_parse(blob_be, sizeof(blob_be), 0, &a), -etme_parse);
}

static void test_blob_bad(void)
{
	uint8_t b[sizeof(blob_r5)];
	struct etm_arm_attrs a;
	size_t n;

	/* every cut of the section is malformed, never read past its end */
	for (n = 2; n < sizeof(blob_r5); n++)
		ET_EQ(etm_arm_attrs_parse(blob_r5, n, 0, &a), -etme_parse);
	memcpy(b, blob_r5, sizeof(b));
	b[0] = 'B'; /* format version */
	ET_EQ(etm_arm_attrs_parse(b, sizeof(b), 0, &a), -etme_parse);
	memcpy(b, blob_r5, sizeof(b));
	b[12] = 0x2b; /* file set one byte longer than its subsection */
	ET_EQ(etm_arm_attrs_parse(b, sizeof(b), 0, &a), -etme_parse);
	memcpy(b, blob_r5, sizeof(b));
	b[sizeof(b) - 1] = 'y'; /* the last string unterminated */
	ET_EQ(etm_arm_attrs_parse(b, sizeof(b), 0, &a), -etme_parse);
	ET_EQ(etm_arm_attrs_parse(NULL, 0, 0, &a), 0);
	ET_EQ(a.found, 0);
	ET_EQ(etm_arm_attrs_parse(blob_r5, sizeof(blob_r5), 0, NULL), -etme_invalid);
}

/* `arm-none-eabi-readelf -A freertos.out`: Attribute Section: TI (unknown),
 * aeabi: Tag_CPU_name "cortex-r5", Tag_CPU_arch v7, Tag_CPU_arch_profile
 * Realtime, Tag_ARM_ISA_use Yes, Tag_THUMB_ISA_use Thumb-2. */
static void test_elf_am243x(void)
{
	struct etm_arm_attrs a;
	char path[512], err[200];

	if (!etest_shared("snapshots/am243x-freertos-1/freertos.out", path,
			  sizeof(path))) {
		etest_skip("am243x freertos.out");
		return;
	}
	ET_EQ(etm_elf_arm_attrs(path, &a, err, sizeof(err)), 0);
	ET_EQ(a.found, 1);
	ET_CHECK(!strcmp(a.cpu_name, "cortex-r5"));
	ET_EQ(a.cpu_arch, 10);
	ET_EQ(a.profile, 'R');
	ET_EQ(a.arm_isa, 1);
	ET_EQ(a.thumb_isa, 2);
	ET_EQ(etm_elf_arm_attrs("/nonexistent.elf", &a, err, sizeof(err)), -etme_io);
}

static struct etm_core_trace core_of(const char *name, int arch, int prof)
{
	struct etm_arm_attrs a = { sizeof(a), 1, "", arch, prof, 1, -1 };
	struct etm_core_trace t;

	snprintf(a.cpu_name, sizeof(a.cpu_name), "%s", name);
	etm_core_trace_from_attrs(&a, &t);
	return t;
}

/* ETMIDR major.minor of @idr as 10 * major + minor (ETMv3.3: 33). */
static int idr_version(uint32_t idr)
{
	return (int)(((idr >> 8) & 15) + 1) * 10 + (int)((idr >> 4) & 15);
}

/* Every architecture and profile, with no name and with each known name:
 * the rules of doc/inference.md. */
static void test_core_rules(void)
{
	static const char *const names[] = {
		"", "cortex-r5", "Cortex-R4F", "cortex-m3", "cortex-m4",
		"cortex-a15", "cortex-a9", "cortex-a7", "cortex-a8",
		"arm926ej-s", "arm7tdmi", "arm1176jzf-s", "unknown-core"
	};
	static const int profs[] = { 0, 'A', 'R', 'M', 'S' };
	size_t i, j;
	int arch;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (arch = -1; arch <= 22; arch++)
			for (j = 0; j < sizeof(profs) / sizeof(profs[0]); j++) {
				struct etm_core_trace t = core_of(names[i], arch, profs[j]);
				int rm = strstr(names[i], "-r") || strstr(names[i], "-R") ||
					 strstr(names[i], "-m");
				int v7 = !strncmp(names[i], "cortex", 6) ||
					 !strncmp(names[i], "Cortex", 6);

				/* PTM only on an ARMv7-A core: never on a named R or
				 * M core, nor by the tags on R, M or not ARMv7 */
				if (rm || (!t.known && (profs[j] == 'R' ||
							profs[j] == 'M' || arch != 10)))
					ET_CHECK(!(t.protocols & ETM_CORE_PTM));
				/* ETMv1 only on ARMv4T/v5: never on a Cortex, nor by
				 * the tags on ARMv6 and later */
				if (v7 || (!t.known && arch >= 6))
					ET_CHECK(!(t.protocols & ETM_CORE_ETMV1));
				if (t.protocols & ETM_CORE_ETMV3)
					ET_EQ((t.etmidr >> 8) & 15, 2);
				if (t.protocols & ETM_CORE_PTM)
					ET_EQ((t.ptmidr >> 8) & 15, 3);
			}
}

/* Named cores: the ETM version and branch encoding their macrocell has
 * (IHI 0014Q Table 1.1; Cortex-M3 TRM DDI 0337I ETMIDR: alternative
 * encoding), whatever the architecture tags say. */
static void test_core_names(void)
{
	struct etm_core_trace t;

	t = core_of("cortex-r5", 10, 'R');
	ET_EQ(t.protocols, ETM_CORE_ETMV3);
	ET_EQ(idr_version(t.etmidr), 33);
	ET_EQ((t.etmidr >> 20) & 1, 0);
	ET_EQ(t.m_profile, 0);
	ET_EQ(t.thumb2, 1); /* no Tag_THUMB_ISA_use: ARMv7 has Thumb-2 */
	t = core_of("Cortex-R4F", 10, 'R');
	ET_EQ(t.known, 1);
	ET_EQ(idr_version(t.etmidr), 33);
	t = core_of("cortex-m3", 10, 'M');
	ET_EQ(t.protocols, ETM_CORE_ETMV3);
	ET_EQ(idr_version(t.etmidr), 35);
	ET_EQ((t.etmidr >> 20) & 1, 1);
	ET_EQ(t.m_profile, 1);
	t = core_of("cortex-a15", 10, 'A');
	ET_EQ(t.protocols, ETM_CORE_PTM);
	ET_EQ(t.ptmidr, 0x411CF312u); /* TC2's Cortex-A15 PTM */
	t = core_of("cortex-a7", 10, 'A');
	ET_EQ(t.protocols, ETM_CORE_ETMV3);
	ET_EQ(t.etmidr, 0x410CF250u); /* TC2's Cortex-A7 ETM */
	t = core_of("cortex-a8", 10, 'A');
	ET_EQ(idr_version(t.etmidr), 33);
	t = core_of("arm926ej-s", 5, 0);
	ET_EQ(t.protocols, ETM_CORE_ETMV1 | ETM_CORE_ETMV3);
	ET_EQ(idr_version(t.etmidr), 32); /* CoreSight ETM9 */
	ET_EQ(t.thumb2, 0);
	t = core_of("arm7tdmi", 2, 0);
	ET_EQ(t.protocols, ETM_CORE_ETMV1);
	/* no name: by architecture; ARMv7 A or R: both; ARMv8: nothing
	 * etmtrace decodes (ETMv4), no constraint */
	t = core_of("", 10, 'S');
	ET_EQ(t.protocols, ETM_CORE_ETMV3 | ETM_CORE_PTM);
	t = core_of("", 13, 'M');
	ET_EQ(t.protocols, ETM_CORE_ETMV3);
	ET_EQ(t.m_profile, 1);
	t = core_of("", 14, 'A');
	ET_EQ(t.protocols, 0);
	t = core_of("", -1, 0);
	ET_EQ(t.protocols, 0);
}

int main(void)
{
	etest_run("blob_r5", test_blob_r5);
	etest_run("blob_gcc", test_blob_gcc);
	etest_run("blob_be", test_blob_be);
	etest_run("blob_bad", test_blob_bad);
	etest_run("elf_am243x", test_elf_am243x);
	etest_run("core_rules", test_core_rules);
	etest_run("core_names", test_core_names);
	return etest_end();
}
