/* tests/unit/test-snapwrite.c - the snapshot writer (etmtrace/snapwrite.h)
 * read back by the snapshot reader (etmtrace/snapshot.h, an independent
 * parser): two sources (PTM and ETMv3.4 with its core and two dumps), in
 * one CoreSight buffer; every field the description gave comes back. The
 * texts' sizes: the writer reports the whole length even when the buffer
 * is too small, and writes a NUL-terminated prefix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

static char dir[64];

static int put(const char *name, const char *text, size_t n)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	ok = fwrite(text, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int put_ini(const char *name, const char *text, int len)
{
	return len < 0 ? -1 : put(name, text, (size_t)len);
}

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

static int write_all(const struct etm_config *ptm, const struct etm_config *e3)
{
	static const char *const keys[] = { "core0", "source0", "core1", "source1" };
	static const char *const files[] = { "cpu_0.ini", "src_0.ini", "cpu_1.ini",
					     "src_1.ini" };
	static const char *const srcs[] = { "PTM_0", "ETM_1" }, *const cores[] = { "cpu_0", "cpu_1" };
	static const uint8_t mem[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const struct etm_snapw_dump d[] = { { "m0.bin", 0x8000, 8 }, { "m1.bin", 0x10000, 4 } };
	char b[1024];
	size_t n = sizeof(b);

	return put("m0.bin", (const char *)mem, 8) || put("m1.bin", (const char *)mem, 4) ||
	       put("t.bin", "", 0) ||
	       put_ini("snapshot.ini", b, etm_snapw_index(b, n, "test", keys, files, 4)) ||
	       put_ini("cpu_0.ini", b, etm_snapw_core(b, n, "cpu_0", "Cortex-A15", 1, NULL, 0, 0)) ||
	       put_ini("cpu_1.ini", b, etm_snapw_core(b, n, "cpu_1", "Cortex-A7", 0, d, 2, 1)) ||
	       put_ini("src_0.ini", b, etm_snapw_source(b, n, "PTM_0", NULL, ptm)) ||
	       put_ini("src_1.ini", b, etm_snapw_source(b, n, "ETM_1", NULL, e3)) ||
	       put_ini("trace.ini", b,
		       etm_snapw_trace(b, n, "ETB_0", "t.bin", etm_fmt_coresight, srcs, cores, 2));
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

int main(void)
{
	char cmd[128];
	int r;

	ETEST(t_read_back);
	ETEST(t_sizes);
	r = etest_end();
	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			r = r ? r : 1;
	}
	return r;
}
