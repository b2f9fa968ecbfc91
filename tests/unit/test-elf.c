/* tests/unit/test-elf.c - ELF loader: the am243x FreeRTOS image against its
 * segment dumps, a hand-built 64-bit ELF, and broken files. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>

#include "etest.h"

static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long sz;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(sz > 0 ? (size_t)sz : 1);
	if (p && fread(p, 1, (size_t)sz, f) != (size_t)sz) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*n = (size_t)sz;
	return p;
}

static int write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	fwrite(p, 1, n, f);
	fclose(f);
	return 0;
}

/* Compare the image at @addr with the whole of dump file @rel. */
static int image_matches(const struct etm_image *img, uint64_t addr,
			 const char *rel)
{
	char path[512];
	uint8_t *want, *got;
	size_t n;
	int ok;

	if (!etest_shared(rel, path, sizeof(path))) {
		etest_skip(rel);
		return 1; /* counted as a skip, not as a mismatch */
	}
	want = read_all(path, &n);
	got = malloc(n);
	ok = want && got &&
	     etm_image_read(img, etm_space_any, addr, got, n) == n &&
	     !memcmp(want, got, n);
	free(want);
	free(got);
	return ok;
}

/*
 * `readelf -l freertos.out`:
 *   LOAD off 0x000038 vaddr 0x00000000 filesz 0x00040 R E  (.vectors)
 *   LOAD off 0x000080 vaddr 0x70080000 filesz 0x00000 RW   (.bss)
 *   LOAD off 0x000080 vaddr 0x70099300 filesz 0x18058 R E  (.text*)
 *   LOAD off 0x0180e0 vaddr 0x700b1360 filesz 0x01310 R    (.rodata)
 *   LOAD off 0x0193f0 vaddr 0x700b2670 filesz 0x003f0 RW   (.data)
 *   LOAD off 0x0197e0 vaddr 0x700b2a60 filesz 0x00000 R    (stacks)
 * so two executable segments are loaded: 0x40 bytes at 0 (= the shipped
 * dump mem_00000000.bin, 64 bytes) and 0x18058 bytes at 0x70099300
 * (= mem_70099300.bin, 98392 = 0x18058 bytes). .rodata/.data are not.
 */
static void elf_freertos(void)
{
	struct etm_image *img;
	char path[512], err[256];
	uint8_t b[4];
	enum etm_space sp;
	uint64_t addr, size;
	const char *name;

	if (!etest_shared("snapshots/am243x-freertos-1/freertos.out", path,
			  sizeof(path))) {
		etest_skip("am243x-freertos-1 not found");
		return;
	}
	img = etm_image_alloc();
	ET_CHECK(img);
	ET_EQ(etm_image_add_elf(img, path, 0, err, sizeof(err)), 2);
	ET_EQ(etm_image_count(img), 2);
	ET_EQ(etm_image_region(img, 1, &sp, &addr, &size, &name), 0);
	ET_EQ(addr, 0x70099300);
	ET_EQ(size, 0x18058);
	ET_CHECK(name && strstr(name, "freertos.out"));
	ET_CHECK(image_matches(img, 0, "snapshots/am243x-freertos-1/"
				       "mem_00000000.bin"));
	ET_CHECK(image_matches(img, 0x70099300, "snapshots/am243x-freertos-1/"
						"mem_70099300.bin"));
	ET_EQ(etm_image_read(img, etm_space_any, 0x700b1360, b, 4), 0);
	ET_EQ(etm_image_read(img, etm_space_any, 0x700b2670, b, 4), 0);
	etm_image_free(img);

	/* with a bias everything moves by it */
	img = etm_image_alloc();
	ET_EQ(etm_image_add_elf(img, path, 0x1000, err, sizeof(err)), 2);
	ET_CHECK(image_matches(img, 0x7009a300, "snapshots/am243x-freertos-1/"
						"mem_70099300.bin"));
	ET_EQ(etm_image_read(img, etm_space_any, 0x70099300, b, 4), 0);
	etm_image_free(img);
}

/* The first @keep bytes of freertos.out: header intact, program headers
 * (at 865860) cut off, or even the header itself cut. */
static void elf_truncated(void)
{
	static const size_t keep[] = { 20, 52, 4096, 865860 + 10 };
	char path[512], tmp[] = "/tmp/etm-elf-XXXXXX", err[256];
	struct etm_image *img = etm_image_alloc();
	uint8_t *buf;
	size_t n, i;
	int fd;

	ET_CHECK(img);
	if (!etest_shared("snapshots/am243x-freertos-1/freertos.out", path,
			  sizeof(path))) {
		etest_skip("am243x-freertos-1 not found");
		etm_image_free(img);
		return;
	}
	buf = read_all(path, &n);
	ET_CHECK(buf);
	fd = mkstemp(tmp);
	ET_CHECK(fd >= 0);
	close(fd);
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		ET_CHECK(keep[i] < n);
		ET_EQ(write_file(tmp, buf, keep[i]), 0);
		err[0] = 0;
		ET_EQ(etm_image_add_elf(img, tmp, 0, err, sizeof(err)),
		      -etme_parse);
		ET_CHECK(strstr(err, tmp));
	}
	ET_EQ(etm_image_count(img), 0);
	unlink(tmp);
	free(buf);
	etm_image_free(img);
}

/* A 64-bit AArch64 ELF built by hand: header (64 bytes) + 2 program headers
 * (2 x 56) + 8 code bytes at file offset 176. Segment 0: PT_LOAD R+X at
 * 0x400000, 8 bytes (nop = d503201f, ret = d65f03c0, little endian);
 * segment 1: PT_LOAD R only -> skipped. */
struct elf64_file {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	uint8_t code[8];
};

static void build_elf64(struct elf64_file *f)
{
	static const uint8_t code[8] = { 0x1f, 0x20, 0x03, 0xd5,
					 0xc0, 0x03, 0x5f, 0xd6 };

	memset(f, 0, sizeof(*f));
	memcpy(f->eh.e_ident, ELFMAG, SELFMAG);
	f->eh.e_ident[EI_CLASS] = ELFCLASS64;
	f->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	f->eh.e_ident[EI_VERSION] = EV_CURRENT;
	f->eh.e_type = ET_EXEC;
	f->eh.e_machine = EM_AARCH64;
	f->eh.e_version = EV_CURRENT;
	f->eh.e_phoff = sizeof(Elf64_Ehdr);
	f->eh.e_ehsize = sizeof(Elf64_Ehdr);
	f->eh.e_phentsize = sizeof(Elf64_Phdr);
	f->eh.e_phnum = 2;
	f->ph[0].p_type = PT_LOAD;
	f->ph[0].p_flags = PF_R | PF_X;
	f->ph[0].p_offset = 176;
	f->ph[0].p_vaddr = 0x400000;
	f->ph[0].p_filesz = 8;
	f->ph[0].p_memsz = 8;
	f->ph[1] = f->ph[0];
	f->ph[1].p_flags = PF_R;
	f->ph[1].p_vaddr = 0x500000;
	memcpy(f->code, code, 8);
}

static void elf_64bit(void)
{
	char tmp[] = "/tmp/etm-elf-XXXXXX", err[256];
	struct etm_image *img = etm_image_alloc();
	struct elf64_file f;
	uint8_t b[8];
	int fd;

	ET_CHECK(img);
	ET_EQ(sizeof(f), 184);
	fd = mkstemp(tmp);
	ET_CHECK(fd >= 0);
	close(fd);
	build_elf64(&f);
	ET_EQ(write_file(tmp, &f, sizeof(f)), 0);
	ET_EQ(etm_image_add_elf(img, tmp, 0x1000, err, sizeof(err)), 1);
	ET_EQ(etm_image_read(img, etm_space_any, 0x401000, b, 8), 8);
	ET_CHECK(!memcmp(b, f.code, 8));
	ET_EQ(etm_image_read(img, etm_space_any, 0x501000, b, 8), 0);
	/* segment data running past the end of the file */
	f.ph[0].p_filesz = 9;
	ET_EQ(write_file(tmp, &f, sizeof(f)), 0);
	ET_EQ(etm_image_add_elf(img, tmp, 0, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, "beyond"));
	/* not an ARM machine */
	build_elf64(&f);
	f.eh.e_machine = EM_X86_64;
	ET_EQ(write_file(tmp, &f, sizeof(f)), 0);
	ET_EQ(etm_image_add_elf(img, tmp, 0, err, sizeof(err)), -etme_parse);
	ET_EQ(etm_image_count(img), 1);
	unlink(tmp);
	etm_image_free(img);
}

static void elf_not_elf(void)
{
	char tmp[] = "/tmp/etm-elf-XXXXXX", err[256];
	struct etm_image *img = etm_image_alloc();
	int fd;

	ET_CHECK(img);
	fd = mkstemp(tmp);
	ET_CHECK(fd >= 0);
	close(fd);
	ET_EQ(etm_image_add_elf(img, tmp, 0, err, sizeof(err)), -etme_parse);
	ET_EQ(write_file(tmp, "[snapshot]\nversion=1.0\n", 23), 0);
	ET_EQ(etm_image_add_elf(img, tmp, 0, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, "not an ELF"));
	unlink(tmp);
	ET_EQ(etm_image_add_elf(img, "/nonexistent/x.elf", 0, err,
				sizeof(err)),
	      -etme_io);
	ET_CHECK(strstr(err, "/nonexistent/x.elf"));
	ET_EQ(etm_image_add_elf(img, "/tmp", 0, NULL, 0), -etme_parse);
	ET_EQ(etm_image_add_elf(NULL, "/tmp", 0, NULL, 0), -etme_invalid);
	ET_EQ(etm_image_count(img), 0);
	etm_image_free(img);
}

int main(void)
{
	ETEST(elf_freertos);
	ETEST(elf_truncated);
	ETEST(elf_64bit);
	ETEST(elf_not_elf);
	return etest_end();
}
