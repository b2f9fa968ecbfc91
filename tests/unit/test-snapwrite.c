/* tests/unit/test-snapwrite.c - the snapshot writer (etmtrace/snapwrite.h)
 * read back by the snapshot reader (etmtrace/snapshot.h, an independent
 * parser): a snapshot written by etm_snapw_write() with two sources (PTM
 * and ETMv3.4 with its core and two dumps), in one CoreSight buffer; every
 * field the description gave comes back, the dumps' bytes too. A source of
 * no core in trace.ini, against the text written out by hand. The
 * texts' sizes: the writer reports the whole length even when the buffer
 * is too small, and writes a NUL-terminated prefix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

static char dir[64];

static void cfgs(struct etm_config *ptm, struct etm_config *e3)
{
	etm_config_init(ptm);
	ptm->protocol = etm_proto_ptm;
	ptm->etmcr = 0x1000;
	ptm->etmidr = 0x411CF312;
	ptm->etmccer = 0x34C01AC2;
	ptm->traceid = 0x13;
	etm_config_init(e3);
	e3->protocol = etm_proto_etmv3;
	e3->etmcr = 0xc000;
	e3->etmidr = 0x410CF240; /* ETMv3.4 */
	e3->traceid = 0x10;
}

static const uint8_t mem[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

/* The snapshot in dir (etm_snapw_write()): the dumps' files from their
 * data, an empty trace file. */
static int write_all(const struct etm_config *ptm, const struct etm_config *e3)
{
	const struct etm_snapw_dump d[] = { { "m0.bin", 0x8000, 8, mem },
					    { "m1.bin", 0x10000, 4, mem } };
	const struct etm_snapw_device v[] = {
		{ .key = "core0", .file = "cpu_0.ini", .name = "cpu_0", .is_core = 1, .type = "Cortex-A15", .regs = 1 },
		{ .key = "source0", .file = "src_0.ini", .name = "PTM_0", .cfg = ptm, .core = "cpu_0" },
		{ .key = "core1", .file = "cpu_1.ini", .name = "cpu_1", .is_core = 1, .type = "Cortex-A7", .dumps = d, .ndumps = 2, .first = 1 },
		{ .key = "source1", .file = "src_1.ini", .name = "ETM_1", .cfg = e3, .core = "cpu_1" },
	};
	const struct etm_snapw_snapshot ss = { .comment = "test", .devs = v, .ndevs = 4, .bufname = "ETB_0", .trace_file = "t.bin", .fmt = etm_fmt_coresight, .trace = "" };
	char err[256];

	return etm_snapw_write(dir, &ss, err, sizeof(err));
}

/* 1 if file @path holds the @n bytes @want, else 0. */
static int same_bytes(const char *path, const uint8_t *want, size_t n)
{
	uint8_t got[16];
	FILE *f = fopen(path, "rb");
	size_t k = f ? fread(got, 1, sizeof(got), f) : 0;

	if (f)
		fclose(f);
	return k == n && !memcmp(got, want, n);
}

static void t_read_back(void)
{
	struct etm_config ptm, e3;
	struct etm_snapshot *s = NULL;
	const struct etm_snap_source *a, *e;
	char err[256];

	cfgs(&ptm, &e3);
	snprintf(dir, sizeof(dir), "/tmp/etm-snapw-XXXXXX");
	ET_CHECK(mkdtemp(dir) != NULL);
	ET_EQ(write_all(&ptm, &e3), 0);
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	ET_EQ(s->nsources, 2);
	ET_EQ(s->nbuffers, 1);
	ET_CHECK(!strcmp(s->buffers[0].name, "ETB_0"));
	ET_EQ(s->buffers[0].format, etm_fmt_coresight);
	a = etm_snapshot_find(s, 0x13);
	e = etm_snapshot_find(s, 0x10);
	ET_CHECK(a && e);
	ET_CHECK(!strcmp(a->name, "PTM_0") && !strcmp(a->core, "cpu_0"));
	ET_CHECK(!strcmp(a->type, "PFT1.1") && !strcmp(a->core_type, "Cortex-A15"));
	ET_EQ(a->cfg.protocol, etm_proto_ptm);
	ET_EQ(a->cfg.etmcr, 0x1000);
	ET_EQ(a->cfg.etmidr, 0x411CF312);
	ET_EQ(a->cfg.etmccer, 0x34C01AC2);
	ET_CHECK(!strcmp(a->buffer, "ETB_0"));
	ET_EQ(a->ndumps, 0);
	ET_CHECK(!strcmp(e->name, "ETM_1") && !strcmp(e->type, "ETM3.4"));
	ET_EQ(e->cfg.protocol, etm_proto_etmv3);
	ET_EQ(e->cfg.etmcr, 0xc000);
	ET_EQ(e->cfg.etmidr, 0x410CF240);
	ET_EQ(e->ndumps, 2);
	ET_EQ(e->dumps[0].addr, 0x8000);
	ET_EQ(e->dumps[0].length, 8);
	ET_EQ(e->dumps[1].addr, 0x10000);
	ET_EQ(e->dumps[1].length, 4);
	ET_CHECK(strstr(e->dumps[1].path, "m1.bin") != NULL);
	ET_EQ(same_bytes(e->dumps[1].path, mem, 4), 1);
	etm_snapshot_free(s);
}

static void t_sizes(void)
{
	static const char *const k[] = { "device0" }, *const f[] = { "cpu_0.ini" };
	/* "[snapshot]\nversion=1.0\n\n[device_list]\n" 11 + 12 + 1 + 14 +
	 * "device0=cpu_0.ini\n" 18 + "\n[trace]\nmetadata=trace.ini\n" 28 */
	char b[16];

	ET_EQ(etm_snapw_index(NULL, 0, NULL, k, f, 1), 38 + 18 + 28);
	ET_EQ(etm_snapw_index(b, sizeof(b), NULL, k, f, 1), 38 + 18 + 28);
	ET_CHECK(!memcmp(b, "[snapshot]\nvers", 16)); /* 15 and the NUL */
	ET_EQ(etm_snapw_core(b, sizeof(b), NULL, "x", 0, NULL, 0, 0), -etme_invalid);
}

/* trace.ini with a source of no core (an ITM): listed in the buffer's
 * sources, not in [core_trace_sources]; the text written out by hand. */
static void t_trace_source_without_core(void)
{
	static const char *const srcs[] = { "PTM_0", "ITM_0" }, *const cores[] = { "cpu_0", NULL };
	static const char want[] = "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\n"
				   "file=trace.bin\nformat=coresight\n\n[source_buffers]\n"
				   "PTM_0=ETB_0\nITM_0=ETB_0\n\n[core_trace_sources]\n"
				   "cpu_0=PTM_0\n";
	char b[512];

	ET_EQ(etm_snapw_trace(b, sizeof(b), "ETB_0", "trace.bin", etm_fmt_coresight, srcs,
			      cores, 2),
	      sizeof(want) - 1);
	ET_CHECK(!strcmp(b, want));
}

/* A device without its file name is refused before anything is written. */
static void t_write_invalid(void)
{
	const struct etm_snapw_device v = { .key = "core0", .name = "cpu_0", .is_core = 1, .type = "x" };
	const struct etm_snapw_snapshot ss = { .devs = &v, .ndevs = 1, .bufname = "B", .trace_file = "t.bin" };
	char err[64];

	ET_EQ(etm_snapw_write(NULL, &ss, err, sizeof(err)), -etme_invalid);
	ET_EQ(etm_snapw_write(dir[0] ? dir : "/tmp", &ss, err, sizeof(err)), -etme_invalid);
}

int main(void)
{
	char cmd[128];
	int r;

	ETEST(t_read_back);
	ETEST(t_sizes);
	ETEST(t_trace_source_without_core);
	ETEST(t_write_invalid);
	r = etest_end();
	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			r = r ? r : 1;
	}
	return r;
}
