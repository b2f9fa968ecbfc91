/* tests/unit/test-perf_sideband.c - whose trace each AUX piece of a
 * perf.data file is when the trace has no Context ID: the sideband
 * (SWITCH, SWITCH_CPU_WIDE, ITRACE_START, FORK, EXIT) placed at the AUX
 * records' buffer boundaries (doc/perfdata.md, "Processes from the
 * sideband"). The file is built here byte by byte from the layout in the
 * kernel's perf.data-file-format.txt and include/uapi/linux/perf_event.h
 * (not by our writer); the expected process and image of each piece are
 * derived by hand from the record order, written next to each record.
 *
 * The file: header (104 bytes) at 0; one attr of 64 bytes with its ids
 * section at 104 (attr_size 80); the data section at 184. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>
#include <etmtrace/perfdata.h>

#include "etest.h"

#define V3 0x3030303030303030ull
#define MISC_SWITCH_OUT 0x2000u

struct fb {
	uint8_t b[4096];
	size_t n;
};

static void put(struct fb *f, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		f->b[f->n + (size_t)i] = (uint8_t)(v >> (8 * i));
	f->n += (size_t)size;
}

/* Header, the attr (sample_type TID | CPU, sample_id_all) and an
 * AUXTRACE_INFO of version 1 with one ETMv3 CPU (trace ID 0x10, ETMCR
 * @etmcr: 0 traces no Context ID, bits [15:14] = 1 one byte of it). */
static void fb_begin(struct fb *f, uint64_t etmcr)
{
	const uint64_t w[] = { V3, 0, 4, etmcr, 0x10, 0, 0x410cf250 };
	size_t i;

	memset(f, 0, sizeof(*f));
	memcpy(f->b, "PERFILE2", 8);
	f->n = 8;
	put(f, 104, 8);
	put(f, 80, 8);
	put(f, 104, 8);
	put(f, 80, 8);
	put(f, 184, 8);
	put(f, 0, 8);
	f->n = 104;
	put(f, 8, 4);
	put(f, 64, 4);
	put(f, 0, 8);
	put(f, 0, 8);
	put(f, 0x82, 8);
	put(f, 0, 8);
	put(f, 1ull << 18, 8);
	f->n = 184;
	put(f, 70, 4);
	put(f, 0, 2);
	put(f, 16 + 24 + 8 * 7, 2);
	put(f, 3, 4);
	put(f, 0, 4);
	put(f, 1, 8);
	put(f, 8ull << 32 | 1, 8);
	put(f, 0, 8);
	for (i = 0; i < 7; i++)
		put(f, w[i], 8);
}

static void fb_end(struct fb *f)
{
	size_t n = f->n;

	f->n = 48;
	put(f, n - 184, 8);
	f->n = n;
}

/* Record header of @type with @body bytes of fields, a sample id after. */
static void rec(struct fb *f, uint32_t type, uint16_t misc, size_t body)
{
	put(f, type, 4);
	put(f, misc, 2);
	put(f, 8 + body + 16, 2);
}

static void sid(struct fb *f, uint32_t pid, uint32_t cpu)
{
	put(f, pid, 4);
	put(f, pid, 4);
	put(f, cpu, 4);
	put(f, 0, 4);
}

/* MMAP2 of @pid: @file (at most 31 characters) at 0x8000 from offset 0. */
static void mmap2(struct fb *f, uint32_t pid, const char *file)
{
	rec(f, ETM_PERF_MMAP2, 2, 64 + 32);
	put(f, pid, 4);
	put(f, pid, 4);
	put(f, 0x8000, 8);
	put(f, 0x1000, 8);
	put(f, 0, 8);
	put(f, 0, 8); /* maj, min */
	put(f, 0, 8); /* ino */
	put(f, 0, 8); /* ino generation */
	put(f, 5, 4); /* prot: read, exec */
	put(f, 2, 4);
	memset(f->b + f->n, 0, 32);
	memcpy(f->b + f->n, file, strlen(file));
	f->n += 32;
	sid(f, pid, 0xffffffffu);
}

/* FORK or EXIT: pid, ppid, tid, ptid, time. */
static void task(struct fb *f, uint32_t type, uint32_t pid, uint32_t ppid)
{
	rec(f, type, 0, 24);
	put(f, pid, 4);
	put(f, ppid, 4);
	put(f, pid, 4);
	put(f, ppid, 4);
	put(f, 0, 8);
	sid(f, pid, 0xffffffffu);
}

/* SWITCH_CPU_WIDE out of CPU 0, from @prev to @next. */
static void switch_wide(struct fb *f, uint32_t prev, uint32_t next)
{
	rec(f, ETM_PERF_SWITCH_CPU_WIDE, MISC_SWITCH_OUT, 8);
	put(f, next, 4);
	put(f, next, 4);
	sid(f, prev, 0);
}

/* AUX of CPU 0: 16 bytes at @off; its sample id names @pid. */
static void aux(struct fb *f, uint64_t off, uint32_t pid)
{
	rec(f, ETM_PERF_AUX, 0, 24);
	put(f, off, 8);
	put(f, 16, 8);
	put(f, 0, 8);
	sid(f, pid, 0);
}

static char dir[64], path[128], fa[128], fb2[128];

static void write_file(const char *p, const void *d, size_t n)
{
	FILE *o = fopen(p, "wb");

	ET_CHECK(o && fwrite(d, 1, n, o) == n && fclose(o) == 0);
}

/* Five pieces of CPU 0 in one AUXTRACE. Pid 10 maps A, pid 30 maps B;
 * the ETM traces no Context ID. Expected, by the rule (the first "who
 * runs" record after the previous AUX record; else the one still running
 * at it; else the AUX record's sample id):
 *   piece 0: SWITCH_CPU_WIDE 0 -> 20 before it: pid 20, forked from 10
 *            before it: A (inherited);
 *   piece 1: SWITCH_CPU_WIDE 20 -> 30: pid 30, B;
 *   piece 2: EXIT 30, then SWITCH_CPU_WIDE 0 -> 30: a new process 30
 *            (generation 1) without mappings: no image bytes;
 *   piece 3: a SWITCH out of 30 (not CPU-wide) inside it, no record
 *            naming a process: 30 (generation 1), running at its start,
 *            no bytes;
 *   piece 4: nothing runs by the sideband: its AUX record's sample id,
 *            pid 10: A. */
static void t_switch_fork_exit(void)
{
	struct etm_capture *cap = NULL;
	struct fb f;
	char err[256];
	static const int pid[5] = { 20, 30, 30, 30, 10 };
	static const char *img[5] = { "AAAA", "BBBB", NULL, NULL, "AAAA" };
	uint8_t got[4];
	size_t i;

	snprintf(fa, sizeof(fa), "%s/a", dir);
	snprintf(fb2, sizeof(fb2), "%s/b", dir);
	write_file(fa, "AAAA", 4);
	write_file(fb2, "BBBB", 4);
	ET_CHECK(strlen(fa) < 32 && strlen(fb2) < 32);
	fb_begin(&f, 0);
	mmap2(&f, 10, fa);
	mmap2(&f, 30, fb2);
	task(&f, ETM_PERF_FORK, 20, 10);
	switch_wide(&f, 0, 20);
	aux(&f, 0, 0);
	switch_wide(&f, 20, 30);
	aux(&f, 16, 0);
	task(&f, ETM_PERF_EXIT, 30, 1);
	switch_wide(&f, 0, 30);
	aux(&f, 32, 0);
	rec(&f, ETM_PERF_SWITCH, MISC_SWITCH_OUT, 0);
	sid(&f, 30, 0);
	aux(&f, 48, 0);
	aux(&f, 64, 10);
	put(&f, ETM_PERF_AUXTRACE, 4); /* CPU 0, 80 bytes at AUX offset 0 */
	put(&f, 0, 2);
	put(&f, 48, 2);
	put(&f, 80, 8);
	put(&f, 0, 8);
	put(&f, 0, 8);
	put(&f, 0, 4);
	put(&f, 0, 4);
	put(&f, 0, 4);
	put(&f, 0, 4);
	for (i = 0; i < 80; i++)
		put(&f, i % 2 ? 0 : 0x01, 1); /* ID 0: padding */
	fb_end(&f);
	write_file(path, f.b, f.n);
	ET_EQ(etm_capture_open(&cap, path, NULL, err, sizeof(err)), 0);
	ET_EQ(etm_capture_nbuffers(cap), 5);
	ET_EQ(etm_capture_nsources(cap), 5);
	for (i = 0; i < 5 && i < etm_capture_nsources(cap); i++) {
		const struct etm_capture_source *s = etm_capture_source(cap, i);

		ET_EQ(s->buffer, i);
		ET_EQ(etm_capture_buffer(cap, i)->perf_pid, pid[i]);
		ET_EQ(etm_capture_buffer(cap, i)->perf_cpu, 0);
		ET_CHECK(s->img != NULL);
		if (!s->img)
			continue;
		memset(got, 0, sizeof(got));
		ET_EQ(etm_image_read(s->img, etm_space_any, 0x8000, got, 4),
		      img[i] ? 4 : 0);
		if (img[i])
			ET_CHECK(!memcmp(got, img[i], 4));
	}
	etm_capture_free(cap);
}

/* The AUXTRACE record of CPU 0 holding @n bytes of padding. */
static void auxtrace(struct fb *f, size_t n)
{
	size_t i;

	put(f, ETM_PERF_AUXTRACE, 4);
	put(f, 0, 2);
	put(f, 48, 2);
	put(f, n, 8);
	put(f, 0, 8);
	put(f, 0, 8);
	for (i = 0; i < 4; i++)
		put(f, 0, 4);
	for (i = 0; i < n; i++)
		put(f, i % 2 ? 0 : 0x01, 1); /* ID 0: padding */
}

/* With Context IDs, a pid reused after EXIT is looked up in the
 * generation in force in the piece (written between the AUX record that
 * ends the previous piece and its own): that where it starts, unless the
 * pid EXITs inside it and a later generation maps something before its
 * end (then which process is not known: no image). Records, and the image
 * of Context ID 10 in each piece, by hand:
 *   MMAP2 10 A; AUX (piece 0)          piece 0: generation 0: A
 *   EXIT 10; MMAP2 10 B; AUX (piece 1) piece 1: generation 0 at its
 *                                       start, 1 maps B inside: none
 *   EXIT 10; AUX (piece 2)             piece 2: 1 at its start; 2 maps
 *                                       nothing: generation 1: B
 *   AUX (piece 3)                      piece 3: generation 2, which maps
 *                                       nothing: no bytes
 * Before the generations were kept, every piece read A. */
static void t_ctx_reused_pid(void)
{
	static const char *img[4] = { "AAAA", NULL, "BBBB", NULL };
	struct etm_capture *cap = NULL;
	etm_ctx_image_fn fn;
	void *arg;
	struct fb f;
	char err[256];
	uint8_t got[4];
	size_t i;

	fb_begin(&f, 1u << 14);
	mmap2(&f, 10, fa);
	aux(&f, 0, 10);
	task(&f, ETM_PERF_EXIT, 10, 1);
	mmap2(&f, 10, fb2);
	aux(&f, 16, 10);
	task(&f, ETM_PERF_EXIT, 10, 1);
	aux(&f, 32, 10);
	aux(&f, 48, 10);
	auxtrace(&f, 64);
	fb_end(&f);
	write_file(path, f.b, f.n);
	ET_EQ(etm_capture_open(&cap, path, NULL, err, sizeof(err)), 0);
	ET_EQ(etm_capture_nbuffers(cap), 4);
	ET_CHECK(etm_capture_ctx_images(cap, &fn, &arg));
	for (i = 0; i < 4 && fn && i < etm_capture_nbuffers(cap); i++) {
		const struct etm_image *im;

		ET_EQ(etm_capture_load(cap, i), 0);
		im = fn(arg, 10);
		ET_CHECK(im != NULL);
		memset(got, 0, sizeof(got));
		ET_EQ(im ? etm_image_read(im, etm_space_any, 0x8000, got, 4) : 99,
		      img[i] ? 4 : 0);
		if (img[i] && memcmp(got, img[i], 4))
			fprintf(stderr, "piece %zu: read %.4s, want %s\n", i,
				(const char *)got, img[i]);
		if (img[i])
			ET_CHECK(!memcmp(got, img[i], 4));
	}
	etm_capture_free(cap);
}

int main(void)
{
	char cmd[160];
	int r;

	snprintf(dir, sizeof(dir), "/tmp/etm-psb.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	ETEST(t_switch_fork_exit);
	ETEST(t_ctx_reused_pid);
	r = etest_end();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		r = 1;
	return r;
}
