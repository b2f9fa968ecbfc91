/* tests/fuzz/fuzz-elf.c - fuzz target for the ELF program loader: the input
 * is written to a temporary file and loaded; loaded regions must come from
 * the file's bytes. Its build attributes are read too (etm_elf_arm_attrs()),
 * and the input itself as an attribute section (etm_arm_attrs_parse()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/core.h>
#include <etmtrace/error.h>
#include <etmtrace/image.h>

#include "fuzz.h"

static char elf_tmp[64];

static void elf_cleanup(void)
{
	unlink(elf_tmp);
}

/* The input file, created once per process (tmpfs when there is). */
static FILE *elf_file(void)
{
	static FILE *f;
	int fd;

	if (f)
		return f;
	snprintf(elf_tmp, sizeof(elf_tmp), "/dev/shm/etmfz-elf.XXXXXX");
	fd = mkstemp(elf_tmp);
	if (fd < 0) {
		snprintf(elf_tmp, sizeof(elf_tmp), "/tmp/etmfz-elf.XXXXXX");
		fd = mkstemp(elf_tmp);
	}
	FZ_ASSERT(fd >= 0);
	f = fdopen(fd, "w+b");
	FZ_ASSERT(f);
	atexit(elf_cleanup);
	return f;
}

/* Whether the 4 bytes at @p occur in @data. */
static int found4(const uint8_t *data, size_t size, const uint8_t *p)
{
	size_t i;

	for (i = 0; i + 4 <= size; i++)
		if (!memcmp(data + i, p, 4))
			return 1;
	return 0;
}

static void check_regions(const struct etm_image *img, const uint8_t *data,
			  size_t size)
{
	size_t i, n = etm_image_count(img), total = 0;

	for (i = 0; i < n; i++) {
		enum etm_space sp;
		uint64_t addr, len;
		const char *name;
		const uint8_t *p;

		FZ_ASSERT(etm_image_region(img, i, &sp, &addr, &len,
					   &name) == 0);
		FZ_ASSERT(len > 0 && len <= size);
		total += len;
		/* the first bytes of a region are bytes of the file */
		if (len >= 4 && etm_image_peek(img, sp, addr, &p) >= 4)
			FZ_ASSERT(found4(data, size, p));
	}
	/* memory stays linear in the input size */
	FZ_ASSERT(total <= 4 * size + 4096);
}

/* The build attributes of the file and of the bytes as a section: a
 * result or a parse error, names terminated, a core whose ETMv3 or PTM
 * ETMIDR names that protocol. */
static void check_attrs(const uint8_t *data, size_t size)
{
	struct etm_arm_attrs a;
	struct etm_core_trace t;
	char err[256];
	int rc, big;

	err[0] = 0;
	rc = etm_elf_arm_attrs(elf_tmp, &a, err, sizeof(err));
	FZ_ASSERT(rc == 0 || ((rc == -etme_parse || rc == -etme_io) && err[0]));
	for (big = 0; big < 2; big++) {
		rc = etm_arm_attrs_parse(data, size, big, &a);
		FZ_ASSERT(rc == 0 || rc == -etme_parse);
		FZ_ASSERT(memchr(a.cpu_name, 0, sizeof(a.cpu_name)));
		FZ_ASSERT(etm_core_trace_from_attrs(&a, &t) == 0);
		FZ_ASSERT(!(t.protocols & ETM_CORE_ETMV3) || ((t.etmidr >> 8) & 15) == 2);
		FZ_ASSERT(!(t.protocols & ETM_CORE_PTM) || ((t.ptmidr >> 8) & 15) == 3);
		FZ_ASSERT(memchr(t.what, 0, sizeof(t.what)));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = elf_file();
	struct etm_image *img;
	char err[256];
	int rc;

	FZ_ASSERT(fseek(f, 0, SEEK_SET) == 0);
	FZ_ASSERT(ftruncate(fileno(f), 0) == 0);
	FZ_ASSERT(fwrite(data, 1, size, f) == size);
	FZ_ASSERT(fflush(f) == 0);
	img = etm_image_alloc();
	FZ_ASSERT(img);
	err[0] = 0;
	rc = etm_image_add_elf(img, elf_tmp, 0x1000, err, sizeof(err));
	if (rc < 0)
		FZ_ASSERT((rc == -etme_parse || rc == -etme_nomem ||
			   rc == -etme_io) &&
			  err[0]);
	else
		FZ_ASSERT((size_t)rc == etm_image_count(img));
	check_regions(img, data, size);
	etm_image_free(img);
	check_attrs(data, size);
	return 0;
}
