/* tests/fuzz/test-linear.c - loaders in linear time and proportional
 * memory on hostile input (issue 12): an ELF file with many small
 * executable segments in descending address order (was a memmove per
 * segment: quadratic), a snapshot with many devices and a long trace.ini
 * (was a scan of trace.ini per source: devices x entries), and the .ini
 * parser's memory (was two allocations per entry: ~25x the text). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/snapshot.h>

#if defined(__SANITIZE_ADDRESS__)
#define LIN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIN_ASAN 1
#endif
#endif
#ifdef LIN_ASAN
/* the sanitizer runtime's count (compiler-rt allocator_interface.h, which
 * gcc does not install) */
size_t __sanitizer_get_current_allocated_bytes(void);
#else
#include <malloc.h>
#endif

#include "etest.h"
#include "linear.h"
#include "load/ini.h"

static int put_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(p, 1, n, f) == n;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

static void le16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void le32(uint8_t *p, uint32_t v)
{
	le16(p, v & 0xffff);
	le16(p + 2, v >> 16);
}

/* ELF32 ARM executable with @n PT_LOAD R+X segments of 4 bytes (a NOP
 * each), segment i at 0x10000 + 8 * (n - 1 - i): descending, disjoint.
 * e_phnum = PN_XNUM (0xffff) with the count in section header 0's sh_info
 * (gABI "Extended program header numbering"). */
static uint8_t *elf_segments(size_t n, uint32_t base, size_t *size)
{
	size_t phoff = 52, shoff = phoff + 32 * n, data = shoff + 40, i;
	uint8_t *f;

	*size = data + 4 * n;
	f = calloc(1, *size);
	if (!f)
		return NULL;
	memcpy(f, "\177ELF\1\1\1", 7);
	le16(f + 16, 2);  /* ET_EXEC */
	le16(f + 18, 40); /* EM_ARM */
	le32(f + 20, 1);
	le32(f + 28, (uint32_t)phoff);
	le32(f + 32, (uint32_t)shoff);
	le16(f + 40, 52);
	le16(f + 42, 32);
	le16(f + 44, n < 0xffff ? (unsigned)n : 0xffff);
	le16(f + 46, 40);
	le16(f + 48, 1);                   /* e_shnum: section 0 only */
	le32(f + shoff + 28, (uint32_t)n); /* sh_info: the real e_phnum */
	for (i = 0; i < n; i++) {
		uint8_t *ph = f + phoff + 32 * i;

		le32(ph, 1);                                    /* PT_LOAD */
		le32(ph + 4, (uint32_t)(data + 4 * i));         /* p_offset */
		le32(ph + 8, base + 8 * (uint32_t)(n - 1 - i)); /* p_vaddr */
		le32(ph + 16, 4);                               /* p_filesz */
		le32(ph + 20, 4);                               /* p_memsz */
		le32(ph + 24, 5);                               /* R | X */
		le32(f + data + 4 * i, 0xe1a00000);             /* MOV r0,r0 */
	}
	return f;
}

struct lin_elf {
	char path[2][64];
};

static void load_elf(void *vctx, unsigned scale, unsigned reps)
{
	struct lin_elf *l = vctx;
	char err[256];
	unsigned r;

	for (r = 0; r < reps; r++) {
		struct etm_image *img = etm_image_alloc();

		etm_image_add_elf(img, l->path[scale == 4], 0, err, sizeof(err));
		etm_image_free(img);
	}
}

/* Many small segments, in descending order: O(n log n) and every one
 * readable; a segment ending past 2^32 is refused. */
static void t_elf_segments(void)
{
	static const size_t nseg[2] = { 2048, 8192 };
	struct lin_elf l;
	struct etm_image *img = etm_image_alloc();
	char err[256];
	uint8_t *f, b[4];
	size_t size, k;

	ET_CHECK(img);
	for (k = 0; k < 2; k++) {
		snprintf(l.path[k], sizeof(l.path[k]), "/tmp/etm-lin-elf%zu.%d",
			 k, (int)getpid());
		f = elf_segments(nseg[k], 0x10000, &size);
		ET_CHECK(f && put_file(l.path[k], f, size) == 0);
		free(f);
	}
	ET_EQ(etm_image_add_elf(img, l.path[1], 0, err, sizeof(err)), 8192);
	ET_EQ(etm_image_count(img), 8192);
	for (k = 0; k < 8192; k += 1021)
		ET_EQ(etm_image_read(img, etm_space_any, 0x10000 + 8 * k, b, 4), 4);
	ET_EQ(etm_image_read(img, etm_space_any, 0x10004, b, 4), 0);
	ET_CHECK(lin_check("ELF segments", load_elf, &l));
	etm_image_free(img);
	/* segment 0 at 0xFFFFFFFE ends at 0x100000002: past 2^32 */
	img = etm_image_alloc();
	f = elf_segments(2, 0xFFFFFFF6u, &size);
	ET_CHECK(img && f && put_file(l.path[0], f, size) == 0);
	ET_EQ(etm_image_add_elf(img, l.path[0], 0, err, sizeof(err)),
	      -etme_parse);
	ET_CHECK(strstr(err, "beyond the 32-bit address space") != NULL);
	ET_EQ(etm_image_count(img), 0);
	free(f);
	etm_image_free(img);
	unlink(l.path[0]);
	unlink(l.path[1]);
}

/* Snapshot with 64 * scale ETM devices and a trace.ini of 262000 * scale
 * entries "c=x" in [core_trace_sources], at /tmp/etm-lin-snapS.PID. */
static int big_links(const char *dir, unsigned scale)
{
	char path[256];
	unsigned ndev = 64 * scale, k;
	size_t nent = (size_t)262000 * scale, i; /* 4 MiB at most */
	FILE *f;

	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/snapshot.ini", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "[snapshot]\nversion=1.0\n[device_list]\n");
	for (k = 0; k < ndev; k++)
		fprintf(f, "d%u=etm%u.ini\n", k, k);
	fprintf(f, "[trace]\nmetadata=trace.ini\n");
	fclose(f);
	for (k = 0; k < ndev; k++) {
		snprintf(path, sizeof(path), "%s/etm%u.ini", dir, k);
		f = fopen(path, "w");
		if (!f)
			return -1;
		fprintf(f, "[device]\nname=ETM_%u\nclass=trace_source\n"
			   "type=ETM3.5\n[regs]\nETMTRACEIDR=0x%x\n",
			k,
			k % 111 + 1);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/trace.ini", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "[trace_buffers]\nbuffers=b\n[b]\nname=B\nfile=t.bin\n"
		   "[core_trace_sources]\n");
	for (i = 0; i < nent; i++)
		fputs("c=x\n", f);
	fclose(f);
	return 0;
}

static void rm_links(const char *dir, unsigned scale)
{
	char path[256];
	unsigned k;

	for (k = 0; k < 64 * scale; k++) {
		snprintf(path, sizeof(path), "%s/etm%u.ini", dir, k);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/snapshot.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/trace.ini", dir);
	unlink(path);
	rmdir(dir);
}

struct lin_snap {
	char dir[2][64];
};

static void load_snap(void *vctx, unsigned scale, unsigned reps)
{
	struct lin_snap *l = vctx;
	struct etm_snapshot *s;
	char err[256];
	unsigned r;

	for (r = 0; r < reps; r++)
		if (etm_snapshot_load(&s, l->dir[scale == 4], err,
				      sizeof(err)) == 0)
			etm_snapshot_free(s);
}

/* 64 -> 256 devices and 1 -> 4 MiB of trace.ini together: linear (a scan
 * of trace.ini per source made this 16x). */
static void t_snapshot_links(void)
{
	struct lin_snap l;
	struct etm_snapshot *s;
	char err[256];
	unsigned k;

	for (k = 0; k < 2; k++) {
		snprintf(l.dir[k], sizeof(l.dir[k]), "/tmp/etm-lin-snap%u.%d",
			 k, (int)getpid());
		ET_EQ(big_links(l.dir[k], k ? 4 : 1), 0);
	}
	ET_EQ(etm_snapshot_load(&s, l.dir[1], err, sizeof(err)), 0);
	ET_EQ(s->nsources, 256);
	etm_snapshot_free(s);
	ET_CHECK(lin_check("snapshot devices x trace.ini", load_snap, &l));
	rm_links(l.dir[0], 1);
	rm_links(l.dir[1], 4);
}

static size_t allocated(void)
{
#ifdef LIN_ASAN
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd; /* heap and mmapped blocks */
#endif
}

/* 4 MiB of the shortest entries ("c=x"): the parsed file holds at most
 * 12 bytes per byte of text (one copy of the text + 32 bytes per entry of
 * at least 4 bytes, growth by doubling: 9x) where two allocations per
 * entry took ~25x. */
static void t_ini_memory(void)
{
	size_t n = ETM_INI_MAX_SIZE - 64, i, before;
	char *text = malloc(n);
	struct etm_ini *ini = NULL;
	char err[128];

	ET_CHECK(text);
	memcpy(text, "[s]\n", 4);
	for (i = 4; i + 4 <= n; i += 4)
		memcpy(text + i, "c=x\n", 4);
	before = allocated();
	ET_EQ(etm_ini_parse(&ini, "big.ini", text, i, err, sizeof(err)), 0);
	ET_CHECK(ini && ini->nentries == i / 4 - 1);
	if (getenv("ETM_LIMITS_VERBOSE"))
		printf("  %zu bytes of .ini: %zu bytes allocated\n", i,
		       allocated() - before);
	ET_CHECK(allocated() - before <= 12 * i);
	etm_ini_free(ini);
	free(text);
}

int main(void)
{
	ETEST(t_elf_segments);
	ETEST(t_snapshot_links);
	ETEST(t_ini_memory);
	return etest_end();
}
