/* tests/unit/test-snapshot.c - ini reader and snapshot directory reader:
 * the three shared snapshots, plus hostile snapshots built in a temp dir. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/snapshot.h>

#include "etest.h"
#include "load/ini.h"

static int ends_with(const char *s, const char *t)
{
	size_t a = s ? strlen(s) : 0, b = strlen(t);

	return s && a >= b && !strcmp(s + a - b, t);
}

static int streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static void ini_syntax(void)
{
	static const char text[] =
		"\xef\xbb\xbf; comment\n# another\n"
		"[device]\r\n  name = cpu_0  \n"
		"[regs]\nETMCR(id:0x0)=0x10\n"
		"CNTPCT(size:64) = 0x0000042492EE776D\n"
		"ETMIDR(0x079)=12\nR13=\n";
	struct etm_ini *ini;
	unsigned line = 0;
	unsigned long long v;
	char err[256];

	ET_EQ(etm_ini_parse(&ini, "t.ini", text, strlen(text), err,
			    sizeof(err)),
	      0);
	ET_CHECK(streq(etm_ini_get(ini, "DEVICE", "Name", &line), "cpu_0"));
	ET_EQ(line, 4);
	ET_CHECK(streq(etm_ini_get(ini, "regs", "ETMCR(id:0x0)", NULL),
		       "0x10"));
	ET_CHECK(streq(etm_ini_get(ini, "regs", "CNTPCT(size:64)", &line),
		       "0x0000042492EE776D"));
	ET_EQ(line, 7);
	ET_CHECK(streq(etm_ini_get(ini, "regs", "R13", NULL), ""));
	ET_CHECK(etm_ini_get(ini, "regs", "name", NULL) == NULL);
	ET_EQ(etm_ini_section(ini, "regs"), 2);
	ET_EQ(ini->section_line[2], 5);
	etm_ini_free(ini);

	ET_EQ(etm_ini_u64("0x0000042492EE776D", &v), 0);
	ET_EQ(v, 0x42492ee776dull);
	ET_EQ(etm_ini_u64("12", &v), 0);
	ET_EQ(v, 12);
	ET_EQ(etm_ini_u64("0x", &v), -etme_parse);
	ET_EQ(etm_ini_u64("12z", &v), -etme_parse);
	ET_EQ(etm_ini_u64("-1", &v), -etme_parse);
	ET_EQ(etm_ini_u64("", &v), -etme_parse);
	ET_EQ(etm_ini_u64("0x10000000000000000", &v), -etme_parse);
}

static void ini_errors(void)
{
	struct etm_ini *ini = (struct etm_ini *)1;
	char err[256], *big;

	ET_EQ(etm_ini_parse(&ini, "a.ini", "[x]\nfoo\n", 8, err, sizeof(err)),
	      -etme_parse);
	ET_CHECK(ini == NULL);
	ET_CHECK(strstr(err, "a.ini:2:"));
	ET_EQ(etm_ini_parse(&ini, "b.ini", "[x\n", 3, err, sizeof(err)),
	      -etme_parse);
	ET_CHECK(strstr(err, "b.ini:1:"));
	ET_EQ(etm_ini_parse(&ini, "c.ini", "[]\n", 3, err, sizeof(err)),
	      -etme_parse);
	ET_EQ(etm_ini_parse(&ini, "d.ini", " =5\n", 4, err, sizeof(err)),
	      -etme_parse);
	ET_EQ(etm_ini_parse(&ini, "e.ini", "a=1\0b=2", 7, err, sizeof(err)),
	      -etme_parse);
	big = malloc(ETM_INI_MAX_LINE + 10);
	ET_CHECK(big);
	memset(big, 'a', ETM_INI_MAX_LINE + 10);
	big[0] = 'k';
	big[1] = '=';
	ET_EQ(etm_ini_parse(&ini, "f.ini", big, ETM_INI_MAX_LINE + 10, err,
			    sizeof(err)),
	      -etme_parse);
	ET_CHECK(strstr(err, "f.ini:1:"));
	free(big);
	ET_EQ(etm_ini_load(&ini, "/nonexistent/x.ini", err, sizeof(err)),
	      -etme_io);
	ET_CHECK(strstr(err, "/nonexistent/x.ini"));
}

/* TC2 (doc snapshot-format.md §8): 5 ETM/PTM sources, the ITM (0x20) is not
 * an ETMv3/PTM source and is skipped. */
static void snap_tc2(void)
{
	static const uint32_t etmcr[5] = { 0x10001860, 0x10001860, 0x10001860,
					   0x10001000, 0x10001000 };
	static const char *const names[5] = { "ETM_0", "ETM_1", "ETM_2",
					      "PTM_0", "PTM_1" };
	struct etm_snapshot *s;
	char dir[512], err[512];
	size_t i;

	if (!etest_shared("snapshots/TC2", dir, sizeof(dir))) {
		etest_skip("TC2 not found");
		return;
	}
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	ET_EQ(s->nsources, 5);
	ET_EQ(s->nbuffers, 1);
	ET_CHECK(streq(s->buffers[0].name, "ETB_0"));
	ET_EQ(s->buffers[0].format, etm_fmt_coresight);
	ET_EQ(s->buffers[0].nfiles, 1);
	ET_CHECK(ends_with(s->buffers[0].files[0], "/cstrace.bin"));
	for (i = 0; i < 5; i++) {
		const struct etm_snap_source *src = &s->sources[i];
		char core[8];

		snprintf(core, sizeof(core), "cpu_%zu", i);
		ET_CHECK(streq(src->name, names[i]));
		ET_CHECK(streq(src->core, core));
		ET_CHECK(streq(src->core_type, i < 3 ? "Cortex-A7" :
						       "Cortex-A15"));
		ET_CHECK(streq(src->type, i < 3 ? "ETM3.5" : "PTM1.1"));
		ET_CHECK(streq(src->buffer, "ETB_0"));
		ET_EQ(src->cfg.protocol, i < 3 ? etm_proto_etmv3 :
						 etm_proto_ptm);
		ET_EQ(src->cfg.size, sizeof(struct etm_config));
		ET_EQ(src->cfg.etmcr, etmcr[i]);
		ET_EQ(src->cfg.etmidr, i < 3 ? 0x410CF250 : 0x411CF312);
		ET_EQ(src->cfg.etmccer, i < 3 ? 0x344008F2 : 0x34C01AC2);
		ET_EQ(src->cfg.traceid, 0x10 + i);
		ET_EQ(src->cfg.flags, 0);
		ET_EQ(src->ndumps, 1);
		ET_CHECK(ends_with(src->dumps[0].path, "/kernel_dump.bin"));
		ET_EQ(src->dumps[0].addr, 0xC0008000);
		ET_EQ(src->dumps[0].length, 0x50000);
		ET_EQ(src->dumps[0].offset, 0);
		ET_EQ(src->dumps[0].space, etm_space_any);
		ET_CHECK(etm_snapshot_find(s, 0x10 + (unsigned)i) == src);
	}
	ET_CHECK(etm_snapshot_find(s, 0x20) == NULL);
	ET_CHECK(etm_snapshot_find(NULL, 0x10) == NULL);
	etm_snapshot_free(s);
}

/* kernel_dump.bin is loaded at 0xC0008000: the image bytes there are the
 * file's first bytes. */
static void snap_tc2_memory(void)
{
	struct etm_snapshot *s;
	struct etm_image *img;
	char dir[512], err[512];
	uint8_t a[16], b[16];
	FILE *f;

	if (!etest_shared("snapshots/TC2", dir, sizeof(dir))) {
		etest_skip("TC2 not found");
		return;
	}
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	img = etm_image_alloc();
	ET_CHECK(img);
	ET_EQ(etm_snapshot_add_memory(etm_snapshot_find(s, 0x13), img, err,
				      sizeof(err)),
	      0);
	ET_EQ(etm_image_count(img), 1);
	ET_EQ(etm_image_read(img, etm_space_secure, 0xC0008000, a, 16), 16);
	f = fopen(s->sources[3].dumps[0].path, "rb");
	ET_CHECK(f);
	ET_EQ(fread(b, 1, 16, f), 16);
	fclose(f);
	ET_CHECK(!memcmp(a, b, 16));
	ET_EQ(etm_image_read(img, etm_space_any, 0xC0008000 + 0x50000, a, 4),
	      0);
	etm_image_free(img);
	etm_snapshot_free(s);
}

/* trace_cov_a15 (doc §9): PTM_0_2 has the only buffer (source_data) and the
 * only core device; the ETMs are mapped to cores without device files. */
static void snap_cov_a15(void)
{
	const struct etm_snap_source *p, *e;
	struct etm_snapshot *s;
	char dir[512], err[512];
	size_t i;

	if (!etest_shared("snapshots/trace_cov_a15", dir, sizeof(dir))) {
		etest_skip("trace_cov_a15 not found");
		return;
	}
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	ET_EQ(s->nsources, 5);
	ET_EQ(s->nbuffers, 1);
	ET_EQ(s->buffers[0].format, etm_fmt_raw);
	ET_CHECK(ends_with(s->buffers[0].files[0], "/PTM_0_2.bin"));
	p = etm_snapshot_find(s, 2);
	ET_CHECK(p);
	ET_CHECK(streq(p->name, "PTM_0_2"));
	ET_CHECK(streq(p->type, "PFT1.1"));
	ET_EQ(p->cfg.protocol, etm_proto_ptm);
	ET_EQ(p->cfg.etmcr, 0x20000400);
	ET_EQ(p->cfg.etmidr, 0x411CF312);
	ET_EQ(p->cfg.etmccer, 0x34C01AC2);
	ET_CHECK(streq(p->core, "Cortex-A15_0"));
	ET_CHECK(streq(p->core_type, "Cortex-A15"));
	ET_CHECK(streq(p->buffer, "PTM_0_2"));
	ET_EQ(p->ndumps, 9);
	for (i = 0; i < 9; i++) {
		ET_EQ(p->dumps[i].space, etm_space_secure);
		ET_EQ(p->dumps[i].length, 0);
	}
	ET_EQ(p->dumps[0].addr, 0x80000000);
	ET_EQ(p->dumps[1].addr, 0x80000278);
	ET_EQ(p->dumps[8].addr, 0x80100000);
	ET_CHECK(ends_with(p->dumps[1].path, "mem_Cortex-A15_0_1_RO_CODE.bin"));
	e = etm_snapshot_find(s, 4);
	ET_CHECK(e);
	ET_CHECK(streq(e->name, "ETM_0_4"));
	ET_EQ(e->cfg.protocol, etm_proto_etmv3);
	ET_CHECK(streq(e->core, "Cortex-A7_0"));
	ET_CHECK(e->core_type == NULL);
	ET_EQ(e->ndumps, 0);
	ET_CHECK(e->buffer == NULL);
	etm_snapshot_free(s);
}

/* am243x-freertos-1: Cortex-R5 core; the device file says type=ETM3.5 but
 * ETMIDR 0x4104F230 has [11:8] = 2 (ETMv3) and [7:4] = 3, i.e. ETMv3.3. */
static void snap_am243x(void)
{
	const struct etm_snap_source *e;
	struct etm_snapshot *s;
	char dir[512], err[512];

	if (!etest_shared("snapshots/am243x-freertos-1", dir, sizeof(dir))) {
		etest_skip("am243x-freertos-1 not found");
		return;
	}
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	ET_EQ(s->nsources, 1);
	e = etm_snapshot_find(s, 0x10);
	ET_CHECK(e);
	ET_CHECK(streq(e->name, "ETM_0"));
	ET_CHECK(streq(e->type, "ETM3.5"));
	ET_CHECK(streq(e->core_type, "Cortex-R5"));
	ET_EQ(e->cfg.protocol, etm_proto_etmv3);
	ET_EQ(e->cfg.etmcr, 0xc40);
	ET_EQ(e->cfg.etmidr, 0x4104f230);
	ET_EQ(e->cfg.etmccer, 0x9ba);
	ET_EQ(e->cfg.flags, 0);
	ET_EQ(etm_cfg_arch_major(&e->cfg), 2);
	ET_EQ(etm_cfg_arch_minor(&e->cfg), 3);
	ET_EQ(e->ndumps, 4);
	ET_EQ(e->dumps[0].addr, 0);
	ET_EQ(e->dumps[0].length, 0x40);
	ET_EQ(e->dumps[1].addr, 0x70099300);
	ET_EQ(e->dumps[1].length, 0x18058);
	ET_EQ(e->dumps[3].addr, 0x700b2670);
	ET_CHECK(ends_with(e->dumps[3].path, "/mem_700b2670.bin"));
	ET_CHECK(streq(e->buffer, "ETB_0"));
	ET_EQ(s->buffers[0].format, etm_fmt_coresight);
	etm_snapshot_free(s);
}

/* ---- hostile / synthetic snapshots in a temp dir ---- */

struct tmpdir {
	char path[256];
};

static int put(const struct tmpdir *t, const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->path, name);
	f = fopen(p, "wb");
	if (!f)
		return -1;
	fwrite(text, 1, strlen(text), f);
	fclose(f);
	return 0;
}

static void rm(const struct tmpdir *t, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", t->path, name);
	unlink(p);
}

static const char top_ini[] =
	"[snapshot]\nversion=1.0\n\n[device_list]\n"
	"device0=core.ini\ndevice1=src.ini\n\n[trace]\nmetadata=trace.ini\n";
static const char core_ini[] =
	"[Device]\nname = m3\nclass = core\ntype = Cortex-M3\n"
	"[dump]\nfile = code.bin\naddress = 0x1000\noffset=4\nlength=8\n"
	"space=N\n";
static const char src_ini[] =
	"# ETM of the M3\n[device]\nname=ETM_M\nclass=trace_source\n"
	"type=ETM3.4\nlocation=address:0xE0041000\n"
	"[regs]\nETMCR = 0x1000\nETMIDR(0x079)=1090581040\n"
	"ETMCCER ( id:0x7A ) = 0x0\nETMTRACEIDR(id:0x80,size:32)=0x22\n";
static const char trace_ini[] =
	"[trace_buffers]\nbuffers = buf\n[buf]\nname=TPIU\n"
	"file=a.bin, b.bin\nformat=coresight\n"
	"[core_trace_sources]\nm3=@address:0xE0041000\n";

static int make_snapshot(struct tmpdir *t)
{
	snprintf(t->path, sizeof(t->path), "/tmp/etm-snap-XXXXXX");
	if (!mkdtemp(t->path))
		return -1;
	if (put(t, "snapshot.ini", top_ini) || put(t, "core.ini", core_ini) ||
	    put(t, "src.ini", src_ini) || put(t, "trace.ini", trace_ini) ||
	    put(t, "code.bin", "0123456789abcdef"))
		return -1;
	return 0;
}

static void cleanup(struct tmpdir *t)
{
	static const char *const f[] = { "snapshot.ini", "core.ini", "src.ini",
					 "trace.ini", "code.bin", "big.ini" };
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		rm(t, f[i]);
	rmdir(t->path);
}

/* Synthetic snapshot exercising the lenient syntax: spaces around '=',
 * '#' comments, decimal register values (0x4100F230 = 0x41000000 + 0xF230 =
 * 1090519040 + 62000 = 1090581040), '@'
 * location references, no [source_buffers] with a single buffer, a
 * Cortex-M core (-> ETM_CFG_M_PROFILE), a two-file buffer. */
static void snap_synthetic(void)
{
	struct tmpdir t;
	struct etm_snapshot *s;
	struct etm_image *img;
	const struct etm_snap_source *e;
	char err[512];
	uint8_t b[8];

	ET_EQ(make_snapshot(&t), 0);
	ET_EQ(etm_snapshot_load(&s, t.path, err, sizeof(err)), 0);
	ET_EQ(s->nsources, 1);
	e = etm_snapshot_find(s, 0x22);
	ET_CHECK(e);
	ET_EQ(e->cfg.protocol, etm_proto_etmv3);
	ET_EQ(e->cfg.etmcr, 0x1000);
	ET_EQ(e->cfg.etmidr, 0x4100F230);
	ET_EQ(e->cfg.flags, ETM_CFG_M_PROFILE);
	ET_CHECK(streq(e->core, "m3"));
	ET_CHECK(streq(e->buffer, "TPIU"));
	ET_EQ(s->buffers[0].nfiles, 2);
	ET_CHECK(ends_with(s->buffers[0].files[1], "/b.bin"));
	ET_EQ(e->ndumps, 1);
	ET_EQ(e->dumps[0].space, etm_space_nonsecure);
	/* file offset 4, length 8 -> bytes "456789ab" at 0x1000 */
	img = etm_image_alloc();
	ET_CHECK(img);
	ET_EQ(etm_snapshot_add_memory(e, img, err, sizeof(err)), 0);
	ET_EQ(etm_image_read(img, etm_space_nonsecure, 0x1000, b, 8), 8);
	ET_CHECK(!memcmp(b, "456789ab", 8));
	etm_image_free(img);
	etm_snapshot_free(s);
	/* a missing dump file is reported when the memory is added */
	rm(&t, "code.bin");
	ET_EQ(etm_snapshot_load(&s, t.path, err, sizeof(err)), 0);
	img = etm_image_alloc();
	ET_EQ(etm_snapshot_add_memory(&s->sources[0], img, err, sizeof(err)),
	      -etme_io);
	ET_CHECK(strstr(err, "code.bin"));
	etm_image_free(img);
	etm_snapshot_free(s);
	cleanup(&t);
}

/* Load @t after replacing @file by @text; expect @rc and @msg in err. */
static int expect_fail(struct tmpdir *t, const char *file, const char *text,
		       int rc, const char *msg)
{
	struct etm_snapshot *s = (struct etm_snapshot *)1;
	char err[512];
	int got;

	if (text && put(t, file, text))
		return 0;
	if (!text)
		rm(t, file);
	err[0] = 0;
	got = etm_snapshot_load(&s, t->path, err, sizeof(err));
	if (got != rc || s != NULL || !strstr(err, msg)) {
		fprintf(stderr, "  %s: rc %d, err '%s' (want '%s')\n", file,
			got, err, msg);
		return 0;
	}
	return 1;
}

static void snap_hostile(void)
{
	struct tmpdir t;
	char *big;
	size_t n = 20000;
	char p[512];

	ET_EQ(make_snapshot(&t), 0);
	/* snapshot.ini line 6 names src.ini */
	ET_CHECK(expect_fail(&t, "src.ini", NULL, -etme_io,
			     "snapshot.ini:6:"));
	ET_CHECK(expect_fail(&t, "src.ini", "[device]\nname=E\n"
					    "class=trace_source\ntype=ETM3.5\n[regs]\n"
					    "ETMCR(0x000)=0xZZ\n",
			     -etme_parse, "src.ini:6:"));
	ET_CHECK(expect_fail(&t, "src.ini", "[device]\nname=E\n"
					    "class=trace_source\ntype=ETM3.5\n[regs]\n"
					    "ETMTRACEIDR=0x100000010\n",
			     -etme_parse,
			     "src.ini:6:"));
	ET_CHECK(expect_fail(&t, "src.ini", "\x7f"
					    "ELF\x01\x02\x00\x00\x11",
			     -etme_parse, "src.ini"));
	ET_CHECK(expect_fail(&t, "src.ini", "[device]\nname=E\nthis is junk\n",
			     -etme_parse, "src.ini:3:"));
	ET_CHECK(expect_fail(&t, "src.ini", "[device]\nclass=core\n",
			     -etme_parse, "no name"));
	put(&t, "src.ini", src_ini);
	ET_CHECK(expect_fail(&t, "core.ini", "[device]\nname=m3\n[dump]\n"
					     "file=code.bin\n",
			     -etme_parse,
			     "core.ini:3: [dump] has no address"));
	ET_CHECK(expect_fail(&t, "core.ini", "[device]\nname=m3\n[dump]\n"
					     "file=code.bin\naddress=0x10 0x20\n",
			     -etme_parse,
			     "core.ini:5:"));
	put(&t, "core.ini", core_ini);
	ET_CHECK(expect_fail(&t, "trace.ini", "[trace_buffers]\nbuffers=x,y\n"
					      "[x]\nname=X\nfile=a.bin\n",
			     -etme_parse,
			     "trace.ini:2: no section [y]"));
	ET_CHECK(expect_fail(&t, "trace.ini", NULL, -etme_io,
			     "snapshot.ini:9:"));
	put(&t, "trace.ini", trace_ini);
	ET_CHECK(expect_fail(&t, "snapshot.ini", "[snapshot]\nversion=2.0\n",
			     -etme_parse, "snapshot.ini:2:"));
	put(&t, "snapshot.ini", top_ini);
	/* a huge single line */
	big = malloc(n + 1);
	ET_CHECK(big);
	memset(big, 'x', n);
	memcpy(big, "[device]\nname=", 14);
	big[n] = 0;
	ET_CHECK(expect_fail(&t, "src.ini", big, -etme_parse, "src.ini:2:"));
	free(big);
	/* an oversize file (sparse: no disk used) */
	snprintf(p, sizeof(p), "%s/big.ini", t.path);
	put(&t, "big.ini", "");
	ET_EQ(truncate(p, (off_t)ETM_INI_MAX_SIZE + 4096), 0);
	ET_CHECK(expect_fail(&t, "snapshot.ini", "[device_list]\nd=big.ini\n",
			     -etme_parse, "larger than"));
	ET_CHECK(expect_fail(&t, "snapshot.ini", NULL, -etme_io,
			     "snapshot.ini"));
	cleanup(&t);
}

int main(void)
{
	ETEST(ini_syntax);
	ETEST(ini_errors);
	ETEST(snap_tc2);
	ETEST(snap_tc2_memory);
	ETEST(snap_cov_a15);
	ETEST(snap_am243x);
	ETEST(snap_synthetic);
	ETEST(snap_hostile);
	return etest_end();
}
