/* tests/unit/test-perfdata.c - the perf.data reader (etmtrace/perfdata.h)
 * on files built here byte by byte from the layout in the kernel's
 * perf.data-file-format.txt and tools/perf/util/cs-etm.h (not by our
 * writer): the cs_etm metadata of header versions 0, 1 and 2 in both byte
 * orders, an ETMv4 block stepped over and never read as ETMv3, and
 * malformed files (wrong magic, short header, records past the data
 * section, a zero-size record, an AUXTRACE past the end, absurd CPU
 * counts, an unknown version) refused with the offset in the message.
 *
 * The files: header (104 bytes) at 0; one attr of 64 bytes with its ids
 * section (16 bytes) at 104 (attr_size 80); the data section at 184. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>
#include <etmtrace/perfdata.h>

#include "etest.h"

#define V3 0x3030303030303030ull
#define V4 0x4040404040404040ull

struct fb {
	uint8_t b[4096];
	size_t n;
	int be;
};

static void put(struct fb *f, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		f->b[f->n + (size_t)i] = (uint8_t)(v >> (8 * (f->be ? size - 1 - i : i)));
	f->n += (size_t)size;
}

/* Header and attr; the data section's size is patched by fb_end(). */
static void fb_begin(struct fb *f, int be)
{
	memset(f, 0, sizeof(*f));
	f->be = be;
	memcpy(f->b, be ? "2ELIFREP" : "PERFILE2", 8);
	f->n = 8;
	put(f, 104, 8); /* header size */
	put(f, 80, 8);  /* attr_size */
	put(f, 104, 8); /* attrs */
	put(f, 80, 8);
	put(f, 184, 8); /* data */
	put(f, 0, 8);
	f->n = 104;
	put(f, 8, 4);          /* type */
	put(f, 64, 4);         /* size */
	put(f, 0, 8);          /* config */
	put(f, 0, 8);          /* sample_period */
	put(f, 0x82, 8);       /* sample_type: TID | CPU */
	put(f, 0, 8);          /* read_format */
	put(f, 1ull << 18, 8); /* sample_id_all */
	f->n = 184;
}

static void fb_end(struct fb *f)
{
	size_t n = f->n;

	f->n = 48;
	put(f, n - 184, 8);
	f->n = n;
}

/* An AUXTRACE_INFO record: version @ver, @ncpu, then @nw words at @w. */
static void fb_info(struct fb *f, uint64_t ver, uint64_t ncpu,
		    const uint64_t *w, size_t nw)
{
	size_t i;

	put(f, 70, 4);
	put(f, 0, 2);
	put(f, 16 + 24 + 8 * nw, 2);
	put(f, 3, 4); /* cs_etm */
	put(f, 0, 4);
	put(f, ver, 8);
	put(f, 8ull << 32 | ncpu, 8);
	put(f, 0, 8);
	for (i = 0; i < nw; i++)
		put(f, w[i], 8);
}

static char path[64];

static int fb_open(struct fb *f, struct etm_perf **p, char *err, size_t n)
{
	FILE *o = fopen(path, "wb");

	if (!o || fwrite(f->b, 1, f->n, o) != f->n || fclose(o) != 0)
		return -100;
	err[0] = 0;
	return etm_perf_open(p, path, err, n);
}

/* v1: an ETMv4 block (7 params) before an ETMv3 (PTM) one. */
static void v1_file(struct fb *f, int be)
{
	static const uint64_t w[] = { V4, 0, 7, 1, 2, 3, 4, 5, 6, 7,
				      V3, 1, 4, 0x1000, 0x12, 0x10c00000, 0x411cf312 };

	fb_begin(f, be);
	fb_info(f, 1, 2, w, sizeof(w) / sizeof(w[0]));
	fb_end(f);
}

static void t_v1_both_orders(void)
{
	struct etm_perf_rec r;
	struct etm_perf *p;
	struct fb f;
	char err[256];
	int be;

	for (be = 0; be < 2; be++) {
		const struct etm_perf_info *in;

		v1_file(&f, be);
		ET_EQ(fb_open(&f, &p, err, sizeof(err)), 0);
		in = etm_perf_info(p);
		ET_EQ(in->big_endian, be);
		ET_EQ(in->data_offset, 184);
		ET_EQ(in->sample_id_all, 1);
		ET_EQ(in->header_version, 1);
		ET_EQ(in->pmu_type, 8);
		ET_EQ(in->ncpus, 2);
		ET_CHECK(in->cpus[0].unsupported != NULL);
		ET_EQ(in->cpus[0].cfg.protocol, etm_proto_unknown);
		ET_CHECK(in->cpus[1].unsupported == NULL);
		ET_EQ(in->cpus[1].cpu, 1);
		ET_EQ(in->cpus[1].cfg.protocol, etm_proto_ptm); /* ETMIDR[11:8] = 3 */
		ET_EQ(in->cpus[1].cfg.etmcr, 0x1000);
		ET_EQ(in->cpus[1].cfg.traceid, 0x12);
		ET_EQ(in->cpus[1].cfg.etmccer, 0x10c00000);
		ET_EQ(in->cpus[1].cfg.etmidr, 0x411cf312);
		ET_EQ(etm_perf_next(p, &r, err, sizeof(err)), 0);
		ET_EQ(r.type, ETM_PERF_AUXTRACE_INFO);
		ET_EQ(r.offset, 184);
		ET_EQ(etm_perf_next(p, &r, err, sizeof(err)), -etme_eos);
		etm_perf_close(p);
	}
}

/* v0: fixed blocks (ETMv3 6 words, ETMv4 9), no parameter count. */
static void t_v0(void)
{
	static const uint64_t w[] = { V3, 0, 0x1000, 0x10, 0, 0x410cf250,
				      V4, 1, 1, 2, 3, 4, 5, 6, 7,
				      V3, 2, 0, 0x14, 0, 0x410cf250 };
	struct etm_perf *p;
	struct fb f;
	char err[256];

	fb_begin(&f, 0);
	fb_info(&f, 0, 3, w, sizeof(w) / sizeof(w[0]));
	fb_end(&f);
	ET_EQ(fb_open(&f, &p, err, sizeof(err)), 0);
	ET_EQ(etm_perf_info(p)->ncpus, 3);
	ET_EQ(etm_perf_info(p)->cpus[0].cfg.protocol, etm_proto_etmv3);
	ET_EQ(etm_perf_info(p)->cpus[0].cfg.traceid, 0x10);
	ET_CHECK(etm_perf_info(p)->cpus[1].unsupported != NULL);
	ET_EQ(etm_perf_info(p)->cpus[2].cpu, 2);
	ET_EQ(etm_perf_info(p)->cpus[2].cfg.traceid, 0x14);
	etm_perf_close(p);
}

/* v2: the trace ID flagged unused in the metadata, given by the CPU's
 * AUX_OUTPUT_HW_ID record (sample id: pid, tid, cpu, res). */
static void t_v2_hw_id(void)
{
	static const uint64_t w[] = { V3, 0, 4, 0, 0x80000010, 0, 0x410cf250 };
	struct etm_perf_rec r;
	struct etm_perf *p;
	struct fb f;
	char err[256];

	fb_begin(&f, 0);
	fb_info(&f, 2, 1, w, 7);
	put(&f, 21, 4); /* AUX_OUTPUT_HW_ID: header, hw_id, sample id */
	put(&f, 0, 2);
	put(&f, 32, 2);
	put(&f, 0x2a, 8);
	put(&f, 7, 4);
	put(&f, 7, 4);
	put(&f, 0, 4);
	put(&f, 0, 4);
	fb_end(&f);
	ET_EQ(fb_open(&f, &p, err, sizeof(err)), 0);
	ET_EQ(etm_perf_info(p)->cpus[0].id_from_hw, 1);
	ET_EQ(etm_perf_info(p)->cpus[0].cfg.traceid, 0);
	ET_EQ(etm_perf_next(p, &r, err, sizeof(err)), 0);
	ET_EQ(etm_perf_next(p, &r, err, sizeof(err)), 0);
	ET_EQ(r.type, ETM_PERF_AUX_OUTPUT_HW_ID);
	ET_EQ(r.u.hw_id, 0x2a);
	ET_EQ(r.has_cpu, 1);
	ET_EQ(r.cpu, 0);
	ET_EQ(r.pid, 7);
	etm_perf_close(p);
}

/* Malformed: @f must be refused with -etme_parse naming "@what", at open
 * or by a later record. */
static int refused(struct fb *f, const char *what)
{
	struct etm_perf *p = NULL;
	struct etm_perf_rec rec;
	char err[256];
	int r = fb_open(f, &p, err, sizeof(err)), n = 0;

	while (r == 0 && n++ < 100)
		r = etm_perf_next(p, &rec, err, sizeof(err));
	etm_perf_close(p);
	if (r != -etme_parse || !strstr(err, what)) {
		printf("  got %d '%s', want '%s'\n", r, err, what);
		return 0;
	}
	return 1;
}

static void t_malformed(void)
{
	static const uint64_t w[] = { V3, 0, 4, 0, 0x10, 0, 0x410cf250 };
	struct fb f;

	v1_file(&f, 0);
	memcpy(f.b, "PERFILE1", 8);
	ET_CHECK(refused(&f, "offset 0: not a perf.data file"));
	v1_file(&f, 0);
	f.n = 50;
	ET_CHECK(refused(&f, "offset 0: 50 bytes, too short"));
	/* a record header at 184 + 96 = 280 of size 0: would never advance */
	fb_begin(&f, 0);
	fb_info(&f, 1, 1, w, 7);
	put(&f, 3, 4);
	put(&f, 0, 2);
	put(&f, 0, 2);
	fb_end(&f);
	ET_CHECK(refused(&f, "offset 280: record of type 3 has size 0"));
	/* a record running past the data section */
	f.n = 280;
	put(&f, 3, 4);
	put(&f, 0, 2);
	put(&f, 4000, 2);
	fb_end(&f);
	ET_CHECK(refused(&f, "offset 280: record of type 3 has size 4000"));
	/* an AUXTRACE whose 2^40 bytes of trace are not there */
	f.n = 280;
	put(&f, 71, 4);
	put(&f, 0, 2);
	put(&f, 48, 2);
	put(&f, 1ull << 40, 8);
	put(&f, 0, 8);
	put(&f, 0, 8);
	put(&f, 0, 8);
	put(&f, 0, 8);
	fb_end(&f);
	ET_CHECK(refused(&f, "offset 280: AUXTRACE record of 1099511627776 bytes"));
	/* 2^32 - 1 CPUs in a record of one */
	fb_begin(&f, 0);
	fb_info(&f, 1, 0xffffffffu, w, 7);
	fb_end(&f);
	ET_CHECK(refused(&f, "offset 208: 4294967295 CPUs do not fit"));
	/* version 3 */
	fb_begin(&f, 0);
	fb_info(&f, 3, 1, w, 7);
	fb_end(&f);
	ET_CHECK(refused(&f, "offset 200: cs_etm header version 3"));
	/* a data section past the file's end */
	v1_file(&f, 0);
	f.n = 40;
	put(&f, 1ull << 40, 8);
	f.n = 184 + 96;
	ET_CHECK(refused(&f, "the data section (offset 1099511627776"));
	/* an unknown magic in a CPU block: at 184 + 40 */
	fb_begin(&f, 0);
	fb_info(&f, 1, 1, (const uint64_t[]){ 0x1234, 0, 4, 0, 0x10, 0, 0 }, 7);
	fb_end(&f);
	ET_CHECK(refused(&f, "offset 224: CPU metadata block 0: magic 0x1234"));
}

/* The capture reports the reader's error (etmtrace decode perf.data): a
 * zero-size record after the v1 AUXTRACE_INFO (184 + 176 = 360). */
static void t_capture_error(void)
{
	struct etm_capture *cap = NULL;
	struct fb f;
	char err[256];
	FILE *o;
	int r;

	v1_file(&f, 0);
	f.n = 360;
	put(&f, 3, 4);
	put(&f, 0, 2);
	put(&f, 0, 2);
	fb_end(&f);
	o = fopen(path, "wb");
	ET_CHECK(o && fwrite(f.b, 1, f.n, o) == f.n && fclose(o) == 0);
	r = etm_capture_open(&cap, path, NULL, err, sizeof(err));
	ET_EQ(r, -etme_parse);
	ET_CHECK(strstr(err, "offset 360: record of type 3 has size 0") != NULL);
	ET_CHECK(cap == NULL);
}

/* A record's sample id (TID | CPU): pid, tid, cpu, res. */
static void sid(struct fb *f, uint32_t pid, uint32_t cpu)
{
	put(f, pid, 4);
	put(f, pid, 4);
	put(f, cpu, 4);
	put(f, 0, 4);
}

/* The mapped file found by its build id under --buildid-dir: an MMAP2
 * record with a build id (misc bit 14) names a path that does not exist;
 * DIR/.build-id/ab/<38 hex digits> holds the code, mapped at 0x8000 from
 * file offset 0x1000. Process 77 runs on CPU 0 (ITRACE_START), its AUX
 * piece is 16 bytes of frame padding. */
static void t_buildid_dir(void)
{
	static const uint64_t w[] = { V3, 0, 4, 0, 0x10, 0, 0x410cf250 };
	static const uint8_t code[4] = { 0x1e, 0xff, 0x2f, 0xe1 }; /* bx lr */
	struct etm_open_opts o = { .size = sizeof(o) };
	struct etm_capture *cap = NULL;
	char dir[64], file[160], err[256];
	uint8_t got[4], page[0x1004] = { 0 };
	struct fb f;
	FILE *out;
	size_t i;

	snprintf(dir, sizeof(dir), "/tmp/etm-bid.XXXXXX");
	ET_CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "mkdir -p %s/.build-id/ab", dir);
	ET_CHECK(system(file) == 0);
	snprintf(file, sizeof(file), "%s/.build-id/ab/", dir);
	for (i = 1; i < 20; i++)
		snprintf(file + strlen(file), 3, "%02x", (unsigned)(0xab + i) & 0xff);
	memcpy(page + 0x1000, code, 4);
	out = fopen(file, "wb");
	ET_CHECK(out && fwrite(page, 1, sizeof(page), out) == sizeof(page) &&
		 fclose(out) == 0);
	fb_begin(&f, 0);
	fb_info(&f, 1, 1, w, 7);
	put(&f, 10, 4); /* MMAP2 at 280: 72 + "/nowhere/prog\0" (16) + 16 */
	put(&f, 0x4002, 2);
	put(&f, 72 + 16 + 16, 2);
	put(&f, 77, 4);
	put(&f, 77, 4);
	put(&f, 0x8000, 8); /* addr */
	put(&f, 0x1000, 8); /* len */
	put(&f, 0x1000, 8); /* pgoff */
	put(&f, 20, 1);     /* build id size, 3 reserved, 20 bytes */
	put(&f, 0, 3);
	for (i = 0; i < 20; i++)
		put(&f, (0xab + i) & 0xff, 1);
	put(&f, 5, 4); /* prot: read, exec */
	put(&f, 2, 4);
	memcpy(f.b + f.n, "/nowhere/prog\0\0", 16);
	f.n += 16;
	sid(&f, 77, 0xffffffffu);
	put(&f, 12, 4); /* ITRACE_START */
	put(&f, 0, 2);
	put(&f, 16 + 16, 2);
	put(&f, 77, 4);
	put(&f, 77, 4);
	sid(&f, 77, 0);
	put(&f, 71, 4); /* AUXTRACE of CPU 0, 16 bytes */
	put(&f, 0, 2);
	put(&f, 48, 2);
	put(&f, 16, 8);
	put(&f, 0, 8);
	put(&f, 0, 8);
	put(&f, 0, 4);
	put(&f, 77, 4);
	put(&f, 0, 4);
	put(&f, 0, 4);
	for (i = 0; i < 16; i++)
		put(&f, i % 2 ? 0 : 0x01, 1); /* ID 0 data: padding */
	fb_end(&f);
	out = fopen(path, "wb");
	ET_CHECK(out && fwrite(f.b, 1, f.n, out) == f.n && fclose(out) == 0);
	o.buildid_dir = dir;
	ET_EQ(etm_capture_open(&cap, path, &o, err, sizeof(err)), 0);
	ET_CHECK(etm_capture_nsources(cap) == 1 && etm_capture_source(cap, 0)->img);
	ET_EQ(etm_image_read(etm_capture_source(cap, 0)->img, etm_space_any, 0x8000,
			     got, 4),
	      4);
	ET_CHECK(!memcmp(got, code, 4));
	ET_EQ(etm_capture_buffer(cap, 0)->perf_pid, 77);
	ET_EQ(etm_capture_buffer(cap, 0)->perf_cpu, 0);
	etm_capture_free(cap);
	snprintf(file, sizeof(file), "rm -rf '%s'", dir);
	ET_CHECK(system(file) == 0);
}

int main(void)
{
	int r, fd;

	snprintf(path, sizeof(path), "/tmp/etm-perfdata.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	ETEST(t_v1_both_orders);
	ETEST(t_v0);
	ETEST(t_v2_hw_id);
	ETEST(t_malformed);
	ETEST(t_capture_error);
	ETEST(t_buildid_dir);
	r = etest_end();
	unlink(path);
	return r;
}
